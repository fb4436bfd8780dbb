//! The message field: GridWorld's place for everything the referee says, one line per paragraph, the
//! latest tick at the top and earlier ones below, with a filter by team and for errors.

use super::messages::{Filter, Line};
use crate::notice::tone_class;
use gridarena_engine::halma::Team;
use leptos::prelude::*;

/// The lines shown, numbered, and the filter the page reads them through. Paragraphs are keyed by
/// number and text, so a tick adds its own and drops the oldest; the other few hundred stay untouched.
#[component]
pub fn MessageField(lines: Memo<Vec<(u64, Line)>>, filter: RwSignal<Filter>) -> impl IntoView {
    view! {
        <div class="message-panel">
            <div class="message-filter" role="group" aria-label="Message filter">
                <select
                    data-testid="messages-team"
                    aria-label="Show the lines of"
                    on:change=move |ev| {
                        let team = event_target_value(&ev).parse::<Team>().ok();
                        filter.update(|f| f.team = team);
                    }
                >
                    <option value="all">"All teams"</option>
                    <option value="red">"red"</option>
                    <option value="blue">"blue"</option>
                </select>
                <label>
                    <input
                        type="checkbox"
                        data-testid="messages-errors"
                        on:change=move |ev| filter.update(|f| f.errors_only = event_target_checked(&ev))
                    />
                    "Errors only"
                </label>
            </div>
            <div
                class="messages"
                role="log"
                aria-live="polite"
                aria-label="Message field"
                data-testid="messages"
            >
                <For
                    each=move || lines.get()
                    key=|(n, l)| (*n, l.text.clone())
                    children=|(_, l)| view! { <p class=tone_class(l.tone)>{l.text}</p> }
                />
            </div>
        </div>
    }
}
