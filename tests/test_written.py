"""The statement's worked examples say a case's numbers as the report beside them does: the server's
filters (server/page/written.py) against the page's own formatters, run in Node on the same JSON."""

import json
import re

from server import ROOT
from server.page.written import as_json, exact
from tests.support.node import module_json

# What a case holds: whole numbers as floats (mlp's counts), the grader's 9-digit rounding, the edges of
# JavaScript's layouts (exponents below 1e-6 and from 1e21), a negative zero, and inputs of every shape.
NUMBERS = [
    16.0,
    True,  # not a number a case holds, but written as the page would
    16,
    0.0,
    -0.0,
    1.5,
    -0.80140511,
    0.1 + 0.2,
    1e-6,
    1e-7,
    1.5e-7,
    123e-20,
    1e20,
    1e21,
    1.2345e21,
    2.0**53,
    5e-324,
    1.7976931348623157e308,
    -3.0,
    0.000123456789,
    100.0,
    1e15 + 0.3,
]
INPUTS = [
    3,
    [2, 1],
    [0.5, -0.3, -0.8, 0.2, 0.7, -0.4, 0.1],
    [16.0, 16.0, 1.0],
    {"nin": 2.0, "lr": 0.05},
    [[1.0, 2.5], []],
    "tanh",
    True,
    None,
]


def in_node(numbers: list, inputs: list) -> dict:
    """format.js's exact over each number, JSON.stringify over each input, all read from Python's JSON."""
    code = """
const [numbers, inputs] = JSON.parse(process.argv[1]);
console.log(JSON.stringify({ numbers: numbers.map(f.exact), inputs: inputs.map((v) => JSON.stringify(v)) }));
"""
    sent = json.dumps([numbers, inputs])
    return module_json(code, sent, f=ROOT / "static/js/shared/format.js")


def test_the_statements_numbers_are_written_as_the_reports(rng):
    drawn = [round(rng.uniform(-1, 1) * 10 ** rng.randint(-9, 22), rng.randint(0, 12)) for _ in range(300)]
    numbers = NUMBERS + drawn + [float(rng.randint(-(10**6), 10**6)) for _ in range(50)]
    said = in_node(numbers, INPUTS)
    assert [exact(x) for x in numbers] == said["numbers"]
    assert [as_json(v) for v in INPUTS] == said["inputs"]
    assert exact(16.0) == "16" and as_json([16.0, 0.5]) == "[16,0.5]"  # not Python's 16.0, [16.0, 0.5]


def test_mlps_worked_examples_say_its_counts_as_whole_numbers(client):
    page = client.get("/exercises/mlp/").get_data(as_text=True)
    examples = page[
        page.index('<table class="examples"') : page.index("</table>", page.index('class="examples"'))
    ]
    assert "layer 1 = 16, layer 2 = 20, layer 3 = 5" in examples and not re.search(r"\d\.0\b", examples)
