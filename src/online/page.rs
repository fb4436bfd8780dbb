//! The Online Go page: pick a name once, then the lobby (your record, find a game, watch one, the
//! leaderboard) and the games, live over the server's WebSocket (docs/online.md).

use super::api;
use super::lobby_view::LobbyView;
use super::register::Register;
use leptos::prelude::*;

/// The page: the name form until this browser has an identity, then the lobby.
#[component]
pub fn OnlinePage() -> impl IntoView {
    let identity = RwSignal::new(api::load_identity());
    view! {
        <section class="online" aria-label="Online Go">
            {move || match identity.get() {
                None => view! { <Register identity=identity /> }.into_any(),
                Some(me) => view! { <LobbyView me=me identity=identity /> }.into_any(),
            }}
        </section>
    }
}
