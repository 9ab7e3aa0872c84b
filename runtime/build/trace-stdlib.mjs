// Run the grader in Pyodide under Node and say which stdlib modules it needed, and from where.
//
//   node runtime/build/trace-stdlib.mjs <job.json>
//
// job.json: { pyodide: a folder of Pyodide's files, as the Makefile builds it (default: the npm
// package's, with the whole stdlib), engine: path of
// the engine archive, cases: the graded cases, sources: learner code to grade, imports: module names
// to import after }. Prints JSON: { graded: what was loaded once the sources were graded, imported:
// the same once the imports were done, reports: [{passed, error: its kind}] one per source }. What
// was loaded: { modules: {name: where} for every module in sys.modules that came from a file (where:
// "first" for the stdlib archive loaded at start, "lazy" for those fetched on demand, "other"),
// fetches: how many archives were fetched on demand }.
// tests/runtime/test_stdlib_split.py runs it on the split archive; runtime/build/stdlib-first-load.txt says how its
// list was made with it.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";
import lock from "../../static/build/pyodide-lock.json" with { type: "json" }; // the worker's own lock
import { startGrader } from "../worker/grader.js"; // the worker's own start of the grader

const RUN = `
import json, sys

def where(module):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith("/lib/python314.zip/"):
        return "first"
    if origin.startswith("/lib/python314-lazy/"):
        return "lazy"
    return "other" if "/" in origin else None

def loaded():
    modules = {name: where(m) for name, m in sorted(sys.modules.items()) if where(m)}
    return {"modules": modules, "fetches": sum(getattr(f, "fetches", 0) for f in sys.meta_path)}

reports = [json.loads(grade(source, lambda text: None, lambda: None)) for source in json.loads(_job["sources"])]
graded = loaded()
for name in json.loads(_job["imports"]):
    __import__(name)
reports = [{"passed": r["passed"], "error": r["error"] and r["error"]["kind"]} for r in reports]
json.dumps({"graded": graded, "imported": loaded(), "reports": reports})
`;

async function main(jobFile) {
  const job = JSON.parse(readFileSync(jobFile, "utf8"));
  const stock = dirname(fileURLToPath(import.meta.resolve("pyodide"))) + "/";
  const indexURL = job.pyodide ? resolve(job.pyodide) + "/" : stock;
  const pyodide = await loadPyodide({
    indexURL,
    lockFileContents: lock,
    stdout: () => {},
    stderr: (line) => console.error(line),
  });
  pyodide.unpackArchive(new Uint8Array(readFileSync(job.engine)), "zip");
  const { cases, sources = [], imports = [] } = job;
  pyodide.globals.set("grade", startGrader(pyodide, cases).grade);
  pyodide.globals.set("_job", pyodide.toPy({ sources: JSON.stringify(sources), imports: JSON.stringify(imports) }));
  console.log(pyodide.runPython(RUN));
}

main(process.argv[2]).catch((err) => {
  console.error(`trace-stdlib: ${err.message}`); // not the stack: it quotes Pyodide's minified source
  process.exit(1);
});
