"""A GridArena Halma AI that runs in the page: Python, function format.

The arena calls move(request) once for each move it asks of your team. The request is the web protocol's
JSON as a dict (docs/protocol.md): "boardSize", your "pieces" (x, y, damage), your "destinations", the
"enemy" pieces, "campRule", "team", "turn", "timeLimitMs". Return the move as a dict,
{"from": {"x": 2, "y": 14}, "to": [{"x": 2, "y": 13}]}, with every landing square of a jump chain in
"to", or None for no move. print() shows in the inspector beside the request and your answer.

Variables at the top level of this file keep their values from move to move during one game, and start
afresh with the next game. This starter is legal and greedy: it moves the piece that gets nearest a free
destination. Improve it in ranked(); debug_marks() draws what it considered on the board.
"""

# The eight directions a piece can step or jump.
DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


def legal_moves(size, pieces, occupied, home, camp_rule):
    """Every legal move as (start, path): a step to an empty neighbour, or a chain of jumps (a piece
    with damage cannot jump). With the camp rule, a piece at home must stay at home."""
    for (x0, y0), damage in pieces:
        paths = []
        for dx, dy in DIRECTIONS:
            to = (x0 + dx, y0 + dy)
            if 0 <= to[0] < size and 0 <= to[1] < size and to not in occupied:
                paths.append([to])
        if damage == 0:
            reached = {(x0, y0): []}
            frontier = [(x0, y0)]
            while frontier:
                x, y = frontier.pop(0)
                for dx, dy in DIRECTIONS:
                    over, to = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                    inside = 0 <= to[0] < size and 0 <= to[1] < size
                    if inside and over in occupied and to not in occupied and to not in reached:
                        reached[to] = reached[(x, y)] + [to]
                        frontier.append(to)
                        paths.append(reached[to])
        for path in paths:
            if camp_rule and (x0, y0) in home and path[-1] not in home:
                continue
            yield (x0, y0), path


def ranked(size, pieces, destinations, enemy, camp_rule):
    """Every legal move as (rank, gain, start, path), best first: greedy, the move that brings a piece
    nearest a free destination. Improve me!"""
    occupied = {s for s, _ in pieces} | set(enemy)
    home = set(destinations)
    targets = [d for d in destinations if d not in occupied] or destinations

    def distance(s):
        if s in home:
            return 0
        return min(max(abs(s[0] - t[0]), abs(s[1] - t[1])) for t in targets)

    moves = []
    for start, path in legal_moves(size, pieces, occupied, home, camp_rule):
        gain = distance(start) - distance(path[-1])
        # Prefer a gain; then the piece furthest behind; then fixed squares so the choice is repeatable.
        rank = (-gain, -distance(start), start, path[-1])
        if start in home and path[-1] in home:
            rank = (1,) + rank[1:]  # shuffling inside the goal: a last resort
        moves.append((rank, gain, start, path))
    moves.sort(key=lambda m: m[0])  # stable: of two equal moves, the first found
    return moves


def debug_marks(moves):
    """What the arena draws on the board for this answer (docs/protocol.md, "Debug marks"): the best
    move and the next two as arrows labelled with their gains. The referee ignores it."""
    colours = ["green", "yellow", "orange"]
    marks = [
        {"from": {"x": start[0], "y": start[1]}, "to": {"x": path[-1][0], "y": path[-1][1]},
         "color": colour, "label": f"{gain:+d}"}
        for colour, (_, gain, start, path) in zip(colours, moves)
    ]
    return {"text": f"best of {len(moves)} moves: gain {moves[0][1]:+d}", "marks": marks}


def move(request):
    size = request["boardSize"]
    pieces = [((p["x"], p["y"]), p.get("damage", 0)) for p in request["pieces"]]
    destinations = [(d["x"], d["y"]) for d in request["destinations"]]
    enemy = [(e["x"], e["y"]) for e in request["enemy"]]
    moves = ranked(size, pieces, destinations, enemy, request.get("campRule", False))
    if not moves:
        print("no legal move")
        return None
    _, _, start, path = moves[0]
    print(f"turn {request.get('turn')}: {start} -> {path[-1]}")
    return {
        "from": {"x": start[0], "y": start[1]},
        "to": [{"x": x, "y": y} for x, y in path],
        "debug": debug_marks(moves),
    }
