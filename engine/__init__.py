"""The exercise's Value engine, its graded cases and the grader, for CPython and Pyodide alike."""
