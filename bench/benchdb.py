"""A throwaway database for one bench run (imported by the benches beside it).

SQLite: a file in a temporary directory. A server (PostgreSQL): `<name>_bench_<label>`,
where `<name>` is the database DATABASE_URL names (`test_bench_<label>` for
`…/test`): apart from pytest's `test_<name>`, so a concurrent test run's database is
safe from autoclobber, and apart from another user's benches when each has a database
name of its own. The events table refuses DELETE, so every run starts from a new one.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def throwaway_database(label: str) -> Iterator[str]:
    """Create, migrate and use a fresh database named for `label`; drop it on the way out.
    Call after django.setup()."""
    from django.db import connection, connections

    tmp: tempfile.TemporaryDirectory[str] | None = None
    if connection.vendor == "sqlite":
        tmp = tempfile.TemporaryDirectory(prefix=f"bench-{label}-")
        name = str(Path(tmp.name) / "bench.sqlite3")
    else:
        name = f"{connection.settings_dict['NAME']}_bench_{label}"
    connection.settings_dict.setdefault("TEST", {})["NAME"] = name
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        yield name
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(name, verbosity=0)
        if tmp is not None:
            tmp.cleanup()
