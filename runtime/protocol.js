// Every message the runtime's parties send each other, listed once, each with its fields. Every party
// imports this file and sends through send(): a message not listed here, or with a field not listed
// for it, cannot be sent (send throws). Three channels:
//   the page (runtime/) <-> the runner (runner/runner.js, in the sandboxed frame): one MessagePort;
//   the runner <-> each worker (worker/worker.js): a private MessagePort per worker;
//   the runner and each worker also share two words of memory, where the frame is cross-origin isolated,
//   and a worker reading a file synchronously shares a buffer with the runner (the read channel, below).
// A worker's messages travel between the page and the runner as they are, in one envelope each way:
// toRunner.to carries a toWorker message (grade, run), fromRunner.from a fromWorker one.

export const MESSAGES = {
  // page -> runner
  toRunner: {
    setup: ["files", "script", "limits"], // what every worker needs: Blobs by name, the worker's script
    spawn: ["worker", "load"], // start worker (a name) and send it load (a toWorker.load without its type)
    to: ["worker", "message"], // a toWorker message (grade, run) for worker, passed on as it is
    interrupt: ["worker"], // Python raises KeyboardInterrupt where it is (isolated frames only)
    state: ["worker", "id"], // asks whether the worker took the interrupt and has left the learner's code
    end: ["worker"],
    read: ["request", "bytes", "error"], // the page's answer to a worker's read (fromRunner.read)
  },
  // runner -> page
  fromRunner: {
    hello: ["isolated"], // the runner started; whether Stop can interrupt Python
    from: ["worker", "message"], // a worker's message (fromWorker) as it sent it (a report with the runner's taken)
    error: ["worker", "message"], // a worker could not start
    state: ["id", "taken", "finishing"],
    read: ["worker", "request", "url"], // a worker reads a file synchronously: the page fetches it
    broken: ["message"], // the runner could not start (runtime/server.py's inline script posts it)
  },
  // runner -> worker (the first message, posted on the worker itself, brings the private port)
  toWorker: {
    start: ["port", "interrupt", "phase", "limits"],
    load: ["id", "indexURL", "cases", "catalogue", "snapshot", "makeSnapshot", "files", "compiled", "engine"], // engine: another exercise's archive (files.engine unless given)
    grade: ["id", "source"],
    run: ["id", "scratch", "backward"],
  },
  // worker -> runner (the runner passes all but read on to the page, as fromRunner.from)
  fromWorker: {
    progress: ["id", "step", "at"], // a step of the load, for the page's timeline
    output: ["id", "text"], // what the code printed, as it prints it
    loaded: ["id", "snapshot", "shared"], // ready; the snapshot it took, whether it shared the compiled wasm
    report: ["id", "json", "taken"], // the task's JSON; taken (the runner's): whether Python had taken an interrupt
    failed: ["id", "message", "line"], // the runtime died (line: the learner's, where Pyodide named it)
    read: ["url", "buffer"],
  },
};

// Each channel's message types by name, for receivers' switches (case FROM_WORKER.report:): a type is
// written once, here. Frozen: nothing adds one; a name not listed reads undefined and matches nothing.
const typesOf = (channel) => Object.freeze(Object.fromEntries(Object.keys(MESSAGES[channel]).map((type) => [type, type])));
export const TO_RUNNER = typesOf("toRunner");
export const FROM_RUNNER = typesOf("fromRunner");
export const TO_WORKER = typesOf("toWorker");
export const FROM_WORKER = typesOf("fromWorker");

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

// The read channel: a worker reads a file synchronously (the stdlib's lazy archives) through a growable
// SharedArrayBuffer it posts with fromWorker.read and then waits on. Its layout: two 32-bit words, then
// the body from byte 8. Word 0 is the status (WAITING until the runner answers; BYTES: the body is the
// file; ERROR: the body is why not, as UTF-8), word 1 the body's length. The runner writes, the worker reads.
const READ = { status: 0, length: 1, body: 8, waiting: 0, bytes: 1, error: 2, maxBytes: 32 * 2 ** 20, waitMs: 30_000 };
const { store, load, wait, notify } = Atomics; // bound before learner code runs, as above
const words = (buffer) => new Int32Array(buffer, 0, READ.body / 4);

// The worker's side: a buffer for its reads, made once and used again.
export const readBuffer = () => new SharedArrayBuffer(READ.body, { maxByteLength: READ.maxBytes });

// The worker's side: mark the buffer waiting, post the request (post(buffer)), block until the runner
// answers; returns the file's bytes, or throws with why not.
export function readThrough(buffer, post) {
  const head = words(buffer);
  store(head, READ.status, READ.waiting);
  post(buffer);
  wait(head, READ.status, READ.waiting, READ.waitMs);
  const status = load(head, READ.status);
  const bytes = new Uint8Array(buffer, READ.body, load(head, READ.length)).slice();
  if (status === READ.bytes) return bytes;
  throw new Error(status === READ.error ? new TextDecoder().decode(bytes) : `no answer in ${READ.waitMs / 1000} s`);
}

// The runner's side: whether a worker's buffer can carry an answer.
export const isReadBuffer = (buffer) => buffer instanceof SharedArrayBuffer && buffer.growable;

// The runner's side: answer a read with the file's bytes (an ArrayBuffer) or, failing that, error's text.
export function answerRead(buffer, bytes, error) {
  const ok = bytes instanceof ArrayBuffer;
  const body = ok ? new Uint8Array(bytes) : new TextEncoder().encode(String(error));
  const head = words(buffer);
  try {
    if (buffer.byteLength < READ.body + body.length) buffer.grow(READ.body + body.length);
    new Uint8Array(buffer, READ.body, body.length).set(body);
    store(head, READ.length, body.length);
    store(head, READ.status, ok ? READ.bytes : READ.error);
  } catch {
    store(head, READ.length, 0);
    store(head, READ.status, READ.error);
  }
  notify(head, READ.status);
}
