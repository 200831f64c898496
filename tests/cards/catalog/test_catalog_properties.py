"""Property: whatever single value a hand edit puts anywhere in the data, the loader either builds a catalog
or raises ``CatalogError`` naming a data file — never a ``KeyError``/``TypeError`` from deep inside."""

from __future__ import annotations

import copy
from typing import Any

import sweep
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.catalog import Catalog, CatalogError, build_catalog
from cards.catalog.loader import FILES

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**7), 10**7)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)

# Values a careless edit is likely to produce for an existing field: near misses of the real ones.
near_misses = st.one_of(
    json_values,
    st.sampled_from(["", " ", "F001", "K01", "NED", "green", "red", "stars", "goto", "money", "start", "GK"]),
    st.integers(-2, 9),
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every location in a JSON document (object keys and list indexes)."""
    found = [prefix] if prefix else []
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _paths(value, (*prefix, index))
    return found


# The fixture is deep-copied for every example, so sharing it across examples is safe.
@settings(max_examples=sweep.examples(400), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), value=near_misses, delete=st.booleans())
def test_any_single_edit_loads_or_fails_with_a_catalog_error(
    docs: dict[str, Any], data: st.DataObject, value: Any, delete: bool
) -> None:
    file, path = data.draw(st.sampled_from([(f, p) for f in FILES for p in _paths(docs[f])]), label="target")
    edited = copy.deepcopy(docs)
    parent = edited[file]
    for step in path[:-1]:
        parent = parent[step]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    try:
        catalog = build_catalog(edited)
    except CatalogError as error:
        assert error.file in FILES
        assert str(error).startswith(f"{error.file}: ")
        assert error.code
    else:
        assert isinstance(catalog, Catalog)
        assert len(catalog.all_ids()) == 252
