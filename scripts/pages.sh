#!/usr/bin/env bash
# Hands the page list, pages.json (the one list of the app's modules), to index.html's script: writes
# target/gridarena/pages.js, which index.html inlines (trunk's `rel="inline"`) before the script that
# starts a page. It defines GRIDARENA_PAGES: each page's address (#/<route>) and module, and the pages
# with lazy parts, whose parts' loader the script fetches with the page. Only that: the labels and the
# AI workers stay out of every page's HTML.
#
# Trunk runs this before each build (Trunk.toml, [[hooks]] stage = "pre_build"), before it reads
# index.html. By hand: scripts/pages.sh. Node comes from scripts/setup.sh.
#
# `scripts/pages.sh --bins` and `scripts/pages.sh --workers` write nothing: they print the pages'
# modules, or the AI workers' modules, one a line, in the list's order, for a script that goes over
# every module (scripts/test.sh's download sizes), so a page added to the list is never missed there.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

command -v node >/dev/null || { printf 'pages: node is missing: run scripts/setup.sh\n' >&2; exit 1; }

case "${1:-}" in
  --bins | --workers)
    node - "$root/pages.json" "$1" <<'JS'
const fs = require('fs');
const [manifest, which] = process.argv.slice(2);
const { pages, workers } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
for (const bin of which === '--bins' ? pages.map((p) => p.bin) : workers) console.log(bin);
JS
    exit
    ;;
  '') ;;
  *) printf 'pages: unknown argument %s (known: --bins, --workers, or none)\n' "$1" >&2; exit 2 ;;
esac

out="$root/target/gridarena"
mkdir -p "$out"
node - "$root/pages.json" "$out/pages.js" <<'JS'
const fs = require('fs');
const [manifest, out] = process.argv.slice(2);
const { pages } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
const modules = Object.fromEntries(pages.map((p) => [p.route, p.bin]));
const split = pages.filter((p) => p.parts.length > 0).map((p) => p.bin);
fs.writeFileSync(out, `// Written from pages.json by scripts/pages.sh.
const GRIDARENA_PAGES = ${JSON.stringify({ modules, split })};
`);
JS
