"""A simulated course agent for the queue's benchmark (crates/cli/benches/queue.sh): a student's program
that plays one of its three best moves at random, seeded by the position so that a game replays. It uses
the course starter (shipped beside it as halma_course.py) for the rules."""

import math
import random
import sys

import halma_course as starter


def main():
    with open("input.txt") as f:
        text = f.read()
    mode, colour, time_left, board = starter.parse_input(text)
    moves = starter.legal_moves(board, colour)
    if not moves:
        sys.stderr.write("no legal move\n")
        return 1
    fx, fy = starter.CORNER[starter.OTHER[colour]]

    def gain(move):
        (x0, y0), (x1, y1) = move[1][0], move[1][-1]
        return (abs(x0 - fx) + abs(y0 - fy)) - (abs(x1 - fx) + abs(y1 - fy))

    ranked = sorted(moves, key=lambda m: (-gain(m), m[0], m[1]))[:3]
    rng = random.Random(text)
    weights = [math.exp(-i) for i in range(len(ranked))]
    kind, path = rng.choices(ranked, weights=weights)[0]
    starter.write_atomically("output.txt", starter.format_move(kind, path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
