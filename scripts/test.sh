#!/usr/bin/env bash
# The one test command: installs whatever this machine is missing, then runs every check and test.
# Safe to run again: each install step is skipped when its tool is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "install what is missing"
./scripts/setup.sh --browser
export PATH="$HOME/.cargo/bin:$PWD/tests/e2e/node_modules/.bin:$PATH"
cargo --version
cargo fetch --locked  # trunk builds offline

step "format"
cargo fmt --all -- --check

step "lint"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "the engine builds for the browser (wasm32-unknown-unknown)"
cargo build -p gridarena-engine --target wasm32-unknown-unknown --release --locked

log=$(mktemp)
cleanup() {
  rm -f "$log"
  if [ -n "${GRIDARENA_TEST_PG_DIR:-}" ]; then ./scripts/pg-cluster.sh stop "$GRIDARENA_TEST_PG_DIR"; fi
}
trap cleanup EXIT

step "a throwaway PostgreSQL cluster for the server's store tests (stopped on exit)"
pg_env=$(./scripts/pg-cluster.sh start)
eval "$pg_env"

step "tests"
cargo test --workspace --locked 2>&1 | tee "$log"

step "the app's release build (trunk)"
trunk build --release
gz() { cat "$@" | gzip -9 | wc -c; }
for f in dist/*.wasm dist/*.js; do
  printf '%s: %s bytes, %s gzipped\n' "$f" "$(wc -c <"$f")" "$(gz "$f")"
done
# What opening each page downloads (its JavaScript and its wasm; index.html starts it): gzipped, file by file.
# Every page of pages.json, the one list of them (scripts/pages.sh reads it; a failure to read it stops here).
bins=$(./scripts/pages.sh --bins)
workers=$(./scripts/pages.sh --workers)
for bin in $bins; do
  total=0
  # A page with lazy parts (scripts/split.sh) also imports their loader at once.
  for f in "dist/$bin.js" "dist/${bin}_bg.wasm" "dist/split/$bin/__wasm_split.js"; do
    [ -f "$f" ] && total=$((total + $(gz "$f")))
  done
  printf 'the %s page downloads %s bytes of wasm and JS, gzipped\n' "${bin#gridarena-}" "$total"
  if [ -d "dist/split/$bin" ]; then
    printf '  and its lazy parts, loaded when idle after its first board: %s bytes gzipped (%s)\n' \
      "$(gz "dist/split/$bin"/*.wasm)" \
      "$(for f in "dist/split/$bin"/split_*.wasm; do n=${f##*/split_}; printf '%s %s, ' "${n%.wasm}" "$(gz "$f")"; done)"
  fi
done
# The built-in AIs' modules (pages.json's workers): a page's workers load its game's one when a game first
# asks an AI (or when idle).
for bin in $workers; do
  printf 'the %s AI module is %s bytes of wasm and JS, gzipped, loaded on demand\n' "${bin#gridarena-ai-}" \
    "$(($(gz "dist/$bin.js") + $(gz "dist/${bin}_bg.wasm")))"
done

step "the code players' worker runtime and the zip helpers (Node, Pyodide from web/node_modules)"
(cd web && node --test --test-concurrency=1 --test-reporter=spec test/*.test.mjs) 2>&1 | tee -a "$log"

step "browser end-to-end tests (headless Chromium)"
(cd tests/e2e && node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs) 2>&1 | tee -a "$log"

# One closing line over every test binary, so a reader (and CI) sees the whole count at once.
awk '/^test result:/ { p += $4; f += $6; s += $8 }
     /^ℹ pass / { p += $3 } /^ℹ fail / { f += $3 } /^ℹ skipped / { s += $3 } END { printf "\ntests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
