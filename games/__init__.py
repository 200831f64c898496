"""The match-format platform: the interface every football game of our seeds implements, its registry and
the seeded random generator they share. Nothing under ``games/`` imports Django (a test checks this)."""
