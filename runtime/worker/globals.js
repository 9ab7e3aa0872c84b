// The browser globals the grading worker changes, all of them here: each is set up before Pyodide loads
// and before any learner code runs. Learner code reaches these globals through `import js`; nothing
// the reply path needs is looked up through them (worker.js captures what it needs first).

// Cap the runtime's memory. Past it, Python raises MemoryError at once, where the browser would
// otherwise grow the heap by gigabytes, slowly, or die trying.
export function capMemory(maxBytes) {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    if (this.buffer.byteLength + pages * 65536 > maxBytes) throw new RangeError("over the memory limit");
    return grow.call(this, pages);
  };
}

// While the runtime loads, Pyodide's fetches of its own files (the wasm, the stdlib) are answered
// from the Blobs the page handed over: the frame's opaque origin has no cache of its own. Returns
// the function that puts fetch back.
export function serveFiles(indexURL, files) {
  const original = self.fetch;
  const types = { "pyodide.asm.wasm": "application/wasm" };
  self.fetch = (input, init) => {
    const url = String(input?.url ?? input);
    const name = url.startsWith(indexURL) ? url.slice(indexURL.length) : null;
    if (name && files[name]) {
      const headers = { "Content-Type": types[name] ?? "application/octet-stream" };
      return Promise.resolve(new Response(files[name], { headers }));
    }
    return original(input, init);
  };
  return () => (self.fetch = original);
}

// Pyodide compiles its wasm with WebAssembly.instantiateStreaming. The runner compiles it once, as soon as
// it has the files (runner.js), and every worker instantiates that module instead of compiling its own
// (where the runner could not, each compiles its own). Workers of one runner then share the machine code,
// including what V8 has optimised since, so a Check runs on fast code from the start (a fresh module per
// worker ran the grader about 4x slower). Returns { shared }: whether this worker's was the runner's.
export function shareCompiled(compiled, onInstantiated) {
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (compiled) {
      Promise.resolve(source).catch(() => {}); // not needed: the module is compiled already
      const instance = await WebAssembly.instantiate(compiled, imports);
      onInstantiated();
      return { instance, module: compiled };
    }
    const result = await instantiateStreaming(source, imports);
    onInstantiated();
    return result;
  };
  return { shared: compiled !== null };
}

export const scriptUrl = (blob) => URL.createObjectURL(new Blob([blob], { type: "text/javascript" }));

// Pyodide's loader refuses classic workers, which it tells by importScripts working (with a data: URL,
// which the policy refuses anyway, reporting a violation each time). This is a worker all the same,
// and Pyodide's scripts are imported, not loaded with importScripts.
export async function loaderOfPyodide(blob) {
  const { importScripts } = self;
  self.importScripts = undefined;
  try {
    return await import(scriptUrl(blob));
  } finally {
    self.importScripts = importScripts;
  }
}

// Learner code can reach this scope through `import js`; closing the worker would leave the runner
// waiting for a reply that never comes, so refuse it with a clear message instead.
export function refuseClose() {
  self.close = () => {
    throw new Error("close() is not allowed in the playground's worker");
  };
}

// A failed load leaves some of Pyodide's parallel fetches rejected with no one awaiting them;
// the load's own error already says what failed, so keep these off the console as errors.
export function quietLoadRejections() {
  self.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    console.warn("worker:", event.reason?.message ?? event.reason);
  });
}
