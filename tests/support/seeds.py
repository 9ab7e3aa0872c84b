"""Seeds for the tests that draw at random: a new one each run, or the one TEST_SEED names, to replay."""

import os
import random


def drawn_seed() -> int:
    """The seed TEST_SEED names (to replay a failure), else a new one."""
    return int(os.environ.get("TEST_SEED") or random.SystemRandom().randrange(2**32))


def replay(seed: int) -> str:
    """What a failure says of its draw: the seed, and how to draw the same again."""
    return f"random seed {seed}: TEST_SEED={seed} draws the same again"
