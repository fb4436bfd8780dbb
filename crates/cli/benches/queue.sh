#!/usr/bin/env bash
# Figures for a course's tournament on the queue (docs/tournament.md, "Figures"): not a test, minutes long.
# Every run plays a simulated course (crates/cli/benches/course_roster.py: course-format copies of the
# course starter, look-ahead and random players built on it, and three boss bots) on the classic preset
# with the course's camp rules, a Swiss, --max-turns 300, on a throwaway PostgreSQL (scripts/pg-cluster.sh).
#   1. scaling: one tournament (SCALE_ENTRIES entries, SCALE_ROUNDS rounds) in one process (--concurrency
#      = the cores), then on the queue with 1, 2 and 4 workers on this machine: wall time, games per second,
#      and CPU seconds per game of the workers (their code processes included), the coordinator and the
#      database server. The coordinator's share is its CPU per game over the workers' (the goal: under 1%),
#      apart from its roll call (each code entry run once before the first game), said in CPU seconds.
#   2. the course: COURSE_ENTRIES entries (default 500), COURSE_ROUNDS rounds (9), with COURSE_WORKERS
#      workers (default: the cores): its wall time, and what that projects to for a 16-core server and for
#      10 of them, from the CPU a game takes and the scaling of part 1.
# Usage: crates/cli/benches/queue.sh [GRIDARENA_BINARY]   (default: the workspace's debug build, optimized)
#   PARTS="1 2" (which parts), SCALE_ENTRIES=40, SCALE_ROUNDS=3, COURSE_ENTRIES=500, COURSE_ROUNDS=9
#   (fewer COURSE_ROUNDS measure a course's first rounds; the projections are still for 9 rounds)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="${1:-${CARGO_TARGET_DIR:-$root/target}/debug/gridarena}"
parts="${PARTS:-1 2}"
cores=$(nproc)
work="$(mktemp -d)"
eval "$("$root/scripts/pg-cluster.sh" start)"
cleanup() {
  jobs -p | xargs -r kill 2> /dev/null || true
  "$root/scripts/pg-cluster.sh" stop "$GRIDARENA_TEST_PG_DIR" || true
  rm -rf "$work"
  [ -z "${cgroups:-}" ] || { sleep 1; find "$cgroups" -depth -type d -exec rmdir {} + 2> /dev/null || true; }
}
trap cleanup EXIT
pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
psql() { "$pg_bin/psql" "$GRIDARENA_TEST_PG" -qAtX "$@"; }
options=(--format swiss --preset classic --camp-rules course --first blue --max-turns 300 --seed 1)

# CPU time is counted by cgroup (v2, where this user may make one): a code entry's processes are not
# always reaped by gridarena (the sandbox's init is killed with its game), so neither `time` nor a
# process's children's times count them, while a cgroup holds every process started in it.
cgroups="$(findmnt -t cgroup2 -n -o TARGET 2> /dev/null | head -n 1 || true)"
if [ -n "$cgroups" ] && mkdir "$cgroups/gridarena-bench-$$" 2> /dev/null; then
  cgroups="$cgroups/gridarena-bench-$$"
else
  echo "no cgroup v2 this user may write: CPU seconds are not measured (run as root, or in a delegated cgroup)"
  cgroups=""
fi
# Becomes a command in cgroup NAME (made if missing): in_cgroup NAME COMMAND... It execs, so call it in a
# subshell or as a background job (whose $! is then the command itself, to be signalled).
in_cgroup() {
  local name=$1
  shift
  [ -z "$cgroups" ] || { mkdir -p "$cgroups/$name" && echo "$BASHPID" > "$cgroups/$name/cgroup.procs"; }
  exec "$@"
}
# CPU seconds used in cgroup NAME (0 where there are none).
cpu_of() {
  [ -n "$cgroups" ] || { echo 0; return; }
  awk '$1 == "usage_usec" {printf "%.2f", $2 / 1e6}' "$cgroups/$1/cpu.stat"
}
# CPU seconds the database server has used: the postmaster, its ended backends and the live ones.
pg_cpu() {
  local pm tick
  pm=$(head -n 1 "$GRIDARENA_TEST_PG_DIR/data/postmaster.pid")
  tick=$(getconf CLK_TCK)
  { awk '{print $14 + $15 + $16 + $17}' "/proc/$pm/stat"
    for c in $(pgrep -P "$pm"); do awk '{print $14 + $15}' "/proc/$c/stat" 2> /dev/null || true; done
  } | awk -v t="$tick" '{s += $1} END {printf "%.2f", s / t}'
}
games_in() { ls "$1/games" | wc -l; }
# standings.csv without its median_ms column (compute times differ from run to run).
standings() {
  awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "median_ms") m = i}
           {out = ""; for (i = 1; i <= NF; i++) if (i != m) out = out $i ","; print out}' "$1"
}
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# One tournament on the queue: run_queue NAME ROSTER ROUNDS WORKERS; prints one line of figures.
run_queue() {
  local name=$1 roster=$2 rounds=$3 workers=$4 url start end pids=() i
  psql -c "CREATE DATABASE bench_$name"
  url="${GRIDARENA_TEST_PG/\/postgres\?//bench_$name?}"
  local pg_before
  pg_before=$(pg_cpu)
  start=$(now)
  in_cgroup "$name.coordinator" "$bin" halma tournament "$roster" \
    "${options[@]}" --rounds "$rounds" --concurrency $((workers * 2)) --queue "$url" --out "$work/$name" \
    > /dev/null 2> "$work/$name.coordinator.log" &
  local coordinator=$!
  # The roll call (every code entry run once on the coordinator's machine, before the first game) is
  # counted apart: it is paid once a tournament, not a game.
  local roll_call_cpu
  until grep -q "^queue: tournament" "$work/$name.coordinator.log" 2> /dev/null; do
    kill -0 "$coordinator" 2> /dev/null || break
    sleep 0.2
  done
  roll_call_cpu=$(cpu_of "$name.coordinator")
  for i in $(seq 1 "$workers"); do
    in_cgroup "$name.workers" "$bin" halma worker "$url" --name "w$i" \
      --poll-ms 100 > /dev/null 2> "$work/$name.worker$i.log" &
    pids+=($!)
  done
  wait "$coordinator" || { tail -n 20 "$work/$name.coordinator.log"; exit 1; }
  end=$(now)
  kill -TERM "${pids[@]}" 2> /dev/null || true
  wait "${pids[@]}" || true
  local games wall workers_cpu coordinator_cpu db_cpu
  games=$(games_in "$work/$name")
  wall=$(echo "$end - $start" | bc)
  workers_cpu=$(cpu_of "$name.workers")
  coordinator_cpu=$(cpu_of "$name.coordinator")
  db_cpu=$(echo "$(pg_cpu) - $pg_before" | bc)
  awk -v n="$name" -v g="$games" -v w="$wall" -v wc="$workers_cpu" -v cc="$coordinator_cpu" -v dc="$db_cpu" \
    -v rc="$roll_call_cpu" \
    'BEGIN {printf "  %-22s %4d games in %7.1f s: %6.3f games/s; CPU s a game: workers %.3f, coordinator %.4f (%.2f%% of a game), database %.4f; the roll call before: %.1f s\n",
            n, g, w, g / w, wc / g, (cc - rc) / g, 100 * (cc - rc) / wc, dc / g, rc}'
  cp "$work/$name/standings.csv" "$work/$name.standings.csv"
  # How long its games took, claim to result (the mean and the longest), for the projections.
  "$pg_bin/psql" "$url" -qAtX -F ' ' -c "SELECT round(avg(extract(epoch FROM done_at - claimed_at))::numeric, 2),
      round(max(extract(epoch FROM done_at - claimed_at))::numeric, 2) FROM tq_games" > "$work/$name.durations"
}

# The same tournament in one process, for comparison.
run_local() {
  local name=$1 roster=$2 rounds=$3 start end
  start=$(now)
  (in_cgroup "$name" "$bin" halma tournament "$roster" "${options[@]}" \
    --rounds "$rounds" --concurrency "$cores" --out "$work/$name" > /dev/null 2> "$work/$name.log") \
    || { tail -n 20 "$work/$name.log"; exit 1; }
  end=$(now)
  local games wall cpu
  games=$(games_in "$work/$name")
  wall=$(echo "$end - $start" | bc)
  cpu=$(cpu_of "$name")
  awk -v n="$name" -v g="$games" -v w="$wall" -v c="$cpu" \
    'BEGIN {printf "  %-22s %4d games in %7.1f s: %6.3f games/s; CPU s a game: %.3f\n", n, g, w, g / w, c / g}'
  cp "$work/$name/standings.csv" "$work/$name.standings.csv"
}

echo "$cores cores; $(python3 --version); gridarena $bin; load before: $(load)"
if [[ " $parts " == *" 1 "* ]]; then
  entries="${SCALE_ENTRIES:-40}" rounds="${SCALE_ROUNDS:-3}"
  python3 "$root/crates/cli/benches/course_roster.py" "$root" "$entries" "$work/scale.json"
  echo "1. scaling: $entries entries, Swiss of $rounds rounds"
  run_local "one_process" "$work/scale.json" "$rounds"
  for w in 1 2 4; do
    run_queue "queue_${w}_workers" "$work/scale.json" "$rounds" "$w"
  done
  for w in 1 2 4; do
    cmp -s <(standings "$work/one_process.standings.csv") <(standings "$work/queue_${w}_workers.standings.csv") \
      && echo "  the standings with $w workers are one process's" \
      || echo "  THE STANDINGS WITH $w WORKERS DIFFER from one process's"
  done
  echo "  load after: $(load)"
fi
if [[ " $parts " == *" 2 "* ]]; then
  entries="${COURSE_ENTRIES:-500}" rounds="${COURSE_ROUNDS:-9}" workers="${COURSE_WORKERS:-$cores}"
  python3 "$root/crates/cli/benches/course_roster.py" "$root" "$entries" "$work/course.json"
  echo "2. a course: $entries entries, Swiss of $rounds rounds, $workers workers on this machine"
  line=$(run_queue "course" "$work/course.json" "$rounds" "$workers")
  echo "$line"
  read -r mean longest < "$work/course.durations"
  echo "  a game, claim to result: $mean s on average, $longest s the longest; load after: $(load)"
  # Projections: N cores play N / c games a second at the efficiency reached here (c: a game's CPU);
  # a Swiss round cannot end before its longest game, so each round takes at least that.
  echo "$line" | awk -v cores="$cores" -v rounds="$rounds" -v longest="$longest" '{
      for (i = 1; i <= NF; i++) { if ($i == "games" && $(i+1) == "in") { g = $(i-1); w = $(i+2) }
                                  if ($i == "workers") { c = $(i+1) + 0 } }
      rate = g / w; eff = rate / (cores / c); per_round = g / rounds
      if (rounds != 9) printf "  measured %d of 9 rounds: the 9 rounds here would take about %.0f min\n", rounds, 9 * w / rounds / 60
      printf "  measured: %.3f games/s, %.0f%% of %d cores playing all the time (%.3f CPU s a game)\n", rate, 100 * eff, cores, c
      for (k = 1; k <= 2; k++) {
        n = (k == 1) ? 16 : 160; what = (k == 1) ? "a 16-core server" : "10 such servers (160 cores)"
        t = n / c * eff; round_s = per_round / t; if (round_s < longest) round_s = longest
        printf "  projected, %s: %.1f games/s, a round %.0f s, 9 rounds %.1f min\n", what, t, round_s, 9 * round_s / 60 }
    }'
fi
