//! Game records: "Download SGF" and "Load SGF". The SGF writer and reader are only reached from here, so
//! the page's bin splits this part off its first download (`src/lazy.rs`).

use super::session::{GoSession, Setup};
use crate::files;
use crate::notice::{self, Line, Tone};
use crate::widgets::{Chosen, FileInput};
use gridarena_engine::go::sgf::MAX_SGF_BYTES;
use leptos::prelude::*;

/// Today's date as SGF writes it (UTC).
fn today() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
        .get(..10)
        .unwrap_or_default()
        .to_string()
}

/// Downloads `session`'s game as SGF, and loads one in its place (`setup` then follows it); what went
/// wrong, or the loaded game's line, is said in `notice`.
#[component]
pub fn Records(
    session: RwSignal<GoSession>,
    setup: RwSignal<Setup>,
    notice: RwSignal<Option<Line>>,
) -> impl IntoView {
    let download = move |_| {
        let date = today();
        let (name, text) = session.with_untracked(|s| (s.sgf_file_name(&date), s.to_sgf(&date)));
        if let Err(why) = files::download(&name, &text, "application/x-go-sgf") {
            notice.set(Some(Line::new(Tone::Error, why)));
        }
    };
    let load = Callback::new(move |file: Chosen| {
        let said = notice::run(session, |s| {
            s.load_file(&file.name, file.bytes, super::now())
        });
        if said.is_ok() {
            setup.set(session.with_untracked(GoSession::setup));
        }
        let over = session.with_untracked(|s| s.game().is_over());
        notice.set(Some(Line::answer(said, over)));
    });
    view! {
        <div class="go-files" role="group" aria-label="Game records">
            <button data-testid="sgf-download" on:click=download>"Download SGF"</button>
            <FileInput
                label="Load SGF"
                testid="sgf-load"
                accept=".sgf,application/x-go-sgf,text/plain"
                max_bytes=MAX_SGF_BYTES
                what="SGF files"
                on_read=load
            />
        </div>
    }
}
