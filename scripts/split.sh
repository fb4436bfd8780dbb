#!/usr/bin/env bash
# Cuts the parts a page's first board does not show out of its first download (src/lazy.rs).
#
# A page module that calls a split function (`#[wasm_split(..)]`) is built whole by trunk, with a placeholder
# import for each split point. This step takes that page's wasm as the linker wrote it (the relocations kept
# by build.rs), cuts it with wasm-split-cli into the page's module and one module per part
# (plus modules of what several parts share), binds and optimises them as trunk does, and puts them in
# place of trunk's: <out>/<page>.js and <out>/<page>_bg.wasm, the parts in <out>/split/<page>/, loaded by
# <out>/split/<page>/__wasm_split.js when a part is first wanted. Pages without split points are left alone.
# Last, it names the split pages in <out>/index.html, whose script fetches such a page's parts' loader with
# the page (build.rs finds the same pages in their bins).
#
# Trunk runs this after each build (Trunk.toml, [[hooks]] stage = "post_build") with TRUNK_STAGING_DIR set
# to the build's staging folder. By hand, after `trunk build --release`: scripts/split.sh [OUT]
# (OUT defaults to dist/). wasm-split-cli, wasm-bindgen and wasm-opt come from scripts/setup.sh.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${TRUNK_STAGING_DIR:-$root/dist}}
raw=${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/wasm-release
export PATH="$HOME/.cargo/bin:$root/tests/e2e/node_modules/.bin:$PATH"

fail() { printf 'split: %s\n' "$*" >&2; exit 1; }
for tool in wasm-split-cli wasm-bindgen wasm-opt; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup.sh"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for js in "$out"/gridarena-*.js; do
  grep -q '__wasm_split_placeholder__' "$js" || continue
  page=$(basename "$js" .js)
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
  printf 'split: %s: the page %s KB, its parts %s KB (before gzip)\n' "$page" \
    "$(( $(stat -c %s "$out/${page}_bg.wasm") / 1024 ))" "$(( $(du -cb "$parts"/*.wasm | tail -1 | cut -f1) / 1024 ))"
done

# The page's script (index.html) fetches a split page's parts' loader with its module: it is told which
# pages those are here (each page whose module imports its parts' loader), the list kept nowhere else.
if [ -f "$out/index.html" ]; then
  split_pages=()
  for js in "$out"/gridarena-*.js; do
    page=$(basename "$js" .js)
    grep -q "\"./split/$page/__wasm_split.js\"" "$js" && split_pages+=("'$page'")
  done
  list=$(IFS=,; echo "${split_pages[*]}")
  sed -i "s#const SPLIT_PAGES = \[[^]]*\];#const SPLIT_PAGES = [$list];#" "$out/index.html"
  grep -q "const SPLIT_PAGES = \[$list\];" "$out/index.html" || fail "index.html does not name the split pages"
fi
