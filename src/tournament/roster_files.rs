//! The roster file: import one, or export the roster (saying which entries are commands, if any).

use super::roster_list::{RosterList, MAX_ROSTER_FILE};
use crate::files;
use crate::notice::{self, Line};
use crate::widgets::{Chosen, FileInput};
use leptos::prelude::*;

#[component]
pub fn RosterFiles(roster: RwSignal<RosterList>, notice: RwSignal<Option<Line>>) -> impl IntoView {
    let say = move |said| notice.set(Some(Line::answer(said, false)));
    let import = Callback::new(move |file: Chosen| {
        let Chosen { name, bytes } = file;
        say(bytes.and_then(|b| notice::run(roster, |r| r.import(&name, &b))));
    });
    let export = move |_| {
        let (json, note) = roster.with_untracked(|r| (r.to_json(), r.export_note()));
        match files::download("roster.json", &json, "application/json") {
            Err(e) => say(Err(e)),
            // Never silently: a roster that leaves with commands in it says which.
            Ok(()) => {
                if let Some(note) = note {
                    say(Ok(note));
                }
            }
        }
    };
    view! {
        <div class="t-files">
            <FileInput
                label="Import roster"
                testid="import-roster"
                max_bytes=MAX_ROSTER_FILE
                what="rosters"
                accept=".json,application/json"
                on_read=import
            />
            <button data-testid="export-roster" on:click=export>"Export roster"</button>
        </div>
    }
}
