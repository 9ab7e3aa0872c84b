// The first runtime, and the snapshots every task's runtime then starts from. The build's: a runtime's
// memory once it has loaded Pyodide and imported the grader's modules, before any exercise or learner
// code, the same for every exercise's page; it is the one this browser kept (stored-snapshot.js, checked
// against its digest), or one taken now by a runtime started in full, which then is ended unused. A
// runtime restored from it loads the page's exercise. The page's own: once the first runtime is ready, one
// more runtime restores the build's, loads the exercise, takes a snapshot and is ended unused; the
// runtimes after it restore that one, the exercise loaded already. It lives in this page's memory only.
// A Retry starts from the snapshot in memory; where none could be taken, every runtime starts in full.

import { StoredSnapshot } from "./stored-snapshot.js";

export class FirstRuntime {
  // workers: the client's (workers.js), opened at once; kept: the page's names and storage for the snapshot
  // this browser keeps; snapshotKey: the build's, home: the playground's (the page's config); spawn({
  // makeSnapshot, spare, snapshot }): the client's, which starts a runtime from snapshot (this.snapshot
  // unless given; null: in full), taking a snapshot when makeSnapshot.
  constructor({ workers, kept, snapshotKey, home, spawn }) {
    this.workers = workers;
    this.kept = new StoredSnapshot(kept); // the snapshot this browser keeps
    this.snapshotKey = snapshotKey;
    this.home = home; // the playground's front page (config.home): the kept snapshot's key is under it
    this.spawn = spawn;
    this.snapshot = null; // a Blob of the snapshot every task's runtime starts from: the build's, then the page's
    this.ownSnapshot = null; // Promise of the page's own snapshot taken (or not): once the first runtime is ready
    this.startedFrom = null; // "stored" (the snapshot this browser kept), "full" or "memory" (a Retry)
    this.build = null; // the build's snapshot (a Blob), the same for every exercise: another exercise starts from it
    this.exercise = 0; // which exercise of this page's life the snapshots are for: one moved away from takes none
  }

  // The page moved to another exercise (client.js switchTo): runtimes restore the build's snapshot and
  // load it, until its own snapshot is taken (takeOwn). Returns the exercise's number, for takeOwn.
  switched() {
    this.exercise += 1;
    this.snapshot = this.build;
    return this.exercise;
  }

  // Resolves to the first runtime (a worker record, workers.js) once it can run a task.
  async load() {
    if (this.snapshot) return this.spawn().then((worker) => ((this.startedFrom = "memory"), worker)); // a Retry
    this.workers.open().catch(() => {}); // the files and the runner frame while the snapshot is read (seen by spawn)
    const key = this.kept.key(this.snapshotKey, this.home);
    this.snapshot = await this.kept.read(key);
    this.build = this.snapshot;
    let worker = null;
    if (this.snapshot) {
      try {
        worker = await this.spawn();
        this.startedFrom = "stored";
      } catch (err) {
        console.info(`The snapshot kept in this browser did not restore (${err.message}); starting in full.`);
        this.snapshot = this.build = null;
        await this.kept.forget();
      }
    }
    if (!worker) {
      const boot = await this.spawn({ makeSnapshot: true, snapshot: null });
      this.workers.end(boot);
      if (boot.made) {
        this.snapshot = this.build = new Blob([boot.made]);
        if (key) this.kept.keep(key, boot.made); // not awaited
      }
      worker = await this.spawn(); // from the snapshot (in full, where none could be taken)
      this.startedFrom = "full";
    }
    this.ownSnapshot ??= this.takeOwn(); // not awaited: while the learner reads
    return worker;
  }

  // Take the page's own snapshot, its exercise loaded, from the build's; where it cannot be taken, the
  // runtimes go on restoring the build's and loading the exercise.
  // exercise: the one it is taken for; where the page has moved on to another since, it is not kept.
  async takeOwn(exercise = this.exercise) {
    if (!this.snapshot) return;
    try {
      const maker = await this.spawn({ makeSnapshot: true, spare: true });
      this.workers.end(maker);
      if (maker.made && exercise === this.exercise) this.snapshot = new Blob([maker.made]);
    } catch (err) {
      console.info(`No snapshot of this exercise (${err.message}): each runtime loads it after its restore.`);
    }
  }
}
