//! The Halma arena page: setup, board, controls and message field around one [`Session`].

use super::board::Board;
use super::board_view::BoardView;
use super::controls::{Controls, DEFAULT_TICK_MS};
use super::messages::{start_lines, tick_lines, Line, Tone};
use super::player::Player;
use super::player_picker::PlayerPicker;
use super::prefs;
use super::replay::Replay;
use super::session::{ClickResult, Session};
use super::ticker::Ticker;
use crate::files;
use crate::notice::tone_class;
use gloo_timers::callback::Interval;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::record::MAX_RECORD_BYTES;
use gridarena_engine::halma::{Preset, Square, Team, Teams};
use leptos::prelude::*;

/// A seed for a new game when the user gave none.
fn random_seed() -> u64 {
    // Two draws, since one f64 carries only 53 random bits.
    let draw = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (draw() << 32) ^ draw()
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

    // Setup form (applies on "New game"), except the players, which switch at once.
    let preset_choice = RwSignal::new(preset);
    // The setup follows every change into the link and localStorage (a memo: ticks do not rewrite it).
    let players = Memo::new(move |_| session.with(|s| s.players().clone()));
    Effect::new(move |_| prefs::save(&players.get(), preset_choice.get()));
    let seed_text = RwSignal::new(String::new());
    // A loaded record being watched; while it is set, the board and the controls belong to it.
    let replay = RwSignal::new(None::<Replay>);

    let ticker = Ticker::new(session, notice, running, tick_ms);

    // One beat of Run (or a Step): a replay moves on a tick; a live game plays one through the ticker.
    let beat = move || {
        if replay.with_untracked(Option::is_some) {
            let mut more = false;
            replay.update(|r| more = r.as_mut().is_some_and(|r| r.step() && !r.at_end()));
            if !more {
                running.set(false);
            }
        } else {
            ticker.beat();
        }
    };
    let step = move || {
        if replay.with_untracked(Option::is_some) {
            beat();
        } else {
            ticker.step();
        }
    };

    // Run: one beat per interval; a new interval whenever Run or the speed changes.
    let interval = StoredValue::new_local(None::<Interval>);
    Effect::new(move |was_on: Option<bool>| {
        let ms = tick_ms.get();
        let on = running.get();
        interval.set_value(None);
        if on {
            interval.set_value(Some(Interval::new(ms, beat)));
            if was_on != Some(true) && replay.with_untracked(Option::is_none) {
                ticker.run();
            }
        } else if was_on == Some(true) {
            ticker.stop();
        }
        on
    });
    on_cleanup(move || interval.set_value(None));

    let click = Callback::new(move |sq: Square| {
        if replay.with_untracked(Option::is_some) {
            return;
        }
        let mut result = ClickResult::Ignored;
        session.update(|s| result = s.click(sq));
        show(notice, result);
    });
    let confirm = move || {
        let mut result = ClickResult::Ignored;
        session.update(|s| result = s.confirm());
        show(notice, result);
    };
    let cancel = move || {
        let mut result = ClickResult::Ignored;
        session.update(|s| result = s.cancel());
        show(notice, result);
    };
    let new_game = move || {
        let seed = match seed_text.with(|t| t.trim().to_string()) {
            t if t.is_empty() => random_seed(),
            t => match t.parse::<u64>() {
                Ok(s) => s,
                Err(_) => {
                    notice.set(Some(Line {
                        tone: Tone::Error,
                        text: format!(
                            "seed {t:?} is not a whole number from 0 to 18446744073709551615"
                        ),
                    }));
                    return;
                }
            },
        };
        running.set(false);
        ticker.reset();
        replay.set(None);
        let players = session.with_untracked(|s| s.players().clone());
        session.set(Session::new(preset_choice.get_untracked(), players, seed));
        notice.set(None);
    };

    let playable = Signal::derive(
        move || match replay.with(|r| r.as_ref().map(Replay::at_end)) {
            Some(at_end) => !at_end,
            None => session.with(|s| !s.is_over()),
        },
    );
    let on_step = Callback::new(move |()| step());
    let awaiting_answers = ticker.awaiting_answers();

    // Keyboard: S steps, Space runs/stops, Enter confirms a human move, Escape drops it.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let in_field = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| {
                matches!(
                    el.tag_name().as_str(),
                    "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"
                )
            });
        if in_field || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        match ev.key().as_str() {
            "s" | "S" if !running.get_untracked() => step(),
            " " => {
                ev.prevent_default();
                running.update(|r| *r = !*r && playable.get_untracked());
            }
            "Enter" => confirm(),
            "Escape" => cancel(),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    let board = Memo::new(move |_| {
        if let Some(view) = replay.with(|r| r.as_ref().map(Replay::board)) {
            return view;
        }
        session.with(|s| {
            let human = s.active_human();
            BoardView::new(
                s.game().position(),
                s.last(),
                human.map(|t| s.draft(t)),
                &s.hints(),
            )
        })
    });

    // A memo, so the message field's elements are rebuilt only when its text changes.
    let messages = Memo::new(move |_| {
        if let Some(lines) = replay.with(|r| r.as_ref().map(Replay::lines)) {
            return lines;
        }
        session.with(|s| match s.last() {
            Some(o) => tick_lines(o),
            None => start_lines(&s.game().movers(), s.game().to_move()),
        })
    });
    let waiting = move || {
        session.with(|s| {
            s.active_human()
                .map(|t| format!("{t} (human): click a piece, then each square of its move, then Confirm (Enter)"))
        })
    };

    let download = move || {
        let (text, name) = session.with_untracked(|s| {
            (
                s.record_text(),
                format!(
                    "gridarena-{}-{}-turn{}.jsonl",
                    s.preset(),
                    s.seed(),
                    s.game().turn()
                ),
            )
        });
        let result = match text {
            Some(text) => files::download(&name, &text, "application/x-ndjson"),
            None => Err("nothing to download yet: play a tick first".to_string()),
        };
        if let Err(why) = result {
            notice.set(Some(Line {
                tone: Tone::Error,
                text: why,
            }));
        }
    };
    let load = move |ev: leptos::ev::Event| {
        let Some(file) = files::chosen(&ev) else {
            return;
        };
        running.set(false);
        leptos::task::spawn_local(async move {
            let name = file.name();
            let loaded = files::read(file, MAX_RECORD_BYTES, "records")
                .await
                .and_then(|bytes| Replay::load(&name, &bytes).map_err(|e| format!("{name}: {e}")));
            match loaded {
                Ok(r) => {
                    notice.set(Some(Line {
                        tone: Tone::Info,
                        text: format!(
                            "Loaded {}: {} ticks. Step, Run or drag the turn slider.",
                            r.name(),
                            r.ticks()
                        ),
                    }));
                    replay.set(Some(r));
                }
                Err(why) => notice.set(Some(Line {
                    tone: Tone::Error,
                    text: why,
                })),
            }
        });
    };
    let replay_at = move || replay.with(|r| r.as_ref().map_or(0, Replay::at));
    let replay_ticks = move || replay.with(|r| r.as_ref().map_or(0, Replay::ticks));

    let player_picker = move |team: Team| {
        view! {
            <PlayerPicker
                team=team
                current=Signal::derive(move || players.with(|p| p[team].clone()))
                on_change=Callback::new(move |p: Player| {
                    session.update(|s| s.set_player(team, p));
                    notice.set(None);
                })
                notice=notice
            />
        }
    };
    let latency = move || {
        session.with(|s| {
            Team::ALL
                .into_iter()
                .filter(|&t| s.players()[t] != Player::Human)
                .map(|t| {
                    let l = s.latency(t);
                    let ms = |v: f64| format!("{} ms", v.round() as u64);
                    match (l.last, l.average()) {
                        (Some(last), Some(avg)) => {
                            format!("{t}: {} (average {})", ms(last), ms(avg))
                        }
                        _ => format!("{t}: no answer yet"),
                    }
                })
                .collect::<Vec<_>>()
                .join(" · ")
        })
    };

    view! {
        <section class="arena" aria-label="Halma arena">
            <div
                class="messages"
                role="log"
                aria-live="polite"
                aria-label="Message field"
                data-testid="messages"
            >
                {move || {
                    messages
                        .get()
                        .into_iter()
                        .map(|l| view! { <p class=tone_class(l.tone)>{l.text}</p> })
                        .collect_view()
                }}
            </div>
            <Board view=board on_click=click />
            <p class="notice" data-testid="notice">
                {move || {
                    notice
                        .get()
                        .map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })
                        .or_else(|| waiting().map(|w| view! { <span class="info">{w}</span> }))
                }}
            </p>
            <p class="latency" data-testid="latency" aria-label="Answer times">
                {move || {
                    let text = latency();
                    (!text.is_empty()).then(|| format!("Answer time: {text}"))
                }}
            </p>
            <div class="human-actions">
                <Show when=move || session.with(|s| s.active_human().is_some())>
                    <button data-testid="confirm" on:click=move |_| confirm()>"Confirm move"</button>
                    <button data-testid="cancel" on:click=move |_| cancel()>"Cancel"</button>
                </Show>
            </div>
            <Controls running=running tick_ms=tick_ms playable=playable awaiting_answers=awaiting_answers on_step=on_step />
            <div class="replay" role="group" aria-label="Records and replays">
                <Show
                    when=move || replay.with(Option::is_some)
                    fallback=move || {
                        view! {
                            <button
                                data-testid="download"
                                disabled=move || session.with(|s| !s.has_record())
                                on:click=move |_| download()
                            >
                                "Download record"
                            </button>
                        }
                    }
                >
                    <label class="scrubber">
                        <span>"Turn " <output data-testid="replay-at">{replay_at}</output> " / " {replay_ticks}</span>
                        <input
                            type="range"
                            data-testid="scrubber"
                            aria-label="Replay turn"
                            min="0"
                            max=move || replay_ticks().to_string()
                            prop:value=move || replay_at().to_string()
                            on:input=move |ev| {
                                if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                                    replay.update(|r| if let Some(r) = r { r.seek(k) });
                                }
                            }
                        />
                    </label>
                    <button
                        data-testid="leave-replay"
                        on:click=move |_| {
                            running.set(false);
                            replay.set(None);
                            notice.set(None);
                        }
                    >
                        "Back to the live game"
                    </button>
                </Show>
                <label class="load">
                    <span>"Load record"</span>
                    <input type="file" accept=".jsonl,.json,.txt,application/x-ndjson" data-testid="load" on:change=load />
                </label>
            </div>
            <form
                class="setup"
                aria-label="New game"
                on:submit=move |ev| {
                    ev.prevent_default();
                    new_game();
                }
            >
                {player_picker(Team::Red)}
                {player_picker(Team::Blue)}
                <label>
                    <span>"Preset"</span>
                    <select
                        data-testid="preset"
                        aria-label="Preset"
                        prop:value=move || preset_choice.get().name()
                        on:change=move |ev| {
                            if let Ok(p) = event_target_value(&ev).parse::<Preset>() {
                                preset_choice.set(p);
                            }
                        }
                    >
                        {Preset::ALL
                            .into_iter()
                            .map(|p| view! { <option value=p.name()>{preset_label(p)}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <span>"Seed"</span>
                    <input
                        type="text"
                        inputmode="numeric"
                        data-testid="seed"
                        aria-label="Seed (empty for a random one)"
                        placeholder="random"
                        prop:value=move || seed_text.get()
                        on:input=move |ev| seed_text.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit" data-testid="new-game">"New game"</button>
                <span class="game-info" data-testid="game-info">
                    {move || session.with(|s| format!("{} · seed {} · turn {}", s.preset(), s.seed(), s.game().turn()))}
                </span>
            </form>
        </section>
    }
}

fn preset_label(p: Preset) -> &'static str {
    match p {
        Preset::Arena => "Arena: 18x18, simultaneous",
        Preset::Classic => "Classic: 16x16, alternating",
        Preset::Mini => "Mini: 8x8, alternating",
    }
}

fn show(notice: RwSignal<Option<Line>>, result: ClickResult) {
    notice.set(match result {
        ClickResult::Ignored => None,
        ClickResult::Updated(text) => Some(Line {
            tone: Tone::Info,
            text,
        }),
        ClickResult::Refused(text) => Some(Line {
            tone: Tone::Error,
            text,
        }),
    });
}
