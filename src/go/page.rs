//! The Go page: the setup, the board, the players' panels with captures and clock, the actions, the live
//! area count and SGF files (split off the first download, with the new-game form), around one
//! [`GoSession`]. Every operation is the session's; this file owns the signals and the clock and wires
//! the components to them.

use super::actions::Actions;
use super::goban::Goban;
use super::players::Players;
use super::records::RecordsProps;
use super::session::{Action, GoSession, Setup};
use super::setup_form::SetupFormProps;
use crate::ai_player::AiPlayer;
use crate::lazy::{LazyPart, Split};
use crate::notice::{self, tone_class, Line, Tone};
use crate::widgets::RulesBox;
use gloo_timers::callback::Interval;
use leptos::prelude::*;

/// How often the clock display and the time-out check run.
const CLOCK_MS: u32 = 250;

const RULES: &[&str] = &[
    "Black plays first. A stone or group with no liberties is captured; suicide is not allowed.",
    "Ko: no move may repeat an earlier whole-board position (positional superko).",
    "Two passes in a row end the game. Then the area is counted: your stones plus the empty points only your stones reach. White gets 0.5 points (komi).",
    "Every stone on the board counts as alive: capture dead stones before you pass.",
    "Each move must be made within 5 minutes of the one before (the clock starts at the first move); the player whose clock runs out loses.",
];

/// Keeps `now` for the clock display, and ends the game when the player to move runs out of time.
fn run_clock(session: RwSignal<GoSession>, notice: RwSignal<Option<Line>>, now: RwSignal<f64>) {
    let clock = Interval::new(CLOCK_MS, move || {
        let t = super::now();
        now.set(t);
        if session.with_untracked(|s| s.clock_left(t) == Some(0.0)) {
            let mut ended = false;
            session.update(|s| ended = s.check_clock(t));
            if ended {
                let text = session.with_untracked(GoSession::result_text);
                notice.set(text.map(|t| Line::new(Tone::Result, t)));
            }
        }
    });
    let clock = StoredValue::new_local(Some(clock));
    on_cleanup(move || clock.set_value(None));
}

/// The parts of the Go page that its first board does not show, split off its module by its bin
/// (`src/lazy.rs`): they load once the page is idle.
#[derive(Clone, Copy)]
pub struct GoParts {
    pub records: Split<RecordsProps>,
    pub setup_form: Split<SetupFormProps>,
}

/// The Go page.
#[component]
pub fn GoPage(parts: GoParts) -> impl IntoView {
    let setup = RwSignal::new(Setup::default());
    let session = RwSignal::new(GoSession::new(setup.get_untracked(), crate::random_seed()));
    let notice = RwSignal::new(None::<Line>);
    let now = RwSignal::new(super::now());
    let show_area = RwSignal::new(false);
    let confirm_resign = RwSignal::new(false);
    let ai = AiPlayer::new(session, notice);
    run_clock(session, notice, now);

    // An answer that ended the game is announced as the result.
    let say = move |said| {
        let over = session.with_untracked(|s| s.game().is_over());
        notice.set(Some(Line::answer(said, over)));
    };
    let act = Callback::new(move |action: Action| {
        confirm_resign.set(false);
        say(notice::run(session, |s| s.act(action, super::now())));
    });
    let typed =
        Callback::new(
            move |text: String| match session.with_untracked(|s| s.typed(&text)) {
                Ok(Action::Resign) => confirm_resign.set(true),
                Ok(action) => act.run(action),
                Err(why) => notice.set(Some(Line::new(Tone::Error, why))),
            },
        );
    let new_game = Callback::new(move |chosen: Setup| {
        setup.set(chosen);
        confirm_resign.set(false);
        session.update(|s| *s = s.restart(chosen, crate::random_seed()));
        let greeting = session.with_untracked(GoSession::greeting);
        notice.set(Some(Line::new(Tone::Info, greeting)));
    });

    // What the board draws. Memos, so a clock beat redraws nothing.
    let size = Memo::new(move |_| session.with(|s| s.game().size()));
    let stones = Memo::new(move |_| session.with(GoSession::stones));
    let last = Memo::new(move |_| session.with(|s| s.last_move().and_then(|(_, m)| m.point())));
    let area = Memo::new(move |_| {
        if !show_area.get() {
            return Vec::new();
        }
        session.with(GoSession::owned_points)
    });
    let human_turn = Memo::new(move |_| session.with(GoSession::human_to_move));
    let to_play = Signal::derive(move || {
        human_turn
            .get()
            .then(|| session.with(|s| s.game().to_move()))
    });
    let can_undo = Memo::new(move |_| session.with(GoSession::can_undo));
    let over = Memo::new(move |_| session.with(|s| s.game().is_over()));
    let status = move || {
        notice
            .get()
            .unwrap_or_else(|| session.with(GoSession::status_line))
    };

    view! {
        <section class="go" aria-label="Go">
            <Players session=session now=now thinking=ai.thinking() />
            <p class="go-status" role="status" aria-live="polite" data-testid="go-status">
                {move || {
                    let line = status();
                    view! { <span class=tone_class(line.tone)>{line.text}</span> }
                }}
            </p>
            <Goban
                size=size
                stones=stones
                last=last
                area=area
                to_play=to_play
                on_play=Callback::new(move |p| act.run(Action::Play(p)))
            />
            <p class="go-moves" data-testid="go-moves">{move || session.with(GoSession::moves_text)}</p>
            <Actions
                human_turn=human_turn
                can_undo=can_undo
                over=over
                confirm_resign=confirm_resign
                on_act=act
                on_typed=typed
            />
            <p class="go-area">
                <span data-testid="go-area">{move || session.with(GoSession::area_text)}</span>
                <label class="toggle">
                    <input
                        type="checkbox"
                        data-testid="show-area"
                        prop:checked=move || show_area.get()
                        on:change=move |ev| show_area.set(event_target_checked(&ev))
                    />
                    " Show area on the board"
                </label>
            </p>
            <LazyPart
                what="the game records"
                load=Box::new(move || (parts.records.load)(RecordsProps { session, setup, notice }))
            />
            <LazyPart
                what="the new-game form"
                load=Box::new(move || (parts.setup_form.load)(SetupFormProps { current: setup, on_start: new_game }))
            />
            <RulesBox summary="Rules on this page" items=RULES />
        </section>
    }
}
