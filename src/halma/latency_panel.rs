//! The AI players' answer times, under the board.

use super::arena_model::latency_text;
use super::session::Session;
use leptos::prelude::*;

/// The latest and average answer time of each AI player.
///
/// The text changes every tick. It sits in a box of a fixed two lines (`.latency-text`, contained),
/// so a tick lays out that box alone: as an item of the side column's grid the line itself could not
/// be laid out apart, and its new text laid out the whole page each tick (about 0.1 ms, issue 38).
#[component]
pub fn LatencyPanel(session: RwSignal<Session>) -> impl IntoView {
    view! {
        <p class="latency" data-testid="latency" aria-label="Answer times">
            <span class="latency-text">{move || session.with(latency_text)}</span>
        </p>
    }
}
