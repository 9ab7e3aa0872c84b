// The runtimes waiting for the client's next tasks (client.js): the next one, loaded and never used, and,
// while Checks come back to back (a script grading many submissions, a double press), spares beside it.
// Each is a Promise of a worker record (workers.js); a task takes the next one, and the pool has another
// loading for the task after it.
//
// When a task's runtime is taken less than QUICK_MS after the last one was, SPARES more runtimes are
// prepared beside the next one, each started from the snapshot and never used before. A restored runtime
// waiting holds about 100 MB (docs/security.md): the spares cost up to 200 MB more while Checks come
// quickly, and are ended once none has been taken for SPARE_IDLE_MS.

const SPARES = 2;
const QUICK_MS = 2000;
const SPARE_IDLE_MS = 10_000;

export class Pool {
  // spawn({ spare }) starts a runtime (the client's: it says whether the next one is fresh); end(worker)
  // ends one; fresh(state, worker) hears whether a spare made next is "loading" or "ready"; failed(err),
  // that the next one failed.
  constructor({ spawn, end, fresh, failed }) {
    Object.assign(this, { spawn, end, fresh, failed });
    this.next = null; // Promise of the next task's runtime, loaded and never used
    this.spares = []; // Promises of more such runtimes, while tasks come quickly
    this.settled = new WeakSet(); // the Promises that have settled: a task knows at once whether to wait
    this.preparedAt = -Infinity;
    this.sparesTimer = null;
  }

  // Make this Promise of a runtime the next one (the client's first).
  fill(runtime) {
    this.next = this.track(runtime);
    return this.next;
  }

  // Whether the next runtime has settled (loaded, or failed): a task takes it without waiting.
  get waiting() {
    return !this.settled.has(this.next);
  }

  // Have a fresh runtime loading for the next task; a failure is heard at once (failed), and seen by that
  // task. later: start it after this task, so that the task that just ended gives its report first. A
  // spare, when there is one, is next at once; tasks that come quickly keep SPARES prepared.
  prepare({ later = false } = {}) {
    const quick = performance.now() - this.preparedAt < QUICK_MS;
    this.preparedAt = performance.now();
    const spare = this.spares.shift();
    if (spare) {
      this.fresh("loading");
      spare.then((worker) => this.next === spare && !worker.ended && this.fresh("ready", worker), () => {});
    }
    this.next =
      spare ?? this.track(later ? new Promise((resolve) => setTimeout(resolve)).then(() => this.spawn()) : this.spawn());
    this.next.catch((err) => this.failed(err));
    if (!quick && !this.spares.length) return;
    while (this.spares.length < SPARES) {
      const next = this.track(this.spawn({ spare: true }));
      next.catch(() => {}); // seen by the task that takes it, as next
      this.spares.push(next);
    }
    clearTimeout(this.sparesTimer);
    this.sparesTimer = setTimeout(() => {
      for (const unused of this.spares.splice(0)) unused.then((worker) => this.end(worker), () => {});
    }, SPARE_IDLE_MS);
  }

  // Note when a runtime Promise settles, so a task knows at once whether it must wait.
  track(promise) {
    const note = () => this.settled.add(promise);
    promise.then(note, note);
    return promise;
  }
}
