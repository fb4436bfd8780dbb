//! The page's files: a Map file to play on, a saved game, a currentstate file to look at, and the two
//! downloads. The saved-game and currentstate readers and writers are only reached from here, so the
//! page's bin splits this part off its first download (`src/lazy.rs`).

use super::session::{Export, FileKind, HyperSession};
use crate::files;
use crate::notice::{self, Line};
use crate::widgets::{Chosen, FileInput};
use gridarena_engine::hyperchess::map::MAX_NODES;
use leptos::prelude::*;

/// The largest file the page reads: a Map of the most nodes the engine takes, with room for long lines.
const MAX_FILE_BYTES: usize = MAX_NODES * 64;

/// Opens files into `session` and downloads its game; what happened is said in `notice`.
#[component]
pub fn FileBar(session: RwSignal<HyperSession>, notice: RwSignal<Option<Line>>) -> impl IntoView {
    let say = move |said| notice.set(Some(Line::answer(said, false)));
    let open = move |kind: FileKind| {
        Callback::new(move |file: Chosen| {
            let Chosen { name, bytes } = file;
            say(bytes.and_then(|b| notice::run(session, |s| s.open(kind, &name, b))));
        })
    };
    let on_export = Callback::new(move |what: Export| {
        let (name, text) = session.with_untracked(|s| s.export(what));
        if let Err(e) = files::download(name, &text, "text/plain") {
            say(Err(e));
        }
    });
    view! {
        <div class="replay" role="group" aria-label="Files">
            <FileInput
                label="Load a Map file"
                testid="hc-load-map"
                max_bytes=MAX_FILE_BYTES
                what="files"
                on_read=open(FileKind::Map)
            />
            <FileInput
                label="Load a saved game"
                testid="hc-load-save"
                max_bytes=MAX_FILE_BYTES
                what="files"
                on_read=open(FileKind::Save)
            />
            <FileInput
                label="View a currentstate file"
                testid="hc-load-state"
                max_bytes=MAX_FILE_BYTES
                what="files"
                on_read=open(FileKind::State)
            />
            <button data-testid="hc-save" on:click=move |_| on_export.run(Export::Save)>"Save the game"</button>
            <button data-testid="hc-currentstate" on:click=move |_| on_export.run(Export::State)>
                "Download currentstate"
            </button>
        </div>
    }
}
