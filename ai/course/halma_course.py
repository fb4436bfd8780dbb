#!/usr/bin/env python3
"""Course-format Halma agent (USC CSCI 561 Fall 2019, homework 2), Python 3 standard library only.

Run once per move in its working directory:
    python3 halma_course.py              reads ./input.txt, writes ./output.txt
    python3 halma_course.py --selftest   checks a few built-in positions, writes nothing

input.txt:  line 1 GAME or SINGLE, line 2 BLACK or WHITE, line 3 the play time left in seconds,
            then 16 rows of 16 characters B, W or '.', row 0 first (x = column, y = row, (0,0) top-left).
output.txt: one line "E x1,y1 x2,y2" (a step), or one line "J x1,y1 x2,y2" per jump of a chain.

The move is legal under all the course's rules (see legal_moves) and greedy (see choose_move): it is the
move that most reduces the summed distance of the player's pieces to the far corner. Start improving it in
choose_move(). A malformed input.txt, or a position without any legal move, is reported on stderr with
exit status 1 and no output.txt is written.
"""

import os
import sys
from collections import deque

SIZE = 16
# The eight directions, in a fixed order (the choice never depends on it: ties are broken by squares).
DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]

# Black's camp is the top-left corner: x<=4, y<=4, x+y<=5 (rows of 5, 5, 4, 3, 2 squares).
# White's camp is its point mirror in the bottom-right corner.
BLACK_CAMP = frozenset((x, y) for x in range(5) for y in range(5) if x + y <= 5)
WHITE_CAMP = frozenset((SIZE - 1 - x, SIZE - 1 - y) for x, y in BLACK_CAMP)
CAMP = {"B": BLACK_CAMP, "W": WHITE_CAMP}
CORNER = {"B": (0, 0), "W": (SIZE - 1, SIZE - 1)}  # each side's own corner
OTHER = {"B": "W", "W": "B"}


class BadInput(Exception):
    """input.txt is not a course position: reported on stderr, exit status 1."""


# ---------------------------------------------------------------------------------------------------
# Reading input.txt


def parse_input(text):
    """Returns (mode, colour 'B' or 'W', time left in seconds, board): board[y][x] is 'B', 'W' or '.'."""
    lines = text.lstrip("\ufeff").splitlines()
    while lines and not lines[-1].strip():  # trailing blank lines are harmless
        lines.pop()
    if len(lines) != 3 + SIZE:
        raise BadInput(f"expected {3 + SIZE} lines (mode, colour, time, {SIZE} board rows), found {len(lines)}")
    mode, colour, time_left = (line.strip() for line in lines[:3])
    if mode not in ("GAME", "SINGLE"):
        raise BadInput(f"line 1 must be GAME or SINGLE, not {mode!r}")
    if colour not in ("BLACK", "WHITE"):
        raise BadInput(f"line 2 must be BLACK or WHITE, not {colour!r}")
    try:
        seconds = float(time_left)
    except ValueError:
        raise BadInput(f"line 3 must be the time left in seconds, not {time_left!r}") from None
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        raise BadInput(f"line 3 must be a finite number of seconds, not {time_left!r}")
    board = []
    for y, row in enumerate(lines[3:]):
        row = row.strip()
        if len(row) != SIZE or any(c not in "BW." for c in row):
            raise BadInput(f"board row {y} (line {y + 4}) must be {SIZE} characters B, W or '.', not {row!r}")
        board.append(row)
    return mode, colour[0], seconds, board


# ---------------------------------------------------------------------------------------------------
# The rules: every legal move of one side


def on_board(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


def all_moves(board, colour):
    """Every move by the geometry alone, as (kind 'E' or 'J', path): path is the list of squares from the
    start to the final square. One move per piece and final square; a jump chain is a shortest one."""
    occupied = {(x, y) for y in range(SIZE) for x in range(SIZE) if board[y][x] != "."}
    moves = []
    for y0 in range(SIZE):
        for x0 in range(SIZE):
            if board[y0][x0] != colour:
                continue
            start = (x0, y0)
            for dx, dy in DIRECTIONS:
                to = (x0 + dx, y0 + dy)
                if on_board(*to) and to not in occupied:
                    moves.append(("E", [start, to]))
            # Jump chains: a breadth-first search over landings from the start square. came_from holds the
            # start too, so a chain never revisits a square and never ends where it started.
            came_from = {start: None}
            queue = deque([start])
            while queue:
                x, y = queue.popleft()
                for dx, dy in DIRECTIONS:
                    over, to = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                    if on_board(*to) and over in occupied and to not in occupied and to not in came_from:
                        came_from[to] = (x, y)
                        queue.append(to)
                        path, at = [], to
                        while at is not None:
                            path.append(at)
                            at = came_from[at]
                        moves.append(("J", path[::-1]))
    return moves


def further(colour, start, end):
    """Whether end is further from the own corner than start: no nearer on either axis, further on one."""
    cx, cy = CORNER[colour]
    dx0, dy0 = abs(start[0] - cx), abs(start[1] - cy)
    dx1, dy1 = abs(end[0] - cx), abs(end[1] - cy)
    return dx1 >= dx0 and dy1 >= dy0 and (dx1 > dx0 or dy1 > dy0)


def legal_moves(board, colour):
    """The moves the course allows, as (kind, path), in the order of its priorities:
    - a piece in the goal (the opposing camp) may not end a move outside it;
    - a move that starts outside one's own camp may not end inside it;
    - while a piece is in one's own camp, one must move a camp piece out of the camp; if no such move
      exists, a camp piece may move further from the own corner (no nearer on either axis, further on at
      least one); only if neither exists is any other move allowed."""
    camp, goal = CAMP[colour], CAMP[OTHER[colour]]
    allowed = []
    for kind, path in all_moves(board, colour):
        start, end = path[0], path[-1]
        if start in goal and end not in goal:
            continue
        if start not in camp and end in camp:
            continue
        allowed.append((kind, path))
    leaving = [m for m in allowed if m[1][0] in camp and m[1][-1] not in camp]
    if leaving:
        return leaving
    away = [m for m in allowed if m[1][0] in camp and further(colour, m[1][0], m[1][-1])]
    return away or allowed


# ---------------------------------------------------------------------------------------------------
# The strategy


def choose_move(board, colour, time_left=None):
    """The greedy move as (kind, path), or None without any legal move. Start improving it here.

    Each piece's distance is its Manhattan distance to the far corner (the corner of the goal camp), whose
    lines of equal distance follow the camp's diagonal edge. The move ranks first that
      1. brings a piece into the goal camp,
      2. most reduces the summed distance (only the moving piece's distance changes),
      3. if no move reduces it: most reduces the moving piece's distance to the nearest empty goal square
         (so that the last pieces find the free squares left at the edge of the goal),
      4. moves the piece furthest behind; then a step before a jump, then the smallest squares,
    so the answer never depends on the order in which the moves were generated."""
    moves = legal_moves(board, colour)
    if not moves:
        return None
    goal = CAMP[OTHER[colour]]
    fx, fy = CORNER[OTHER[colour]]
    free_goal = [s for s in goal if board[s[1]][s[0]] == "."]

    def corner_distance(s):
        return abs(s[0] - fx) + abs(s[1] - fy)

    def free_distance(s):
        if s in goal or not free_goal:
            return 0
        return min(max(abs(s[0] - t[0]), abs(s[1] - t[1])) for t in free_goal)

    def rank(move):  # smaller is better
        kind, path = move
        start, end = path[0], path[-1]
        enters_goal = start not in goal and end in goal
        gain = corner_distance(start) - corner_distance(end)
        approach = free_distance(start) - free_distance(end) if gain <= 0 else 0
        return (not enters_goal, -max(gain, 0), -approach, -gain, -corner_distance(start), kind, start, end)

    return min(moves, key=rank)


# ---------------------------------------------------------------------------------------------------
# Writing output.txt


def format_move(kind, path):
    """The lines of output.txt: 'E x1,y1 x2,y2' for a step, one 'J x1,y1 x2,y2' per jump."""
    return "".join(f"{kind} {a[0]},{a[1]} {b[0]},{b[1]}\n" for a, b in zip(path, path[1:]))


def write_atomically(name, text):
    """Writes the whole file in one go next to its final name, then renames it into place, so a reader
    never sees half a move."""
    tmp = name + ".tmp"
    with open(tmp, "w", newline="\n") as f:
        f.write(text)
    os.replace(tmp, name)


def fail(message):
    """Reports on stderr and removes any output.txt left from an earlier move, so that no stale move is
    read as this one's; exit status 1."""
    sys.stderr.write(f"halma_course: {message}\n")
    try:
        os.remove("output.txt")
    except OSError:
        pass
    return 1


def main():
    if sys.argv[1:] == ["--selftest"]:
        selftest()
        return 0
    if sys.argv[1:]:
        sys.stderr.write("usage: python3 halma_course.py [--selftest]  (reads input.txt, writes output.txt)\n")
        return 2
    try:
        with open("input.txt", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        return fail(f"cannot read input.txt in {os.getcwd()}: {e}")
    try:
        mode, colour, time_left, board = parse_input(text)
    except BadInput as e:
        return fail(f"malformed input.txt: {e}")
    move = choose_move(board, colour, time_left)
    if move is None:
        return fail(f"{'BLACK' if colour == 'B' else 'WHITE'} has no legal move in this position")
    try:
        write_atomically("output.txt", format_move(*move))
    except OSError as e:
        return fail(f"cannot write output.txt in {os.getcwd()}: {e}")
    return 0


# ---------------------------------------------------------------------------------------------------
# Self-check: python3 halma_course.py --selftest


def check_legal(board, colour, kind, path):
    """Checks a move against the rules independently of the generator (except the camp priority, which
    needs to know which moves exist). Raises AssertionError with the reason."""
    occupied = {(x, y) for y in range(SIZE) for x in range(SIZE) if board[y][x] != "."}
    start, end = path[0], path[-1]
    assert board[start[1]][start[0]] == colour, f"{start} holds no {colour} piece"
    assert all(on_board(*s) for s in path), f"{path} leaves the board"
    assert end != start and len(set(path)) == len(path), f"{path} revisits a square"
    for a, b in zip(path, path[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        assert b not in occupied, f"{b} is occupied"
        if kind == "E":
            assert len(path) == 2 and max(abs(dx), abs(dy)) == 1, f"{a}->{b} is not a step"
        else:
            assert (abs(dx), abs(dy)) in ((2, 0), (0, 2), (2, 2)), f"{a}->{b} is not a jump"
            assert (a[0] + dx // 2, a[1] + dy // 2) in occupied, f"{a}->{b} jumps over an empty square"
    camp, goal = CAMP[colour], CAMP[OTHER[colour]]
    assert not (start in goal and end not in goal), f"{start}->{end} leaves the goal"
    assert not (start not in camp and end in camp), f"{start}->{end} re-enters the own camp"
    if any(board[y][x] == colour for (x, y) in camp):
        allowed = legal_moves(board, colour)
        if any(p[0] in camp and p[-1] not in camp for _, p in allowed):
            assert start in camp and end not in camp, f"{start}->{end} does not take a camp piece out"
        elif any(p[0] in camp and further(colour, p[0], p[-1]) for _, p in allowed):
            assert start in camp and further(colour, start, end), f"{start}->{end} is not a camp piece moving away"


def selftest():
    def empty():
        return [["."] * SIZE for _ in range(SIZE)]

    def start_board():
        b = empty()
        for x, y in BLACK_CAMP:
            b[y][x] = "B"
        for x, y in WHITE_CAMP:
            b[y][x] = "W"
        return b

    def mid_game():
        b = empty()
        for x, y in [(6, 6), (7, 7), (8, 6), (5, 9), (10, 10), (12, 13), (9, 3), (3, 11)]:
            b[y][x] = "B"
        for x, y in [(7, 6), (8, 8), (6, 9), (4, 4), (2, 2), (11, 12), (13, 5)]:
            b[y][x] = "W"
        return b

    def must_leave():
        # Black's last camp piece (4,1) can step out to (5,1); the piece at (8,8) could jump far, but the
        # camp piece must move out.
        b = empty()
        for x, y in [(4, 1), (8, 8)]:
            b[y][x] = "B"
        for x, y in [(9, 9), (11, 11), (13, 13)]:
            b[y][x] = "W"
        return b

    def further_only():
        # Black's camp piece (1,1) cannot leave the camp in one move ((2,2) and (3,3) are taken), so it
        # must move further from the corner (0,0); the piece at (8,8) must wait.
        b = empty()
        for x, y in [(1, 1), (8, 8)]:
            b[y][x] = "B"
        for x, y in [(2, 2), (3, 3), (9, 9), (11, 11)]:
            b[y][x] = "W"
        return b

    cases = [("start BLACK", start_board(), "B"), ("start WHITE", start_board(), "W"),
             ("mid-game BLACK", mid_game(), "B"), ("mid-game WHITE", mid_game(), "W"),
             ("must leave camp", must_leave(), "B"), ("further from corner", further_only(), "B")]
    for name, board, colour in cases:
        board = ["".join(row) for row in board]
        move = choose_move(board, colour)
        assert move is not None, f"{name}: no move"
        kind, path = move
        check_legal(board, colour, kind, path)
        # The output round-trips through the file format.
        lines = format_move(kind, path).splitlines()
        assert all(line.startswith(kind + " ") for line in lines) and len(lines) == len(path) - 1
        if name == "must leave camp":
            assert path[0] == (4, 1) and path[-1] not in BLACK_CAMP, f"{name}: chose {path}"
        if name == "further from corner":
            assert path[0] == (1, 1) and further("B", (1, 1), path[-1]), f"{name}: chose {path}"
        print(f"ok  {name}: {format_move(kind, path).strip().replace(chr(10), ' | ')}")
    # A malformed input is refused with a reason.
    try:
        parse_input("GAME\nBLACK\n300\n" + "." * 16 + "\n")
        raise AssertionError("a short board was accepted")
    except BadInput:
        pass
    print("selftest passed")


if __name__ == "__main__":
    sys.exit(main())
