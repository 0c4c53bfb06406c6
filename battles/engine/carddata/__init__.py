"""Reading the game's card database into the engine's cards (`battles.engine.cards`).

- `spelling`: the database's section names and how it spells a range;
- `card_catalogue`: the effects written by hand for the database's cards (R-ADD-57);
- `derive`: one database entry turned into a `CardDef`, through the catalogue;
- `carddb`: the whole database read at once (cards, equipment items, support units);
- `decks`: casket decks: the R-TRN-1 check of a deck of cards and the R-ADD-52 check of a
  deck against the database and a loadout, and building one;
- `coverage`: how much of the database the engine runs by itself.

Imports go one way: `spelling` <- `card_catalogue` <- `derive` <- `carddb` <- `decks`,
`coverage`; all of them import `battles.engine.cards`, which imports none of them.
"""
