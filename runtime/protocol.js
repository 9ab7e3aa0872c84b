// Every message the runtime's parties send each other, listed once, each with its fields. Every party
// imports this file and sends through send(): a message not listed here, or with a field not listed
// for it, cannot be sent (send throws). Three channels:
//   the page (runtime/) <-> the runner (runner/runner.js, in the sandboxed frame): one MessagePort;
//   the runner <-> each worker (worker/worker.js): a private MessagePort per worker;
//   the runner and each worker also share two words of memory, where the frame is cross-origin isolated.

export const MESSAGES = {
  // page -> runner
  toRunner: {
    setup: ["files", "script", "limits"], // what every worker needs: Blobs by name, the worker's script
    spawn: ["worker", "load"], // start worker (a name) and send it load (a toWorker.load without its type)
    grade: ["worker", "id", "source"],
    run: ["worker", "id", "scratch", "backward"],
    interrupt: ["worker"], // Python raises KeyboardInterrupt where it is (isolated frames only)
    state: ["worker", "id"], // asks whether the worker took the interrupt and has left the learner's code
    end: ["worker"],
    read: ["request", "bytes", "error"], // the page's answer to a worker's read (fromRunner.read)
  },
  // runner -> page
  fromRunner: {
    hello: ["isolated"], // the runner started; whether Stop can interrupt Python
    from: ["worker", "message"], // a worker's message (fromWorker), rebuilt field by field
    error: ["worker", "message"], // a worker could not start
    state: ["id", "taken", "finishing"],
    read: ["worker", "request", "url"], // a worker reads a file synchronously: the page fetches it
    broken: ["message"], // the runner could not start (runtime/server.py's inline script posts it)
  },
  // runner -> worker (the first message, posted on the worker itself, brings the private port)
  toWorker: {
    start: ["port", "interrupt", "phase", "limits"],
    load: ["id", "indexURL", "cases", "catalogue", "snapshot", "makeSnapshot", "files", "compiled"],
    grade: ["id", "source"],
    run: ["id", "scratch", "backward"],
  },
  // worker -> runner (the runner passes all but read on to the page, as fromRunner.from)
  fromWorker: {
    progress: ["id", "step", "at"], // a step of the load, for the page's timeline
    output: ["id", "text"], // what the code printed, as it prints it
    loaded: ["id", "snapshot", "shared"], // ready; the snapshot it took, whether it shared the compiled wasm
    report: ["id", "json", "taken"], // the task's JSON; taken: whether Python had taken an interrupt
    failed: ["id", "message", "line"], // the runtime died (line: the learner's, where Pyodide named it)
    read: ["url", "buffer"],
  },
};

// Bound when this module loads, before any learner code runs: in a worker, learner code can reach and
// replace the globals (Object.keys, Array.prototype...), and a reply must still be built and posted.
const keysOf = Object.keys;
const hasOwn = Object.hasOwn;

// Build a message of this channel and type from fields, refusing anything the list does not have.
// (Index loops and captured functions only: nothing here is looked up on a prototype at call time.)
export function message(channel, type, fields = {}) {
  const listed = hasOwn(MESSAGES, channel) && hasOwn(MESSAGES[channel], type) ? MESSAGES[channel][type] : null;
  if (!listed) throw new Error(`no ${channel} message ${type}`);
  const given = keysOf(fields);
  for (let i = 0; i < given.length; i++) {
    let known = false;
    for (let j = 0; j < listed.length; j++) known = known || listed[j] === given[i];
    if (!known) throw new Error(`${channel}.${type} has no field ${given[i]}`);
  }
  const built = { type };
  for (let j = 0; j < listed.length; j++) built[listed[j]] = hasOwn(fields, listed[j]) ? fields[listed[j]] : null;
  return built;
}

// Post a message of this channel on a port or worker (not for a worker's own replies: worker.js posts
// through the postMessage it bound before learner code ran).
export function send(target, channel, type, fields, transfer = []) {
  target.postMessage(message(channel, type, fields), transfer);
}

// Written to a worker's interrupt word to stop its code: Python raises KeyboardInterrupt (signal 2,
// SIGINT, as Pyodide reads the word) at its next check, and writes 0 back when it takes it.
export const SIGINT = 2;

// How far a task has got, written by the worker to its phase word: the runner tells the page whether
// Python is still in the learner's code or has left it for good (writing the report, or done).
export const PHASE = { running: 1, stopping: 2, reported: 3 };
