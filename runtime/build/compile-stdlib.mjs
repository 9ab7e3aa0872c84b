// Split Pyodide's python_stdlib.zip and compile it to bytecode with Pyodide's own Python: the
// modules that start-up, the grader and a learner's likely imports need, fetched at the first visit
// (python_stdlib.zip, where Pyodide looks for it), and the rest, one archive per top-level module or
// package in a folder named by a hash of them all (python_stdlib_lazy-<hash>/<name>.zip), each
// fetched the first time a module of it is imported (runtime/worker/lazy_stdlib.py, installed by a
// sitecustomize in the first archive, does that). runtime/build/stdlib-first-load.txt lists the first.
//
//   node runtime/build/compile-stdlib.mjs [--source] <in python_stdlib.zip> <first-load list> <out dir>
//
// The .pyc files are unchecked hash-based (PEP 552): no timestamps, no source needed to load them.
// The .py sources are dropped, as pyodide-build's own py-compile does: the page shows learners only
// their own frames, so stdlib source lines are never displayed. --source keeps the .py files instead
// (to compare: fewer bytes, slower imports). Entries are sorted with fixed dates and modes, so two
// runs on the same input give the same bytes. Entries are stored, not deflated: brotli over the
// whole archive (made at build time, sent by WhiteNoise) does far better than a deflated zip,
// which cannot be compressed further. The static export deflates them for hosts that send files as
// they are (server/export/site.py).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const SPLIT = `
import hashlib, importlib.util, io, os, py_compile, sys, tempfile, zipfile

def module_of(name):
    """The dotted module a .py file of the archive is, or None for other files."""
    if not name.endswith(".py"):
        return None
    parts = name[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

def split_zip(data, first_load, finder, keep_source):
    mount = next(p for p in sys.path if p.endswith(".zip"))  # where Pyodide puts the stdlib
    wanted = {line.strip() for line in first_load.splitlines() if line.strip() and not line.startswith("#")}
    work = tempfile.mkdtemp()
    source, target = os.path.join(work, "module.py"), os.path.join(work, "module.pyc")

    def compiled(name, payload):
        if keep_source or not name.endswith(".py"):
            return name, payload
        with open(source, "wb") as f:
            f.write(payload)
        py_compile.compile(
            source, cfile=target, dfile=f"{mount}/{name}", doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
        with open(target, "rb") as f:
            return name + "c", f.read()

    def archive(files):  # files: {name: (payload, mode)}
        folders = {name[: i + 1] for name in files for i, c in enumerate(name) if c == "/"}
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for name in sorted(folders | set(files)):
                payload, mode = files.get(name, (b"", 0o40755))
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = mode << 16
                info.compress_type = zipfile.ZIP_STORED  # the server compresses the whole file, far better
                z.writestr(info, payload)
        return out.getvalue()

    first, lazy, found = {}, {}, set()
    with zipfile.ZipFile(io.BytesIO(data.to_bytes())) as original:
        for info in original.infolist():
            if info.is_dir():
                continue
            name, payload = compiled(info.filename, original.read(info))
            module = module_of(info.filename)
            found.add(module)
            (first if module in wanted else lazy)[name] = (payload, info.external_attr >> 16 or 0o100644)
    if unknown := wanted - found:
        raise ValueError(f"not in the stdlib archive: {', '.join(sorted(unknown))}")
    groups = {}  # the rest, by top-level module or package: a learner fetches only what they import
    for name, entry in lazy.items():
        groups.setdefault(name.split("/")[0].split(".")[0], {})[name] = entry
    archives = {top: archive(files) for top, files in sorted(groups.items())}
    digest = hashlib.sha256()
    for top, data in archives.items():
        digest.update(top.encode() + b"\\0" + data)
    folder = f"python_stdlib_lazy-{digest.hexdigest()[:12]}"
    modules = sorted(filter(None, map(module_of, (n.removesuffix("c") for n in lazy))))
    install = f"from _lazy_stdlib import install\\n\\ninstall({folder!r}, {modules!r})\\n"
    for name, text in (("_lazy_stdlib.py", finder), ("sitecustomize.py", install)):
        name, payload = compiled(name, text.encode())
        first[name] = (payload, 0o100644)
    return archive(first), archives, folder, importlib.util.MAGIC_NUMBER.hex()
`;

function write(path, bytes, quiet = false) {
  // Write beside the target, then rename: make never sees a half-written file.
  writeFileSync(`${path}.partial`, bytes);
  renameSync(`${path}.partial`, path);
  if (!quiet) console.log(`${path}: ${bytes.length} bytes`);
}

async function main(args) {
  const keepSource = args[0] === "--source";
  const [input, list, outDir] = keepSource ? args.slice(1) : args;
  if (!input || !list || !outDir) {
    console.error("usage: node runtime/build/compile-stdlib.mjs [--source] <in python_stdlib.zip> <first-load list> <out dir>");
    process.exit(2);
  }
  const indexURL = dirname(fileURLToPath(import.meta.resolve("pyodide"))) + "/";
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: console.error });
  pyodide.runPython(SPLIT);
  const finder = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "../worker/lazy_stdlib.py"), "utf8");
  const source = new Uint8Array(readFileSync(input)); // a Uint8Array, which Pyodide converts; a Buffer it refuses
  const split = pyodide.globals.get("split_zip");
  const result = split(source, readFileSync(list, "utf8"), finder, keepSource);
  const [first, rest, folder, magic] = result.toJs({ dict_converter: Object.fromEntries });
  write(join(outDir, "python_stdlib.zip"), first);
  mkdirSync(join(outDir, folder));
  const sizes = Object.entries(rest).map(([top, bytes]) => (write(join(outDir, folder, `${top}.zip`), bytes, true), bytes.length));
  console.log(`${join(outDir, folder)}/: ${sizes.length} archives, ${sizes.reduce((a, b) => a + b)} bytes`);
  write(join(outDir, ".stdlib-split.json"), JSON.stringify({ lazy: folder }) + "\n", true); // the server reads the name
  console.log(keepSource ? "kept as source" : `pyc magic ${magic} (Pyodide ${pyodide.version})`);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`compile-stdlib: ${err.message}`); // not the stack: it quotes Pyodide's minified source
  process.exit(1);
});
