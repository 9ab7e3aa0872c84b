"""Run inside the sandbox, never in the server: grade the learner's source, hand back only what it got.

Copied into the sandbox beside engine/, source.py and cases.json (value sets without their expected
gradients, which the sandbox never sees). It runs engine.grade on them, the same grader as the
browser's, and writes one JSON document on the result channel (the fd given as its argument): the
gradients each value set got, in order, the error the learner's code met and what it printed.
Nothing here decides anything: the server compares the numbers with its own expected ones.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves the script's folder out


def main() -> None:
    """Grade source.py on cases.json and write what each value set got on the result channel."""
    channel = int(sys.argv[1])
    write, dumps, exit_now = os.write, json.dumps, os._exit  # bound before the learner's code runs
    with open("cases.json", encoding="utf-8") as file:
        cases = json.load(file)
    with open("source.py", encoding="utf-8") as file:
        source = file.read()
    for case in cases:
        case["expected"] = [0.0] * len(case["values"])  # unknown here: the server compares
    from engine.grade import grade

    report = grade(source, cases)
    got = [case["got"] for expr in report["expressions"] for case in expr["cases"]]
    data = dumps({"got": got, "error": report["error"], "output": report["output"]}).encode()
    while data:
        data = data[write(channel, data) :]
    exit_now(0)  # at once: nothing the learner's code left (threads, atexit, __del__) runs after


if __name__ == "__main__":
    main()
