#!/usr/bin/env python3
"""Writes the shipped HyperChess maps (docs/hyperchess.md). Run from this directory; the .map files are
committed, this only shows how they were made."""

N = 5
BACK = "Rook Knight King Knight Rook".split()
SECOND = "Bishop Knight Queen Knight Bishop".split()


def setup(x, y, z):
    """Raumschach's arrangement with the seed's pieces: White on levels z=0 and 1 near y=4, Black on
    levels z=4 and 3 near y=0; each side a back row and a row of pawns on both of its levels."""
    if z in (0, 1) and y == N - 1:
        return "W" + (BACK if z == 0 else SECOND)[x]
    if z in (0, 1) and y == N - 2:
        return "WPawn"
    if z in (N - 1, N - 2) and y == 0:
        return "B" + (BACK if z == N - 1 else SECOND)[x]
    if z in (N - 1, N - 2) and y == 1:
        return "BPawn"
    return "null"


def write(name, size, holes, piece):
    cells = [(x, y, z) for z in range(size) for y in range(size) for x in range(size)
             if (x, y, z) not in holes]
    ids = {c: i for i, c in enumerate(cells)}
    assert ids[(0, 0, 0)] == 0
    lines = [str(len(cells))]
    for c in cells:
        x, y, z = c
        links = []
        for d in [(-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]:
            links.append(str(ids.get((x + d[0], y + d[1], z + d[2]), -1)))
        lines.append("\t".join([str(ids[c])] + links + [piece(x, y, z)]))
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")


write("standard.map", N, set(), setup)
# The centre column is missing on every level, and the middle level has four more holes around it.
holes = {(2, 2, z) for z in range(N)} | {(1, 1, 2), (3, 3, 2), (1, 3, 2), (3, 1, 2)}
write("holes.map", N, holes, setup)
SMALL = {(1, 2, 0): "WKing", (0, 2, 0): "WRook", (2, 2, 0): "WKnight", (1, 1, 0): "WPawn",
         (1, 0, 2): "BKing", (2, 0, 2): "BRook", (0, 0, 2): "BKnight", (1, 1, 2): "BPawn"}
write("small.map", 3, set(), lambda x, y, z: SMALL.get((x, y, z), "null"))
