"""The battle engine: state, commands, events, decide and evolve (docs/BATTLES.md)."""
