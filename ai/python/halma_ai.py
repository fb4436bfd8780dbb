#!/usr/bin/env python3
"""GridArena Halma starter AI in Python 3 (standard library only).

Run:   python3 ai/python/halma_ai.py [--port 8001] [--host 127.0.0.1] [--quiet]
Then:  choose "Web AI (URL)" for a team on the arena page and enter http://127.0.0.1:8001/

The referee POSTs a request (docs/protocol.md) as JSON with Content-Type: text/plain, and this server
answers with one move: {"from":{"x":..,"y":..},"to":[{"x":..,"y":..},...]}.

The move is always legal (the rules are docs/halma.md) and greedy, like the course's sample AIs: the one
that brings a piece nearest to a free destination square. Ties are broken the same way every time, so the
PHP starter (ai/php/index.php) gives exactly the same answers. Start improving it in ranked_moves(); debug_marks() draws its thinking on the board.
"""

import argparse
import json
import sys
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The eight directions, in the order both starters search them.
DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
MAX_BODY_BYTES = 1024 * 1024  # requests are a few KiB; refuse anything absurd
MAX_BOARD_SIZE = 256  # this starter's own limit (the arena uses 4 to 32)


class BadRequest(Exception):
    """The request is not a Halma request: answered with HTTP 400 and this message."""


# ---------------------------------------------------------------------------------------------------
# Reading the request


def integer(value, what):
    # bool is an int in Python, but true is not a coordinate.
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(f"{what} must be an integer")
    return value


def square(value, what, size):
    if not isinstance(value, dict):
        raise BadRequest(f'{what} must be an object {{"x":..,"y":..}}')
    if "x" not in value or "y" not in value:
        raise BadRequest(f'{what} needs both "x" and "y"')
    x, y = integer(value["x"], f"{what}.x"), integer(value["y"], f"{what}.y")
    if not (0 <= x < size and 0 <= y < size):
        raise BadRequest(f"{what} ({x},{y}) is off the {size}x{size} board")
    return (x, y)


def square_list(request, field, size, with_damage):
    """A list of squares, or of pieces (square, damage) when with_damage."""
    items = request.get(field)
    if not isinstance(items, list):
        raise BadRequest(f'"{field}" must be an array')
    out = []
    for i, item in enumerate(items):
        s = square(item, f"{field}[{i}]", size)
        if with_damage:
            damage = integer(item.get("damage", 0), f"{field}[{i}].damage")
            if damage < 0:
                raise BadRequest(f"{field}[{i}].damage must not be negative")
            out.append((s, damage))
        else:
            out.append(s)
    return out


def read_request(request):
    """Checks the request's shape; returns (size, my pieces, my destinations, enemy squares, camp rule)."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    if "boardSize" not in request:
        raise BadRequest('the request has no "boardSize"')
    size = integer(request["boardSize"], "boardSize")
    if not 1 <= size <= MAX_BOARD_SIZE:
        raise BadRequest(f"boardSize {size} is not between 1 and {MAX_BOARD_SIZE}")
    pieces = square_list(request, "pieces", size, with_damage=True)
    destinations = square_list(request, "destinations", size, with_damage=False)
    enemy = [s for s, _ in square_list(request, "enemy", size, with_damage=True)]
    square_list(request, "enemydestinations", size, with_damage=False)  # checked, not used
    camp_rule = request.get("campRule")
    if camp_rule is None:  # older referees: the presets with alternating turns use the camp rule
        camp_rule = request.get("preset") in ("classic", "mini")
    if not isinstance(camp_rule, bool):
        raise BadRequest('"campRule" must be true or false')
    return size, pieces, destinations, enemy, camp_rule


# ---------------------------------------------------------------------------------------------------
# The rules: every legal move of my team


def legal_moves(size, pieces, destinations, occupied, camp_rule):
    """Yields (from, path) for every legal move: one per piece and final square, with a shortest chain.

    `occupied` is every square holding a piece of either team at the start of the turn. It never changes
    during a move: the moving piece's own square stays occupied, and landings must be empty squares.
    """

    def on_board(x, y):
        return 0 <= x < size and 0 <= y < size

    home = set(destinations)
    for start, damage in pieces:
        x0, y0 = start
        moves = []
        # One step to an empty neighbour.
        for dx, dy in DIRECTIONS:
            to = (x0 + dx, y0 + dy)
            if on_board(*to) and to not in occupied:
                moves.append([to])
        # Chains of jumps, each over an occupied neighbour onto the empty square beyond it. A breadth-first
        # search finds every square a chain reaches, and the shortest chain to it (no square twice).
        if damage == 0:
            came_from = {start: None}
            queue = deque([start])
            while queue:
                x, y = queue.popleft()
                for dx, dy in DIRECTIONS:
                    over, to = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
                    if on_board(*to) and over in occupied and to not in occupied and to not in came_from:
                        came_from[to] = (x, y)
                        queue.append(to)
                        chain, at = [], to
                        while at != start:
                            chain.append(at)
                            at = came_from[at]
                        moves.append(chain[::-1])
        for path in moves:
            # The camp rule: a piece standing in its destinations may not end its move outside them.
            if camp_rule and start in home and path[-1] not in home:
                continue
            yield start, path


# ---------------------------------------------------------------------------------------------------
# The strategy


def chebyshev(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def ranked_moves(size, pieces, destinations, enemy, camp_rule):
    """Every legal move as (rank, (from, path)), best first: the greedy move is the first."""
    occupied = {s for s, _ in pieces} | set(enemy)
    home = set(destinations)
    free = [d for d in destinations if d not in occupied]
    targets = free or destinations  # every destination is taken: head for any of them

    def distance(s):
        """Steps (kings' moves) from s to the nearest target; 0 for a piece already home."""
        if s in home:
            return 0
        return min((chebyshev(s, t) for t in targets), default=0)

    def depth(s):
        """How far s is from the middle of the board, in half squares: the destinations lie in a corner,
        so a larger depth is further into them."""
        return abs(2 * s[0] - (size - 1)) + abs(2 * s[1] - (size - 1))

    def rank(move):
        """Smaller is better. First the kind of move:
        0  a piece not home yet gets nearer a free destination (the bigger the gain the better),
        1  a piece already home goes deeper into the destinations, making room at their edge,
        2  a piece not home yet moves without getting nearer (to find a way around a block),
        3  anything else (a piece leaves home or moves about in it): legal, but the last resort.
        Then the piece furthest behind, then the smallest squares (x before y), so the choice never
        depends on the order in which the moves were generated."""
        start, path = move
        end = path[-1]
        if start not in home:
            gain = distance(start) - distance(end)
            kind = 0 if gain > 0 else 2
        elif end in home and depth(end) > depth(start):
            kind, gain = 1, depth(end) - depth(start)
        else:
            kind, gain = 3, 0
        return (kind, -gain, -distance(start), start, end)

    moves = legal_moves(size, pieces, destinations, occupied, camp_rule)
    return sorted(((rank(m), m) for m in moves), key=lambda ranked: ranked[0])


def choose_move(size, pieces, destinations, enemy, camp_rule):
    """The greedy move as (from, path), or None if there is no legal move."""
    ranked = ranked_moves(size, pieces, destinations, enemy, camp_rule)
    return ranked[0][1] if ranked else None


def debug_marks(ranked):
    """What the arena draws for this answer (docs/protocol.md, "Debug marks"): the best move and the next
    two as arrows, each labelled with its gain; the referee ignores it. Draw your own AI's thinking here."""
    marks = []
    for (kind, minus_gain, *_), (start, path) in ranked[:3]:
        colour = ["green", "yellow", "orange"][len(marks)]
        marks.append({"from": point(start), "to": point(path[-1]), "color": colour, "label": f"{-minus_gain:+d}"})
    best_kind = ranked[0][0][0]
    text = f"best of {len(ranked)} moves: {['nearer', 'deeper', 'around', 'last resort'][best_kind]}"
    return {"text": text, "marks": marks}


def answer(request):
    """The response body (a dict) for a request already parsed from JSON."""
    ranked = ranked_moves(*read_request(request))
    if not ranked:
        # Not a move: the referee records "no move" for this tick, which is all a team without a legal
        # move can do. The error text shows up in logs and with curl.
        return {"error": "no legal move"}
    start, path = ranked[0][1]
    return {"from": point(start), "to": [point(s) for s in path], "debug": debug_marks(ranked)}


def point(s):
    return {"x": s[0], "y": s[1]}


# ---------------------------------------------------------------------------------------------------
# The HTTP server


class Handler(BaseHTTPRequestHandler):
    server_version = "GridArenaHalmaStarter/1.0"
    timeout = 10  # seconds a client may take to send its request
    quiet = False

    def send_json(self, status, body):
        data = json.dumps(body, separators=(",", ":")).encode()
        try:
            self.send_response(status)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the client gave up (the arena cancels requests at the tick's deadline)

    def do_OPTIONS(self):
        # A CORS preflight. The arena sends text/plain, which needs none; other clients may ask.
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Content-Type")
        self.send_header("Access-Control-Max-Age", "86400")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        about = {"ai": "GridArena Halma starter (Python)", "usage": "POST a request, see docs/protocol.md"}
        self.send_json(200, about)

    def do_POST(self):
        started = time.perf_counter()
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            return self.send_json(400, {"error": "a Content-Length header is required"})
        length = int(length)
        if length > MAX_BODY_BYTES:
            return self.send_json(413, {"error": f"the body must be at most {MAX_BODY_BYTES} bytes"})
        try:
            body = self.rfile.read(length)
        except OSError:
            return  # the client went away, or sent less than it announced within `timeout`
        # Whatever the Content-Type says (the browser sends text/plain), the body is JSON.
        try:
            request = json.loads(body.decode("utf-8-sig"))
        except (ValueError, RecursionError) as e:
            return self.send_json(400, {"error": f"the body is not JSON: {e}"})
        try:
            response = answer(request)
        except BadRequest as e:
            return self.send_json(400, {"error": str(e)})
        except Exception as e:  # a bug here must not take the server down
            return self.send_json(500, {"error": f"internal error: {e!r}"})
        self.send_json(200, response)
        if not self.quiet:
            if "from" in response:
                move = " -> ".join(f"({s['x']},{s['y']})" for s in [response["from"], *response["to"]])
            else:
                move = response["error"]
            ms = (time.perf_counter() - started) * 1000
            team, turn = request.get("team", "?"), request.get("turn", "?")
            sys.stderr.write(f"{team} turn {turn}: {move} ({ms:.1f} ms)\n")

    def log_request(self, code="-", size="-"):
        # Moves are logged by do_POST; here only the requests that failed.
        if not self.quiet and isinstance(code, int) and code >= 400:
            super().log_request(code, size)

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def main():
    parser = argparse.ArgumentParser(description="GridArena Halma starter AI (greedy, always legal)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8001, help="port to listen on (default 8001)")
    parser.add_argument("--quiet", action="store_true", help="log nothing per request")
    args = parser.parse_args()
    Handler.quiet = args.quiet
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"Halma starter AI (Python) listening on http://{args.host}:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
