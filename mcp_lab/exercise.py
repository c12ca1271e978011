"""Exercise checks that say what is missing: a tutorial's exercise starts with an empty answer cell.

Spec context: the tutorials teach the 2026-07-28 features by having the reader write a resolver, a codec,
a call. The cell after each exercise checks the reader's work; before anything is written it must say, in
one line, what to write -- not fail with a NameError traceback. The reference solutions live in the
tutorial sources (notebooks/src, between nbgrader's `### BEGIN SOLUTION` / `### END SOLUTION` markers) and
the test suite runs every check against them.
"""

from __future__ import annotations

from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject

__all__ = ["ExerciseIncomplete", "exercise_needs"]


class ExerciseIncomplete(LabError):
    """The exercise's answer cell has not defined what the check needs yet."""


def exercise_needs(**names: str) -> None:
    """Raise one line naming each variable (with what it should hold) the answer cell has not defined yet.

    `mcp_lab.exercise_needs(mine="the flow of your call")` in a check cell reads the notebook's namespace.
    """
    namespace: JsonObject = {}
    try:
        from IPython import get_ipython

        shell = get_ipython()
        if shell is not None:
            namespace = shell.user_ns
    except ImportError:  # pragma: no cover - IPython is a dependency
        pass
    missing = [f"`{name}` ({what})" for name, what in names.items() if name not in namespace]
    if missing:
        raise ExerciseIncomplete(
            "not done yet: define " + ", ".join(missing) + " in the exercise cell above, then run this cell again"
        )
