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
use gridarena_engine::halma::Exchange;
use leptos::prelude::*;

/// One tick's exchange as a test case file: its name (`red-tick-3.json`) and its JSON.
pub fn test_case(e: &Exchange) -> (String, String) {
    let request = serde_json::from_str::<serde_json::Value>(&e.request)
        .unwrap_or_else(|_| serde_json::Value::String(e.request.clone()));
    let case = serde_json::json!({
        "url": e.url,
        "contentType": e.wire.content_type.header(),
        "request": request,
        "status": e.wire.status,
        "ms": e.wire.ms,
        "answer": e.wire.body,
        "verdict": e.verdict.to_string(),
    });
    let text = serde_json::to_string_pretty(&case).unwrap_or_default();
    (format!("{}-tick-{}.json", e.team, e.tick), text)
}

/// What the status line says of an exchange: "HTTP 200 in 12 ms", or that no response came.
pub fn status_text(e: &Exchange) -> String {
    if is_code(e) {
        return match e.wire.ms {
            Some(ms) => format!("answered in {ms} ms of the code's own time"),
            None => "no answer".to_string(),
        };
    }
    match (e.wire.status, e.wire.ms) {
        (Some(s), Some(ms)) => format!("HTTP {s} in {ms} ms ({})", e.wire.content_type),
        (Some(s), None) => format!("HTTP {s} ({})", e.wire.content_type),
        (None, _) => format!("no response ({})", e.wire.content_type),
    }
}

/// Whether the exchange was with a code player in the page (no HTTP, no curl, but printed output).
pub fn is_code(e: &Exchange) -> bool {
    e.url.starts_with(crate::code::ai::CodeRef::PREFIX)
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::{ContentType, Team, Verdict, Wire};

    #[test]
    fn a_test_case_names_team_and_tick_and_keeps_the_request_as_json() {
        let e = Exchange {
            tick: 3,
            team: Team::Red,
            url: "http://127.0.0.1:8001/".into(),
            request: r#"{"team":"red"}"#.into(),
            wire: Wire {
                status: Some(200),
                ms: Some(4),
                ..Wire::sent(ContentType::Json, 1000)
            }
            .with_body(b"<b>x</b>"),
            verdict: Verdict::Enacted,
        };
        let (name, text) = test_case(&e);
        assert_eq!(name, "red-tick-3.json");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["request"]["team"], "red");
        assert_eq!(v["contentType"], "application/json");
        assert_eq!(v["answer"], "<b>x</b>");
        assert_eq!(v["verdict"], "enacted");
        assert_eq!(status_text(&e), "HTTP 200 in 4 ms (application/json)");
    }
}
