"""Chess football (seed 003): pure rules engine only; not registered as a game yet (issue 24, first step)."""
