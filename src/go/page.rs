//! The Go page: the setup, the board, the players' panels with captures and clock, the actions, the live
//! area count and SGF files, around one [`GoSession`].

use super::ai::GoAi;
use super::goban::Goban;
use super::players::Players;
use super::session::{title, GoSession, Setup};
use super::setup_form::SetupForm;
use crate::files;
use crate::notice::{tone_class, Line, Tone};
use gloo_timers::callback::Interval;
use gridarena_engine::go::sgf::MAX_SGF_BYTES;
use gridarena_engine::go::{Move, Point};
use leptos::prelude::*;

/// How often the clock display and the time-out check run.
const CLOCK_MS: u32 = 250;

fn random_seed() -> u64 {
    let draw = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    (draw() << 32) ^ draw()
}

/// Today's date as SGF writes it (UTC).
fn today() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
        .get(..10)
        .unwrap_or_default()
        .to_string()
}

/// The Go page.
#[component]
pub fn GoPage() -> impl IntoView {
    let setup = RwSignal::new(Setup::default());
    let session = RwSignal::new(GoSession::new(
        setup.get_untracked(),
        random_seed(),
        super::now(),
    ));
    let notice = RwSignal::new(None::<Line>);
    let now = RwSignal::new(super::now());
    let show_area = RwSignal::new(false);
    let confirm_resign = RwSignal::new(false);
    let ai = GoAi::new(session, notice);

    // The clock: shows the time left and ends the game when the player to move runs out.
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

    let say = move |result: Result<String, String>| {
        let over = session.with_untracked(|s| s.game().is_over());
        notice.set(Some(match result {
            Ok(text) if over => Line::new(Tone::Result, text),
            Ok(text) => Line::new(Tone::Info, text),
            Err(why) => Line::new(Tone::Error, why),
        }));
    };
    let play = Callback::new(move |p: Point| {
        confirm_resign.set(false);
        let mut result = Err(String::new());
        session.update(|s| result = s.click(p, super::now()));
        say(result);
    });
    let pass = move || {
        confirm_resign.set(false);
        let mut result = Err(String::new());
        session.update(|s| result = s.pass(super::now()));
        say(result);
    };
    let resign = move || {
        confirm_resign.set(false);
        let mut result = Err(String::new());
        session.update(|s| result = s.resign(super::now()));
        say(result);
    };
    let undo = move || {
        confirm_resign.set(false);
        let mut result = Err(String::new());
        session.update(|s| result = s.undo(super::now()));
        say(result);
    };
    let new_game = Callback::new(move |chosen: Setup| {
        setup.set(chosen);
        confirm_resign.set(false);
        session.update(|s| *s = s.restart(chosen, random_seed(), super::now()));
        let text = session.with_untracked(|s| {
            let mover = s.game().to_move();
            format!(
                "New {0} game: {1} ({2}) to play. Click a point to place a stone.",
                s.game().size(),
                title(mover),
                s.player_name(mover)
            )
        });
        notice.set(Some(Line::new(Tone::Info, text)));
    });

    // A typed move, for keyboards and screen readers: a vertex such as D4, or "pass".
    let typed = RwSignal::new(String::new());
    let play_typed = move || {
        let text = typed.get_untracked();
        let size = session.with_untracked(|s| s.game().size());
        match Move::from_gtp(&text, size) {
            Ok(Move::Play(p)) => play.run(p),
            Ok(Move::Pass) => pass(),
            Ok(Move::Resign) => confirm_resign.set(true),
            Err(e) => notice.set(Some(Line::new(Tone::Error, e.to_string()))),
        }
        typed.set(String::new());
    };

    let download = move |_| {
        let date = today();
        let (name, text) = session.with_untracked(|s| (s.sgf_file_name(&date), s.to_sgf(&date)));
        if let Err(why) = files::download(&name, &text, "application/x-go-sgf") {
            notice.set(Some(Line::new(Tone::Error, why)));
        }
    };
    let load = move |ev: leptos::ev::Event| {
        let Some(file) = files::chosen(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let name = file.name();
            let bytes = files::read(file, MAX_SGF_BYTES, "SGF files").await;
            let mut result = Err(String::new());
            match bytes {
                Ok(bytes) => session.update(|s| result = s.load_sgf(&bytes, super::now())),
                Err(why) => result = Err(why),
            }
            if result.is_ok() {
                setup.set(session.with_untracked(GoSession::setup));
            }
            say(result.map_err(|why| format!("{name}: {why}")));
        });
    };

    // What the board draws. Memos, so a clock beat redraws nothing.
    let size = Memo::new(move |_| session.with(|s| s.game().size()));
    let stones = Memo::new(move |_| {
        session.with(|s| {
            let board = s.game().board();
            board
                .size()
                .points()
                .filter_map(|p| board.get(p).map(|c| (p, c)))
                .collect::<Vec<_>>()
        })
    });
    let last = Memo::new(move |_| session.with(|s| s.last_move().and_then(|(_, m)| m.point())));
    let area = Memo::new(move |_| {
        if !show_area.get() {
            return Vec::new();
        }
        session.with(|s| {
            let board = s.game().board();
            let owners = board.owners();
            board
                .size()
                .points()
                .filter(|&p| board.is_empty(p))
                .filter_map(|p| owners.get(p).map(|c| (p, c)))
                .collect::<Vec<_>>()
        })
    });
    let human_turn = Memo::new(move |_| session.with(GoSession::human_to_move));
    let to_play = Signal::derive(move || {
        human_turn
            .get()
            .then(|| session.with(|s| s.game().to_move()))
    });
    let thinking = ai.thinking();
    let can_undo = Memo::new(move |_| session.with(GoSession::can_undo));

    let status = move || {
        if let Some(line) = notice.get() {
            return line;
        }
        session.with(|s| match s.result_text() {
            Some(r) => Line::new(Tone::Result, r),
            None => {
                let c = s.game().to_move();
                Line::new(
                    Tone::Info,
                    format!("{} ({}) to play", title(c), s.player_name(c)),
                )
            }
        })
    };
    let area_text = move || {
        session.with(|s| {
            let score = s.area();
            format!(
                "Area now: Black {} · White {} + komi {} → {}",
                score.black,
                score.white,
                score.komi,
                score.result()
            )
        })
    };
    let moves_text = move || {
        session.with(|s| {
            let n = s.game().moves().len();
            match s.last_move() {
                Some((c, m)) => format!("Move {n}: {} {m}", title(c)),
                None => "No moves yet".to_string(),
            }
        })
    };

    view! {
        <section class="go" aria-label="Go">
            <Players session=session now=now thinking=thinking />
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
                on_play=play
            />
            <p class="go-moves" data-testid="go-moves">{moves_text}</p>
            <div class="go-actions" role="group" aria-label="Moves">
                <button data-testid="pass" disabled=move || !human_turn.get() on:click=move |_| pass()>
                    "Pass"
                </button>
                <Show
                    when=move || confirm_resign.get()
                    fallback=move || {
                        view! {
                            <button
                                data-testid="resign"
                                disabled=move || session.with(|s| s.game().is_over())
                                on:click=move |_| confirm_resign.set(true)
                            >
                                "Resign"
                            </button>
                        }
                    }
                >
                    <span class="confirm">
                        "Resign this game? "
                        <button data-testid="resign-yes" on:click=move |_| resign()>"Yes, resign"</button>
                        <button data-testid="resign-no" on:click=move |_| confirm_resign.set(false)>
                            "No"
                        </button>
                    </span>
                </Show>
                <button data-testid="undo" disabled=move || !can_undo.get() on:click=move |_| undo()>
                    "Undo"
                </button>
                <form
                    class="typed"
                    on:submit=move |ev| {
                        ev.prevent_default();
                        play_typed();
                    }
                >
                    <label>
                        <span>"Play at"</span>
                        <input
                            type="text"
                            size="5"
                            placeholder="D4"
                            autocomplete="off"
                            data-testid="typed-move"
                            aria-label="Play at a point (such as D4) or pass"
                            prop:value=move || typed.get()
                            on:input=move |ev| typed.set(event_target_value(&ev))
                        />
                    </label>
                    <button type="submit" disabled=move || !human_turn.get()>"Play"</button>
                </form>
            </div>
            <p class="go-area">
                <span data-testid="go-area">{area_text}</span>
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
            <div class="go-files" role="group" aria-label="Game records">
                <button data-testid="sgf-download" on:click=download>"Download SGF"</button>
                <label class="load">
                    <span>"Load SGF"</span>
                    <input type="file" accept=".sgf,application/x-go-sgf,text/plain" data-testid="sgf-load" on:change=load />
                </label>
            </div>
            <SetupForm current=setup on_start=new_game />
            <details class="go-rules">
                <summary>"Rules on this page"</summary>
                <ul>
                    <li>"Black plays first. A stone or group with no liberties is captured; suicide is not allowed."</li>
                    <li>"Ko: no move may repeat an earlier whole-board position (positional superko)."</li>
                    <li>"Two passes in a row end the game. Then the area is counted: your stones plus the empty points only your stones reach. White gets 0.5 points (komi)."</li>
                    <li>"Every stone on the board counts as alive: capture dead stones before you pass."</li>
                    <li>"Each move must be made within 5 minutes; the player whose clock runs out loses."</li>
                </ul>
            </details>
        </section>
    }
}
