//! The Halma arena page: one [`Session`] (and a replay over it) wired to the parts that draw it.
//!
//! Which of the two the board, the messages and the controls follow is [`Screen`]'s question, so the
//! handlers here only move signals.

use super::arena_keys::arena_keys;
use super::arena_model::{click_notice, parse_seed, waiting_text, Screen};
use super::beat::{late_note, tab_hidden, Beat, ON_TIME_TO_CLEAR};
use super::board::Board;
use super::controls::{Controls, DEFAULT_TICK_MS};
use super::debug_marks::DebugMarks;
use super::human_actions::HumanActions;
use super::inspector::Inspector;
use super::latency_panel::LatencyPanel;
use super::message_field::{blocks_wanted, MessageField};
use super::messages::{Filter, Line, Tone};
use super::notice_line::NoticeLine;
use super::player::Player;
use super::prefs;
use super::replay::Replay;
use super::replay_bar::ReplayBar;
use super::session::{ClickResult, Session};
use super::setup_form::SetupForm;
use super::ticker::Ticker;
use super::time_chart::TimeChart;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::{CampRules, Preset, Rules, Square, Team, Teams};
use leptos::prelude::*;

/// The rules of a new game of `preset`: the form's turn limit (`None`: the preset's), and its camp rules
/// and first mover with the classic preset only (the form offers them there alone).
fn rules_of(
    preset: Preset,
    turn_limit: Option<u32>,
    camp_rules: CampRules,
    first_mover: Option<Team>,
) -> Rules {
    let classic = preset == Preset::Classic;
    let rules = preset.rules();
    Rules {
        turn_limit: turn_limit.unwrap_or(rules.turn_limit),
        camp_rules: if classic { camp_rules } else { CampRules::Seed },
        first_mover: first_mover.filter(|_| classic),
        ..rules
    }
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
    let turn_limit = saved.turn_limit;
    let camp_rules = saved.camp_rules.unwrap_or_default();
    let first_mover = saved.first_mover.flatten();
    let mut first = Session::with_rules(
        preset,
        rules_of(preset, turn_limit, camp_rules, first_mover),
        players,
        crate::random_seed(),
    );
    let (red_type, blue_type) = (
        RwSignal::new(saved.content_types.red.unwrap_or_default()),
        RwSignal::new(saved.content_types.blue.unwrap_or_default()),
    );
    // Copy, unlike `Teams`: every handler takes its own.
    let content_types = move || Teams {
        red: red_type,
        blue: blue_type,
    };
    for team in Team::ALL {
        first.set_content_type(team, content_types()[team].get_untracked());
    }
    let session = RwSignal::new(first);
    // The turn-limit field's text; the limit applies on "New game", like the preset.
    let turns_text = RwSignal::new(turn_limit.map(|n| n.to_string()).unwrap_or_default());
    let turn_limit = RwSignal::new(turn_limit);
    let running = RwSignal::new(false);
    let tick_ms = RwSignal::new(DEFAULT_TICK_MS);
    // The line under the board: what the last click or control did, or why it was refused.
    let notice = RwSignal::new((!link_errors.is_empty()).then(|| Line {
        tone: Tone::Error,
        text: link_errors.join("; "),
    }));
    // The preset applies on "New game"; the players switch at once.
    let preset_choice = RwSignal::new(preset);
    // The course's camp rules and the first mover, offered with the classic preset; New game applies them.
    let camp_rules_choice = RwSignal::new(camp_rules);
    let first_choice = RwSignal::new(first_mover);
    // The setup follows every change into the link and localStorage (a memo: ticks do not rewrite it).
    let players = Memo::new(move |_| session.with(|s| s.players().clone()));
    // The camp rules and first mover are kept with the classic preset only, where the form offers them.
    Effect::new(move |saved_before: Option<()>| {
        let preset = preset_choice.get();
        let classic = preset == Preset::Classic;
        let saved = prefs::Saved {
            players: players.get(),
            preset,
            content_types: content_types().map(|_, c| c.get()),
            turn_limit: turn_limit.get(),
            camp_rules: if classic {
                camp_rules_choice.get()
            } else {
                CampRules::Seed
            },
            first_mover: first_choice.get().filter(|_| classic),
        };
        // The page's first save waits until the board is on screen: rewriting the address can take the
        // browser several milliseconds, and nothing needs it sooner.
        if saved_before.is_some() {
            prefs::save(&saved);
        } else {
            set_timeout(move || prefs::save(&saved), std::time::Duration::ZERO);
        }
    });
    // A content type chosen applies from the next tick on.
    Effect::new(move |_| {
        let types = content_types().map(|_, c| c.get());
        session.update_untracked(|s| {
            for team in Team::ALL {
                s.set_content_type(team, types[team]);
            }
        });
    });
    let replay = RwSignal::new(None::<Replay>);
    let ticker = Ticker::new(session, notice, running, tick_ms);
    let screen = Screens { session, replay };
    // A code player starts loading (Python: a few MB, once) as soon as it is chosen or a game begins,
    // not at the first tick.
    let game_setup = Memo::new(move |_| session.with(|s| (s.players().clone(), s.seed())));
    Effect::new(move |_| {
        game_setup.track();
        ticker.prepare();
    });

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
    // Run: one beat per tick length, from a worker's timer (it keeps time in a hidden tab); a new beat
    // whenever Run or the speed changes. A beat that still comes late is said, not hidden,
    // until enough on-time beats follow.
    let interval = StoredValue::new_local(None::<Beat>);
    let late = RwSignal::new(None::<String>);
    Effect::new(move |was_on: Option<bool>| {
        let ms = tick_ms.get();
        let on = running.get();
        interval.set_value(None);
        if on {
            let mut previous = crate::now_ms();
            let mut on_time = 0;
            interval.set_value(Some(Beat::start(ms, move || {
                let now = crate::now_ms();
                if let Some(note) = late_note(now - previous, ms, tab_hidden()) {
                    late.set(Some(note));
                    on_time = 0;
                } else {
                    on_time += 1;
                    if on_time == ON_TIME_TO_CLEAR {
                        late.set(None);
                    }
                }
                previous = now;
                advance(false);
            })));
            if was_on != Some(true) {
                late.set(None);
                if replay.with_untracked(Option::is_none) {
                    ticker.run();
                }
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
    let on_new_game = Callback::new(move |seed_text: String| {
        let checked = parse_seed(&seed_text)
            .and_then(|seed| Ok((seed, prefs::parse_turn_limit(&turns_text.get_untracked())?)));
        match checked {
            Err(text) => notice.set(Some(Line {
                tone: Tone::Error,
                text,
            })),
            Ok((seed, limit)) => {
                running.set(false);
                ticker.reset();
                replay.set(None);
                let players = session.with_untracked(|s| s.players().clone());
                let seed = seed.unwrap_or_else(crate::random_seed);
                let preset = preset_choice.get_untracked();
                let rules = rules_of(
                    preset,
                    limit,
                    camp_rules_choice.get_untracked(),
                    first_choice.get_untracked(),
                );
                let mut s = Session::with_rules(preset, rules, players, seed);
                for team in Team::ALL {
                    s.set_content_type(team, content_types()[team].get_untracked());
                }
                session.set(s);
                turn_limit.set(limit);
                notice.set(None);
            }
        }
    });

    let playable = Signal::derive(move || screen.with(|s| s.playable()));
    let on_step = Callback::new(move |()| advance(true));
    let keys = arena_keys(running, playable, on_step, on_confirm, on_cancel);
    on_cleanup(move || keys.remove());
    let plain_board = Memo::new(move |_| screen.with(|s| s.board()));
    let marks_of = RwSignal::new(None::<Team>);
    let thought = Memo::new(move |_| {
        let team = marks_of.get()?;
        let size = plain_board.with(|v| v.size);
        Some((team, screen.with(|s| s.debug(team, size))))
    });
    let board = Memo::new(move |_| {
        let debug = thought.with(|t| t.as_ref().and_then(|(_, r)| r.debug.clone()));
        plain_board.get().with_debug(debug.as_ref())
    });
    let filter = RwSignal::new(Filter::default());
    let all_messages = RwSignal::new(false);
    let messages = Memo::new(move |_| {
        let (f, limit) = (filter.get(), blocks_wanted(all_messages.get()));
        screen.with(|s| s.message_blocks(f, limit))
    });

    view! {
        <section class="arena" aria-label="Halma arena">
            <div class="arena-board">
                <Board view=board on_click=click />
            </div>
            <div class="arena-side">
            <MessageField lines=messages filter=filter all=all_messages />
            <DebugMarks team=marks_of thought=thought />
            <NoticeLine notice=notice waiting=Signal::derive(move || session.with(waiting_text)) />
            <p class="late" role="status" data-testid="late">{move || late.get()}</p>
            <LatencyPanel session=session />
            <TimeChart times=Memo::new(move |_| screen.with(|s| s.times())) />
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
            </div>
            <ReplayBar session=session replay=replay running=running notice=notice />
            <Inspector session=session replay=replay />
            <SetupForm
                session=session
                players=players
                preset_choice=preset_choice
                camp_rules_choice=camp_rules_choice
                first_choice=first_choice
                notice=notice
                content_types=content_types()
                tick_ms=tick_ms
                turns_text=turns_text
                on_new_game=on_new_game
            />
        </section>
    }
}
