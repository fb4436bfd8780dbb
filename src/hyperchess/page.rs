//! The HyperChess page: the board as z-slices side by side, click a piece to see where it can go and click
//! a target to move; the turn, the captured pieces and the winner; shipped maps, Map files, saved games,
//! and any currentstate file to look at.

use super::session::{Cell, HyperSession, Mode, View};
use crate::files;
use crate::notice::{tone_class, Line, Tone};
use gridarena_engine::hyperchess::{map::MAX_NODES, maps, Coord, Side};
use leptos::prelude::*;

/// The largest file the page reads: a Map of the most nodes the engine takes, with room for long lines.
const MAX_FILE_BYTES: usize = MAX_NODES * 64;

/// What a chosen file is for.
#[derive(Clone, Copy)]
enum FileUse {
    Map,
    Save,
    State,
}

#[component]
pub fn HyperChessPage() -> impl IntoView {
    let first = maps::SHIPPED[0];
    // Built into the page and read by the engine's tests on every run, so it always parses.
    let session = RwSignal::new(
        HyperSession::from_map(first.0, first.1).expect("the shipped maps parse (engine tests)"),
    );
    let notice = RwSignal::new(None::<Line>);
    let map_choice = RwSignal::new(0usize);
    let say = move |r: Result<String, String>| {
        notice.set(Some(match r {
            Ok(t) => Line::new(Tone::Info, t),
            Err(t) => Line::new(Tone::Error, t),
        }))
    };

    let click = Callback::new(move |at: Coord| {
        let mut r = Err(String::new());
        session.update(|s| r = s.click(at));
        let over = session.with_untracked(|s| s.game().outcome().is_some());
        match r {
            Ok(t) if over => notice.set(Some(Line::new(Tone::Result, t))),
            other => say(other),
        }
    });
    let new_game = move || {
        let (name, text) = maps::SHIPPED
            .get(map_choice.get_untracked())
            .copied()
            .unwrap_or(maps::SHIPPED[0]);
        match HyperSession::from_map(name, text) {
            Ok(s) => {
                session.set(s);
                say(Ok(format!("New game on the {name} map: White moves first")));
            }
            Err(e) => say(Err(e)),
        }
    };
    let open = move |ev: leptos::ev::Event, what: FileUse| {
        let Some(file) = files::chosen(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let name = file.name();
            let bytes = match files::read(file, MAX_FILE_BYTES, "files").await {
                Ok(b) => b,
                Err(e) => return say(Err(e)),
            };
            let Ok(text) = String::from_utf8(bytes) else {
                return say(Err(format!("{name} is not a text file (UTF-8)")));
            };
            let result = match what {
                FileUse::Map => HyperSession::from_map(&name, &text).map(|s| {
                    session.set(s);
                    format!("New game on {name}: White moves first")
                }),
                FileUse::Save => HyperSession::from_save(&name, &text).map(|s| {
                    let turn = s.status();
                    session.set(s);
                    format!("Loaded the game in {name}: {turn}")
                }),
                FileUse::State => {
                    let mut r = Err(String::new());
                    session.update(|s| r = s.view_state(&name, &text));
                    r
                }
            };
            say(result);
        });
    };
    let download = move |what: FileUse| {
        let (name, text) = session.with_untracked(|s| match what {
            FileUse::State => ("currentstate".to_string(), s.currentstate()),
            _ => ("hyperchess.save".to_string(), s.save_text()),
        });
        if let Err(e) = files::download(&name, &text, "text/plain") {
            say(Err(e));
        }
    };

    let view = Memo::new(move |_| session.with(HyperSession::view));
    let viewing = Memo::new(move |_| session.with(|s| matches!(s.mode(), Mode::Viewing { .. })));
    let status = move || session.with(HyperSession::status);
    let status_class = move || {
        session.with(|s| {
            if s.game().outcome().is_some() && !matches!(s.mode(), Mode::Viewing { .. }) {
                "hc-status result"
            } else {
                "hc-status"
            }
        })
    };
    let lost = move |side: Side| {
        move || {
            let pieces = session.with(|s| s.captured(side));
            if pieces.is_empty() {
                "none".to_string()
            } else {
                pieces.iter().map(|p| p.symbol()).collect::<String>()
            }
        }
    };

    view! {
        <section class="hyperchess" aria-label="HyperChess">
            <p class=status_class data-testid="hc-status" role="status" aria-live="polite">{status}</p>
            <p class="notice" data-testid="hc-notice">
                {move || notice.get().map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })}
            </p>
            <div class="hc-board" data-testid="hc-board">
                <Slices view=view on_click=click />
            </div>
            <div class="hc-captured">
                <span data-testid="hc-lost-white">"White has lost: " {lost(Side::White)}</span>
                <span data-testid="hc-lost-black">"Black has lost: " {lost(Side::Black)}</span>
            </div>
            <Show when=move || viewing.get()>
                <button data-testid="hc-back" on:click=move |_| session.update(HyperSession::back_to_game)>
                    "Back to the game"
                </button>
            </Show>
            <form
                class="setup"
                aria-label="New HyperChess game"
                on:submit=move |ev| {
                    ev.prevent_default();
                    new_game();
                }
            >
                <label>
                    <span>"Map"</span>
                    <select
                        data-testid="hc-map"
                        on:change=move |ev| {
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                map_choice.set(i);
                            }
                        }
                    >
                        {maps::SHIPPED
                            .iter()
                            .enumerate()
                            .map(|(i, (name, _))| view! { <option value=i.to_string()>{*name}</option> })
                            .collect_view()}
                    </select>
                </label>
                <button type="submit" data-testid="hc-new">"New game"</button>
            </form>
            <div class="replay" role="group" aria-label="Files">
                <label class="load">
                    <span>"Load a Map file"</span>
                    <input type="file" data-testid="hc-load-map" on:change=move |ev| open(ev, FileUse::Map) />
                </label>
                <label class="load">
                    <span>"Load a saved game"</span>
                    <input type="file" data-testid="hc-load-save" on:change=move |ev| open(ev, FileUse::Save) />
                </label>
                <label class="load">
                    <span>"View a currentstate file"</span>
                    <input type="file" data-testid="hc-load-state" on:change=move |ev| open(ev, FileUse::State) />
                </label>
                <button data-testid="hc-save" on:click=move |_| download(FileUse::Save)>"Save the game"</button>
                <button data-testid="hc-currentstate" on:click=move |_| download(FileUse::State)>
                    "Download currentstate"
                </button>
            </div>
            <details class="go-rules">
                <summary>"How pieces move"</summary>
                <ul>
                    <li>"The board is a graph of cubes: each level (z) is drawn as a square, side by side; gaps are holes."</li>
                    <li>"King and Pawn: one step in any of the 26 directions. Rook: any distance along x, y or z. Bishop: any distance diagonally (2 or 3 coordinates change by the same amount). Queen: both."</li>
                    <li>"Knight: 2 along one axis and 1 along another, jumping over pieces, but not over holes."</li>
                    <li>"No piece passes through a hole or another piece (except the Knight over pieces). Taking a King wins."</li>
                </ul>
            </details>
        </section>
    }
}

/// The board: one grid per level, side by side.
#[component]
fn Slices(view: Memo<View>, on_click: Callback<Coord>) -> impl IntoView {
    move || {
        let v = view.get();
        let (lo, hi) = (v.lo, v.hi);
        let width = hi.x - lo.x + 1;
        (lo.z..=hi.z)
            .map(|z| {
                let cells = (lo.y..=hi.y)
                    .flat_map(|y| (lo.x..=hi.x).map(move |x| Coord::new(x, y, z)))
                    .map(|at| cell(v.cell(at), at, on_click))
                    .collect_view();
                view! {
                    <figure class="hc-slice" data-testid="hc-slice">
                        <figcaption>{format!("z = {z}")}</figcaption>
                        <div class="hc-grid" style=format!("--w: {width}")>{cells}</div>
                    </figure>
                }
            })
            .collect_view()
    }
}

fn cell(c: Option<&Cell>, at: Coord, on_click: Callback<Coord>) -> AnyView {
    let Some(c) = c else {
        return view! { <span class="hc-hole" aria-hidden="true"></span> }.into_any();
    };
    let mut class = String::from("hc-cell");
    if (at.x + at.y + at.z).rem_euclid(2) == 1 {
        class.push_str(" dark");
    }
    for (on, name) in [
        (c.selected, " selected"),
        (c.target, " target"),
        (c.last, " last"),
    ] {
        if on {
            class.push_str(name);
        }
    }
    let piece = c.piece;
    if let Some(p) = piece {
        class.push_str(if p.side == Side::White {
            " white"
        } else {
            " black"
        });
    }
    let label = match piece {
        Some(p) => format!("{at}: {p}"),
        None => format!("{at}: empty"),
    };
    view! {
        <button
            class=class
            aria-label=label
            data-x=at.x
            data-y=at.y
            data-z=at.z
            on:click=move |_| on_click.run(at)
        >
            {piece.map(|p| p.symbol().to_string())}
        </button>
    }
    .into_any()
}
