"""Grid football (seed 000, Cwali 2020): the pure rules engine only, not registered as a game yet (issue 25,
step 1)."""
