//! Confirm and Cancel for the human whose move is being clicked together.

use leptos::prelude::*;

/// The buttons, shown only while a human is to move (the box hides itself when empty).
#[component]
pub fn HumanActions(
    /// Whether a human's clicks are being taken.
    #[prop(into)]
    active: Signal<bool>,
    on_confirm: Callback<()>,
    on_cancel: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="human-actions">
            <Show when=move || active.get()>
                <button data-testid="confirm" on:click=move |_| on_confirm.run(())>"Confirm move"</button>
                <button data-testid="cancel" on:click=move |_| on_cancel.run(())>"Cancel"</button>
            </Show>
        </div>
    }
}
