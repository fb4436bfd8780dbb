//! The message field: GridWorld's place for everything the referee says, one line per paragraph, the
//! latest tick at the top and earlier ones below, with a filter by team and for errors.

use super::messages::{Filter, Line};
use crate::notice::tone_class;
use gridarena_engine::halma::Team;
use leptos::prelude::*;

/// The lines shown, one block a tick (numbered by its first line), and the filter the page reads them
/// through. Blocks are keyed by number and text, so a tick adds one block at the top and drops the oldest,
/// and the other few hundred lines stay where they are: keyed line by line, the several lines a tick adds
/// made the list's diff move every older line in the DOM each tick (issue 16).
#[component]
pub fn MessageField(lines: Memo<Vec<(u64, Vec<Line>)>>, filter: RwSignal<Filter>) -> impl IntoView {
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
                    key=|(n, block)| (*n, block.iter().map(|l| l.text.clone()).collect::<Vec<_>>())
                    children=|(_, block)| {
                        view! {
                            <div class="tick-lines">
                                {block
                                    .into_iter()
                                    .map(|l| view! { <p class=tone_class(l.tone)>{l.text}</p> })
                                    .collect_view()}
                            </div>
                        }
                    }
                />
            </div>
        </div>
    }
}
