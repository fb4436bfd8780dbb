//! The roster's entries, one line each: the name, the player (or a code entry's language, format, size
//! and hash, with a button to open its code), a mark on a program, and Remove.

use super::roster_list::{is_program, RosterList};
use crate::notice::{self, Line};
use leptos::prelude::*;

/// The entries of `roster`; `open` is set to the name of the code entry whose code is asked for.
#[component]
pub fn RosterEntries(
    roster: RwSignal<RosterList>,
    notice: RwSignal<Option<Line>>,
    open: RwSignal<Option<String>>,
) -> impl IntoView {
    let say = move |said| notice.set(Some(Line::answer(said, false)));
    let rows = move || {
        roster.with(|r| {
            r.entries()
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let summary = r.summary(e);
                    let name = e.name.clone();
                    view! {
                        <li>
                            <span class="t-name">{e.name.clone()}</span>
                            {match summary {
                                Some(c) => view! {
                                    <span class="t-code" data-testid="code-summary" title=c.sha256.clone()>
                                        {format!("{} · {} · {} · ", c.lang, c.format, c.size())}
                                        <code data-testid="code-hash">{c.short_hash().to_string()}</code>
                                    </span>
                                    <button data-testid="open-code" on:click=move |_| open.set(Some(name.clone()))>
                                        "Code"
                                    </button>
                                }
                                    .into_any(),
                                None => view! { <code>{e.player.clone()}</code> }.into_any(),
                            }}
                            {is_program(e).then(|| view! {
                                <span
                                    class="t-program"
                                    data-testid="program-mark"
                                    title="A command a computer would run: the page cannot; gridarena halma tournament runs it only with --allow-programs"
                                >
                                    "program"
                                </span>
                            })}
                            <button
                                data-testid="remove-entry"
                                on:click=move |_| say(notice::run(roster, |r| r.remove(i)))
                            >
                                "Remove"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! { <ol data-testid="roster">{rows}</ol> }
}
