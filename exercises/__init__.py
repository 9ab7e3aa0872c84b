"""The playground's own exercises, one folder each.

(docs/architecture.md, "The general grader and an exercise")
"""
