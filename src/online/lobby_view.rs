//! The lobby and the games of a signed-in player: holds the [`Lobby`] in a signal, the WebSocket that
//! feeds it, the leaderboard and the clock's tick, and lays out the parts.

use super::api::{self, Identity};
use super::board::OnlineBoardProps;
use super::leaderboard::Leaderboard;
use super::lobby::Lobby;
use super::lobby_bar::LobbyBar;
use super::seek_form::SeekForm;
use super::socket::Socket;
use super::watch_form::WatchForm;
use crate::lazy::{LazyPart, Split};
use crate::notice::{tone_class, Tone};
use crate::now_ms;
use gloo_timers::callback::Interval;
use gridarena_engine::go::online::{ClientMsg, PlayerRecord, ServerMsg};
use gridarena_engine::go::Move;
use leptos::prelude::*;

#[component]
pub fn LobbyView(
    me: Identity,
    identity: RwSignal<Option<Identity>>,
    board: Split<OnlineBoardProps>,
) -> impl IntoView {
    let lobby = RwSignal::new(Lobby::new(me));
    let leaders = RwSignal::new(Vec::<PlayerRecord>::new());
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

    let socket_cell = StoredValue::new_local(None::<Socket>);
    let send = Callback::new(move |msg: ClientMsg| {
        let result = socket_cell
            .with_value(|s| s.map(|s| s.send(&msg)))
            .unwrap_or(Err("not connected".to_string()));
        if let Err(why) = result {
            lobby.update(|l| l.say(Tone::Error, why));
        }
    });
    let on_message = Callback::new(move |msg: ServerMsg| {
        let Some(reaction) = lobby.try_update(|l| l.receive(msg, now_ms())) else {
            return;
        };
        if let Some(warning) = reaction.warning {
            leptos::logging::warn!("{warning}");
        }
        if let Some(reply) = reaction.reply {
            send.run(reply);
        }
        if reaction.refresh_leaderboard {
            refresh_leaders();
        }
    });
    let on_open = Callback::new(move |()| {
        if let Some(hello) = lobby.try_update(Lobby::connected) {
            send.run(hello);
        }
    });
    let socket = Socket::open(on_open, on_message);
    socket_cell.set_value(Some(socket));

    let current = Memo::new(move |_| lobby.with(|l| l.current().cloned()));
    let on_move = Callback::new(move |mv: Move| {
        if let Some(msg) = lobby.try_update(|l| l.play(mv)).flatten() {
            send.run(msg);
        }
    });
    let on_resign = Callback::new(move |()| {
        if let Some(msg) = lobby.with_untracked(Lobby::resign) {
            send.run(msg);
        }
    });
    let on_leave = Callback::new(move |()| lobby.update(Lobby::leave));
    let on_unwatch = Callback::new(move |()| {
        if let Some(msg) = lobby.with_untracked(Lobby::unwatch) {
            send.run(msg);
        }
    });
    let watch_typed = RwSignal::new(String::new());
    let on_watch = Callback::new(move |text: String| {
        if let Some(msg) = lobby.try_update(|l| l.watch(&text)).flatten() {
            send.run(msg);
        }
    });
    let forget = Callback::new(move |()| {
        api::store_identity(None);
        identity.set(None);
    });
    let other_games = move || {
        lobby.with(|l| {
            l.other_games()
                .into_iter()
                .map(|(id, label)| {
                    view! { <button on:click=move |_| lobby.update(|l| l.show(id))>{label}</button> }
                })
                .collect_view()
        })
    };
    let notice = move || {
        lobby.with(|l| l.notice().cloned()).map(|line| {
            view! { <span class=tone_class(line.tone)>{line.text}</span> }
        })
    };

    view! {
        <LobbyBar
            name=lobby.with_untracked(|l| l.name().to_string())
            record=Signal::derive(move || lobby.with(Lobby::record_text))
            link=socket.link()
            on_forget=forget
        />
        <p class="notice" data-testid="online-notice" role="status" aria-live="polite">{notice}</p>
        <div class="other-games">{other_games}</div>
        <Show
            when=move || lobby.with(|l| l.shown().is_some())
            fallback=move || view! {
                <div class="lobby">
                    <SeekForm
                        waiting=Signal::derive(move || lobby.with(Lobby::waiting_text))
                        house=Signal::derive(move || lobby.with(Lobby::house))
                        send=send
                    />
                    <WatchForm typed=watch_typed on_watch=on_watch />
                    <Leaderboard rows=leaders />
                </div>
            }
        >
            <LazyPart
                what="the game's board"
                load=Box::new(move || (board.load)(OnlineBoardProps { game: current, now, on_move, on_resign, on_leave, on_unwatch }))
                at_once=true
            />
        </Show>
    }
}
