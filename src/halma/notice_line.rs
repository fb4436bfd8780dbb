//! The line under the board: what the last click or control did, else what a human to move should do.

use super::messages::Line;
use crate::notice::tone_class;
use leptos::prelude::*;

/// `notice` when set, else the `waiting` hint.
#[component]
pub fn NoticeLine(
    notice: RwSignal<Option<Line>>,
    #[prop(into)] waiting: Signal<Option<String>>,
) -> impl IntoView {
    view! {
        <p class="notice" data-testid="notice">
            {move || {
                notice
                    .get()
                    .map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })
                    .or_else(|| waiting.get().map(|w| view! { <span class="info">{w}</span> }))
            }}
        </p>
    }
}
