//! The inspector: for a tick and each web AI, the exact request sent, the answer exactly as received,
//! its status, time and the referee's verdict, with the request to copy (as JSON or as a curl command)
//! and the exchange to download as a test case. An answer is free text from outside: it is only ever a
//! text node here.

use super::arena_model::Screen;
use super::replay::Replay;
use super::session::Session;
use gridarena_engine::halma::exchange::curl_command;
use gridarena_engine::halma::Exchange;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

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
fn is_code(e: &Exchange) -> bool {
    e.url.starts_with(crate::code::ai::CodeRef::PREFIX)
}

/// Writes `text` to the clipboard; when the browser refuses, `fallback` gets it to show selected.
fn copy(text: String, said: RwSignal<String>, fallback: RwSignal<Option<String>>) {
    let write = web_sys::window().and_then(|w| {
        let navigator = js_sys::Reflect::get(&w, &"navigator".into()).ok()?;
        let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok()?;
        let f: js_sys::Function = js_sys::Reflect::get(&clipboard, &"writeText".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let promise = f.call1(&clipboard, &JsValue::from_str(&text)).ok()?;
        promise.dyn_into::<js_sys::Promise>().ok()
    });
    let Some(promise) = write else {
        fallback.set(Some(text));
        return;
    };
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => {
                said.set("Copied.".to_string());
                fallback.set(None);
            }
            Err(_) => fallback.set(Some(text)),
        }
    });
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
    let shown = Memo::new(move |_| {
        chosen
            .get()
            .unwrap_or_else(|| latest.get())
            .min(latest.get())
    });
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
        chosen.set(Some(k.min(latest_now())));
        said.set(String::new());
    };
    let one = move |e: Exchange| {
        let curl = curl_command(&e.url, e.wire.content_type, &e.request);
        let (request, curl_copy) = (e.request.clone(), curl.clone());
        let (name, case) = test_case(&e);
        let team = e.team.name();
        let (k, asked_team) = (e.tick, e.team);
        let (asked_player, asked_type) = (e.url.clone(), e.wire.content_type);
        let ask = move |_| {
            let game = replay.with_untracked(|r| {
                session.with_untracked(|s| Screen::of(s, r.as_ref()).game_before(k))
            });
            let Some(game) = game else {
                said.set(format!("the position before tick {k} is not kept"));
                return;
            };
            let link =
                crate::code::ask_panel::ask_link(&game, asked_team, &asked_player, asked_type);
            let base = window().location().href().unwrap_or_default();
            let base = base.split('#').next().unwrap_or_default().to_string();
            if window()
                .open_with_url_and_target(&format!("{base}{link}"), "_blank")
                .is_err()
            {
                said.set("the browser refused to open a tab".to_string());
            }
        };
        let printed = e.wire.stderr.clone().map(|text| {
            view! {
                <h4>"Printed"</h4>
                <pre data-testid="inspector-output">{text}</pre>
            }
        });
        let as_curl = (!is_code(&e)).then(|| {
            view! {
                <h4>"As curl"</h4>
                <pre data-testid="inspector-curl">{curl}</pre>
                <button type="button" on:click=move |_| copy(curl_copy.clone(), said, fallback)>
                    "Copy as curl"
                </button>
            }
        });
        view! {
            <section class=format!("exchange {team} team-{team}") data-testid=format!("exchange-{team}")>
                <h3>{format!("{team} · {}", e.url)}</h3>
                <p data-testid="inspector-status">{status_text(&e)}</p>
                <p data-testid="inspector-verdict">{e.verdict.to_string()}</p>
                <h4>"Request"</h4>
                <pre data-testid="inspector-request">{e.request.clone()}</pre>
                <h4>{if e.wire.truncated { "Answer (the start the record kept)" } else { "Answer" }}</h4>
                <pre data-testid="inspector-answer">
                    {e.wire.body.clone().unwrap_or_else(|| "(no answer read)".to_string())}
                </pre>
                {printed}
                <button type="button" on:click=move |_| copy(request.clone(), said, fallback)>
                    "Copy request"
                </button>
                {as_curl}
                <button
                    type="button"
                    data-testid="inspector-download"
                    on:click=move |_| {
                        if let Err(why) = crate::files::download(&name, &case, "application/json") {
                            said.set(why);
                        }
                    }
                >
                    "Download test case"
                </button>
                <button type="button" data-testid="inspector-ask" on:click=ask>
                    "Ask about this position"
                </button>
            </section>
        }
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
                <button type="button" on:click=move |_| go(shown.get_untracked().saturating_sub(1).max(1))>
                    "Prev"
                </button>
                <button type="button" on:click=move |_| go(shown.get_untracked() + 1)>"Next"</button>
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
                            if let Ok(k) = event_target_value(&ev).trim().parse::<u32>() {
                                go(k);
                            }
                        }
                    />
                </label>
                <span>{move || format!("of {}", latest.get())}</span>
            </div>
            <p class="inspector-said" data-testid="inspector-said">{move || said.get()}</p>
            {move || {
                fallback
                    .get()
                    .map(|text| {
                        view! {
                            <textarea
                                readonly
                                data-testid="inspector-copy-fallback"
                                aria-label="The clipboard was refused: copy this text"
                                on:focus=move |ev| {
                                    let el: web_sys::Element = event_target(&ev);
                                    if let Ok(f) = js_sys::Reflect::get(&el, &"select".into()) {
                                        let _ = f.unchecked_into::<js_sys::Function>().call0(&el);
                                    }
                                }
                                prop:value=text
                            ></textarea>
                            <p>"The clipboard was refused: the text is above, select it and copy."</p>
                        }
                    })
            }}
            {move || match exchanges.get() {
                Ok(list) => list.into_iter().map(one).collect_view().into_any(),
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
