//! The page's files: a Map file to play on, a saved game, a currentstate file to look at, and the two
//! downloads.

use super::session::{Export, FileKind};
use crate::widgets::{Chosen, FileInput};
use gridarena_engine::hyperchess::map::MAX_NODES;
use leptos::prelude::*;

/// The largest file the page reads: a Map of the most nodes the engine takes, with room for long lines.
const MAX_FILE_BYTES: usize = MAX_NODES * 64;

#[component]
pub fn FileBar(
    on_open: Callback<(FileKind, Chosen)>,
    on_export: Callback<Export>,
) -> impl IntoView {
    let open = move |kind: FileKind| Callback::new(move |file: Chosen| on_open.run((kind, file)));
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
