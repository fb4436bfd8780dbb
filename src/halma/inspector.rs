//! The inspector: for a tick and each web AI, the exact request sent, the answer exactly as received,
//! its status, time and the referee's verdict, with the request to copy (as JSON or as a curl command)
//! and the exchange to download as a test case. An answer is free text from outside: it is only ever a
//! text node here.

use super::arena_model::Screen;
use super::clipboard::CopyFallback;
use super::exchange_view::ExchangeView;
use super::inspector_ticks::{chosen_tick, next_tick, prev_tick, shown_tick, typed_tick};
use super::replay::Replay;
use super::session::Session;
use leptos::prelude::*;

/// The inspector panel, following the live game or the loaded replay.
#[component]
pub fn Inspector(session: RwSignal<Session>, replay: RwSignal<Option<Replay>>) -> impl IntoView {
    // The tick chosen; `None` follows the latest.
    let chosen = RwSignal::new(None::<u32>);
    let open = RwSignal::new(false);
    let latest_now = move || {
        replay
            .with_untracked(|r| session.with_untracked(|s| Screen::of(s, r.as_ref()).latest_tick()))
    };
    // Followed only while the panel is open: closed, its tick number and "of N" are not shown, and
    // following the game cost every tick two rewritten texts, the tick field's among them (issue 38).
    let latest = Memo::new(move |was: Option<&u32>| {
        if open.get() {
            replay.track();
            session.track();
            latest_now()
        } else {
            was.copied().unwrap_or_else(latest_now)
        }
    });
    let shown = Memo::new(move |_| shown_tick(chosen.get(), latest.get()));
    let exchanges = Memo::new(move |_| {
        if !open.get() {
            return Err(String::new());
        }
        let k = shown.get();
        replay.with(|r| session.with(|s| Screen::of(s, r.as_ref()).exchanges(k)))
    });
    let said = RwSignal::new(String::new());
    let fallback = RwSignal::new(None::<String>);
    let go = move |k: u32| {
        // The game's latest tick now: the panel may have opened a moment ago, before `latest` heard.
        chosen.set(Some(chosen_tick(k, latest_now())));
        said.set(String::new());
    };
    view! {
        <details
            class="inspector"
            data-testid="inspector"
            on:toggle=move |ev| {
                let el: web_sys::Element = event_target(&ev);
                open.set(el.has_attribute("open"));
            }
        >
            // Opened by a click, the panel follows the game from this click on: the toggle event comes
            // a task later, and a tick number typed in between would be overwritten.
            <summary on:click=move |ev| {
                let summary: web_sys::Element = event_target(&ev);
                if let Some(details) = summary.parent_element() {
                    open.set(!details.has_attribute("open"));
                }
            }>"Inspector"</summary>
            <div class="inspector-nav" role="group" aria-label="Tick">
                <button type="button" on:click=move |_| go(prev_tick(shown.get_untracked()))>
                    "Prev"
                </button>
                <button type="button" on:click=move |_| go(next_tick(shown.get_untracked()))>"Next"</button>
                <button type="button" data-testid="inspector-latest" on:click=move |_| chosen.set(None)>
                    "Latest"
                </button>
                <label>
                    "Tick "
                    <input
                        type="number"
                        min="1"
                        data-testid="inspector-tick"
                        prop:value=move || shown.get().to_string()
                        on:change=move |ev| {
                            if let Some(k) = typed_tick(&event_target_value(&ev)) {
                                go(k);
                            }
                        }
                    />
                </label>
                <span>{move || format!("of {}", latest.get())}</span>
            </div>
            <p class="inspector-said" data-testid="inspector-said">{move || said.get()}</p>
            <CopyFallback fallback />
            {move || match exchanges.get() {
                Ok(list) => list
                    .into_iter()
                    .map(|e| view! { <ExchangeView e session replay said fallback /> })
                    .collect_view()
                    .into_any(),
                Err(why) => view! { <p data-testid="inspector-none">{why}</p> }.into_any(),
            }}
        </details>
    }
}
