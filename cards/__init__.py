"""Catalog data, card copies and matches."""
