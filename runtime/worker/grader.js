// The grader's start in a Pyodide runtime: the same code in the browser's worker and in
// runtime/build/trace-stdlib.mjs (which tests/runtime/test_stdlib_split.py runs under Node), so the tests load the
// grader exactly as the page does.

// Python that imports the grader's modules and the scratch pad's runner, and nothing of an exercise: run
// once, before the snapshot is taken, so that one snapshot serves every exercise of a build.
const PREPARE = `
import engine.words, engine.descriptor, engine.grade, engine.scratch
del engine
`;

// Python that loads the exercise into a runtime: the archive's exercise read and its cases parsed, in
// the learner's language (engine/words.py). Run after a restore (or after a full start), before any
// learner code; the exercise's plugin is imported now, from the archive unpacked after the restore (the
// folders' finders forget what they listed before it: importlib.invalidate_caches would import
// importlib.metadata, past the stdlib's first download).
const EXERCISE = `
import sys
for _finder in list(sys.path_importer_cache.values()):
    getattr(_finder, "invalidate_caches", lambda: None)()
from json import loads
from engine.words import use
use(loads(_catalogue_json))
from engine.descriptor import archived, read
from engine.grade import grader
from engine.scratch import runner
_grade_json = grader(archived(), _cases_json)
_run_json = runner(read(archived()))
del _cases_json, _catalogue_json, grader, runner, loads, use, archived, read, sys, _finder
`;

// A runtime restored from a snapshot has random's state frozen in it.
const AFTER_RESTORE = `
import sys
if "random" in sys.modules:
    sys.modules["random"].seed()
del sys
`;

// Python's entry points: grade(source, sink, stopping) and run(scratch, backward, sink, stopping),
// each returning JSON text (engine/grade.py, engine/scratch.py).
const entries = (pyodide) => ({ grade: pyodide.globals.get("_grade_json"), run: pyodide.globals.get("_run_json") });

// Import the grader's modules, for the snapshot every exercise's runtime starts from.
export function prepareGrader(pyodide) {
  pyodide.runPython(PREPARE);
}

// Load the exercise (its archive unpacked) with these cases, speaking the catalogue's language; returns
// its entry points.
export function loadExercise(pyodide, cases, catalogue = null) {
  pyodide.globals.set("_cases_json", JSON.stringify(cases));
  pyodide.globals.set("_catalogue_json", JSON.stringify(catalogue));
  pyodide.runPython(EXERCISE);
  return entries(pyodide);
}

// Import the grader and load the exercise: a runtime started in full (runtime/build/trace-stdlib.mjs too).
export function startGrader(pyodide, cases, catalogue = null) {
  prepareGrader(pyodide);
  return loadExercise(pyodide, cases, catalogue);
}

// The entry points of a runtime restored from a snapshot: the build's (prepareGrader's), into which the
// exercise is loaded now, or the page's own, taken once the exercise was loaded (runtime/page/
// first-runtime.js), which has them already.
export function restoredGrader(pyodide, cases, catalogue = null) {
  pyodide.runPython(AFTER_RESTORE);
  return pyodide.globals.has("_grade_json") ? entries(pyodide) : loadExercise(pyodide, cases, catalogue);
}
