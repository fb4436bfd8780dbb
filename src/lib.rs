//! GridArena in the browser.
//!
//! Components read plain view-model types (`halma::session::Session`, `halma::board_view::BoardView`)
//! that hold no signals, so the page's behaviour is tested natively; the rules come from the engine.

pub mod halma;

use leptos::prelude::*;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <header class="top">
            <h1>"GridArena"</h1>
            <p class="tagline">"Run, watch and test board-game AIs in your browser."</p>
        </header>
        <main>
            <halma::ArenaPage />
        </main>
    }
}
