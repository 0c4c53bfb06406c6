"""The event store: append-only streams for every domain (docs/ARCHITECTURE.md).

- `records`: the values (streams, new and recorded events, digests); pure Python;
- `codec`: domain events to rows and back, one registry for every stream type; pure Python;
- `store`: append, read, verify, snapshots and reactions (Django, the database);
- `models`, `sql`: the tables and the triggers that keep them append-only.

It imports nothing from the apps built on it (battles, campaigns); they register
with it. This package's `__init__` stays empty of imports so that the pure modules
can be used without Django.
"""
