#!/usr/bin/env bash
# Figures for code entries on the command line (docs/code-players.md): not a test, a few minutes long.
#   1. A Swiss tournament (3 rounds) of 8 Python course-format copies of ai/course/halma_course.py and 2
#      built-ins on the classic preset with the course's camp rules: wall time and peak memory (the
#      tournament and all its children, from /usr/bin/time -v).
#   2. Games per minute of a Python function entry (ai/page/halma_function.py) against builtin:greedy on the
#      arena preset.
# Usage: crates/cli/benches/code_entries.sh [GRIDARENA_BINARY]   (default: the workspace's debug build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="${1:-${CARGO_TARGET_DIR:-$root/target}/debug/gridarena}"
turns="${TURNS:-300}"
games="${GAMES:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$root" "$work/roster.json" <<'EOF'
import json, sys
root, out = sys.argv[1], sys.argv[2]
homework = open(f"{root}/ai/course/halma_course.py").read()
entries = [{"name": f"Student{i}", "code": {"language": "python", "format": "course", "main": "homework.py",
            "files": {"homework.py": f"{homework}\n# copy {i}\n"}}} for i in range(1, 9)]
entries += [{"name": "Greedy", "player": "builtin:greedy"}, {"name": "Search", "player": "builtin:search"}]
json.dump({"entries": entries}, open(out, "w"))
EOF

measure() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$@" 2> "$work/time.txt" > "$work/out.txt" || { cat "$work/time.txt"; exit 1; }
    wall=$(grep "Elapsed (wall clock)" "$work/time.txt" | awk '{print $NF}')
    peak=$(grep "Maximum resident set size" "$work/time.txt" | awk '{print $NF}')
    echo "  wall $wall, peak resident memory of the largest process $((peak / 1024)) MiB"
  else
    start=$(date +%s.%N)
    "$@" > "$work/out.txt" 2> "$work/time.txt"
    echo "  wall $(echo "$(date +%s.%N) - $start" | bc) s"
  fi
}

echo "1. swiss, 3 rounds, 8 Python course entries + greedy + search, classic, --camp-rules course, --max-turns $turns, $(nproc) cores"
measure "$bin" halma tournament "$work/roster.json" --format swiss --rounds 3 --preset classic \
  --camp-rules course --first blue --max-turns "$turns" --seed 1 --out "$work/swiss"
tail -n 2 "$work/out.txt" | sed 's/^/  /'
# Peak memory of the whole tree: sampled every 0.2 s while it runs again (the largest process alone
# is what time -v reports).
rm -rf "$work/swiss"
"$bin" halma tournament "$work/roster.json" --format swiss --rounds 3 --preset classic --camp-rules course \
  --first blue --max-turns "$turns" --seed 1 --out "$work/swiss" > /dev/null 2>&1 &
pid=$!
top=0
while kill -0 "$pid" 2> /dev/null; do
  total=$(ps -o rss= --ppid "$pid" -p "$pid" 2> /dev/null | awk '{s += $1} END {print s + 0}')
  # The course scripts are grandchildren (sh execs python3, so children); count them all.
  kids=$(pgrep -P "$pid" | xargs -r -n1 pgrep -P 2> /dev/null | xargs -r ps -o rss= -p 2> /dev/null | awk '{s += $1} END {print s + 0}')
  total=$((total + kids))
  [ "$total" -gt "$top" ] && top=$total
  sleep 0.2
done
wait "$pid"
echo "  peak resident memory of the tournament and its code processes together (sampled): $((top / 1024)) MiB"

echo "2. $games games of a Python function entry against builtin:greedy, arena, tick 1000 ms"
start=$(date +%s.%N)
"$bin" halma match --red "code:$root/ai/page/halma_function.py" --blue builtin:greedy --preset arena \
  --games "$games" --seed 1 > "$work/match.txt" 2> /dev/null
took=$(echo "$(date +%s.%N) - $start" | bc)
grep -E "^[0-9]+ games? |^red:" "$work/match.txt" | sed 's/^/  /'
echo "  $(echo "scale=1; $games * 60 / $took" | bc) games per minute ($took s)"
