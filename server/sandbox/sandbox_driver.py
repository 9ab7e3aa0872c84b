"""Run inside the sandbox, never in the server: run the learner's code, hand back only its numbers.

Copied into the sandbox beside the engine archive's files (engine/, the exercise's descriptor, engine and
plugin), source.py, cases.json (the cases without their expected numbers, which the sandbox never sees)
and catalogue.json (the messages of the learner's language, or null: English). It says it started
(STARTED, before anything of the learner's runs: a sandbox that ended without it failed on the server's
side, server/sandbox/sandbox_io.py's server_fault), then runs the learner's code through engine.outputs,
the same code the browser's grader runs it with, and writes one JSON document on the result channel (the
fd given as its argument): the numbers each case got, in order, the plugin's data of each (the seed's:
its pass, for the server's diagnosis; those past TRACES_BYTES in all are left out, so the result stays
well within its limit), the error the learner's code met and what it printed. Nothing here compares or
decides: the server does (server/verify/views.py).
"""

import json
import os
import sys

STARTED = b" "  # the result channel's first byte (JSON allows space before the document)
TRACES_BYTES = 256 * 1024  # of the passes sent back, in all (the result channel holds 1 MiB: terms.Limits)


def main() -> None:
    """Run source.py on cases.json and write what each value set got on the result channel."""
    channel = int(sys.argv[1])
    write, dumps, exit_now = os.write, json.dumps, os._exit  # bound before the learner's code runs
    write(channel, STARTED)
    with open("cases.json", encoding="utf-8") as file:
        cases = json.load(file)
    with open("source.py", encoding="utf-8") as file:
        source = file.read()
    with open("catalogue.json", encoding="utf-8") as file:
        catalogue = json.load(file)
    from engine import words

    words.use(catalogue)  # its errors in the learner's language, as the browser's grader says them
    from engine.descriptor import archived, read
    from engine.outputs import compute

    result = compute(read(archived()), source, cases)
    room, kept = TRACES_BYTES, []
    for trace in result["data"]:
        room -= len(dumps(trace))
        kept.append(trace if room >= 0 else None)
    result["data"] = kept
    data = dumps(result).encode()
    while data:
        data = data[write(channel, data) :]
    exit_now(0)  # at once: nothing the learner's code left (threads, atexit, __del__) runs after


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves the script's folder out
    main()
