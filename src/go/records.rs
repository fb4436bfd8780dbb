//! Game records: "Download SGF" and "Load SGF".

use crate::widgets::{Chosen, FileInput};
use gridarena_engine::go::sgf::MAX_SGF_BYTES;
use leptos::prelude::*;

#[component]
pub fn Records(on_download: Callback<()>, on_load: Callback<Chosen>) -> impl IntoView {
    view! {
        <div class="go-files" role="group" aria-label="Game records">
            <button data-testid="sgf-download" on:click=move |_| on_download.run(())>"Download SGF"</button>
            <FileInput
                label="Load SGF"
                testid="sgf-load"
                accept=".sgf,application/x-go-sgf,text/plain"
                max_bytes=MAX_SGF_BYTES
                what="SGF files"
                on_read=on_load
            />
        </div>
    }
}
