//! The page's WebSocket to the online Go server, reconnecting by itself: a dropped connection is retried
//! after 1, 2, 4 … up to 10 seconds, and each new connection says hello again, so the server sends the
//! snapshots that bring the page back in step. The move clock keeps running on the server meanwhile.

use gridarena_engine::go::online::{ClientMsg, ServerMsg};
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

/// Where the connection stands, for the page to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    Connecting,
    Open,
    /// Closed; why, and whether it is being retried.
    Down(String),
}

#[derive(Default)]
struct State {
    socket: Option<WebSocket>,
    handlers: Vec<Closure<dyn FnMut(JsValue)>>,
    /// Connections that failed in a row, for the back-off.
    failures: u32,
    /// Set when the page closes: nothing reconnects after that.
    stopped: bool,
}

/// The connection. Copy: every callback holds its own handle.
#[derive(Clone, Copy)]
pub struct Socket {
    link: RwSignal<Link>,
    state: StoredValue<State, LocalStorage>,
    on_open: Callback<()>,
    on_message: Callback<ServerMsg>,
}

/// `api/ws` beside the page, as ws:// or wss://.
fn url() -> Result<String, String> {
    let base = document()
        .base_uri()
        .ok()
        .flatten()
        .ok_or("the page has no address")?;
    let url = web_sys::Url::new_with_base("api/ws", &base).map_err(|_| "bad page address")?;
    let scheme = if url.protocol() == "https:" {
        "wss:"
    } else {
        "ws:"
    };
    url.set_protocol(scheme);
    Ok(url.href())
}

impl Socket {
    /// Connects, and keeps connecting until the page closes.
    pub fn open(on_open: Callback<()>, on_message: Callback<ServerMsg>) -> Socket {
        let socket = Socket {
            link: RwSignal::new(Link::Connecting),
            state: StoredValue::new_local(State::default()),
            on_open,
            on_message,
        };
        socket.connect();
        on_cleanup(move || {
            let old = socket.state.try_update_value(|s| {
                s.stopped = true;
                (s.socket.take(), std::mem::take(&mut s.handlers))
            });
            if let Some((Some(ws), _handlers)) = old {
                ws.set_onopen(None);
                ws.set_onclose(None);
                ws.set_onmessage(None);
                let _ = ws.close();
            }
        });
        socket
    }

    pub fn link(self) -> Signal<Link> {
        self.link.into()
    }

    /// Sends a message; an error when the connection is not open (the page says so and the user retries).
    pub fn send(self, msg: &ClientMsg) -> Result<(), String> {
        let sent = self.state.try_with_value(|s| {
            s.socket
                .as_ref()
                .filter(|ws| ws.ready_state() == WebSocket::OPEN)
                .map(|ws| ws.send_with_str(&msg.to_json()))
        });
        match sent.flatten() {
            Some(Ok(())) => Ok(()),
            _ => Err("not connected to the server: wait for it to reconnect".to_string()),
        }
    }

    fn connect(self) {
        if self.state.try_with_value(|s| s.stopped).unwrap_or(true) {
            return;
        }
        self.link.set(Link::Connecting);
        let ws =
            match url().and_then(|u| WebSocket::new(&u).map_err(|_| "bad server address".into())) {
                Ok(ws) => ws,
                Err(why) => {
                    self.link.set(Link::Down(why));
                    return;
                }
            };
        let on_open = Closure::<dyn FnMut(JsValue)>::new(move |_| {
            self.state.update_value(|s| s.failures = 0);
            self.link.set(Link::Open);
            self.on_open.run(());
        });
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
            let Some(text) = ev
                .dyn_ref::<MessageEvent>()
                .and_then(|m| m.data().as_string())
            else {
                return;
            };
            match ServerMsg::parse(&text) {
                Ok(msg) => self.on_message.run(msg),
                Err(why) => leptos::logging::warn!("unreadable message from the server: {why}"),
            }
        });
        let on_close = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
            let reason = ev
                .dyn_ref::<CloseEvent>()
                .map(|c| c.reason())
                .filter(|r| !r.is_empty());
            self.closed(reason);
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        self.state.update_value(|s| {
            s.socket = Some(ws);
            s.handlers = vec![on_open, on_message, on_close];
        });
    }

    fn closed(self, reason: Option<String>) {
        let Some(failures) = self.state.try_update_value(|s| {
            s.failures += 1;
            s.failures
        }) else {
            return;
        };
        let wait = (1u64 << (failures - 1).min(4)).min(10);
        let why = reason.unwrap_or_else(|| {
            "the online server is not reachable (online Go needs `gridarena serve`, see the README)"
                .to_string()
        });
        self.link
            .set(Link::Down(format!("{why}; trying again in {wait} s")));
        set_timeout(move || self.connect(), Duration::from_secs(wait));
    }
}
