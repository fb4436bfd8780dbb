#!/usr/bin/env bash
# The main command: installs what is missing, then builds and serves GridArena on http://127.0.0.1:8080.
# Extra arguments go to `trunk serve` (for example --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/tests/e2e/node_modules/.bin:$PATH"
cargo fetch --locked
echo "==> building and serving on http://127.0.0.1:8080 (Ctrl-C stops)"
exec trunk serve --release --no-autoreload "$@"
