"""The database side of "append-only": triggers that refuse UPDATE, DELETE and TRUNCATE.

Kept in one place so the migration and the tests that bypass the triggers as
the database owner (to prove `verify` catches tampering) use the same names.
"""

from __future__ import annotations

TABLE = "eventstore_event"
PG_FUNCTION = "eventstore_refuse_change"
PG_ROW_TRIGGER = "eventstore_event_no_update_delete"
PG_TRUNCATE_TRIGGER = "eventstore_event_no_truncate"
SQLITE_UPDATE_TRIGGER = "eventstore_event_no_update"
SQLITE_DELETE_TRIGGER = "eventstore_event_no_delete"

POSTGRES_CREATE = [
    f"""
    CREATE OR REPLACE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION USING
            MESSAGE = '{TABLE} is append-only: ' || TG_OP || ' refused',
            ERRCODE = 'restrict_violation';
    END
    $$
    """,
    f"""CREATE TRIGGER {PG_ROW_TRIGGER} BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()""",
    f"""CREATE TRIGGER {PG_TRUNCATE_TRIGGER} BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION {PG_FUNCTION}()""",
    # ALWAYS: the triggers fire even with session_replication_role = replica.
    f"ALTER TABLE {TABLE} ENABLE ALWAYS TRIGGER {PG_ROW_TRIGGER}",
    f"ALTER TABLE {TABLE} ENABLE ALWAYS TRIGGER {PG_TRUNCATE_TRIGGER}",
]
POSTGRES_DROP = [
    f"DROP TRIGGER IF EXISTS {PG_ROW_TRIGGER} ON {TABLE}",
    f"DROP TRIGGER IF EXISTS {PG_TRUNCATE_TRIGGER} ON {TABLE}",
    f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()",
]

SQLITE_CREATE = [
    f"""CREATE TRIGGER {SQLITE_UPDATE_TRIGGER} BEFORE UPDATE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: UPDATE refused'); END""",
    f"""CREATE TRIGGER {SQLITE_DELETE_TRIGGER} BEFORE DELETE ON {TABLE}
        BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: DELETE refused'); END""",
]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS {SQLITE_UPDATE_TRIGGER}",
    f"DROP TRIGGER IF EXISTS {SQLITE_DELETE_TRIGGER}",
]


def create_statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return POSTGRES_CREATE
    if vendor == "sqlite":
        return SQLITE_CREATE
    raise NotImplementedError(f"no append-only triggers for database vendor {vendor!r}")


def drop_statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return POSTGRES_DROP
    if vendor == "sqlite":
        return SQLITE_DROP
    raise NotImplementedError(f"no append-only triggers for database vendor {vendor!r}")
