//! One web AI's or code player's exchange in the inspector: the exact request, the answer exactly as
//! received (only ever a text node), its status, time and verdict, what it printed, and buttons to copy
//! it, download it as a test case, and ask about its position on the "Write an AI" page.

use super::arena_model::Screen;
use super::clipboard::copy;
use super::replay::Replay;
use super::session::Session;
use gridarena_engine::halma::exchange::curl_command;
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

/// The exchange `e`, of the game in `session` or the `replay` over it; `said` is the inspector's line
/// and `fallback` its text to copy by hand.
#[component]
pub fn ExchangeView(
    e: Exchange,
    session: RwSignal<Session>,
    replay: RwSignal<Option<Replay>>,
    said: RwSignal<String>,
    fallback: RwSignal<Option<String>>,
) -> impl IntoView {
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
        let link = crate::code::ask_panel::ask_link(&game, asked_team, &asked_player, asked_type);
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
