#!/usr/bin/env bash
# Cuts the parts a page's first board does not show out of its first download (src/lazy.rs).
#
# The pages with lazy parts, and their parts, are named in the page list, pages.json (declared in each
# page's src/bin/<page>/parts.rs; build.rs checks the two agree and keeps those pages' relocations). Such a
# page is built whole by trunk, with a placeholder import for each split point. This step takes that page's
# wasm as the linker wrote it, cuts it with wasm-split-cli into the page's module and one module per part
# (plus modules of what several parts share), binds and optimises them as trunk does, and puts them in
# place of trunk's: <out>/<page>.js and <out>/<page>_bg.wasm, the parts in <out>/split/<page>/, loaded by
# <out>/split/<page>/__wasm_split.js when a part is first wanted. Other pages are left alone. It fails,
# naming it, where a built page disagrees with the list. index.html's script learns the same pages from
# the list (scripts/pages.sh), so nothing in the built index.html is rewritten here.
#
# Trunk runs this after each build (Trunk.toml, [[hooks]] stage = "post_build") with TRUNK_STAGING_DIR set
# to the build's staging folder. By hand, after `trunk build --release`: scripts/split.sh [OUT]
# (OUT defaults to dist/). wasm-split-cli, wasm-bindgen, wasm-opt and node come from scripts/setup.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${TRUNK_STAGING_DIR:-$root/dist}}
raw=${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/wasm-release
export PATH="$HOME/.cargo/bin:$root/tests/e2e/node_modules/.bin:$PATH"

fail() { printf 'split: %s\n' "$*" >&2; exit 1; }
for tool in wasm-split-cli wasm-bindgen wasm-opt node; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup.sh"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each page of pages.json with parts, as `<page> <part> <part>...` lines.
listed=$(node -e '
  const { pages } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const p of pages) if (p.parts.length > 0) console.log([p.bin, ...p.parts].join(" "));
' "$root/pages.json")

for js in "$out"/gridarena-*.js; do
  page=$(basename "$js" .js)
  if grep -q '__wasm_split_placeholder__' "$js"; then
    grep -q "^$page " <<<"$listed" || fail "$page has split points, but pages.json lists no parts for it"
  fi
done

# The list is read on its own descriptor: the tools below must not eat it from stdin.
while read -r -u 3 page names; do
  js="$out/$page.js"
  [ -f "$js" ] || fail "pages.json lists $page, but the build has no $page.js (is it in index.html?)"
  # Run again by hand on a folder already split: nothing to do for this page.
  grep -q "\"./split/$page/__wasm_split.js\"" "$js" && continue
  grep -q '__wasm_split_placeholder__' "$js" || fail "pages.json lists parts for $page, but its module has no split point"
  [ -f "$raw/$page.wasm" ] || fail "$raw/$page.wasm is missing: the page must be built first (trunk build --release)"
  rm -rf "${work:?}"/*
  wasm-split-cli --target web --out-name "$page" "$raw/$page.wasm" "$work/split" >/dev/null \
    || fail "wasm-split-cli could not split $page.wasm (is it linked with --emit-relocs? see build.rs)"
  # The parts reach the page's function table through its exports: the linker's own, kept.
  wasm-bindgen --target web --no-typescript --keep-lld-exports --out-dir "$work/bound" --out-name "$page" \
    "$work/split/$page.wasm"

  parts="$out/split/$page"
  rm -rf "$parts"
  mkdir -p "$parts"
  wasm-opt -Oz --converge "$work/bound/${page}_bg.wasm" -o "$out/${page}_bg.wasm"
  for part in "$work"/split/*.wasm; do
    [ "$(basename "$part")" = "$page.wasm" ] && continue
    # wasm-split writes a names subsection binaryen does not know: only that warning is left out.
    wasm-opt -Oz --converge "$part" -o "$parts/$(basename "$part")" 2>&1 \
      | { grep -v 'unknown name subsection' || true; } >&2
  done
  # The loader imports the page's module, which imports the loader: both paths are from split/<page>/.
  sed "s#from \"./$page.js\"#from \"../../$page.js\"#" "$work/split/__wasm_split.js" > "$parts/__wasm_split.js"
  sed "/^import \\* as /s#\"./__wasm_split.js\"#\"./split/$page/__wasm_split.js\"#" "$work/bound/$page.js" > "$out/$page.js"
  grep -q "\"./split/$page/__wasm_split.js\"" "$out/$page.js" || fail "$page.js does not import its parts' loader"
  grep -q "\"../../$page.js\"" "$parts/__wasm_split.js" || fail "the parts' loader of $page does not import it"
  mkdir -p "$out/snippets"
  cp -R "$work/bound/snippets/." "$out/snippets/"
  for name in $names; do
    [ -f "$parts/split_$name.wasm" ] || fail "pages.json lists the part $name of $page, but it was not cut out"
  done
  printf 'split: %s: the page %s KB, its parts %s KB (before gzip)\n' "$page" \
    "$(( $(stat -c %s "$out/${page}_bg.wasm") / 1024 ))" "$(( $(du -cb "$parts"/*.wasm | tail -1 | cut -f1) / 1024 ))"
done 3<<<"$listed"

