// What the runner (runner/runner.js) and its workers (worker/worker.js) tell each other through shared
// memory, defined once for both. The page's side (runtime/) reads them only through the runner.

// Written to a worker's interrupt word to stop its code: Python raises KeyboardInterrupt (signal 2,
// SIGINT, as Pyodide reads the word) at its next check, and writes 0 back when it takes it.
export const SIGINT = 2;

// How far a grade has got, written by the worker to its phase word: the runner tells the page whether
// Python is still in the learner's code or has left it for good (writing the report, or done).
export const PHASE = { running: 1, stopping: 2, reported: 3 };
