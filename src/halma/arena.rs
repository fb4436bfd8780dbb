//! The Halma arena page: one [`Session`] (and a replay over it) wired to the parts that draw it.
//!
//! Which of the two the board, the messages and the controls follow is [`Screen`]'s question, so the
//! handlers here only move signals.

use super::arena_keys::arena_keys;
use super::arena_model::{click_notice, parse_seed, waiting_text, Screens};
use super::beat::{late_note, tab_hidden, Beat, ON_TIME_TO_CLEAR};
use super::board::Board;
use super::board_view::BoardView;
use super::controls::{Controls, DEFAULT_TICK_MS};
use super::debug_marks::{DebugMarksProps, Thought};
use super::human_actions::HumanActions;
use super::inspector::InspectorProps;
use super::latency_panel::LatencyPanel;
use super::message_field::{blocks_wanted, MessageField};
use super::messages::{Filter, Line, Tone};
use super::notice_line::NoticeLine;
use super::player::Player;
use super::position_editor::{camp_rules_for, PositionEditorProps};
use super::prefs;
use super::replay::Replay;
use super::replay_bar::ReplayBarProps;
use super::session::{ClickResult, Session};
use super::setup_form::SetupFormProps;
use super::ticker::{self, Call, Ticker};
use super::time_chart::TimeChartProps;
use crate::lazy::{InOrder, LazyPart, Split};
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::edit::{PositionEdit, Tool};
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
    let rules = preset.rules();
    Rules {
        turn_limit: turn_limit.unwrap_or(rules.turn_limit),
        camp_rules: camp_rules_for(preset, camp_rules),
        first_mover: first_mover.filter(|_| preset == Preset::Classic),
        ..rules
    }
}

/// The arena's parts that its first board does not show, split off the start page's module
/// (`src/lazy.rs`): its bin declares them, and each loads once the page is idle after the first board.
#[derive(Clone, Copy)]
pub struct ArenaParts {
    /// The tick machinery ([`ticker::run`]): the first Step or Run waits for it.
    pub clock: Split<ticker::Asked, ()>,
    pub setup_form: Split<SetupFormProps>,
    pub replay_bar: Split<ReplayBarProps>,
    pub inspector: Split<InspectorProps>,
    pub position_editor: Split<PositionEditorProps>,
    pub time_chart: Split<TimeChartProps>,
    pub debug_marks: Split<DebugMarksProps>,
}

/// The arena page.
#[component]
pub fn ArenaPage(parts: ArenaParts) -> impl IntoView {
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
    // A position in the link opens the editor on it, on the link's preset; one that does not read is
    // named with the link's other errors and the page opens as without it.
    let mut link_errors = link_errors;
    let linked = saved.position.as_deref().and_then(|text| {
        PositionEdit::from_link(preset, camp_rules_for(preset, camp_rules), text)
            .map_err(|e| link_errors.push(format!("pos in the link: {e}")))
            .ok()
    });
    // The position being edited: while set, the board shows it, a click edits it and the game waits.
    let editing = RwSignal::new(linked);
    let tool = RwSignal::new(Tool::Piece(Team::Red));
    // The position the live game was started from in the editor, kept in the link until another game.
    let played_from = RwSignal::new(None::<String>);
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
        let saved = prefs::Saved {
            players: players.get(),
            preset,
            content_types: content_types().map(|_, c| c.get()),
            turn_limit: turn_limit.get(),
            camp_rules: camp_rules_for(preset, camp_rules_choice.get()),
            first_mover: first_choice.get().filter(|_| preset == Preset::Classic),
            position: editing
                .with(|e| e.as_ref().map(PositionEdit::to_link))
                .or_else(|| played_from.get()),
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
    // The editor's board follows the form: another preset starts from its start position, other camp
    // rules apply to the position as it is.
    Effect::new(move |_| {
        let preset = preset_choice.get();
        let camp = camp_rules_for(preset, camp_rules_choice.get());
        editing.update(|e| match e {
            Some(e) if e.preset() != preset => *e = PositionEdit::start(preset, camp),
            Some(e) => e.set_camp_rules(camp),
            None => {}
        });
    });
    let replay = RwSignal::new(None::<Replay>);
    // A loaded record is another game than the one started from the editor's position.
    Effect::new(move |_| {
        if replay.with(Option::is_some) {
            played_from.set(None);
        }
    });
    let ticker = Ticker::new(session, notice, running, tick_ms);
    let clock = InOrder::new(parts.clock, move || {
        running.set(false);
        notice.set(Some(Line {
            tone: Tone::Error,
            text: "Error, the arena's clock did not load (the network or the server refused it): Step or Run to try again."
                .into(),
        }));
    });
    clock.preload();
    let tick = move |call: Call| clock.call((ticker, call));
    let screen = Screens { session, replay };
    // A code player starts loading (Python: a few MB, once) as soon as it is chosen or a game begins,
    // not at the first tick. A first board of other players does not wait for the clock.
    let game_setup = Memo::new(move |_| session.with(|s| (s.players().clone(), s.seed())));
    Effect::new(move |asked: Option<()>| {
        let code = game_setup.with(|(players, _)| {
            Team::ALL
                .into_iter()
                .any(|t| matches!(players[t], Player::Code(_)))
        });
        if asked.is_some() || code {
            tick(Call::Prepare);
        }
    });

    // A Step (`eager`) or one beat of Run: a replay shows its next tick; a live game plays one.
    let advance = move |eager: bool| {
        if replay.with_untracked(Option::is_none) {
            return tick(if eager { Call::Step } else { Call::Beat });
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
    // The beat starts once Run's first tick has begun: after the clock loads where it is not in yet, so
    // the first tick gets its whole length rather than ending at a beat that came while it loaded.
    let interval = StoredValue::new_local(None::<Beat>);
    // Which switch of Run or the speed a beat is started for: a beat waiting for the clock is not started
    // once another has replaced it.
    let switched = StoredValue::new_local(0_u64);
    let late = RwSignal::new(None::<String>);
    Effect::new(move |was_on: Option<bool>| {
        let ms = tick_ms.get();
        let on = running.get();
        interval.set_value(None);
        switched.update_value(|n| *n += 1);
        let this = switched.get_value();
        let start_beat = move || {
            if !running.get_untracked() || switched.try_get_value() != Some(this) {
                return;
            }
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
        };
        if !on {
            if was_on == Some(true) {
                tick(Call::Stop);
            }
        } else if was_on != Some(true) && replay.with_untracked(Option::is_none) {
            late.set(None);
            clock.call_then((ticker, Call::Run), Some(Box::new(start_beat)));
        } else {
            if was_on != Some(true) {
                late.set(None);
            }
            start_beat();
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
        if editing.with_untracked(Option::is_some) {
            let mut refused = None;
            editing.update(|e| {
                refused = e
                    .as_mut()
                    .and_then(|e| e.apply(tool.get_untracked(), sq).err());
            });
            notice.set(refused.map(|e| Line {
                tone: Tone::Error,
                text: format!("Not changed: {e}."),
            }));
        } else if replay.with_untracked(Option::is_none) {
            act(&|s| s.click(sq));
        }
    });
    let on_confirm = Callback::new(move |()| act(&Session::confirm));
    let on_cancel = Callback::new(move |()| act(&Session::cancel));
    let error = move |text: String| {
        notice.set(Some(Line {
            tone: Tone::Error,
            text,
        }))
    };
    // Every new live game, from the form or the editor: the old one's tick is abandoned and the page
    // leaves a replay and the editor.
    let begin = move |mut s: Session, limit: Option<u32>| {
        running.set(false);
        tick(Call::Reset);
        replay.set(None);
        editing.set(None);
        for team in Team::ALL {
            s.set_content_type(team, content_types()[team].get_untracked());
        }
        session.set(s);
        turn_limit.set(limit);
    };
    let on_new_game = Callback::new(move |seed_text: String| {
        let checked = parse_seed(&seed_text)
            .and_then(|seed| Ok((seed, prefs::parse_turn_limit(&turns_text.get_untracked())?)));
        match checked {
            Err(text) => error(text),
            Ok((seed, limit)) => {
                let players = session.with_untracked(|s| s.players().clone());
                let seed = seed.unwrap_or_else(crate::random_seed);
                let preset = preset_choice.get_untracked();
                let rules = rules_of(
                    preset,
                    limit,
                    camp_rules_choice.get_untracked(),
                    first_choice.get_untracked(),
                );
                played_from.set(None);
                begin(Session::with_rules(preset, rules, players, seed), limit);
                notice.set(None);
            }
        }
    });
    // The engine's verdict on the edited position, for the editor's line and the board's flagged square.
    let check = Memo::new(move |_| {
        editing.with(|e| {
            e.as_ref().map(|e| match e.check() {
                Ok(_) => (e.describe(), true, None),
                Err(why) => (format!("Impossible: {why}."), false, why.square()),
            })
        })
    });
    let on_play = Callback::new(move |()| {
        let Some(edit) = editing.get_untracked() else {
            return;
        };
        let limit = match prefs::parse_turn_limit(&turns_text.get_untracked()) {
            Ok(limit) => limit,
            Err(text) => return error(text),
        };
        match edit.game(limit.unwrap_or(edit.preset().rules().turn_limit)) {
            Err(why) => error(format!("Impossible: {why}.")),
            Ok(game) => {
                let (players, seed) = session.with_untracked(|s| (s.players().clone(), s.seed()));
                played_from.set(Some(edit.to_link()));
                begin(
                    Session::from_game(edit.preset(), game, players, seed, true),
                    limit,
                );
                notice.set(Some(Line {
                    tone: Tone::Info,
                    text: "A new game from the edited position, with the players chosen below: Step or Run to play."
                        .into(),
                }));
            }
        }
    });

    // Memos, where a tick's new session reads the same: the effects that read them (the controls, the
    // line under the board, the human's buttons) run again only when what they show changes.
    let playable =
        Memo::new(move |_| editing.with(Option::is_none) && screen.with(|s| s.playable()));
    let waiting = Memo::new(move |_| session.with(waiting_text));
    let human_active = Memo::new(move |_| session.with(|s| s.active_human().is_some()));
    let on_step = Callback::new(move |()| advance(true));
    let keys = arena_keys(running, playable.into(), on_step, on_confirm, on_cancel);
    on_cleanup(move || keys.remove());
    let plain_board = Memo::new(move |_| screen.with(|s| s.board()));
    // What the debug marks' part reads of the chosen team's answer, once it is in and a team is chosen.
    let thought = RwSignal::new(None::<Thought>);
    let board = Memo::new(move |_| {
        if let Some(v) = editing.with(|e| {
            let flagged = check.with(|c| c.as_ref().and_then(|c| c.2));
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
    let verdict = Memo::new(move |_| check.with(|c| c.as_ref().map(|c| (c.0.clone(), c.1))));
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
            <LazyPart
                what="the debug marks"
                load=Box::new(move || {
                    (parts.debug_marks.load)(DebugMarksProps {
                        screen,
                        size: Memo::new(move |_| plain_board.with(|v| v.size)).into(),
                        thought,
                    })
                })
            />
            <NoticeLine notice=notice waiting=waiting />
            <p class="late" role="status" data-testid="late">{move || late.get()}</p>
            <LatencyPanel session=session />
            <LazyPart
                what="the time chart"
                load=Box::new(move || (parts.time_chart.load)(TimeChartProps { screen }))
            />
            <HumanActions
                active=Signal::from(human_active)
                on_confirm=on_confirm
                on_cancel=on_cancel
            />
            <Controls
                running=running
                tick_ms=tick_ms
                playable=playable.into()
                awaiting_answers=ticker.awaiting_answers()
                on_step=on_step
            />
            <LazyPart
                what="the position editor"
                load=Box::new(move || {
                    (parts.position_editor.load)(PositionEditorProps {
                        session,
                        replay,
                        running,
                        notice,
                        preset_choice,
                        camp_rules_choice,
                        editing,
                        tool,
                        check: verdict,
                        on_play,
                    })
                })
            />
            </div>
            <LazyPart
                what="the replay bar"
                load=Box::new(move || {
                    (parts.replay_bar.load)(ReplayBarProps { session, replay, running, notice })
                })
            />
            <LazyPart
                what="the inspector"
                load=Box::new(move || (parts.inspector.load)(InspectorProps { session, replay }))
            />
            <LazyPart
                what="the new-game form"
                load=Box::new(move || {
                    (parts.setup_form.load)(SetupFormProps {
                        session,
                        players,
                        preset_choice,
                        camp_rules_choice,
                        first_choice,
                        notice,
                        content_types: content_types(),
                        tick_ms,
                        turns_text,
                        on_new_game,
                    })
                })
            />
        </section>
    }
}
