//! The Online Go page: pick a name once, then the lobby (your record, find a game, watch one, the
//! leaderboard) and the games, live over the server's WebSocket (docs/online.md).

use super::api;
use super::board::OnlineBoardProps;
use super::lobby_view::LobbyView;
use super::register::Register;
use crate::lazy::Split;
use leptos::prelude::*;

/// The page: the name form until this browser has an identity, then the lobby. `board` draws a game
/// being played or watched ([`super::OnlineBoard`]), split off the page's module by its bin
/// (`src/lazy.rs`): it loads once the page is idle, or with the first game shown.
#[component]
pub fn OnlinePage(board: Split<OnlineBoardProps>) -> impl IntoView {
    crate::lazy::preload(board);
    let identity = RwSignal::new(api::load_identity());
    view! {
        <section class="online" aria-label="Online Go">
            {move || match identity.get() {
                None => view! { <Register identity=identity /> }.into_any(),
                Some(me) => view! { <LobbyView me=me identity=identity board=board /> }.into_any(),
            }}
        </section>
    }
}
