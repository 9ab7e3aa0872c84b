// The interrupt buffer as the worker hands it to Pyodide.
//
// CPython for Emscripten takes a stop by reading the buffer and then writing 0 to it, two steps: a
// stop the page writes between them is wiped out and the learner's code runs on (python/cpython#157548;
// about 1 stop in 100 of a busy loop, benchmarks/interrupt_race.mjs). This view does both in one step,
// so a stop is either taken now or still there for the next look.
//
// It fits how Pyodide 314 reads the buffer (`buffer[0]`, then `buffer[0] = 0`). A CPython with the fix
// calls Atomics.exchange on the buffer itself, which refuses this view: tests/runtime/test_interrupt.py and the
// hostile-code browser tests then fail, and the plain buffer is what to hand over again.
export function takenInOneStep(buffer) {
  return {
    get 0() {
      return Atomics.exchange(buffer, 0, 0);
    },
    set 0(_value) {}, // the 0 CPython writes after reading: the read has written it already
  };
}
