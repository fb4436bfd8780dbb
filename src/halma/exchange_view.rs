//! One web AI's or code player's exchange in the inspector: the exact request, the answer exactly as
//! received (only ever a text node), its status, time and verdict, what it printed, and buttons to copy
//! it, download it as a test case, and ask about its position on the "Write an AI" page.

use super::arena_model::Screen;
use super::clipboard::copy;
use super::inspector::{is_code, status_text, test_case};
use super::replay::Replay;
use super::session::Session;
use gridarena_engine::halma::exchange::curl_command;
use gridarena_engine::halma::Exchange;
use leptos::prelude::*;

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
