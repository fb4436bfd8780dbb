//! The "Write an AI" page: mounts it. A module of its own (started by the script in index.html), so the
//! editor's page carries no game but the Halma pieces its tests use; the editor itself, Pyodide and the
//! code players' worker load from `dist/code/` and `dist/pyodide/` only when this page asks for them.

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(gridarena::code::CodePage);
}
