#!/usr/bin/env bash
# The one test command: installs whatever this machine is missing, then runs every check and test.
# Safe to run again: each install step is skipped when its tool is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "toolchain"
if ! command -v cargo >/dev/null; then
  echo "cargo is missing: install Rust with rustup first (https://rustup.rs)" >&2
  exit 1
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    rustup component add "$component"
  fi
done
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
cargo --version

step "format"
cargo fmt --all -- --check

step "lint"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "the engine builds for the browser (wasm32-unknown-unknown)"
cargo build -p gridarena-engine --target wasm32-unknown-unknown --release --locked

step "tests"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --locked 2>&1 | tee "$log"

# One closing line over every test binary, so a reader (and CI) sees the whole count at once.
awk '/^test result:/ { p += $4; f += $6; s += $8 } END { printf "\ntests: %d passed, %d failed, %d skipped\n", p, f, s }' "$log"
