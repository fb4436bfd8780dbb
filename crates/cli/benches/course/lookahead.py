"""A simulated course agent for the queue's benchmark (crates/cli/benches/queue.sh): the kind of program
students hand in, built on the course starter (shipped beside it as halma_course.py). It looks one reply
ahead over its best few moves, keeps what it learnt between moves in a side file (pickle), and watches
its clock, with the standard library modules the public course agents use."""

import copy
import heapq
import os
import pickle
import sys
import time
from collections import Counter

import halma_course as starter

STATE = "lookahead_state.pkl"
WIDTH = 6  # moves looked at more closely


def distance_sum(board, colour):
    fx, fy = starter.CORNER[starter.OTHER[colour]]
    return sum(abs(x - fx) + abs(y - fy) for y, row in enumerate(board) for x, c in enumerate(row) if c == colour)


def apply(board, path):
    rows = [list(row) for row in board]
    (x0, y0), (x1, y1) = path[0], path[-1]
    rows[y1][x1], rows[y0][x0] = rows[y0][x0], "."
    return ["".join(row) for row in rows]


def best_reply_gain(board, colour):
    other = starter.OTHER[colour]
    before = distance_sum(board, other)
    replies = starter.legal_moves(board, other)
    if not replies:
        return 0
    return max(before - distance_sum(apply(board, path), other) for _, path in replies)


def main():
    started = time.monotonic()
    with open("input.txt") as f:
        mode, colour, time_left, board = starter.parse_input(f.read())
    try:
        with open(STATE, "rb") as f:
            state = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError):
        state = {"moves": 0, "seen": Counter()}
    moves = starter.legal_moves(board, colour)
    if not moves:
        sys.stderr.write("no legal move\n")
        return 1
    mine = distance_sum(board, colour)
    scored = [(distance_sum(apply(board, path), colour) - mine, kind, path) for kind, path in moves]
    candidates = heapq.nsmallest(WIDTH, scored)
    best = None
    for gain, kind, path in candidates:
        after = apply(copy.copy(board), path)
        key = "".join(after)
        score = gain * 2 - best_reply_gain(after, colour) + 3 * state["seen"][key]
        if best is None or (score, kind, path) < best[:3]:
            best = (score, kind, path, key)
        if time.monotonic() - started > min(1.0, time_left / 50):
            break
    _, kind, path, key = best
    state["moves"] += 1
    state["seen"][key] += 1
    with open(STATE, "wb") as f:
        pickle.dump(state, f)
    starter.write_atomically("output.txt", starter.format_move(kind, path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
