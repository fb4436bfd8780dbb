//! The message field: GridWorld's place for everything the referee says, one line per paragraph, the
//! latest tick at the top and earlier ones below, with a filter by team and for errors.

use super::messages::{Block, Filter};
use crate::notice::tone_class;
use gridarena_engine::halma::Team;
use leptos::prelude::*;

/// How many ticks' blocks the field shows until its reader asks for the older ones: about three screens
/// of the field beside the board, six above it (four lines a tick). Each tick adds a block at the top
/// and moves every block under it down, and each block shown costs the tick its move: with the whole
/// log (300 ticks) that cost more than the rest of the tick (issue 16), and 40 blocks still cost about
/// 0.2 ms a tick more than 10 (issue 38).
pub const SHOWN_AT_FIRST: usize = 10;

/// How many blocks the page should hand the field: one more than it shows, so it knows there are older
/// ones, or all once `all` (the reader asked for them) is set. Asking the log for only these spares a
/// tick the copy of the whole log.
pub fn blocks_wanted(all: bool) -> usize {
    if all {
        usize::MAX
    } else {
        SHOWN_AT_FIRST + 1
    }
}

/// The lines shown, one block a tick (numbered by its first line), and the filter the page reads them
/// through; `all` says the reader asked for every tick the log keeps (see [`blocks_wanted`]). Blocks are
/// keyed by number and content, so a tick adds one block at the top and drops the oldest, and the other
/// lines stay where they are: keyed line by line, the several lines a tick adds made the list's diff move
/// every older line in the DOM each tick (issue 16).
#[component]
pub fn MessageField(
    lines: Memo<Vec<Block>>,
    filter: RwSignal<Filter>,
    all: RwSignal<bool>,
) -> impl IntoView {
    // A memo, so the button below comes and goes once, not with every tick.
    let more = Memo::new(move |_| !all.get() && lines.with(Vec::len) > SHOWN_AT_FIRST);
    let shown = move || {
        let limit = if all.get() {
            usize::MAX
        } else {
            SHOWN_AT_FIRST
        };
        lines.with(|l| l.iter().take(limit).cloned().collect::<Vec<_>>())
    };
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
                    each=shown
                    key=Block::key
                    children=|block| {
                        view! {
                            <div class="tick-lines">
                                {block
                                    .lines
                                    .iter()
                                    .map(|l| view! { <p class=tone_class(l.tone)>{l.text.clone()}</p> })
                                    .collect_view()}
                            </div>
                        }
                    }
                />
            </div>
            // Outside the log, which a screen reader reads out as it changes.
            {move || {
                more.get()
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                class="older"
                                data-testid="messages-older"
                                on:click=move |_| all.set(true)
                            >
                                {format!("Show older ticks (the field shows the latest {SHOWN_AT_FIRST})")}
                            </button>
                        }
                    })
            }}
        </div>
    }
}
