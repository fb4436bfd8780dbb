//! The AI players' answer times, under the board.

use super::arena_model::latency_text;
use super::session::Session;
use leptos::prelude::*;

/// The latest and average answer time of each AI player.
#[component]
pub fn LatencyPanel(session: RwSignal<Session>) -> impl IntoView {
    view! {
        <p class="latency" data-testid="latency" aria-label="Answer times">
            {move || session.with(latency_text)}
        </p>
    }
}
