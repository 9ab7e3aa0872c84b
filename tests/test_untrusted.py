"""grade() on hostile code: output is captured and capped, nothing leaks into the next run."""

import builtins
import json
import sys
import time
import traceback

import pytest

from engine.grade import grader
from engine.learner_side import MAX_RECURSION
from engine.output import MAX_CHARS, MAX_LINES, CappedOutput, PrintedTooMuch
from engine.outputs import left_behind
from exercises.backward.seed import descriptor
from server.exercises.reference import graded_cases
from tests.support import solutions
from tests.support.seed import grade


def test_print_is_captured(cases):
    report = grade('print("hello")\nimport sys\nprint("oops", file=sys.stderr)\n' + solutions.CORRECT, cases)
    assert report["passed"]
    assert report["output"] == {"text": "hello\noops\n", "cut_chars": 0}


def test_output_is_capped_and_the_cut_is_counted(cases):
    report = grade("for i in range(20_000):\n    print(i)\n" + solutions.CORRECT, cases)
    assert report["passed"]
    text = report["output"]["text"]
    # the numbers docs/security.md promises, not the constants: a lower cap fails here
    assert text.count("\n") == 2_000 and text.startswith("0\n1\n")
    assert report["output"]["cut_chars"] == sum(len(f"{i}\n") for i in range(2_000, 20_000))


def test_long_lines_are_capped_by_size(cases):
    report = grade('print("x" * 1_000_000)\n' + solutions.CORRECT, cases)
    assert len(report["output"]["text"]) == 200_000  # as docs/security.md says
    assert report["output"]["cut_chars"] == 1_000_001 - 200_000


def test_a_flood_of_prints_in_backward_is_stopped_saying_so(cases):
    # The example: 100,000 prints in backward, on every value set (1.7 million in all). Far
    # past the cap (25,000 prints, docs/security.md says) the Check stops, saying printing took the time.
    start = time.perf_counter()
    report = grade("def backward(out):\n    for i in range(100_000):\n        print(i)\n", cases)
    assert time.perf_counter() - start < 5  # not a speed assertion: a guard against a quadratic capture
    error = report["error"]
    assert error["kind"] == "output" and error["line"] == 3, error
    assert "printed too much" in error["message"] and "what took the time" in error["message"]
    assert "Does a loop never end" not in error["message"]
    printed = 2 * 25_000  # writes past the cap: print writes the text, then the newline
    assert sum(len(f"{i}\n") for i in range(2_000, 2_000 + printed // 2)) <= report["output"]["cut_chars"]
    assert report["output"]["text"].count("\n") == 2_000
    assert grade(solutions.CORRECT, cases)["passed"] is True  # and the next Check is honest


def test_a_flood_is_25_000_prints_past_the_cap_or_2_000_000_characters(cases):
    # docs/security.md's numbers: short prints count by the print, long ones by the character.
    below = grade("for i in range(2_000 + 24_000):\n    print(0)\n" + solutions.CORRECT, cases)
    assert below["error"] is None and below["passed"] is True
    above = grade("for i in range(2_000 + 26_000):\n    print(0)\n" + solutions.CORRECT, cases)
    assert above["error"]["kind"] == "output"
    chars = grade('for i in range(9):\n    print("x" * 250_000)\n' + solutions.CORRECT, cases)
    assert chars["error"]["kind"] == "output" and "2,250,008 characters" in chars["error"]["message"]


def test_code_that_catches_the_flood_runs_on_counting(cases):
    source = (
        "try:\n    for i in range(100_000):\n        print(i)\nexcept BaseException:\n    print('caught')\n"  # noqa: E501
    )
    report = grade(source + solutions.CORRECT, cases)
    assert report["passed"] is True and report["error"] is None  # their code, their choice: it graded
    assert report["output"]["cut_chars"] > 0


def test_sys_exit_is_reported(cases):
    report = grade("import sys\nsys.exit(3)\n", cases)
    assert report["error"]["kind"] == "runtime"
    assert report["error"]["message"] == "SystemExit: 3"
    assert report["error"]["line"] == 2


def test_keyboard_interrupt_is_reported(cases):
    report = grade("def backward(out):\n    raise KeyboardInterrupt\n", cases)
    assert report["error"]["message"] == "KeyboardInterrupt" and report["error"]["line"] == 2


def test_what_stopped_code_built_is_freed_by_the_next_check_not_before_the_report(cases):
    # Freeing a list of millions of values takes seconds in the browser: the report must not wait for it.
    source = "class Big(list):\n    pass\ndef backward(out):\n    big = Big()\n    raise KeyboardInterrupt\n"
    grade(source, cases)
    (stopped,) = left_behind
    kept = [frame.f_locals.get("big") for frame, _ in traceback.walk_tb(stopped.__traceback__)]
    assert any(type(x).__name__ == "Big" for x in kept)  # still alive after the report
    grade(solutions.CORRECT, cases)
    assert left_behind == []


def test_infinite_recursion_is_a_recursion_error_at_the_learners_line(cases):
    report = grade("def backward(out):\n    backward(out)\n", cases)
    assert report["error"]["message"].startswith("RecursionError")
    assert report["error"]["line"] == 2
    trace = report["error"]["traceback"]
    assert trace.count("line 2, in backward") == 3
    assert "[Previous line repeated 9" in trace  # 990-odd more: the limit, less the grader's frames


def test_patched_builtins_do_not_leak(cases):
    patch = "import builtins\nbuiltins.round = lambda x, n=0: 0.0\nbuiltins.sorted = None\n"
    grade(patch + solutions.CORRECT, cases)
    assert round(1.5) == 2 and sorted([2, 1]) == [1, 2]
    assert grade(solutions.CORRECT, cases)["passed"]


def test_patched_grads_of_and_globals_do_not_leak(cases):
    grade("def grads_of(*a):\n    return [0]\nValue = None\nmath = None\n", cases)
    assert grade(solutions.CORRECT, cases)["passed"]


def test_replaced_stdout_is_restored(cases):
    import sys

    before = sys.stdout
    grade("import sys\nsys.stdout = None\n", cases)
    assert sys.stdout is before


def test_source_over_100_kb_is_refused_unrun(cases):
    report = grade('print("ran")\n' + "#" * 200_000, cases)
    assert report["error"]["kind"] == "syntax"
    assert "limit is 100,000" in report["error"]["message"]
    assert report["output"]["text"] == ""


def test_source_that_is_not_text_is_refused(cases):
    report = grade(b"def backward(out): pass", cases)  # type: ignore[arg-type]
    assert "must be text" in report["error"]["message"]


def test_memory_hog_is_reported(cases):
    report = grade("x = bytearray(10**15)\n", cases)
    assert report["error"]["kind"] == "runtime"
    assert report["error"]["line"] == 1


# A body that runs on every call of backward and counts the calls in the output.
COUNTED = (
    "calls = 0\ndef backward(out):\n    global calls\n    calls += 1\n    print(calls)\n"
    "    if calls == 3:\n        {}\n"
)


def test_an_interrupt_ends_the_whole_check(cases):
    report = grade(COUNTED.format("raise KeyboardInterrupt"), cases)
    assert report["output"]["text"] == "1\n2\n3\n"  # no value set, no extra graph after it
    assert report["expressions"] == [] and report["passed"] is False
    assert report["error"]["message"] == "KeyboardInterrupt" and report["error"]["line"] == 7


def test_system_exit_and_memory_error_end_the_check_too(cases):
    for raised in ("raise SystemExit(2)", "raise MemoryError", "raise GeneratorExit"):
        report = grade(COUNTED.format(raised), cases)
        assert report["output"]["text"] == "1\n2\n3\n", raised
        assert report["error"]["kind"] == "runtime" and report["error"]["line"] == 7


def test_the_page_hears_when_an_interrupt_has_left_the_learners_code(cases):
    # The page waits for the report once Python says so, and ends a runtime that never says it.
    calls = []
    report = grade(COUNTED.format("raise KeyboardInterrupt"), cases, stopping=lambda: calls.append(1))
    assert calls == [1] and report["error"]["message"] == "KeyboardInterrupt"
    caught = "try:\n            raise KeyboardInterrupt\n        except BaseException:\n            pass"
    report = grade(COUNTED.format(caught), cases, stopping=lambda: calls.append(2))
    assert calls == [1] and report["error"] is None  # caught by the learner: the grader never saw it


def test_an_ordinary_exception_ends_only_its_value_set(cases):
    report = grade(COUNTED.format("raise ValueError('only here')"), cases)
    assert report["output"]["text"].count("\n") == len(cases)  # every value set ran
    assert report["error"]["message"] == "ValueError: only here"


def test_huge_messages_are_cut_to_a_readable_length(cases):
    for place in ("module", "backward"):
        body = "raise ValueError('x' * 5_000_000)"
        source = body if place == "module" else f"def backward(out):\n    {body}\n"
        report = grade(source, cases)
        error = report["error"]
        assert error["message"].startswith("ValueError: xxx")
        assert len(error["message"]) < 2100 and "4,998,000 more characters cut" in error["message"]
        assert len(error["traceback"]) < 2400 and error["line"] == (1 if place == "module" else 2)
        assert len(json.dumps(report)) < 30_000 * len(cases)


def test_huge_tracebacks_are_cut(cases):
    # a hundred distinct frames: Python's own "repeated" folding does not shorten them
    source = "".join(f"def f{i}():\n    f{i + 1}()\n" for i in range(100)) + "def f100():\n    1 / 0\nf0()\n"
    error = grade(source, cases)["error"]
    assert "more characters cut" in error["traceback"] and len(error["traceback"]) < 2200
    assert error["line"] == 202 and error["message"] == "ZeroDivisionError: division by zero"


def test_patched_builtins_stay_on_the_learners_side(cases):
    # the grader reads the grads with the real float; the learner's helper reaches their backward
    source = (
        "import builtins\nbuiltins.float = lambda *a: 0.0\nbuiltins.helper = 1\n"
        + solutions.CORRECT.replace("out.grad = 1", "out.grad = helper")
    )
    report = grade(source, cases)
    assert report["passed"] is True, report["error"]
    assert float("2") == 2.0 and not hasattr(builtins, "helper")


def test_replaced_json_dumps_does_not_reach_the_report(cases):
    to_json = grader(json.dumps(descriptor()), json.dumps(cases))
    text = to_json(
        "import json\njson.dumps = lambda *a, **k: '{\"passed\": true}'\n" + solutions.NOT_REVERSED
    )
    json.dumps = ORIGINAL_DUMPS  # this process's json, for the tests that follow
    assert json.loads(text)["passed"] is False


ORIGINAL_DUMPS = json.dumps


def test_a_grad_too_big_for_a_float_is_the_learners_error(cases):
    source = solutions.CORRECT + "    for v in topo:\n        v.grad = 10**400\n"
    report = grade(source, cases)
    error = report["error"]
    assert error["kind"] == "runtime" and error["message"].startswith("The gradient of x1 is 1000000")
    assert "OverflowError" in error["message"]
    json.dumps(report)


def test_a_grad_that_cannot_be_printed_still_gives_a_report(cases):
    weird = (
        "class Weird:\n"
        "    def __repr__(self):\n        raise RuntimeError('no repr')\n"
        "    def __float__(self):\n        raise RuntimeError('no float')\n"
        "    def __round__(self, n):\n        return self\n"
        "    def __add__(self, other):\n        return self\n"
        "    __radd__ = __mul__ = __rmul__ = __add__\n"
    )
    report = grade(weird + solutions.CORRECT.replace("out.grad = 1", "out.grad = Weird()"), cases)
    error = report["error"]
    assert error["kind"] == "runtime" and error["line"] == 5  # their __float__, where it raised
    assert "<a Weird that cannot be printed>" in error["message"] and "no float" in error["message"]
    nodes = [n for e in report["expressions"] if e["graph"] for n in e["graph"]["nodes"]]
    assert "<a Weird that cannot be printed>" in {n["grad"] for n in nodes}
    json.dumps(report)


def test_the_recursion_limit_is_capped_and_the_error_says_so(cases):
    source = "import sys\nsys.setrecursionlimit(10**6)\ndef deep(n):\n    return deep(n + 1)\ndeep(0)\n"
    error = grade(source, cases)["error"]
    assert error["message"].startswith("RecursionError") and error["line"] == 4
    assert f"allows at most {MAX_RECURSION:,}" in error["message"] and "1,000,000" in error["message"]
    assert sys.getrecursionlimit() == LIMIT_BEFORE and sys.setrecursionlimit is REAL_SETRECURSIONLIMIT


LIMIT_BEFORE = sys.getrecursionlimit()
REAL_SETRECURSIONLIMIT = sys.setrecursionlimit


def test_a_raised_limit_within_the_cap_lets_recursion_pass_the_deep_graph(cases):
    report = grade("import sys\nsys.setrecursionlimit(1900)\n" + solutions.CORRECT, cases)
    assert all(e["passed"] for e in report["expressions"]), [e.get("error") for e in report["expressions"]]


def test_sleep_during_a_check_is_the_stepping_one_and_then_the_real_one_again(cases):
    real = time.sleep
    report = grade("import time\nprint(time.sleep.__name__)\ntime.sleep(0.05)\n" + solutions.CORRECT, cases)
    assert report["passed"] and report["output"]["text"] == "steps\n"
    assert time.sleep is real
    assert grade("import time\ntime.sleep(-1)\n", cases)["error"]["message"].startswith("ValueError")


def test_output_reaches_the_sink_as_it_is_printed(cases):
    pieces = []
    report = grade("for i in range(3000):\n    print(i)\n" + solutions.CORRECT, cases, sink=pieces.append)
    assert len(pieces) > 1  # in pieces, not all at the end
    assert "".join(pieces) == report["output"]["text"]


@pytest.mark.parametrize(
    ("line", "measure"), [("i", "lines"), ("'x' * 1000", "characters"), ("'a', 'b'", "lines")]
)
def test_the_flood_message_says_how_much_was_printed_by_the_measure_it_passed(line, measure):
    output = CappedOutput()
    printed = 0
    with pytest.raises(PrintedTooMuch) as stopped:
        for i in range(10**7):
            print(*eval(f"[{line}]", {"i": i}), file=output)  # noqa: S307 - the test's own lines
            printed += 1
    message = str(stopped.value)
    chars = output.chars + output.cut_chars
    if measure == "lines":
        assert printed <= output.lines + output.cut_lines <= printed + 1  # the line that was stopped
        assert f"{output.lines + output.cut_lines:,} lines ({chars:,} characters) so far" in message
        assert f"far past the {MAX_LINES:,} lines the page keeps" in message and chars < MAX_CHARS
    else:
        assert f"{chars:,} characters so far, far past the {MAX_CHARS:,} characters" in message
        assert chars > MAX_CHARS
    assert grade(solutions.CORRECT, graded_cases())["passed"] is True
