"""Node.js for the tests: run a script, or an ES module given as text, and read back the JSON it prints."""

import json
import subprocess
from pathlib import Path

from server import ROOT


def node_json(*args: str | Path, stdin: str | None = None, timeout: float = 60) -> object:
    """Run `node` with these arguments in the checkout (so a bare import finds node_modules), stdin on its
    standard input; return what it printed, as JSON. A failure shows Node's stderr."""
    done = subprocess.run(
        ["node", *map(str, args)], input=stdin, cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def module_json(code: str, *args: str, timeout: float = 60, **imports: Path) -> object:
    """Run code as an ES module, each file of imports imported whole under its name (`p=PROTOCOL`:
    `import * as p from ...`), with args after it in process.argv; return what it printed, as JSON."""
    head = [f"import * as {name} from {json.dumps(path.as_uri())};" for name, path in imports.items()]
    return node_json("--input-type=module", "-e", "\n".join([*head, code]), *args, timeout=timeout)
