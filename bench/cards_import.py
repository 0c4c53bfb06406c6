"""Benchmark of the card database import (issue 5): `catalogue.cards_import` of the real file.

    .venv/bin/python bench/cards_import.py [--repeats 5] [--path FILE]
    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/cards_import.py

For SQLite, and for PostgreSQL when DATABASE_URL points at it, a child process works in a
throwaway database of its own (a temporary SQLite file; `test_bench_cards` on the
PostgreSQL server), created and migrated at the start and dropped at the end. Each repeat
empties the catalogue, then times

- the baseline: `json.load` of the file plus `carddb.read_database` (every entry derived,
  duplicates resolved, items and units read), no database at all (the part of an import
  no table can make faster);
- the first import: `json.load` plus `cards_import` into the empty catalogue;
- the re-import: the same again, every card unchanged and nothing written;

and prints the medians, the ratios to the baseline and the queries each import ran.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_PATH = ROOT.parent / "shared/data/penance-card-database-v5.15b.json"


def _baseline(path: Path) -> float:
    from battles.engine.carddata.carddb import read_database

    t0 = time.perf_counter()
    with path.open(encoding="utf-8") as f:
        document = json.load(f)
    read_database(document)
    return time.perf_counter() - t0


def child(path: Path, repeats: int) -> dict[str, Any]:
    """Run in a process whose DATABASE_URL names the backend; returns the figures."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
    import django

    django.setup()
    from django.db import connection

    from bench.benchdb import throwaway_database
    from campaigns.catalogue import cards_import
    from campaigns.models import Card, CardVersion, EquipmentItem, SupportUnit

    with throwaway_database("cards"):

        def run_import() -> tuple[float, int, Any]:
            queries = 0

            def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
                nonlocal queries
                queries += 1
                return execute(sql, params, many, context)

            with connection.execute_wrapper(count):
                t0 = time.perf_counter()
                with path.open(encoding="utf-8") as f:
                    document = json.load(f)
                report = cards_import(document=document, source=path.name)
                elapsed = time.perf_counter() - t0
            return elapsed, queries, report

        baseline, first, again = [], [], []
        q_first = q_again = 0
        report: Any = None
        _baseline(path)  # warm-up: imports, regex compilation, file cache
        for _ in range(repeats):
            CardVersion.objects.all().delete()
            Card.objects.all().delete()
            EquipmentItem.objects.all().delete()
            SupportUnit.objects.all().delete()
            baseline.append(_baseline(path))
            t, q_first, report = run_import()
            first.append(t)
            t, q_again, again_report = run_import()
            again.append(t)
            assert again_report.written == 0, "a re-import must write nothing"
        version = ""
        if connection.vendor == "postgresql":
            pg = connection.pg_version
            version = f" {pg // 10000}.{pg % 10000}"
        return {
            "backend": connection.vendor + version,
            "baseline": statistics.median(baseline),
            "first": statistics.median(first),
            "again": statistics.median(again),
            "first_all": first,
            "again_all": again,
            "queries_first": q_first,
            "queries_again": q_again,
            "entries": report.entries,
            "loaded": report.loaded,
            "automated": report.automated,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.path.is_file():
        sys.exit(f"no card database at {args.path} (pass --path)")
    if args.child:
        print(json.dumps(child(args.path, args.repeats)))
        return

    backends = {"sqlite": "sqlite:////tmp/bench-cards-unused.sqlite3"}
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        backends["postgresql"] = url
    print(
        f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
    )
    print(
        f"file: {args.path.name} ({args.path.stat().st_size / 1024:.0f} KiB), "
        f"median of {args.repeats} repeats"
    )
    for db_url in backends.values():
        env = {**os.environ, "DATABASE_URL": db_url}
        env.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-" + "0" * 40)
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                "--path",
                str(args.path),
                "--repeats",
                str(args.repeats),
            ],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r = json.loads(out.strip().splitlines()[-1])
        base = r["baseline"]
        print(
            f"{r['backend']}: {r['entries']} entries, {r['loaded']} loaded, "
            f"{r['automated']} automated\n"
            f"  baseline (json.load + read_database, no DB) {base * 1000:.1f} ms\n"
            f"  first import {r['first']:.3f} s (x{r['first'] / base:.1f} of baseline, "
            f"{r['queries_first']} queries; runs {', '.join(f'{t:.3f}' for t in r['first_all'])})\n"
            f"  re-import    {r['again']:.3f} s (x{r['again'] / base:.1f} of baseline, "
            f"{r['queries_again']} queries, nothing written; runs "
            f"{', '.join(f'{t:.3f}' for t in r['again_all'])})"
        )


if __name__ == "__main__":
    main()
