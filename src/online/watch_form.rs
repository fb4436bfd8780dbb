//! Watching a game by its number.

use crate::widgets::SubmitForm;
use leptos::prelude::*;

#[component]
pub fn WatchForm(
    /// The number as typed: the lobby's, so that it is still there on coming back from a game.
    typed: RwSignal<String>,
    /// Called with the number as typed; the lobby reads it.
    on_watch: Callback<String>,
) -> impl IntoView {
    view! {
        <SubmitForm
            class="setup"
            label="Watch a game"
            on_submit=Callback::new(move |()| on_watch.run(typed.get_untracked()))
        >
            <label>
                <span>"Watch game number"</span>
                <input
                    type="text"
                    inputmode="numeric"
                    data-testid="online-watch-id"
                    prop:value=move || typed.get()
                    on:input=move |ev| typed.set(event_target_value(&ev))
                />
            </label>
            <button type="submit">"Watch"</button>
        </SubmitForm>
    }
}
