// The grader's start in a Pyodide runtime: the same code in the browser's worker and in
// scripts/trace-stdlib.mjs (which tests/test_stdlib_split.py runs under Node), so the tests load the
// grader exactly as the page does.

// Python that imports the grader and parses the cases: run once, before a snapshot is taken.
const GRADER = `
from engine.grade import grader
_grade_json = grader(_cases_json)
del _cases_json, grader
`;

// A runtime restored from a snapshot has the grader imported already, but random's state frozen.
const AFTER_RESTORE = `
import sys
if "random" in sys.modules:
    sys.modules["random"].seed()
del sys
`;

// Import the grader with these cases; returns Python's (source, sink, stopping) -> the report as JSON.
export function startGrader(pyodide, cases) {
  pyodide.globals.set("_cases_json", JSON.stringify(cases));
  pyodide.runPython(GRADER);
  return pyodide.globals.get("_grade_json");
}

// The grader of a runtime restored from a snapshot that startGrader's runtime took.
export function restoredGrader(pyodide) {
  pyodide.runPython(AFTER_RESTORE);
  return pyodide.globals.get("_grade_json");
}
