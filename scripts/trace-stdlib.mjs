// Run the grader in Pyodide under Node and say which stdlib modules it needed, and from where.
//
//   node scripts/trace-stdlib.mjs <job.json>
//
// job.json: { pyodide: a folder of Pyodide's files, as the Makefile builds it (default: the npm
// package's, with the whole stdlib), engine: path of
// the engine archive, cases: the graded cases, sources: learner code to grade, imports: module names
// to import after }. Prints JSON: { graded: what was loaded once the sources were graded, imported:
// the same once the imports were done, reports: [{passed, error: its kind}] one per source }. What
// was loaded: { modules: {name: where} for every module in sys.modules that came from a file (where:
// "first" for the stdlib archive loaded at start, "lazy" for the one fetched on demand, "other"),
// fetches: how many times the second archive was fetched }.
// tests/test_stdlib_split.py runs it on the split archive; scripts/stdlib-first-load.txt says how its
// list was made with it.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const RUN = `
import json, sys

def where(module):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith("/lib/python314.zip/"):
        return "first"
    if origin.startswith("/lib/python314-lazy.zip/"):
        return "lazy"
    return "other" if "/" in origin else None

def loaded():
    modules = {name: where(m) for name, m in sorted(sys.modules.items()) if where(m)}
    return {"modules": modules, "fetches": sum(getattr(f, "fetches", 0) for f in sys.meta_path)}

from engine.grade import grader
grade = grader(_job["cases"])
reports = [json.loads(grade(source, lambda text: None, lambda: None)) for source in json.loads(_job["sources"])]
graded = loaded()
for name in json.loads(_job["imports"]):
    __import__(name)
reports = [{"passed": r["passed"], "error": r["error"] and r["error"]["kind"]} for r in reports]
json.dumps({"graded": graded, "imported": loaded(), "reports": reports})
`;

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const indexURL = job.pyodide ? resolve(job.pyodide) + "/" : dirname(fileURLToPath(import.meta.resolve("pyodide"))) + "/";
const pyodide = await loadPyodide({
  indexURL,
  lockFileContents: { info: { abi_version: JSON.parse(readFileSync(indexURL + "pyodide-lock.json")).info.abi_version }, packages: {} },
  stdout: () => {},
  stderr: (line) => console.error(line),
});
pyodide.unpackArchive(new Uint8Array(readFileSync(job.engine)), "zip");
pyodide.globals.set(
  "_job",
  pyodide.toPy({ cases: JSON.stringify(job.cases), sources: JSON.stringify(job.sources ?? []), imports: JSON.stringify(job.imports ?? []) }),
);
try {
  console.log(pyodide.runPython(RUN));
} catch (err) {
  console.error(err.message); // not the stack: it quotes Pyodide's minified source
  process.exit(1);
}
