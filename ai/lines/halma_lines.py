#!/usr/bin/env python3
"""GridArena Halma line-protocol bot, Python 3 standard library only.

A long-lived process: it reads one request per line on stdin (the JSON body of the web protocol,
docs/protocol.md) and writes one answer per line on stdout (the web protocol's response JSON), flushing
after each. It plays exactly like the web starter ai/python/halma_ai.py: it imports that file and calls its
answer() function, so improving choose_move() there improves this bot too.

Run:   python3 ai/lines/halma_lines.py [--quiet]
Try:   echo '{"boardSize":8,"pieces":[{"x":0,"y":0,"damage":0}],"destinations":[{"x":7,"y":7}],"enemy":[],"enemydestinations":[]}' | python3 ai/lines/halma_lines.py

stdout carries answers only, one per request line: a move {"from":..,"to":[..]}, {"error":"no legal move"}
when there is none, or {} for a line that is not a Halma request (the reason goes to stderr). A blank line
is skipped without an answer. Everything else, including any
print() added to the move logic, goes to stderr. The bot exits cleanly at the end of its input.
"""

import json
import os
import sys
import time

# The web starter lives in ../python next to this folder; its server only starts under __main__.
sys.dont_write_bytecode = True  # leave no __pycache__ in ai/python
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import halma_ai  # noqa: E402

MAX_LINE_BYTES = 1024 * 1024  # requests are a few KiB; a longer line is refused (and skipped)


def respond(request):
    """The answer (a dict) to one parsed request; raises halma_ai.BadRequest for a malformed one."""
    return halma_ai.answer(request)


def main():
    quiet = "--quiet" in sys.argv[1:]
    unknown = [a for a in sys.argv[1:] if a != "--quiet"]
    if unknown:
        sys.stderr.write(f"usage: python3 halma_lines.py [--quiet]  (unknown argument {unknown[0]!r})\n")
        return 2
    stdin, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the answers
    line_no = 0
    while True:
        raw = stdin.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return 0  # end of input: the referee is done
        line_no += 1
        if not raw.strip():
            sys.stderr.write(f"halma_lines: line {line_no}: empty line skipped (no answer)\n")
            continue
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the over-long line
                raw = stdin.readline(MAX_LINE_BYTES)
            response, problem = {}, f"the line is longer than {MAX_LINE_BYTES} bytes"
        else:
            started = time.perf_counter()
            response, problem = handle(raw)
        if problem:
            sys.stderr.write(f"halma_lines: line {line_no}: {problem}\n")
        elif not quiet:
            if "from" in response:
                squares = [response["from"], *response["to"]]
                move = " -> ".join(f"({s['x']},{s['y']})" for s in squares)
            else:
                move = response.get("error", "?")
            ms = (time.perf_counter() - started) * 1000
            sys.stderr.write(f"halma_lines: line {line_no}: {move} ({ms:.1f} ms)\n")
        try:
            out.write(json.dumps(response, separators=(",", ":")).encode() + b"\n")
            out.flush()
        except (BrokenPipeError, OSError):
            return 0  # the referee stopped reading


def handle(raw):
    """(answer, None) for a request, ({}, reason) for a line that is not one."""
    try:
        text = raw.decode("utf-8-sig").strip()
    except UnicodeDecodeError as e:
        return {}, f"the line is not UTF-8: {e}"
    try:
        request = json.loads(text)
    except (ValueError, RecursionError) as e:
        return {}, f"the line is not JSON: {e}"
    try:
        return respond(request), None
    except halma_ai.BadRequest as e:
        return {}, f"not a Halma request: {e}"
    except Exception as e:  # a bug in the move logic must not end the game
        return {}, f"internal error: {e!r}"


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
