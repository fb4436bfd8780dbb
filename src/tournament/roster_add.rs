//! The roster's two forms for new entries: add one (a name and a player), or paste many lines.

use super::roster_list::RosterList;
use crate::notice::{self, Line};
use crate::widgets::SubmitForm;
use leptos::prelude::*;

/// The forms; what each did, or why not, goes to `notice`. A form is emptied once its entries are in.
#[component]
pub fn AddEntryForms(
    roster: RwSignal<RosterList>,
    notice: RwSignal<Option<Line>>,
) -> impl IntoView {
    let say = move |said| notice.set(Some(Line::answer(said, false)));
    let name = RwSignal::new(String::new());
    let player = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let add = Callback::new(move |()| {
        let said = notice::run(roster, |r| {
            r.add(&name.get_untracked(), &player.get_untracked())
        });
        if said.is_ok() {
            name.set(String::new());
        }
        say(said);
    });
    let paste = Callback::new(move |()| {
        let said = notice::run(roster, |r| r.paste(&pasted.get_untracked()));
        if said.is_ok() {
            pasted.set(String::new());
        }
        say(said);
    });
    view! {
        <SubmitForm class="setup" label="Add one entry" on_submit=add>
            <label>
                <span>"Name"</span>
                <input data-testid="entry-name" bind:value=name />
            </label>
            <label>
                <span>"Player"</span>
                <input
                    data-testid="entry-player"
                    list="house-bots"
                    placeholder="http://… or builtin:greedy"
                    bind:value=player
                />
            </label>
            <datalist id="house-bots">
                <option value="builtin:greedy">"house bot: greedy"</option>
                <option value="builtin:search">"house bot: search"</option>
            </datalist>
            <button data-testid="add-entry">"Add"</button>
        </SubmitForm>
        <SubmitForm class="setup paste" label="Paste many entries" on_submit=paste>
            <label>
                <span>"Paste lines: name, then URL or builtin:greedy"</span>
                <textarea data-testid="paste" rows="4" bind:value=pasted></textarea>
            </label>
            <button data-testid="paste-add">"Add these"</button>
        </SubmitForm>
    }
}
