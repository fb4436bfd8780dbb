//! The Halma arena page: one [`Session`](super::session::Session) (and a replay over it) wired to the
//! parts that draw it.
//!
//! Which game opens or starts is [`super::arena_setup`]'s question, the signals live in
//! [`ArenaState`], the clock in [`ArenaClock`], the handlers in [`ArenaActions`]; which of the live game
//! and a replay the board, the messages and the controls follow is [`super::arena_model::Screen`]'s. This
//! only wires them together and lays out the board, the side column and the parts below.

use super::arena_actions::ArenaActions;
use super::arena_below::ArenaBelow;
use super::arena_keys::arena_keys;
use super::arena_parts::ArenaParts;
use super::arena_run::ArenaClock;
use super::arena_setup::{EditCheck, Opening};
use super::arena_side::ArenaSide;
use super::arena_state::ArenaState;
use super::board::Board;
use super::board_view::BoardView;
use super::debug_marks::Thought;
use super::prefs;
use gridarena_engine::halma::Square;
use leptos::prelude::*;

/// The arena page.
#[component]
pub fn ArenaPage(parts: ArenaParts) -> impl IntoView {
    let (saved, link_errors) = prefs::load();
    let state = ArenaState::new(Opening::of(saved, link_errors, crate::random_seed()));
    state.keep_in_step();
    let clock = ArenaClock::new(state, parts.clock);
    clock.prepare_code_players();
    let late = clock.run_beats();
    let actions = ArenaActions { state, clock };
    let (editing, screen) = (state.editing, state.screen());
    let click = Callback::new(move |sq: Square| actions.click(sq));
    let on_confirm = Callback::new(move |()| actions.confirm());
    let on_cancel = Callback::new(move |()| actions.cancel());
    let on_step = Callback::new(move |()| clock.advance(true));
    // The engine's verdict on the edited position, for the editor's line and the board's flagged square.
    let check = Memo::new(move |_| editing.with(|e| e.as_ref().map(EditCheck::of)));
    let verdict =
        Memo::new(move |_| check.with(|c| c.as_ref().map(|c| (c.text.clone(), c.possible))));
    // A memo, where a tick's new session reads the same: the controls and keys follow it only when it
    // changes.
    let playable =
        Memo::new(move |_| editing.with(Option::is_none) && screen.with(|s| s.playable()));
    let keys = arena_keys(
        state.running,
        playable.into(),
        on_step,
        on_confirm,
        on_cancel,
    );
    on_cleanup(move || keys.remove());
    let plain_board = Memo::new(move |_| screen.with(|s| s.board()));
    // What the debug marks' part reads of the chosen team's answer, once it is in and a team is chosen.
    let thought = RwSignal::new(None::<Thought>);
    let board = Memo::new(move |_| {
        if let Some(v) = editing.with(|e| {
            let flagged = check.with(|c| c.as_ref().and_then(|c| c.flagged));
            e.as_ref().map(|e| BoardView::edited(e, flagged))
        }) {
            return v;
        }
        let debug = thought
            .get()
            .and_then(|t| t.try_with(|t| t.as_ref().and_then(|(_, r)| r.debug.clone())))
            .flatten();
        plain_board.get().with_debug(debug.as_ref())
    });

    view! {
        <section class="arena" aria-label="Halma arena">
            <div class="arena-board">
                <Board view=board on_click=click />
            </div>
            <ArenaSide
                parts=parts
                actions=actions
                plain_board=plain_board
                thought=thought
                late=late
                playable=playable
                verdict=verdict
                on_step=on_step
                on_confirm=on_confirm
                on_cancel=on_cancel
            />
            <ArenaBelow parts=parts actions=actions />
        </section>
    }
}
