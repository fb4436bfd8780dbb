//! The online game on screen: the goban, both players with captures and the clock, Pass and Resign for the
//! player to move, and the game's SGF record.

use super::api;
use super::game_view::OnlineGame;
use crate::go::goban::Goban;
use crate::go::players::clock_text;
use gridarena_engine::go::{Color, Move, Point};
use leptos::prelude::*;

/// The words for a result: "Black (Ada) wins by 3.5 points (B+3.5)".
pub fn result_words(result: &str, game: &OnlineGame) -> String {
    let (winner, how) = match result.split_once('+') {
        Some(("B", how)) => (Color::Black, how),
        Some(("W", how)) => (Color::White, how),
        _ => return format!("The game is over: {result}"),
    };
    let how = match how {
        "R" => "by resignation".to_string(),
        "T" => "on time".to_string(),
        points => format!("by {points} points"),
    };
    let name = crate::go::session::title(winner);
    format!("{name} ({}) wins {how} ({result})", game.name(winner))
}

#[component]
pub fn OnlineBoard(
    game: Memo<Option<OnlineGame>>,
    now: RwSignal<f64>,
    on_move: Callback<Move>,
    on_resign: Callback<()>,
    on_leave: Callback<()>,
) -> impl IntoView {
    let confirm_resign = RwSignal::new(false);
    let size = Signal::derive(move || {
        game.with(|g| g.as_ref().map(|g| g.game().size()))
            .unwrap_or(gridarena_engine::go::BoardSize::NINE)
    });
    let stones = Signal::derive(move || {
        game.with(|g| g.as_ref().map(OnlineGame::stones).unwrap_or_default())
    });
    let last = Signal::derive(move || {
        game.with(|g| {
            g.as_ref()
                .and_then(|g| g.game().moves().last().and_then(|(_, m)| m.point()))
        })
    });
    let my_turn = Memo::new(move |_| game.with(|g| g.as_ref().is_some_and(OnlineGame::my_turn)));
    let to_play = Signal::derive(move || {
        my_turn
            .get()
            .then(|| game.with(|g| g.as_ref().map(|g| g.game().to_move())))
            .flatten()
    });
    let play = Callback::new(move |p: Point| on_move.run(Move::Play(p)));

    let panel = move |c: Color| {
        let to_move = move || {
            game.with(|g| {
                g.as_ref()
                    .is_some_and(|g| !g.is_over() && g.game().to_move() == c)
            })
        };
        let clock = move || {
            if !to_move() {
                return String::new();
            }
            let left = game.with(|g| g.as_ref().and_then(|g| g.clock_left(now.get())));
            left.map(|ms| clock_text(ms as f64)).unwrap_or_default()
        };
        let class = move || {
            let colour = if c == Color::Black { "black" } else { "white" };
            if to_move() {
                format!("go-player {colour} to-move")
            } else {
                format!("go-player {colour}")
            }
        };
        let name = move || {
            game.with(|g| {
                g.as_ref().map(|g| {
                    let you = if g.mine == Some(c) { " (you)" } else { "" };
                    format!("{}{you}", g.name(c))
                })
            })
        };
        let captures = move || game.with(|g| g.as_ref().map_or(0, |g| g.game().captures(c)));
        view! {
            <div class=class data-testid=format!("online-{}", c.name())>
                <span class="swatch" aria-hidden="true"></span>
                <span class="name">{name}</span>
                <span class="captures">"captured " <b>{captures}</b></span>
                <span class="clock" role="timer" aria-label=format!("{} move clock", c.name())>{clock}</span>
            </div>
        }
    };
    let title = move || {
        game.with(|g| {
            g.as_ref().map(|g| {
                let n = g.game().size();
                let watching = if g.mine.is_none() { " (watching)" } else { "" };
                format!("Game {} · {n}{watching}", g.id)
            })
        })
    };
    let status = move || {
        game.with(|g| {
            let g = g.as_ref()?;
            Some(match g.result() {
                Some(r) => result_words(r, g),
                None if g.my_turn() => "Your move".to_string(),
                None => format!("{} to play", g.name(g.game().to_move())),
            })
        })
    };
    let sgf = move || game.with(|g| g.as_ref().map(|g| api::sgf_url(g.id)));
    let over = move || game.with(|g| g.as_ref().is_none_or(OnlineGame::is_over));

    view! {
        <div class="online-game">
            <h2 data-testid="online-title">{title}</h2>
            <div class="go-players">{panel(Color::Black)} {panel(Color::White)}</div>
            <p class="go-status" data-testid="online-status" role="status" aria-live="polite">{status}</p>
            <Goban
                size=size
                stones=stones
                last=last
                area=Signal::derive(Vec::new)
                to_play=to_play
                on_play=play
            />
            <div class="go-actions">
                <button data-testid="online-pass" disabled=move || !my_turn.get() on:click=move |_| on_move.run(Move::Pass)>
                    "Pass"
                </button>
                <Show
                    when=move || confirm_resign.get()
                    fallback=move || view! {
                        <button
                            data-testid="online-resign"
                            disabled=move || over() || game.with(|g| g.as_ref().is_some_and(|g| g.mine.is_none()))
                            on:click=move |_| confirm_resign.set(true)
                        >
                            "Resign"
                        </button>
                    }
                >
                    <span class="confirm">
                        "Resign this game? "
                        <button
                            data-testid="online-resign-yes"
                            on:click=move |_| {
                                confirm_resign.set(false);
                                on_resign.run(());
                            }
                        >
                            "Yes, resign"
                        </button>
                        <button on:click=move |_| confirm_resign.set(false)>"No"</button>
                    </span>
                </Show>
                <a class="button" data-testid="online-sgf" href=sgf download="">"SGF record"</a>
                <button data-testid="online-leave" on:click=move |_| on_leave.run(())>"Back to the lobby"</button>
            </div>
        </div>
    }
}
