//! The message field: GridWorld's place for everything the referee says, one line per paragraph.

use super::messages::Line;
use crate::notice::tone_class;
use leptos::prelude::*;

/// The lines of the tick shown. A memo, so the paragraphs are rebuilt only when the text changes.
#[component]
pub fn MessageField(lines: Memo<Vec<Line>>) -> impl IntoView {
    view! {
        <div
            class="messages"
            role="log"
            aria-live="polite"
            aria-label="Message field"
            data-testid="messages"
        >
            {move || {
                lines
                    .get()
                    .into_iter()
                    .map(|l| view! { <p class=tone_class(l.tone)>{l.text}</p> })
                    .collect_view()
            }}
        </div>
    }
}
