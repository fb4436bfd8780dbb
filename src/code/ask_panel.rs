//! "Ask about this position": a position from a tick of the arena or a replay (the inspector's link
//! carries it here, `#/code?ask=STATE&team=red`), sent to one of the AIs kept in this browser, with its
//! answer, what it printed and the referee's verdict. A student sees what their AI makes of the very
//! position where it went wrong, edits, and asks again.
//!
//! It lives on this page, not the arena's, so that the arena's start page carries none of it.

use super::ai::{CodeAi, CodeRef};
use super::player::CodePlayer;
use super::store;
use super::trial::Trial;
use gridarena_engine::halma::{Answer, Game, GameState, Team};
use leptos::prelude::*;

/// The position and team the address asks about, or why it cannot be read.
pub fn position_in_address() -> Option<Result<(Game, Team), String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let (_, query) = hash.split_once('?')?;
    let params = web_sys::UrlSearchParams::new_with_str(query).ok()?;
    let state = params.get("ask")?;
    let team = params
        .get("team")
        .and_then(|t| t.parse::<Team>().ok())
        .unwrap_or(Team::Red);
    let read = serde_json::from_str::<serde_json::Value>(&state)
        .and_then(serde_json::from_value::<GameState>)
        .map_err(|e| format!("the position in the link could not be read: {e}"))
        .and_then(|s| {
            Game::from_state(&s).map_err(|e| format!("the position in the link is not a game: {e}"))
        });
    Some(read.map(|game| (game, team)))
}

/// The link that asks about `game` for `team` on this page.
pub fn ask_link(game: &Game, team: Team) -> String {
    let state = serde_json::to_string(&game.state()).unwrap_or_default();
    format!(
        "#/code?ask={}&team={}",
        String::from(js_sys::encode_uri_component(&state)),
        team.name()
    )
}

/// What an asked AI said.
#[derive(Clone, Debug, PartialEq)]
struct Asked {
    verdict: String,
    passed: bool,
    answer: String,
    output: Option<String>,
}

/// The panel, for the position `game` with `team` to move; `ais` are the AIs kept here.
#[component]
pub fn AskPanel(game: Game, team: Team, #[prop(into)] ais: Signal<Vec<CodeAi>>) -> impl IntoView {
    let kept = move || {
        ais.with(|a| {
            a.iter()
                .flat_map(CodeAi::players)
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
        })
    };
    let chosen = RwSignal::new(kept().first().cloned().unwrap_or_default());
    let team = RwSignal::new(team);
    let result = RwSignal::new(None::<Result<Asked, String>>);
    let busy = RwSignal::new(false);
    let turn = game.turn();
    let ask = move |_| {
        let found = chosen
            .get_untracked()
            .parse::<CodeRef>()
            .and_then(|code| store::source_of(&code));
        let source = match found {
            Ok(s) => s,
            Err(why) => {
                result.set(Some(Err(why)));
                return;
            }
        };
        let trial = Trial {
            title: "",
            game: game.clone(),
            team: team.get_untracked(),
        };
        busy.set(true);
        result.set(None);
        leptos::task::spawn_local(async move {
            let player = CodePlayer::start(source, 1, |_| {});
            let (moved, passed, verdict) = trial.ask(&player).await;
            let answer = match (&moved.answer, moved.body) {
                (_, Some(body)) => body,
                (Answer::NoMove(n), None) => n.to_string(),
                (Answer::Move(p), None) => p.to_string(),
            };
            result.set(Some(Ok(Asked {
                verdict,
                passed,
                answer,
                output: moved.output,
            })));
            busy.set(false);
        });
    };
    view! {
        <section class="ask-panel" data-testid="ask-panel">
            <h3>"Ask about this position"</h3>
            <p class="hint">
                {format!("The position at turn {turn}, from the arena's inspector: choose an AI kept here and ask it what it plays.")}
            </p>
            <select data-testid="ask-ai" on:change=move |ev| chosen.set(event_target_value(&ev))>
                {move || {
                    kept()
                        .into_iter()
                        .map(|label| {
                            let selected = label == chosen.get_untracked();
                            view! { <option value=label.clone() selected=selected>{label.clone()}</option> }
                        })
                        .collect_view()
                }}
            </select>
            <select
                data-testid="ask-team"
                prop:value=move || team.get().name()
                on:change=move |ev| {
                    if let Ok(t) = event_target_value(&ev).parse::<Team>() {
                        team.set(t);
                    }
                }
            >
                {Team::ALL
                    .into_iter()
                    .map(|t| view! { <option value=t.name()>{format!("as {}", t.name())}</option> })
                    .collect_view()}
            </select>
            <button type="button" data-testid="ask-go" disabled=move || busy.get() on:click=ask>
                "Ask"
            </button>
            {move || busy.get().then_some(" Asking…")}
            {move || {
                result
                    .get()
                    .map(|r| match r {
                        Ok(a) => {
                            view! {
                                <div class=if a.passed { "asked passed" } else { "asked failed" } data-testid="ask-result">
                                    <p data-testid="ask-verdict">{a.verdict}</p>
                                    <h4>"Answer"</h4>
                                    <pre>{a.answer}</pre>
                                    {a.output.map(|o| view! { <h4>"Printed"</h4> <pre class="printed">{o}</pre> })}
                                </div>
                            }
                                .into_any()
                        }
                        Err(why) => view! { <p class="error" data-testid="ask-result">{why}</p> }.into_any(),
                    })
            }}
        </section>
    }
}
