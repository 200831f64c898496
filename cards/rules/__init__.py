"""Pure match engines (no Django). The tournament uses them only through ``games.api``."""
