#!/usr/bin/env bash
# The main command: installs what is missing, builds the app and the server, and serves GridArena on
# http://127.0.0.1:8080: every page, Online Go included (its database is gridarena.sqlite3 here).
# Extra arguments go to `gridarena serve` (for example --port 9000, --db /tmp/go.sqlite3).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/tests/e2e/node_modules/.bin:$PATH"
cargo fetch --locked
echo "==> building the app (trunk build --release)"
trunk build --release
echo "==> building the server (cargo build --release -p gridarena-cli)"
cargo build --release --locked -p gridarena-cli
echo "==> serving (Ctrl-C stops)"
exec target/release/gridarena serve --dist dist "$@"
