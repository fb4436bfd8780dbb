//! The online game on screen: the goban, both players' panels, Pass and Resign for the player to move,
//! the game's SGF record, and Stop watching for a spectator. What the words say is [`OnlineGame`]'s.

use super::api;
use super::game_view::OnlineGame;
use super::player_panel::PlayerPanel;
use crate::go::goban::Goban;
use gridarena_engine::go::{BoardSize, Color, Move, Point};
use leptos::prelude::*;

#[component]
pub fn OnlineBoard(
    game: Memo<Option<OnlineGame>>,
    now: RwSignal<f64>,
    on_move: Callback<Move>,
    on_resign: Callback<()>,
    on_leave: Callback<()>,
    on_unwatch: Callback<()>,
) -> impl IntoView {
    let confirm_resign = RwSignal::new(false);
    let size = Signal::derive(move || {
        game.with(|g| g.as_ref().map(|g| g.game().size()))
            .unwrap_or(BoardSize::NINE)
    });
    let stones = Signal::derive(move || {
        game.with(|g| g.as_ref().map(OnlineGame::stones).unwrap_or_default())
    });
    let last = Signal::derive(move || game.with(|g| g.as_ref().and_then(OnlineGame::last_point)));
    let my_turn = Memo::new(move |_| game.with(|g| g.as_ref().is_some_and(OnlineGame::my_turn)));
    let to_play = Signal::derive(move || {
        my_turn
            .get()
            .then(|| game.with(|g| g.as_ref().map(|g| g.game().to_move())))
            .flatten()
    });
    let play = Callback::new(move |p: Point| on_move.run(Move::Play(p)));
    let title = move || game.with(|g| g.as_ref().map(OnlineGame::title));
    let status = move || game.with(|g| g.as_ref().map(OnlineGame::status));
    let sgf = move || game.with(|g| g.as_ref().map(|g| api::sgf_url(g.id)));
    let over = move || game.with(|g| g.as_ref().is_none_or(OnlineGame::is_over));
    let watching = move || game.with(|g| g.as_ref().is_some_and(|g| g.mine.is_none()));

    view! {
        <div class="online-game">
            <h2 data-testid="online-title">{title}</h2>
            <div class="go-players">
                <PlayerPanel game=game now=now color=Color::Black />
                <PlayerPanel game=game now=now color=Color::White />
            </div>
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
                            disabled=move || over() || watching()
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
                <Show when=watching>
                    <button data-testid="online-unwatch" on:click=move |_| on_unwatch.run(())>
                        "Stop watching"
                    </button>
                </Show>
            </div>
        </div>
    }
}
