//! The Halma arena page: one [`Session`] (and a replay over it) wired to the parts that draw it.
//!
//! Which of the two the board, the messages and the controls follow is [`Screen`]'s question, so the
//! handlers here only move signals.

use super::arena_keys::arena_keys;
use super::arena_model::{click_notice, parse_seed, waiting_text, Screen};
use super::board::Board;
use super::controls::{Controls, DEFAULT_TICK_MS};
use super::human_actions::HumanActions;
use super::latency_panel::LatencyPanel;
use super::message_field::MessageField;
use super::messages::{Line, Tone};
use super::notice_line::NoticeLine;
use super::player::Player;
use super::prefs;
use super::replay::Replay;
use super::replay_bar::ReplayBar;
use super::session::{ClickResult, Session};
use super::setup_form::SetupForm;
use super::ticker::Ticker;
use gloo_timers::callback::Interval;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::{Preset, Square, Teams};
use leptos::prelude::*;

/// A seed for a new game when the user gave none.
fn random_seed() -> u64 {
    // Two draws, since one f64 carries only 53 random bits.
    let draw = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (draw() << 32) ^ draw()
}

/// The signals a [`Screen`] is read from.
#[derive(Clone, Copy)]
struct Screens {
    session: RwSignal<Session>,
    replay: RwSignal<Option<Replay>>,
}

impl Screens {
    /// `f` of what is shown now, tracking both signals.
    fn with<T>(self, f: impl FnOnce(Screen<'_>) -> T) -> T {
        self.replay
            .with(|r| self.session.with(|s| f(Screen::of(s, r.as_ref()))))
    }
}

/// The arena page.
#[component]
pub fn ArenaPage() -> impl IntoView {
    // The setup from the page's link or the last visit, else search against greedy in the arena.
    let (saved, link_errors) = prefs::load();
    let players = Teams {
        red: saved
            .players
            .red
            .unwrap_or(Player::BuiltIn(BuiltIn::Search)),
        blue: saved
            .players
            .blue
            .unwrap_or(Player::BuiltIn(BuiltIn::Greedy)),
    };
    let preset = saved.preset.unwrap_or(Preset::Arena);
    let session = RwSignal::new(Session::new(preset, players, random_seed()));
    let running = RwSignal::new(false);
    let tick_ms = RwSignal::new(DEFAULT_TICK_MS);
    // The line under the board: what the last click or control did, or why it was refused.
    let notice = RwSignal::new((!link_errors.is_empty()).then(|| Line {
        tone: Tone::Error,
        text: link_errors.join("; "),
    }));
    // The preset applies on "New game"; the players switch at once.
    let preset_choice = RwSignal::new(preset);
    // The setup follows every change into the link and localStorage (a memo: ticks do not rewrite it).
    let players = Memo::new(move |_| session.with(|s| s.players().clone()));
    Effect::new(move |_| prefs::save(&players.get(), preset_choice.get()));
    let replay = RwSignal::new(None::<Replay>);
    let ticker = Ticker::new(session, notice, running, tick_ms);
    let screen = Screens { session, replay };

    // A Step (`eager`) or one beat of Run: a replay shows its next tick; a live game plays one.
    let advance = move |eager: bool| {
        if replay.with_untracked(Option::is_none) {
            return if eager { ticker.step() } else { ticker.beat() };
        }
        let mut more = false;
        replay.update(|r| more = r.as_mut().is_some_and(Replay::advance));
        if !more {
            running.set(false);
        }
    };
    // Run: one beat per interval; a new interval whenever Run or the speed changes.
    let interval = StoredValue::new_local(None::<Interval>);
    Effect::new(move |was_on: Option<bool>| {
        let ms = tick_ms.get();
        let on = running.get();
        interval.set_value(None);
        if on {
            interval.set_value(Some(Interval::new(ms, move || advance(false))));
            if was_on != Some(true) && replay.with_untracked(Option::is_none) {
                ticker.run();
            }
        } else if was_on == Some(true) {
            ticker.stop();
        }
        on
    });
    on_cleanup(move || interval.set_value(None));

    let act = move |f: &dyn Fn(&mut Session) -> ClickResult| {
        let mut result = ClickResult::Ignored;
        session.update(|s| result = f(s));
        notice.set(click_notice(result));
    };
    let click = Callback::new(move |sq: Square| {
        if replay.with_untracked(Option::is_none) {
            act(&|s| s.click(sq));
        }
    });
    let on_confirm = Callback::new(move |()| act(&Session::confirm));
    let on_cancel = Callback::new(move |()| act(&Session::cancel));
    let on_new_game = Callback::new(move |seed_text: String| match parse_seed(&seed_text) {
        Err(text) => notice.set(Some(Line {
            tone: Tone::Error,
            text,
        })),
        Ok(seed) => {
            running.set(false);
            ticker.reset();
            replay.set(None);
            let players = session.with_untracked(|s| s.players().clone());
            let seed = seed.unwrap_or_else(random_seed);
            session.set(Session::new(preset_choice.get_untracked(), players, seed));
            notice.set(None);
        }
    });

    let playable = Signal::derive(move || screen.with(|s| s.playable()));
    let on_step = Callback::new(move |()| advance(true));
    let keys = arena_keys(running, playable, on_step, on_confirm, on_cancel);
    on_cleanup(move || keys.remove());
    let board = Memo::new(move |_| screen.with(|s| s.board()));
    let messages = Memo::new(move |_| screen.with(|s| s.lines()));

    view! {
        <section class="arena" aria-label="Halma arena">
            <MessageField lines=messages />
            <Board view=board on_click=click />
            <NoticeLine notice=notice waiting=Signal::derive(move || session.with(waiting_text)) />
            <LatencyPanel session=session />
            <HumanActions
                active=Signal::derive(move || session.with(|s| s.active_human().is_some()))
                on_confirm=on_confirm
                on_cancel=on_cancel
            />
            <Controls
                running=running
                tick_ms=tick_ms
                playable=playable
                awaiting_answers=ticker.awaiting_answers()
                on_step=on_step
            />
            <ReplayBar session=session replay=replay running=running notice=notice />
            <SetupForm
                session=session
                players=players
                preset_choice=preset_choice
                notice=notice
                on_new_game=on_new_game
            />
        </section>
    }
}
