"""The Penance rules engine: pure Python, no Django (a test enforces it).

Everything here is deterministic and typed; randomness enters only through
`decide` in the battle engine, and every random outcome is stored in an event.
"""
