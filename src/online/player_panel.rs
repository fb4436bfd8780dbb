//! One player's panel beside the online board: name (and "(you)"), stones captured, and the move clock
//! while they are to move.

use super::game_view::OnlineGame;
use crate::go::players::clock_text;
use gridarena_engine::go::Color;
use leptos::prelude::*;

#[component]
pub fn PlayerPanel(
    game: Memo<Option<OnlineGame>>,
    now: RwSignal<f64>,
    color: Color,
) -> impl IntoView {
    let to_move = move || game.with(|g| g.as_ref().is_some_and(|g| g.is_to_move(color)));
    let clock = move || {
        if !to_move() {
            return String::new();
        }
        let left = game.with(|g| g.as_ref().and_then(|g| g.clock_left(now.get())));
        left.map(|ms| clock_text(ms as f64)).unwrap_or_default()
    };
    let class = move || {
        let colour = if color == Color::Black {
            "black"
        } else {
            "white"
        };
        if to_move() {
            format!("go-player {colour} to-move")
        } else {
            format!("go-player {colour}")
        }
    };
    let name = move || game.with(|g| g.as_ref().map(|g| g.label(color)));
    let captures = move || game.with(|g| g.as_ref().map_or(0, |g| g.game().captures(color)));
    view! {
        <div class=class data-testid=format!("online-{}", color.name())>
            <span class="swatch" aria-hidden="true"></span>
            <span class="name">{name}</span>
            <span class="captures">"captured " <b>{captures}</b></span>
            <span class="clock" role="timer" aria-label=format!("{} move clock", color.name())>{clock}</span>
        </div>
    }
}
