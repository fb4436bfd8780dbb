//! The Online Go page: pick a name once, then the lobby (your record, find a game, watch one, the
//! leaderboard) and the games, live over the server's WebSocket (docs/online.md).

use super::api;
use super::board::{result_words, OnlineBoard};
use super::game_view::{Applied, OnlineGame};
use super::protocol::{ClientMsg, Identity, Preference, Record, ServerMsg};
use super::socket::{Link, Socket};
use crate::notice::{tone_class, Line, Tone};
use crate::now_ms;
use gloo_timers::callback::Interval;
use gridarena_engine::go::{BoardSize, Color, Move};
use leptos::prelude::*;

/// The page: the name form until this browser has an identity, then the lobby.
#[component]
pub fn OnlinePage() -> impl IntoView {
    let identity = RwSignal::new(api::load_identity());
    view! {
        <section class="online" aria-label="Online Go">
            {move || match identity.get() {
                None => view! { <Register identity=identity /> }.into_any(),
                Some(me) => view! { <Lobby me=me identity=identity /> }.into_any(),
            }}
        </section>
    }
}

/// Choosing a name: the server issues a secret token that this browser keeps.
#[component]
fn Register(identity: RwSignal<Option<Identity>>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let submit = move || {
        let wanted = name.get_untracked().trim().to_string();
        error.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            match api::register(&wanted).await {
                Ok(id) => {
                    if !api::store_identity(Some(&id)) {
                        error.set(Some(
                            "this browser does not keep data for this page, so your name will be lost when \
                             you close it"
                                .to_string(),
                        ));
                    }
                    identity.set(Some(id));
                }
                Err(why) => error.set(Some(why)),
            }
            busy.set(false);
        });
    };
    view! {
        <form
            class="setup register"
            aria-label="Choose a name"
            on:submit=move |ev| {
                ev.prevent_default();
                submit();
            }
        >
            <p>"Play Go against people on other machines. Choose the name others will see: it is yours on this browser."</p>
            <label>
                <span>"Your name"</span>
                <input
                    type="text"
                    maxlength="20"
                    required
                    data-testid="online-name"
                    autocomplete="nickname"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
            </label>
            <button type="submit" data-testid="online-register" disabled=move || busy.get()>"Enter the lobby"</button>
            <p class="error" data-testid="online-register-error">{move || error.get()}</p>
        </form>
    }
}

/// The lobby and the games of a signed-in player.
#[component]
fn Lobby(me: Identity, identity: RwSignal<Option<Identity>>) -> impl IntoView {
    let my_name = StoredValue::new(me.name.clone());
    let record = RwSignal::new(None::<(u32, u32)>);
    let seeking = RwSignal::new(None::<(u8, Preference)>);
    let games = RwSignal::new(Vec::<OnlineGame>::new());
    let shown = RwSignal::new(None::<u64>);
    let notice = RwSignal::new(None::<Line>);
    let leaders = RwSignal::new(Vec::<Record>::new());
    let now = RwSignal::new(now_ms());
    let ticker = StoredValue::new_local(Some(Interval::new(250, move || now.set(now_ms()))));
    on_cleanup(move || ticker.set_value(None));

    let refresh_leaders = move || {
        leptos::task::spawn_local(async move {
            match api::leaderboard().await {
                Ok(rows) => leaders.set(rows),
                Err(why) => leptos::logging::warn!("{why}"),
            }
        });
    };
    refresh_leaders();

    let say = move |tone: Tone, text: String| notice.set(Some(Line::new(tone, text)));
    let socket_cell = StoredValue::new_local(None::<Socket>);
    let send = move |msg: ClientMsg| {
        let result = socket_cell
            .with_value(|s| s.map(|s| s.send(&msg)))
            .unwrap_or(Err("not connected".to_string()));
        if let Err(why) = result {
            say(Tone::Error, why);
        }
    };

    let on_message = Callback::new(move |msg: ServerMsg| match msg {
        ServerMsg::Welcome { wins, losses, .. } => record.set(Some((wins, losses))),
        ServerMsg::Waiting { size, color } => seeking.set(Some((size, color))),
        ServerMsg::Cancelled => seeking.set(None),
        ServerMsg::Matched {
            game,
            color,
            opponent,
            size,
        } => {
            seeking.set(None);
            shown.set(Some(game));
            say(
                Tone::Info,
                format!("Matched with {opponent} on {size}x{size}: you play {color}"),
            );
        }
        ServerMsg::Snapshot(s) => {
            let name = my_name.get_value();
            match OnlineGame::from_snapshot(&s, Some(&name), now_ms()) {
                Ok(g) => {
                    let id = g.id;
                    games.update(|all| match all.iter_mut().find(|x| x.id == id) {
                        Some(old) => *old = g,
                        None => all.push(g),
                    });
                    if shown.get_untracked().is_none() {
                        shown.set(Some(id));
                    }
                }
                Err(why) => say(Tone::Error, why),
            }
        }
        ServerMsg::Move {
            game,
            move_number,
            color,
            r#move,
            clock_ms,
        } => {
            let mut applied = None;
            games.update(|all| {
                if let Some(g) = all.iter_mut().find(|g| g.id == game) {
                    applied = Some(g.apply(move_number, &color, &r#move, clock_ms, now_ms()));
                }
            });
            match applied {
                Some(Applied::Played(text)) if shown.get_untracked() == Some(game) => {
                    say(Tone::Info, text)
                }
                Some(Applied::OutOfStep(why)) => {
                    leptos::logging::warn!(
                        "game {game} is out of step ({why}): asking for a snapshot"
                    );
                    send(ClientMsg::Watch { game });
                }
                _ => {}
            }
        }
        ServerMsg::Ended {
            game,
            result,
            score,
        } => {
            let mut words = None;
            games.update(|all| {
                if let Some(g) = all.iter_mut().find(|g| g.id == game) {
                    if !g.is_over() {
                        g.end(&result);
                        words = Some((result_words(&result, g), g.mine));
                    }
                }
            });
            if let Some((mut text, mine)) = words {
                if let Some(score) = score {
                    text.push_str(&format!(
                        " · area: Black {}, White {}",
                        score.black, score.white
                    ));
                }
                if let Some(mine) = mine {
                    let won = match result.as_bytes().first() {
                        Some(b'B') => mine == Color::Black,
                        Some(b'W') => mine == Color::White,
                        _ => false,
                    };
                    record.update(|r| {
                        if let Some((w, l)) = r {
                            if won {
                                *w += 1;
                            } else {
                                *l += 1;
                            }
                        }
                    });
                }
                say(Tone::Result, text);
                refresh_leaders();
            }
        }
        ServerMsg::Error { message, game } => say(
            Tone::Error,
            match game {
                Some(g) => format!("game {g}: {message}"),
                None => message,
            },
        ),
    });
    let token = me.token.clone();
    let on_open = Callback::new(move |()| {
        let hello = ClientMsg::Hello {
            token: token.clone(),
        };
        send(hello);
        // A seek does not survive a lost connection: the server forgot it.
        seeking.set(None);
    });
    let socket = Socket::open(on_open, on_message);
    socket_cell.set_value(Some(socket));
    let link = socket.link();

    let current = Memo::new(move |_| {
        let id = shown.get()?;
        games.with(|all| all.iter().find(|g| g.id == id).cloned())
    });
    let on_move = Callback::new(move |mv: Move| {
        let Some(id) = shown.get_untracked() else {
            return;
        };
        let checked = current.with_untracked(|g| g.as_ref().map(|g| g.check(mv)));
        match checked {
            Some(Ok(())) => send(ClientMsg::Move {
                game: id,
                r#move: mv.to_gtp(),
            }),
            Some(Err(why)) => say(Tone::Error, why),
            None => {}
        }
    });
    let on_resign = Callback::new(move |()| {
        if let Some(game) = shown.get_untracked() {
            send(ClientMsg::Resign { game });
        }
    });
    let on_leave = Callback::new(move |()| {
        shown.set(None);
        notice.set(None);
    });

    let size = RwSignal::new(9u8);
    let color = RwSignal::new(Preference::Any);
    let watch_id = RwSignal::new(String::new());
    let watch = move || {
        let text = watch_id.get_untracked();
        match text.trim().trim_start_matches('#').parse::<u64>() {
            Ok(game) => {
                shown.set(Some(game));
                send(ClientMsg::Watch { game });
            }
            Err(_) => say(Tone::Error, format!("{text:?} is not a game number")),
        }
    };
    let forget = move || {
        api::store_identity(None);
        identity.set(None);
    };
    let link_text = move || match link.get() {
        Link::Open => None,
        Link::Connecting => Some("connecting to the server…".to_string()),
        Link::Down(why) => Some(why),
    };
    let other_games = move || {
        games.with(|all| {
            all.iter()
                .filter(|g| !g.is_over() && Some(g.id) != shown.get())
                .map(|g| {
                    let id = g.id;
                    let label = format!("Game {id}: {} vs {}", g.black, g.white);
                    view! { <button on:click=move |_| shown.set(Some(id))>{label}</button> }
                })
                .collect_view()
        })
    };

    view! {
        <div class="lobby-bar">
            <span data-testid="online-me">
                "Signed in as " <b>{me.name.clone()}</b>
                {move || record.get().map(|(w, l)| format!(" · {w} won, {l} lost"))}
            </span>
            <span class="link" data-testid="online-link">{link_text}</span>
            <button class="quiet" on:click=move |_| forget()>"Forget me on this browser"</button>
        </div>
        <p class="notice" data-testid="online-notice" role="status" aria-live="polite">
            {move || notice.get().map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })}
        </p>
        <div class="other-games">{other_games}</div>
        <Show
            when=move || shown.with(Option::is_some)
            fallback=move || view! {
                <div class="lobby">
                    <Show
                        when=move || seeking.with(Option::is_some)
                        fallback=move || view! {
                            <form
                                class="setup"
                                aria-label="Find a game"
                                on:submit=move |ev| {
                                    ev.prevent_default();
                                    send(ClientMsg::Seek { size: size.get_untracked(), color: color.get_untracked() });
                                }
                            >
                                <label>
                                    <span>"Board"</span>
                                    <select
                                        data-testid="online-size"
                                        on:change=move |ev| {
                                            if let Ok(n) = event_target_value(&ev).parse::<u8>() {
                                                size.set(n);
                                            }
                                        }
                                    >
                                        {BoardSize::PRESETS
                                            .into_iter()
                                            .map(|s| view! { <option value=s.get().to_string()>{s.to_string()}</option> })
                                            .collect_view()}
                                    </select>
                                </label>
                                <label>
                                    <span>"Colour"</span>
                                    <select
                                        data-testid="online-color"
                                        on:change=move |ev| {
                                            color.set(match event_target_value(&ev).as_str() {
                                                "black" => Preference::Black,
                                                "white" => Preference::White,
                                                _ => Preference::Any,
                                            });
                                        }
                                    >
                                        <option value="any">"Either"</option>
                                        <option value="black">"Black"</option>
                                        <option value="white">"White"</option>
                                    </select>
                                </label>
                                <button type="submit" data-testid="online-seek">"Find a game"</button>
                            </form>
                        }
                    >
                        <p class="waiting" data-testid="online-waiting">
                            {move || seeking.get().map(|(n, c)| {
                                let c = match c { Preference::Any => "either colour", Preference::Black => "Black", Preference::White => "White" };
                                format!("Waiting for an opponent: {n}x{n}, {c}… ")
                            })}
                            <button data-testid="online-cancel" on:click=move |_| send(ClientMsg::Cancel)>"Cancel"</button>
                        </p>
                    </Show>
                    <form
                        class="setup"
                        aria-label="Watch a game"
                        on:submit=move |ev| {
                            ev.prevent_default();
                            watch();
                        }
                    >
                        <label>
                            <span>"Watch game number"</span>
                            <input
                                type="text"
                                inputmode="numeric"
                                data-testid="online-watch-id"
                                prop:value=move || watch_id.get()
                                on:input=move |ev| watch_id.set(event_target_value(&ev))
                            />
                        </label>
                        <button type="submit">"Watch"</button>
                    </form>
                    <table class="leaderboard" data-testid="online-leaderboard">
                        <caption>"Leaderboard"</caption>
                        <thead><tr><th>"#"</th><th>"Player"</th><th>"Won"</th><th>"Lost"</th></tr></thead>
                        <tbody>
                            {move || leaders.get().into_iter().enumerate().map(|(i, r)| view! {
                                <tr><td>{i + 1}</td><td>{r.name}</td><td>{r.wins}</td><td>{r.losses}</td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        >
            <OnlineBoard game=current now=now on_move=on_move on_resign=on_resign on_leave=on_leave />
        </Show>
    }
}
