//! The live view's component: an `EventSource` on the server's stream, each update drawn as the board
//! (the same z-slices as the game) with the turn, the last move and the pieces taken. The browser
//! reconnects a broken stream by itself; the page says so meanwhile.

use super::board3d::Board3dProps;
use super::boards::Boards;
use super::live::LiveBoard;
use crate::notice::{tone_class, Tone};
use gridarena_engine::hyperchess::live::LIVE_PATH;
use gridarena_engine::hyperchess::{Coord, Side};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{EventSource, MessageEvent};

#[component]
pub fn LiveView(
    /// The 3D board, split off the page's module by its bin.
    board3d: crate::lazy::Split<Board3dProps>,
) -> impl IntoView {
    let live = RwSignal::new(LiveBoard::default());
    let notice = RwSignal::new(None::<String>);
    match listen(live) {
        Ok(stream) => {
            let stream = StoredValue::new_local(Some(stream));
            on_cleanup(move || {
                if let Some(Some((source, _handlers))) = stream.try_update_value(Option::take) {
                    source.close();
                }
            });
        }
        Err(why) => notice.set(Some(why)),
    }
    let view = Memo::new(move |_| live.with(LiveBoard::view));
    let lost = move |side: Side| move || live.with(|l| l.lost_text(side));
    let nothing = Callback::new(move |_: Coord| {
        notice.set(Some(
            "This is a live view of a game played elsewhere: moves are made there.".to_string(),
        ));
    });
    view! {
        <section class="hyperchess" aria-label="HyperChess, live">
            <p class="hc-status" data-testid="hc-status" role="status" aria-live="polite">
                {move || live.with(LiveBoard::status)}
            </p>
            <p class="hc-last" data-testid="hc-last">{move || live.with(LiveBoard::last_move_text)}</p>
            <p class="notice" data-testid="hc-notice">
                {move || live.with(LiveBoard::problem).or_else(|| notice.get()).map(|t| view! { <span class=tone_class(Tone::Error)>{t}</span> })}
            </p>
            <Boards view=view on_click=nothing board3d=board3d />
            <div class="hc-captured">
                <span data-testid="hc-lost-white">"White has lost: " {lost(Side::White)}</span>
                <span data-testid="hc-lost-black">"Black has lost: " {lost(Side::Black)}</span>
            </div>
        </section>
    }
}

type Handlers = (
    Closure<dyn FnMut(MessageEvent)>,
    Closure<dyn FnMut(JsValue)>,
);

/// Opens the stream; its handlers live as long as it does.
fn listen(live: RwSignal<LiveBoard>) -> Result<(EventSource, Handlers), String> {
    let source = EventSource::new(LIVE_PATH)
        .map_err(|_| "the page cannot open the live view's stream".to_string())?;
    let on_state = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        if let Some(text) = event.data().as_string() {
            if let Some(Err(why)) = live.try_update(|l| l.receive(&text)) {
                leptos::logging::warn!("{why}");
            }
        }
    });
    let watched = source.clone();
    let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| {
        let for_good = watched.ready_state() == EventSource::CLOSED;
        live.update(|l| l.lost(for_good));
    });
    source
        .add_event_listener_with_callback("state", on_state.as_ref().unchecked_ref())
        .map_err(|_| "the page cannot listen to the live view's stream".to_string())?;
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok((source, (on_state, on_error)))
}
