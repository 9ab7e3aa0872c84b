"""grade() on hostile code: output is captured and capped, nothing leaks into the next run."""

import time

from engine.grade import grade
from engine.output import MAX_CHARS, MAX_LINES
from tests import solutions


def test_print_is_captured(cases):
    report = grade('print("hello")\nimport sys\nprint("oops", file=sys.stderr)\n' + solutions.CORRECT, cases)
    assert report["passed"]
    assert report["output"] == {"text": "hello\noops\n", "cut_chars": 0}


def test_output_is_capped_and_the_cut_is_counted(cases):
    report = grade("for i in range(100_000):\n    print(i)\n" + solutions.CORRECT, cases)
    assert report["passed"]
    text = report["output"]["text"]
    assert text.count("\n") == MAX_LINES and text.startswith("0\n1\n")
    assert report["output"]["cut_chars"] == sum(len(f"{i}\n") for i in range(MAX_LINES, 100_000))


def test_long_lines_are_capped_by_size(cases):
    report = grade('print("x" * 1_000_000)\n' + solutions.CORRECT, cases)
    assert len(report["output"]["text"]) == MAX_CHARS
    assert report["output"]["cut_chars"] == 1_000_001 - MAX_CHARS


def test_100k_prints_take_well_under_a_second(cases):
    # not a speed assertion: a guard against capturing that grows quadratically
    start = time.perf_counter()
    grade("for i in range(100_000):\n    print(i)\n", cases)
    assert time.perf_counter() - start < 5


def test_sys_exit_is_reported(cases):
    report = grade("import sys\nsys.exit(3)\n", cases)
    assert report["error"]["kind"] == "runtime"
    assert report["error"]["message"] == "SystemExit: 3"
    assert report["error"]["line"] == 2


def test_keyboard_interrupt_is_reported(cases):
    report = grade("def backward(out):\n    raise KeyboardInterrupt\n", cases)
    assert report["error"]["message"] == "KeyboardInterrupt" and report["error"]["line"] == 2


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
