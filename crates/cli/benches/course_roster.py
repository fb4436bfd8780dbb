"""Writes a simulated course's roster for crates/cli/benches/queue.sh: N entries in the course's format,
as a course's staff would gather them. Most are copies of the course starter, some look one reply ahead
and keep a side file (lookahead.py), some play at random among their best moves (wanderer.py), each with
the starter beside it as a module; and the boss bots, built-in AIs. Each copy differs by a comment, so
every entry is its own code (its own hash) as a student's is.

usage: python3 roster.py ROOT N OUT.json"""

import json
import sys

root, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
here = f"{root}/tests/fixtures/course"
starter = open(f"{root}/ai/course/halma_course.py").read()
kinds = {
    "lookahead": open(f"{here}/lookahead.py").read(),
    "wanderer": open(f"{here}/wanderer.py").read(),
}
bosses = [("Boss greedy", "builtin:greedy"), ("Boss search-lite", "builtin:search-lite"), ("Boss search", "builtin:search")]
entries = [{"name": name, "player": player} for name, player in bosses[: max(0, min(3, n - 1))]]
students = n - len(entries)
for i in range(students):
    # Of every ten students: six hand in the starter, two a look-ahead, two a random player.
    kind = ("starter",) * 6 + ("lookahead",) * 2 + ("wanderer",) * 2
    kind = kind[i % 10]
    files = {"halma_course.py": f"{starter}\n# student {i}\n"}
    main = "halma_course.py"
    if kind != "starter":
        main = "agent.py"
        files["agent.py"] = f"{kinds[kind]}\n# student {i}\n"
    entries.append({"name": f"Student {i:03d} ({kind})",
                    "code": {"language": "python", "format": "course", "main": main, "files": files}})
json.dump({"entries": entries}, open(out, "w"))
