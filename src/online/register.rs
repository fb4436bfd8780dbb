//! Choosing a name: the server issues a secret token that this browser keeps.

use super::api::{self, Identity};
use leptos::prelude::*;

/// What the name form says when the browser will not keep the identity.
const NOT_KEPT: &str =
    "this browser does not keep data for this page, so your name will be lost when you close it";

#[component]
pub fn Register(identity: RwSignal<Option<Identity>>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let submit = move || {
        let wanted = name.get_untracked().trim().to_string();
        error.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            match api::register(&wanted).await {
                Ok(id) => {
                    if !api::store_identity(Some(&id)) {
                        error.set(Some(NOT_KEPT.to_string()));
                    }
                    identity.set(Some(id));
                }
                Err(why) => error.set(Some(why.to_string())),
            }
            busy.set(false);
        });
    };
    view! {
        <form
            class="setup register"
            aria-label="Choose a name"
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }
        >
            <p>"Play Go against people on other machines. Choose the name others will see: it is yours on this browser."</p>
            <label>
                <span>"Your name"</span>
                <input
                    type="text"
                    maxlength="20"
                    required
                    data-testid="online-name"
                    autocomplete="nickname"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
            </label>
            <button type="submit" data-testid="online-register" disabled=move || busy.get()>"Enter the lobby"</button>
            <p class="error" data-testid="online-register-error">{move || error.get()}</p>
        </form>
    }
}
