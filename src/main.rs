//! The app's entry: it loads the page the address names (`#/go` is Go, `#/online` Online Go, `#/hyperchess`
//! HyperChess, `#/tournament` the classroom tournament, `#/doctor` the
//! endpoint doctor ("Test an AI"), anything else
//! the Halma arena, the start page). Each page is a wasm module of its own (`src/bin/gridarena-*.rs`), so opening the arena
//! downloads the arena alone (its budget is 200 KB) and Go's search and SGF code come only with the Go
//! page. Trunk builds every module; this one is the only one it starts.
//!
//! The work is a few lines of JavaScript, because any Rust here would bring the standard library's
//! formatting and allocator into a module every page downloads (about 20 KB gzipped); this module is
//! about 1 KB.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
// Each page and the module that draws it.
const MODULES = { '': 'gridarena-halma', go: 'gridarena-go', online: 'gridarena-online', hyperchess: 'gridarena-hyperchess', tournament: 'gridarena-tournament', doctor: 'gridarena-doctor' };
const pageOf = () => {
  // A page's own settings may follow a '?' (`#/tournament?roster=...`).
  const page = location.hash.replace(/^#\/?/, '').replace(/\?.*$/, '').replace(/\/$/, '');
  return page in MODULES ? page : '';
};

export function start() {
  const page = pageOf();
  const module = MODULES[page];
  for (const a of document.querySelectorAll('nav a[data-page]')) {
    if (a.dataset.page === page) a.setAttribute('aria-current', 'page');
  }
  // Another page is started fresh rather than switched inside a running app.
  addEventListener('hashchange', () => { if (pageOf() !== page) location.reload(); });
  const url = (file) => new URL(file, document.baseURI).href;
  import(url(`./${module}.js`))
    .then((m) => m.default({ module_or_path: url(`./${module}_bg.wasm`) }))
    .catch((e) => {
      document.getElementById('page').textContent = `This page could not start: ${e}`;
      console.error(e);
    });
}"#)]
extern "C" {
    /// Marks the page in the navigation and imports and starts its module (whose `main` mounts it).
    fn start();
}

fn main() {
    start();
}
