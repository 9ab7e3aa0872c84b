"""Benchmarks, each run from the repository's root as a module: python -m benchmarks.<name>."""
