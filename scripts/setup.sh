#!/usr/bin/env bash
# Installs what building, serving and testing GridArena needs, skipping whatever is already there.
# Only package registries are used (crates.io, npm, Debian): nothing downloads prebuilt tools from elsewhere.
# Usage: scripts/setup.sh [--browser]   (--browser also installs what the tests need: Chromium, Python 3 and
# PHP to run the starter AIs, GNU Go, the reference the Go rules are tested against, and PostgreSQL, which
# the server's store is tested on)
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
say() { printf '==> %s\n' "$*"; }
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -z "${APT_UPDATED:-}" ]; then
    $sudo apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}

if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
  echo "Rust is missing: install it with rustup first (https://rustup.rs), then run this again." >&2
  exit 1
fi
export PATH="$HOME/.cargo/bin:$PATH"

for component in rustfmt clippy; do
  rustup component list --installed 2>/dev/null | grep -q "^$component" || rustup component add "$component"
done
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# trunk 0.22 needs a newer rustc than many machines have; 0.21.14 builds with ours. About 10-18 minutes once.
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (compiles once, 10-18 minutes)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

# The wasm-bindgen CLI must be exactly the version in Cargo.lock. No --locked: its own lock file pins a
# yanked dependency.
WBG_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WBG_VERSION" ]; then
  say "installing wasm-bindgen-cli $WBG_VERSION (compiles once, about 9 minutes)"
  cargo install wasm-bindgen-cli --version "$WBG_VERSION"
fi

# wasm-split cuts the parts a page's first board does not show out of its wasm (scripts/split.sh, a step of
# trunk build). About 2 minutes once.
WASM_SPLIT_VERSION=0.2.4
if [ "$(cat "$HOME/.cargo/.wasm-split-version" 2>/dev/null)" != "$WASM_SPLIT_VERSION" ] \
   || ! command -v wasm-split-cli >/dev/null; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (compiles once, about 2 minutes)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
  echo "$WASM_SPLIT_VERSION" > "$HOME/.cargo/.wasm-split-version"
fi

# wasm-opt comes from npm's binaryen 132 (Debian's older binaryen produces wasm that breaks in the browser),
# and playwright-core drives Debian's Chromium; no browser download.
if ! command -v npm >/dev/null; then
  say "installing Node.js and npm (Debian packages)"
  apt_install nodejs npm
fi
if [ ! -x tests/e2e/node_modules/.bin/wasm-opt ] || [ ! -d tests/e2e/node_modules/playwright-core ] \
   || [ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]; then
  say "installing the npm tools (binaryen, playwright-core)"
  (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi
# What the code players load in the page (Pyodide, CodeMirror, fflate) and esbuild, which bundles them:
# scripts/web-assets.sh copies and bundles them into dist/ after each trunk build. esbuild needs no install
# script: without it, its `bin/esbuild` runs the binary of its platform package.
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  say "installing the code players' browser packages (Pyodide, CodeMirror, fflate, esbuild)"
  (cd web && npm ci --no-audit --no-fund)
fi

if [ "${1:-}" = "--browser" ]; then
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Chromium and its driver (Debian packages)"
    apt_install chromium chromium-driver
  fi
  if ! command -v python3 >/dev/null || ! command -v php >/dev/null; then
    say "installing Python 3 and PHP for the starter AIs (Debian packages)"
    apt_install python3 php-cli
  fi
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    say "installing PostgreSQL for the server's store tests (Debian package)"
    apt_install postgresql
  fi
  if [ ! -x /usr/games/gnugo ]; then
    say "installing GNU Go (Debian package)"
    apt_install gnugo
  fi
fi
