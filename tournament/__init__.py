"""Rooms, participants, the board, money and the three phases."""
