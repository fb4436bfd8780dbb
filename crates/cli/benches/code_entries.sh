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

# The sum of the resident memory of `pid` and every process below it, in KiB.
tree_rss() {
  local all=("$1") queue=("$1") p
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    for c in $(pgrep -P "$p" 2> /dev/null); do
      all+=("$c")
      queue+=("$c")
    done
  done
  ps -o rss= -p "$(IFS=,; echo "${all[*]}")" 2> /dev/null | awk '{s += $1} END {print s + 0}'
}

echo "1. swiss, 3 rounds, 8 Python course entries + greedy + search, classic, --camp-rules course, --max-turns $turns, $(nproc) cores"
start=$(date +%s.%N)
/usr/bin/time -v "$bin" halma tournament "$work/roster.json" --format swiss --rounds 3 --preset classic \
  --camp-rules course --first blue --max-turns "$turns" --seed 1 --out "$work/swiss" \
  > "$work/out.txt" 2> "$work/time.txt" &
pid=$!
top=0
while kill -0 "$pid" 2> /dev/null; do
  total=$(tree_rss "$pid")
  [ "$total" -gt "$top" ] && top=$total
  sleep 0.2
done
wait "$pid"
took=$(echo "$(date +%s.%N) - $start" | bc)
tail -n 1 "$work/out.txt" | sed 's/^/  /'
echo "  wall $took s"
echo "  peak resident memory: gridarena $(($(grep 'Maximum resident' "$work/time.txt" | awk '{print $NF}') / 1024)) MiB; gridarena and its code processes together (sampled every 0.2 s) $((top / 1024)) MiB"

echo "2. $games games of a Python function entry against builtin:greedy, arena, tick 1000 ms"
start=$(date +%s.%N)
"$bin" halma match --red "code:$root/ai/page/halma_function.py" --blue builtin:greedy --preset arena \
  --games "$games" --seed 1 > "$work/match.txt" 2> /dev/null
took=$(echo "$(date +%s.%N) - $start" | bc)
grep -E "^[0-9]+ games? |^red:" "$work/match.txt" | sed 's/^/  /'
echo "  $(echo "scale=1; $games * 60 / $took" | bc) games per minute ($took s)"
