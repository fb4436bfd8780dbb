//! The HyperChess page: the board as z-slices side by side, click a piece to see where it can go and click
//! a target to move; the turn, the captured pieces and the winner; shipped maps, Map files, saved games,
//! and any currentstate file to look at. Every operation is the session's; this file wires them up.

use super::board3d::Board3dProps;
use super::boards::Boards;
use super::file_bar::FileBarProps;
use super::live_view::LiveViewProps;
use super::new_game::NewGameFormProps;
use super::session::{HyperSession, Opponent};
use crate::ai_player::AiPlayer;
use crate::lazy::{LazyPart, Split};
use crate::notice::{self, tone_class, Line};
use crate::widgets::RulesBox;
use gridarena_engine::hyperchess::{maps, Coord, Side};
use leptos::prelude::*;

const RULES: &[&str] = &[
    "The board is a graph of cubes: each level (z) is drawn as a square, side by side; gaps are holes.",
    "King and Pawn: one step in any of the 26 directions. Rook: any distance along x, y or z. Bishop: any distance diagonally (2 or 3 coordinates change by the same amount). Queen: both.",
    "Knight: 2 along one axis and 1 along another, jumping over pieces, but not over holes.",
    "No piece passes through a hole or another piece (except the Knight over pieces). Taking a King wins.",
];

/// The parts of the page that its first board does not show, split off its module by its bin
/// (`src/lazy.rs`): the live view, shown at once where the address asks for it; the new-game form, the
/// files bar and the 3D board, which load once the page is idle.
#[derive(Clone, Copy)]
pub struct HyperChessParts {
    pub live: Split<LiveViewProps>,
    pub new_game: Split<NewGameFormProps>,
    pub file_bar: Split<FileBarProps>,
    pub board3d: Split<Board3dProps>,
}

/// The page: the live view when the address asks for it (`#/hyperchess?live`, as `gridarena hyperchess
/// --view` prints it), the game otherwise.
#[component]
pub fn HyperChessPage(parts: HyperChessParts) -> impl IntoView {
    let live = window().location().hash().is_ok_and(|h| {
        h.split_once('?')
            .is_some_and(|(_, q)| q.split('&').any(|p| p == "live"))
    });
    if live {
        view! {
            <LazyPart what="the live view" load=Box::new(move || (parts.live.load)(LiveViewProps { board3d: parts.board3d })) at_once=true />
        }
        .into_any()
    } else {
        view! { <GamePage parts /> }.into_any()
    }
}

/// The game at this page.
#[component]
fn GamePage(parts: HyperChessParts) -> impl IntoView {
    let first = maps::SHIPPED[0];
    // Built into the page and read by the engine's tests on every run, so it always parses.
    let session = RwSignal::new(
        HyperSession::from_map(first.0, first.1).expect("the shipped maps parse (engine tests)"),
    );
    let notice = RwSignal::new(None::<Line>);
    let say = move |said| notice.set(Some(Line::answer(said, false)));

    // A click that ends the game is announced as the result.
    let click = Callback::new(move |at: Coord| {
        let said = notice::run(session, |s| s.click(at));
        let over = session.with_untracked(|s| s.game().outcome().is_some());
        notice.set(Some(Line::answer(said, over)));
    });
    let new_game = Callback::new(move |(map, ai): (usize, Option<Opponent>)| {
        say(notice::run(session, |s| s.new_game(map, ai)));
    });
    let _ai = AiPlayer::new(session, notice);

    let view = Memo::new(move |_| session.with(HyperSession::view));
    let viewing = Memo::new(move |_| session.with(HyperSession::viewing));
    let status_class = move || {
        if session.with(HyperSession::shows_result) {
            "hc-status result"
        } else {
            "hc-status"
        }
    };
    let lost = move |side: Side| move || session.with(|s| s.lost_text(side));

    view! {
        <section class="hyperchess" aria-label="HyperChess">
            <p class=status_class data-testid="hc-status" role="status" aria-live="polite">
                {move || session.with(HyperSession::status)}
            </p>
            <p class="notice" data-testid="hc-notice">
                {move || notice.get().map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })}
            </p>
            <Boards view=view on_click=click board3d=parts.board3d />
            <div class="hc-captured">
                <span data-testid="hc-lost-white">"White has lost: " {lost(Side::White)}</span>
                <span data-testid="hc-lost-black">"Black has lost: " {lost(Side::Black)}</span>
            </div>
            <Show when=move || viewing.get()>
                <button data-testid="hc-back" on:click=move |_| session.update(HyperSession::back_to_game)>
                    "Back to the game"
                </button>
            </Show>
            <LazyPart
                what="the new-game form"
                load=Box::new(move || (parts.new_game.load)(NewGameFormProps { on_start: new_game }))
            />
            <LazyPart
                what="the files bar"
                load=Box::new(move || (parts.file_bar.load)(FileBarProps { session, notice }))
            />
            <RulesBox summary="How pieces move" items=RULES />
        </section>
    }
}
