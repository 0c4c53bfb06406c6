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


# The vendor's (create, drop) statements; a database with none has no append-only guarantee,
# so migrating onto it fails rather than quietly going without.
_STATEMENTS = {
    "postgresql": (POSTGRES_CREATE, POSTGRES_DROP),
    "sqlite": (SQLITE_CREATE, SQLITE_DROP),
}


def _statements(vendor: str) -> tuple[list[str], list[str]]:
    try:
        return _STATEMENTS[vendor]
    except KeyError:
        raise NotImplementedError(
            f"no append-only triggers for database vendor {vendor!r}"
        ) from None


def create_statements(vendor: str) -> list[str]:
    return _statements(vendor)[0]


def drop_statements(vendor: str) -> list[str]:
    return _statements(vendor)[1]


# PostgreSQL: "did this stream use the command id?" The id is looked up alone (a subquery
# behind OFFSET 0 is planned apart), then the stream checked: only the command index can
# serve it. Filtered on stream and id together, a planner without statistics (autovacuum
# off, or a stream grown since the last ANALYZE) scanned the whole stream by its version
# index instead, so every append cost more as its stream grew (docs/PERFORMANCE.md, issue
# 16). Used by the append function and by store._lock_and_read_head.
COMMAND_USED_PG = (
    "EXISTS (SELECT 1 FROM (SELECT e.stream_type, e.stream_id FROM {table} e "
    "WHERE e.command_id = {command_id} OFFSET 0) used "
    "WHERE used.stream_type = {stream_type} AND used.stream_id = {stream_id})"
)


def command_used_pg(command_id: str, stream_type: str, stream_id: str) -> str:
    return COMMAND_USED_PG.format(
        table=TABLE, command_id=command_id, stream_type=stream_type, stream_id=stream_id
    )


# PostgreSQL: the usual append in one call (migrations 0004 and 0005, store._insert_if_head).
# The lock key is the one store.py takes (`type/id`); the head of a new stream is (0, '').
APPEND_FUNCTION = "eventstore_append_if_head"
APPEND_FUNCTION_CREATE = f"""
CREATE OR REPLACE FUNCTION {APPEND_FUNCTION}(
    p_stream_type varchar, p_stream_id varchar, p_expected integer, p_previous varchar,
    p_command_id varchar, p_types varchar[], p_schema_versions smallint[],
    p_payloads jsonb[], p_metadata jsonb, p_recorded_at timestamptz, p_digests varchar[]
) RETURNS TABLE (out_position bigint, out_transaction bigint)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_stream_type || '/' || p_stream_id, 0));
    -- sql.COMMAND_USED_PG: only the command index can serve it.
    IF {command_used_pg("p_command_id", "p_stream_type", "p_stream_id")} THEN
        RETURN;
    END IF;
    IF COALESCE(
        (SELECT ROW(e.version, e.digest) FROM {TABLE} e
         WHERE e.stream_type = p_stream_type AND e.stream_id = p_stream_id
         ORDER BY e.version DESC LIMIT 1),
        ROW(0, ''::varchar)
    ) IS DISTINCT FROM ROW(p_expected, p_previous) THEN
        RETURN;
    END IF;
    RETURN QUERY
    INSERT INTO {TABLE} AS e (
        stream_type, stream_id, version, type, schema_version, payload, metadata,
        command_id, recorded_at, digest, transaction_id
    )
    SELECT p_stream_type, p_stream_id, p_expected + u.n::integer, u.t, u.sv, u.pl,
           p_metadata, p_command_id, p_recorded_at, u.d, pg_current_xact_id()::text::bigint
    FROM unnest(p_types, p_schema_versions, p_payloads, p_digests)
         WITH ORDINALITY AS u(t, sv, pl, d, n)
    RETURNING e.position, e.transaction_id;
END
$$
"""
APPEND_FUNCTION_DROP = (
    f"DROP FUNCTION IF EXISTS {APPEND_FUNCTION}(varchar, varchar, integer, varchar, varchar, "
    "varchar[], smallint[], jsonb[], jsonb, timestamptz, varchar[])"
)
