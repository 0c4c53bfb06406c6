"""A battle no side can ever win by damage: the engine detects it, the GM ends it.

R-ADD-40 (docs/RULINGS-ADDENDA.md): a stalemate is declared when, for every casket
still in the battle,

- its hand is full (R-TRN-6 draws nothing at the end of its turn) and holds only
  cards it can never play: reactive cards, which are played only in answer to an
  attack (R-REA-1), and weapons of a destroyed arm (seed 002 "Component Destroyed":
  no Primary Weapon cards without the right arm, no Secondary without the left,
  R-DMG-7), so no card ever leaves it and no attack is ever made;
- its Heat is below 5, so no strain roll can damage it (R-TRN-4);

and no terrain of the board adds Heat at the end of a turn. Then no casket can lose a
card, no HP changes, no pilot is wounded, and no side can be defeated: the battle can
only end by a withdrawal or the GM (R-TRN-9). The engine never ends it by itself: it
says so (`stalemate`), and the GM confirms with `end_battle` and side null, a draw.

>>> from battles.engine.demo import demo_setup
>>> from battles.engine.battle.decide import create
>>> from battles.engine.battle.evolve import replay
>>> stalemate(replay(create("b", demo_setup(seed=3)))) is None
True
"""

from __future__ import annotations

from .state import HAND_SIZE, STRAIN_HEAT, BattleState


def stalemate(state: BattleState) -> str | None:
    """Why no side can ever damage another (R-ADD-40), or None when one still may."""
    if state.over or state.phase == "setup":
        return None
    if any(kind.heat_end_of_turn > 0 for kind in state.board.kinds.values()):
        return None
    standing = [c for c in state.seats if c.in_battle]
    if len({c.side for c in standing}) < 2:
        return None
    for c in standing:
        if len(c.hand) < HAND_SIZE or c.heat >= STRAIN_HEAT:
            return None
        if any(_playable(state.card(x).kind, c.destroyed) for x in c.hand):
            return None
    return (
        "stalemate: every casket's hand is full of cards it can never play and no casket "
        "runs hot, so no side can ever damage another (R-ADD-40)"
    )


def _playable(kind: str, destroyed: tuple[str, ...]) -> bool:
    """Whether a card of this kind may still be played in its owner's own turn."""
    if kind == "reactive":
        return False
    if kind == "primary_weapon" and "right_arm" in destroyed:
        return False
    return not (kind == "secondary" and "left_arm" in destroyed)
