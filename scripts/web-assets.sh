#!/usr/bin/env bash
# Puts what the code players load on demand into the built app: Pyodide's runtime (copied unmodified from
# npm's `pyodide`, MPL-2.0) in <out>/pyodide/, and the editor, the zip helpers and the code players' Web
# Worker, bundled by esbuild from web/ (CodeMirror 6, fflate, acorn: all from npm, no CDN), in <out>/code/.
# No page loads any of it until a code player or an editor is opened.
#
# Trunk runs this after each build (Trunk.toml, [[hooks]] stage = "post_build") with TRUNK_STAGING_DIR set
# to the build's staging folder. By hand: scripts/web-assets.sh [OUT]   (OUT defaults to dist/).
# web/node_modules must be installed (scripts/setup.sh does it: `npm ci` in web/).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
web="$root/web"
out=${1:-${TRUNK_STAGING_DIR:-$root/dist}}

fail() { printf 'web-assets: %s\n' "$*" >&2; exit 1; }

for package in pyodide codemirror @codemirror/lang-python @codemirror/lang-javascript fflate acorn esbuild; do
  [ -f "$web/node_modules/$package/package.json" ] \
    || fail "web/node_modules/$package is missing: run scripts/setup.sh (it runs \`npm ci\` in web/)"
done
if [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
  printf 'web-assets: warning: web/package-lock.json is newer than web/node_modules: run scripts/setup.sh\n' >&2
fi

# esbuild's npm package runs its native binary; should its install script not have run, the binary is
# still in the platform package (@esbuild/linux-x64 and the like).
esbuild=""
for candidate in "$web/node_modules/.bin/esbuild" "$web"/node_modules/@esbuild/*/bin/esbuild; do
  if [ -x "$candidate" ] && "$candidate" --version >/dev/null 2>&1; then
    esbuild=$candidate
    break
  fi
done
[ -n "$esbuild" ] || fail "esbuild (web/node_modules/.bin/esbuild) does not run: run scripts/setup.sh"

mkdir -p "$out"
out=$(cd "$out" && pwd)

# Pyodide: exactly what loadPyodide fetches for the standard library (pyodide.mjs imports
# pyodide.asm.mjs, which loads pyodide.asm.wasm; then python_stdlib.zip and pyodide-lock.json), its
# README, and a notice of its licence and source. Files already there and identical are left alone.
src="$web/node_modules/pyodide"
mkdir -p "$out/pyodide"
for file in pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json README.md; do
  [ -f "$src/$file" ] || fail "web/node_modules/pyodide/$file is missing: run scripts/setup.sh"
  cmp -s "$src/$file" "$out/pyodide/$file" || cp -p "$src/$file" "$out/pyodide/$file"
done
version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$src/package.json")
notice="Pyodide $version (https://pyodide.org), the files of the npm package \`pyodide\` $version, unmodified.
License: Mozilla Public License 2.0 (https://www.mozilla.org/en-US/MPL/2.0/).
Source code: https://github.com/pyodide/pyodide (tag $version)."
printf '%s\n' "$notice" | cmp -s - "$out/pyodide/NOTICE" || printf '%s\n' "$notice" >"$out/pyodide/NOTICE"

# The bundles, ES modules for current browsers. The worker is a module worker; it imports Pyodide at run
# time from the address it is given (never bundled), and acorn with a dynamic import: split into a chunk
# of its own, loaded only by a JavaScript player.
entries=("editor=$web/editor.mjs" "zip=$web/zip.mjs")
if [ -f "$web/code-worker.js" ]; then
  entries+=("worker=$web/code-worker.js")
else
  printf 'web-assets: note: web/code-worker.js does not exist yet: no code/worker.js\n' >&2
fi
rm -rf "$out/code"
meta=$(mktemp)
trap 'rm -f "$meta"' EXIT
"$esbuild" "${entries[@]}" --bundle --splitting --format=esm --target=es2022 --minify --loader:.py=text \
  --outdir="$out/code" --chunk-names='chunk-[hash]' --log-level=warning --metafile="$meta"

# The licence of each npm package the bundles hold (esbuild's metafile names their files).
node - "$meta" "$web/node_modules" "$out/code/THIRD-PARTY-LICENSES.txt" <<'JS'
const fs = require('node:fs');
const path = require('node:path');
const [meta, modules, target] = process.argv.slice(2);
const packages = new Set();
for (const input of Object.keys(JSON.parse(fs.readFileSync(meta, 'utf8')).inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) packages.add(m[1]);
}
const parts = [...packages].sort().map((name) => {
  const dir = path.join(modules, name);
  const { version, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  const text = file ? fs.readFileSync(path.join(dir, file), 'utf8').trim() : `License: ${license}`;
  return `${name} ${version} (${license})\n\n${text}\n`;
});
fs.writeFileSync(target, `The code/ bundles hold these npm packages:\n\n${parts.join('\n' + '-'.repeat(72) + '\n\n')}`);
JS
