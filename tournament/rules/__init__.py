"""Pure rules of Magic Football: no Django, no I/O; randomness only from the game's seeded Rng."""
