// The runner frame, seen from the page: a sandboxed iframe (server/runner.py) whose opaque origin
// hosts the workers that run learner code. The page hands it the runner's code once, then talks to it
// over one MessagePort: start a worker, pass it a grade, interrupt it, ask its state, end it.
// Nothing from the frame is trusted beyond the shapes handled here; a frame that stops answering is
// removed whole, with every worker in it.

import NAMES from "../shared/names.json" with { type: "json" };

const HELLO = NAMES.runnerHello; // posted by the frame's one inline script (server/runner.py)

export class RunnerFrame {
  // Create the frame and start the runner in it; resolves once it answers, saying whether it is
  // cross-origin isolated (so Stop can interrupt Python).
  // Where the frame cannot start (a policy that does not allow its script, say), nothing runs
  // anywhere else: the load fails after waitMs, saying so.
  static async open({ document: doc, runnerCode, onRead, waitMs }) {
    const frame = document.createElement("iframe");
    frame.sandbox = "allow-scripts"; // no allow-same-origin: an opaque origin, no storage of the page's
    frame.allow = "cross-origin-isolated *";
    frame.title = "Python runner";
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.setAttribute("aria-hidden", "true");
    frame.srcdoc = doc;
    const channel = new MessageChannel();
    const hello = new Promise((resolve, reject) => {
      const listen = (event) => {
        if (event.source !== frame.contentWindow || event.data !== HELLO) return;
        removeEventListener("message", listen);
        runnerCode.then(
          (runner) => frame.contentWindow.postMessage({ runner }, "*", [channel.port2]), // its origin is opaque: "*"
          reject,
        );
      };
      addEventListener("message", listen);
      channel.port1.onmessage = ({ data }) => {
        if (data?.type === "hello") resolve(Boolean(data.isolated));
        else reject(new Error(`the runner did not start (${data?.message ?? "no answer"})`));
      };
    });
    document.documentElement.append(frame);
    let timer = null;
    const late = new Promise((_, reject) => {
      const message = "the sandboxed frame that runs your code did not start (does the page's policy allow it?)";
      timer = setTimeout(() => reject(new Error(message)), waitMs);
    });
    try {
      const isolated = await Promise.race([hello, late]);
      return new RunnerFrame(frame, channel.port1, isolated, onRead);
    } catch (err) {
      frame.remove();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  constructor(frame, port, isolated, onRead) {
    Object.assign(this, { frame, port, isolated, onRead });
    this.workers = new Map(); // name -> { onMessage, onError }
    this.states = new Map(); // id -> resolve
    this.broken = null; // the Error it was removed with
    this.nextState = 1;
    port.onmessage = ({ data }) => this.receive(data);
  }

  receive(data) {
    const worker = this.workers.get(data?.worker);
    switch (data?.type) {
      case "from":
        return worker?.onMessage(data.message);
      case "error":
        return worker?.onError(new Error(`the worker failed: ${data.message}`));
      case "state":
        this.states.get(data.id)?.({ taken: data.taken === true, finishing: data.finishing === true });
        return this.states.delete(data.id);
      case "read":
        return this.read(data);
    }
  }

  // Hand over what every worker needs: the files (Blobs), the worker's script, the limits.
  setup({ files, script, limits }) {
    this.port.postMessage({ type: "setup", files, script, limits });
  }

  // Start a worker and load it; its messages go to onMessage, a failure to start to onError.
  spawn(name, load, { onMessage, onError }) {
    if (this.broken) return onError(this.broken);
    this.workers.set(name, { onMessage, onError });
    this.port.postMessage({ type: "spawn", worker: name, load });
  }

  grade(name, id, source) {
    this.port.postMessage({ type: "grade", worker: name, id, source });
  }

  // Run the scratch pad in a worker, after the learner's backward (null: without it).
  run(name, id, scratch, backward) {
    this.port.postMessage({ type: "run", worker: name, id, scratch, backward });
  }

  interrupt(name) {
    this.port.postMessage({ type: "interrupt", worker: name });
  }

  // Whether the worker's Python took the interrupt, and whether it has left the learner's code;
  // a frame that does not answer within waitMs is removed (it may have run out of memory).
  state(name, waitMs) {
    const id = this.nextState++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.states.delete(id);
        this.remove(new Error("the runtime stopped answering"));
        resolve(null);
      }, waitMs);
      this.states.set(id, (state) => (clearTimeout(timer), resolve(state)));
      this.port.postMessage({ type: "state", worker: name, id });
    });
  }

  end(name) {
    if (!this.workers.delete(name)) return;
    this.port.postMessage({ type: "end", worker: name });
  }

  // A worker reads a file synchronously (the stdlib's lazy archives): fetch it here, where the
  // service worker keeps them, if onRead allows the URL.
  async read({ request, url }) {
    try {
      const bytes = await this.onRead(String(url));
      this.port.postMessage({ type: "read", request, bytes }, [bytes]);
    } catch (err) {
      this.port.postMessage({ type: "read", request, error: String(err?.message ?? err) });
    }
  }

  // Remove the frame and every worker in it; whatever waits on them hears error.
  remove(error) {
    if (this.broken) return;
    this.broken = error;
    this.frame.remove();
    this.port.close();
    for (const { onError } of this.workers.values()) onError(error);
    this.workers.clear();
  }
}
