"""QID -> item position of the recommender's arrays (an index into ``Recommender.item_index``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from recommender.kbgraph import ItemValueArrays
from recommender.values import QID


class ItemPositions(Mapping[QID, int]):
    """QID -> item position (index into ``Recommender.item_index``) through the KB's lookup."""

    __slots__ = ("_index_of", "_pos")

    def __init__(self, arrays: ItemValueArrays, n_nodes: int) -> None:
        self._index_of = arrays.index_of
        self._pos = np.full(n_nodes, -1, dtype=np.int64)
        self._pos[arrays.item_index] = np.arange(len(arrays.item_index))

    def get(self, qid: QID, default: Any = None) -> Any:  # type: ignore[override]
        i = self._index_of(qid) if isinstance(qid, str) else None
        if i is None or i >= len(self._pos) or self._pos[i] < 0:
            return default
        return int(self._pos[i])

    def __getitem__(self, qid: QID) -> int:
        pos = self.get(qid)
        if pos is None:
            raise KeyError(qid)
        return int(pos)

    def __len__(self) -> int:
        return int((self._pos >= 0).sum())

    def __iter__(self) -> Iterator[QID]:
        raise TypeError("item positions are looked up, not listed")


__all__ = ["ItemPositions"]
