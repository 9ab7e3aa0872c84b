"""A new copy of an exercise's engine for every run, so nothing one run patches reaches the next."""


def new_engine(exercise) -> dict:
    """Run the exercise's engine code (compiled once, engine/descriptor.py) in a new namespace; return it."""
    namespace: dict = {"__name__": "engine"}
    exec(exercise.engine_code, namespace)
    return namespace
