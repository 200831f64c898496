"""Real-time delivery: one subscription per room per process, one render per projection per version."""
