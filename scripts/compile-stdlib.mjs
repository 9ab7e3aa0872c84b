// Compile Pyodide's python_stdlib.zip to bytecode with Pyodide's own Python, so the browser's
// CPython imports .pyc files instead of compiling every stdlib module from source at each start.
//
//   node scripts/compile-stdlib.mjs <in python_stdlib.zip> <out python_stdlib.zip>
//
// The .pyc files are unchecked hash-based (PEP 552): no timestamps, no source needed to load them.
// The .py sources are dropped, as pyodide-build's own py-compile does: the page shows learners only
// their own frames, so stdlib source lines are never displayed. Entries are sorted with fixed dates
// and modes, so two runs on the same input give the same bytes. Entries are stored, not deflated:
// brotli over the whole archive (made at build time, sent by WhiteNoise) is 2.9 MB against 4.5 MB
// for a deflated zip that cannot be compressed further. The static export deflates it for hosts
// that send files as they are (server/export.py).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const COMPILE = `
import importlib.util, io, os, py_compile, sys, tempfile, zipfile

def compile_zip(data):
    mount = next(p for p in sys.path if p.endswith(".zip"))  # where Pyodide puts the stdlib
    work = tempfile.mkdtemp()
    source = os.path.join(work, "module.py")
    target = source + "c"
    out = io.BytesIO()

    def add(name, payload, mode):
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = mode << 16
        info.compress_type = zipfile.ZIP_STORED  # the server compresses the whole file, far better
        archive.writestr(info, payload)

    with zipfile.ZipFile(io.BytesIO(data.to_bytes())) as original, zipfile.ZipFile(out, "w") as archive:
        for name in sorted(original.namelist()):
            if name.endswith("/"):
                add(name, b"", 0o40755)
            elif name.endswith(".py"):
                with open(source, "wb") as f:
                    f.write(original.read(name))
                py_compile.compile(
                    source, cfile=target, dfile=f"{mount}/{name}", doraise=True,
                    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                )
                with open(target, "rb") as f:
                    add(name + "c", f.read(), 0o100644)
            else:
                mode = original.getinfo(name).external_attr >> 16 or 0o100644
                add(name, original.read(name), mode)
    return out.getvalue(), importlib.util.MAGIC_NUMBER.hex()
`;

async function main([input, output]) {
  if (!input || !output) {
    console.error("usage: node scripts/compile-stdlib.mjs <in python_stdlib.zip> <out python_stdlib.zip>");
    process.exit(2);
  }
  const indexURL = dirname(fileURLToPath(import.meta.resolve("pyodide"))) + "/";
  const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: console.error });
  pyodide.runPython(COMPILE);
  const source = new Uint8Array(readFileSync(input)); // a Uint8Array, which Pyodide converts; a Buffer it refuses
  const [zip, magic] = pyodide.globals.get("compile_zip")(source).toJs();
  // Write beside the target, then rename: make never sees a half-written file.
  const partial = `${output}.partial`;
  writeFileSync(partial, zip);
  renameSync(partial, resolve(output));
  console.log(`${output}: ${zip.length} bytes, pyc magic ${magic} (Pyodide ${pyodide.version})`);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`compile-stdlib: ${err.message}`); // not the stack: it quotes Pyodide's minified source
  process.exit(1);
});
