// The grader's start in a Pyodide runtime: the same code in the browser's worker and in
// runtime/build/trace-stdlib.mjs (which tests/runtime/test_stdlib_split.py runs under Node), so the tests load the
// grader exactly as the page does.

// Python that imports the grader (reading the archive's exercise and parsing the cases) and the scratch
// pad's runner, in the learner's language (engine/words.py): run once, before a snapshot is taken.
const GRADER = `
from json import loads
from engine.words import use
use(loads(_catalogue_json))
from engine.descriptor import archived, read
from engine.grade import grader
from engine.scratch import runner
_grade_json = grader(archived(), _cases_json)
_run_json = runner(read(archived()))
del _cases_json, _catalogue_json, grader, runner, loads, use, archived, read
`;

// A runtime restored from a snapshot has the grader imported already, but random's state frozen.
const AFTER_RESTORE = `
import sys
if "random" in sys.modules:
    sys.modules["random"].seed()
del sys
`;

// Python's entry points: grade(source, sink, stopping) and run(scratch, backward, sink, stopping),
// each returning JSON text (engine/grade.py, engine/scratch.py).
const entries = (pyodide) => ({ grade: pyodide.globals.get("_grade_json"), run: pyodide.globals.get("_run_json") });

// Import the grader with these cases, speaking the catalogue's language; returns its entry points.
export function startGrader(pyodide, cases, catalogue = null) {
  pyodide.globals.set("_cases_json", JSON.stringify(cases));
  pyodide.globals.set("_catalogue_json", JSON.stringify(catalogue));
  pyodide.runPython(GRADER);
  return entries(pyodide);
}

// The entry points of a runtime restored from a snapshot that startGrader's runtime took.
export function restoredGrader(pyodide) {
  pyodide.runPython(AFTER_RESTORE);
  return entries(pyodide);
}
