//! The bar above the lobby: who is signed in and their record, the connection's state, and a way to
//! forget the identity on this browser.

use super::socket::Link;
use leptos::prelude::*;

#[component]
pub fn LobbyBar(
    name: String,
    /// " · 3 won, 1 lost", once the server has said.
    #[prop(into)]
    record: Signal<Option<String>>,
    #[prop(into)] link: Signal<Link>,
    on_forget: Callback<()>,
) -> impl IntoView {
    let link_text = move || match link.get() {
        Link::Open => None,
        Link::Connecting => Some("connecting to the server…".to_string()),
        Link::Down(why) => Some(why),
    };
    view! {
        <div class="lobby-bar">
            <span data-testid="online-me">
                "Signed in as " <b>{name}</b>
                {move || record.get()}
            </span>
            <span class="link" data-testid="online-link">{link_text}</span>
            <button class="quiet" on:click=move |_| on_forget.run(())>"Forget me on this browser"</button>
        </div>
    }
}
