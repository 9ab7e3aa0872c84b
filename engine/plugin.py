"""The plugin interface: what the playground's own exercises may add to the general grader.

An exercise is data to the grader (engine/descriptor.py); one of the playground's own may also name a
plugin, a package that goes in its engine archive beside engine/ (the seed's: exercises/backward/plugin/,
its order diagnosis, trace, order graphs and words). A teacher's exercise has none: it is graded by its
numbers and named by them (engine/named.py).

A plugin module binds PLUGIN to a Plugin: a subclass that overrides the hooks it needs. Every hook is
optional; this class's are the general grader's behaviour without a plugin.
"""

from engine.words import N_

# What an error says when the exercise's call raised outside the learner's lines, and when a number it
# gave is none ({value}: the leaf, {grad}: what it is, {error}: why it is no number).
AFTER_CALL = N_(" (raised outside your code, while the grader computed the numbers from what it made)")
NOT_A_NUMBER = N_("{value} is {grad}, which is not a number: {error}")


class Plugin:
    """The hooks, each called by the general grader at its moment (none of them decides a verdict)."""

    watch = (
        False  # whether a Check watches the engine's Values (engine/watch.py): a plugin's explain reads it
    )
    after_call = AFTER_CALL  # the two messages above, in the plugin's words
    not_a_number = NOT_A_NUMBER

    def words(self, group: dict) -> dict | None:
        """A group's {"formula", "about"} in the learner's language (engine/words.py), or None: the
        descriptor's words for it."""
        return None

    def load(self, runner) -> None:
        """After the learner's code loaded into runner.engine, before any case (the seed swaps in its own
        builder, which builds its order graphs and records what each build made)."""

    def prepare(self, runner, case: dict) -> object:
        """Before one case runs; what it returns is handed to ran() and sandbox_data() for that case."""
        return None

    def ran(self, runner, case: dict, mark: object, expression: dict, error: dict | None) -> None:
        """After one case ran and was judged: expression is its group's part of the report, its result
        last of its cases; error what its run raised, or None."""

    def explain(self, runner, expressions: dict[str, dict], side) -> None:
        """After every case: add what the plugin says of each group (the seed's diagnosis, mistake and
        picture) to its part of the report (by name); side is the Check's learner_side.LearnerSide. What
        the plugin kept of this Check's cases, it kept on runner."""

    def sandbox_data(self, runner, case: dict, mark: object) -> object:
        """What /verify's sandbox hands back beside a case's numbers (the seed's: its pass as plain data);
        JSON, or None."""
        return None

    def verdict(self, expressions: list[dict], error: dict | None) -> str | None:
        """The report's order (the seed's "right", "wrong", "error"), or None."""
        return None


NONE = Plugin()  # an exercise without a plugin
