// The first runtime, and the snapshot every task's runtime then starts from: a runtime's memory once it
// has loaded Pyodide and imported the grader, before any learner code. It is the one this browser kept
// for this build (stored-snapshot.js, checked against its digest), or one taken now by a runtime started
// in full, which then is ended without running anything else. A Retry starts from the snapshot in
// memory; where none could be taken, every runtime starts in full.

import { StoredSnapshot } from "./stored-snapshot.js";

export class FirstRuntime {
  // workers: the client's (workers.js), opened at once; kept: the page's names and storage for the snapshot
  // this browser keeps; snapshotKey: the build's, home: the playground's (the page's config); spawn({ makeSnapshot }): the
  // client's, which starts a runtime from this.snapshot (in full without one), or in full to take it.
  constructor({ workers, kept, snapshotKey, home, spawn }) {
    this.workers = workers;
    this.kept = new StoredSnapshot(kept); // the snapshot this browser keeps
    this.snapshotKey = snapshotKey;
    this.home = home; // the playground's front page (config.home): the kept snapshot's key is under it
    this.spawn = spawn;
    this.snapshot = null; // a Blob of the snapshot every task's runtime starts from
    this.startedFrom = null; // "stored" (the snapshot this browser kept), "full" or "memory" (a Retry)
  }

  // Resolves to the first runtime (a worker record, workers.js) once it can run a task.
  async load() {
    if (this.snapshot) return this.spawn().then((worker) => ((this.startedFrom = "memory"), worker)); // a Retry
    this.workers.open().catch(() => {}); // the files and the runner frame while the snapshot is read (seen by spawn)
    const key = this.kept.key(this.snapshotKey, this.home);
    this.snapshot = await this.kept.read(key);
    if (this.snapshot) {
      try {
        const worker = await this.spawn();
        this.startedFrom = "stored";
        return worker;
      } catch (err) {
        console.info(`The snapshot kept in this browser did not restore (${err.message}); starting in full.`);
        this.snapshot = null;
        await this.kept.forget();
      }
    }
    const boot = await this.spawn({ makeSnapshot: true });
    this.workers.end(boot);
    if (boot.made) {
      this.snapshot = new Blob([boot.made]);
      if (key) this.kept.keep(key, boot.made); // not awaited
    }
    const worker = await this.spawn(); // from the snapshot (in full, where none could be taken)
    this.startedFrom = "full";
    return worker;
  }
}
