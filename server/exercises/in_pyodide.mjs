// An exercise's own code graded in Pyodide under Node, as the learner's browser grades it: the exercise's
// engine archive unpacked, the grader started by the worker's own code (runtime/worker/grader.js) on the
// cases the server numbered in CPython, then each source graded. Run by server/exercises/pyodide.py:
//
//   node server/exercises/in_pyodide.mjs < job.json
//
// job.json: { archive: the engine archive (base64), cases: the graded cases, sources: [[name, code]...] }.
// Prints one line of JSON: { python: Pyodide's Python version, pyodide: its version, reports: {name:
// the report as the grader's JSON text, untouched (JavaScript would write 3.0 as 3)} }. Pyodide is
// node_modules/pyodide (stock, the whole stdlib).
import { loadPyodide, version } from "pyodide";
import { startGrader } from "../../runtime/worker/grader.js";

async function read(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function main() {
  const job = await read(process.stdin);
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
  pyodide.unpackArchive(new Uint8Array(Buffer.from(job.archive, "base64")), "zip");
  const { grade } = startGrader(pyodide, job.cases);
  const reports = {};
  for (const [name, source] of job.sources) reports[name] = grade(source);
  const python = pyodide.runPython("import sys; sys.version.split()[0]");
  console.log(JSON.stringify({ python, pyodide: version, reports }));
}

main().catch((err) => {
  console.error(`in_pyodide: ${err.message}`);
  process.exit(1);
});
