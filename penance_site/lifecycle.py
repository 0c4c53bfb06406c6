"""What a web process does as it shuts down, registered by the apps that need it.

The production worker (penance_site/serving.py) runs every registered hook before it
waits for its open responses: an app holding responses that never finish by themselves
(battles' live streams) registers how to end them. The site wires no app in here: apps
register themselves in their `ready()`, so dependencies keep pointing from the apps to
the site.

>>> calls = []
>>> on_shutdown(lambda: calls.append("closed"))
>>> run_shutdown_hooks()
>>> calls
['closed']
>>> _HOOKS.clear()
"""

from __future__ import annotations

from collections.abc import Callable

_HOOKS: list[Callable[[], None]] = []


def on_shutdown(hook: Callable[[], None]) -> None:
    """Run `hook` when this process's web server shuts down."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)


def run_shutdown_hooks() -> None:
    """Every registered hook, in the order registered."""
    for hook in list(_HOOKS):
        hook()
