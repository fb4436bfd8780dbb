//! The roster: add one entry, paste many, hand in code (dropped on the roster, chosen, or a code link),
//! remove, open a code entry's code, import and export the roster file. Each part has its own file:
//! the entries (`roster_entries`), the add and paste forms (`roster_add`), the roster file
//! (`roster_files`), handing in code (`hand_in`).

use super::code_view::CodeView;
use super::hand_in::HandIn;
use super::roster_add::AddEntryForms;
use super::roster_entries::RosterEntries;
use super::roster_files::RosterFiles;
use super::roster_list::RosterList;
use crate::notice::Line;
use leptos::prelude::*;

#[component]
pub fn RosterPanel(roster: RwSignal<RosterList>, notice: RwSignal<Option<Line>>) -> impl IntoView {
    // The code entry whose code is open, by name.
    let open = RwSignal::new(None::<String>);
    let code_view = move || {
        let name = open.get()?;
        let source = roster.with(|r| {
            r.entries()
                .iter()
                .find(|e| e.name == name)
                .and_then(|e| e.code.clone())
        })?;
        Some(view! { <CodeView name source on_close=Callback::new(move |()| open.set(None)) /> })
    };
    // The whole roster takes a drop of homework.
    let dropping = RwSignal::new(false);
    let dropped = RwSignal::new_local(None::<wasm_bindgen::JsValue>);
    let over = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dropping.set(true);
    };
    let drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let event: &wasm_bindgen::JsValue = ev.as_ref();
        dropped.set(Some(event.clone()));
    };
    let link_note = move || {
        roster.with(|r| r.has_code()).then(|| view! {
            <p class="hint" data-testid="roster-link-note">
                "This roster holds code, too much for the page's link: the address no longer carries it. "
                "It is kept in this browser; to share it, export the roster file."
            </p>
        })
    };
    view! {
        <fieldset
            class="t-roster"
            on:dragover=over
            on:dragleave=move |_| dropping.set(false)
            on:drop=drop
        >
            <legend>"Roster (" {move || roster.with(|r| r.entries().len())} " entries)"</legend>
            <RosterEntries roster notice open />
            {code_view}
            <HandIn roster notice dropping dropped />
            <AddEntryForms roster notice />
            <RosterFiles roster notice />
            {link_note}
        </fieldset>
    }
}
