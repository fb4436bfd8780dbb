//! "Ask about this position": a position from a tick of the arena or a replay (the inspector's link
//! carries it here, `#/code?ask=STATE&team=red`), sent to one of the AIs kept in this browser, with its
//! answer, what it printed and the referee's verdict. A student sees what their AI makes of the very
//! position where it went wrong, edits, and asks again.
//!
//! It lives on this page, not the arena's, so that the arena's start page carries none of it.

use super::ai::{CodeAi, CodeRef};
use super::player::CodePlayer;
use super::store;
use super::trial::{Trial, TRIAL_DEADLINE_MS};
use crate::web_ai;
use gloo_timers::callback::Timeout;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::code::ClockSettings;
use gridarena_engine::halma::game_loop::game_request_body;
use gridarena_engine::halma::{AiPlayer, Answer, ContentType, Game, GameState, Team};
use leptos::prelude::*;
use std::fmt;

/// What the address asks about: the position, the team to answer for, and the player that answered
/// there (`ai=`: a web AI's address or `code:NAME`, with `type=json` for a web AI sent JSON), if named.
pub struct Asking {
    pub game: Game,
    pub team: Team,
    pub player: Option<String>,
    pub content_type: ContentType,
}

/// The position the address asks about, or why it cannot be read.
pub fn position_in_address() -> Option<Result<Asking, String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let (_, query) = hash.split_once('?')?;
    let params = web_sys::UrlSearchParams::new_with_str(query).ok()?;
    let state = params.get("ask")?;
    let team = params
        .get("team")
        .and_then(|t| t.parse::<Team>().ok())
        .unwrap_or(Team::Red);
    let content_type = match params.get("type").as_deref() {
        Some("json") => ContentType::Json,
        _ => ContentType::TextPlain,
    };
    let read = serde_json::from_str::<serde_json::Value>(&state)
        .and_then(serde_json::from_value::<GameState>)
        .map_err(|e| format!("the position in the link could not be read: {e}"))
        .and_then(|s| {
            Game::from_state(&s).map_err(|e| format!("the position in the link is not a game: {e}"))
        });
    Some(read.map(|game| Asking {
        game,
        team,
        player: params.get("ai").filter(|p| !p.is_empty()),
        content_type,
    }))
}

/// The link that asks about `game` for `team` on this page, naming the player that answered there
/// (`player`: a web AI's address or `code:NAME`) so the panel offers it first.
pub fn ask_link(game: &Game, team: Team, player: &str, content_type: ContentType) -> String {
    let state = serde_json::to_string(&game.state()).unwrap_or_default();
    let encode = |s: &str| String::from(js_sys::encode_uri_component(s));
    let mut link = format!("#/code?ask={}&team={}", encode(&state), team.name());
    if !player.is_empty() {
        link.push_str(&format!("&ai={}", encode(player)));
    }
    if content_type == ContentType::Json {
        link.push_str("&type=json");
    }
    link
}

/// What an asked AI said.
#[derive(Clone, Debug, PartialEq)]
struct Asked {
    verdict: String,
    passed: bool,
    answer: String,
    /// How it came: "HTTP 200 in 12 ms (text/plain)", "23 ms of the code's own time".
    how: String,
    output: Option<String>,
}

/// The menu value that stands for a web AI (or a bridged program) at the address typed beside it.
const WEB: &str = "web";

/// Whom the panel asks: an AI kept here, a built-in AI, or a web AI (a bridged program is one). The
/// arena's `Player` also seats a person, who has nothing to answer here, so the panel reads its own
/// labels, from the engine's [`AiPlayer`] and the code players' [`CodeRef`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Choice {
    Kept(CodeRef),
    BuiltIn(BuiltIn),
    Web(String),
}

impl Choice {
    /// Reads a label as the arena writes it: `code:NAME@v2`, `builtin:greedy`, or a web AI's address.
    fn read(label: &str) -> Result<Choice, String> {
        if label.starts_with(CodeRef::PREFIX) {
            return label.parse().map(Choice::Kept);
        }
        match label.parse::<AiPlayer>().map_err(|e| e.to_string())? {
            AiPlayer::BuiltIn(ai) => Ok(Choice::BuiltIn(ai)),
            AiPlayer::Web(url) => Ok(Choice::Web(url)),
            other => Err(format!(
                "{other}: a program is asked as a web AI, at the address `gridarena halma bridge` prints"
            )),
        }
    }

    /// What the menu shows, as the arena's menu does.
    fn describe(&self) -> String {
        match self {
            Choice::Kept(code) => code.describe(),
            Choice::BuiltIn(ai) => format!("Built-in AI: {}", ai.name()),
            Choice::Web(url) => format!("Web AI at {url}"),
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Kept(code) => code.fmt(f),
            Choice::BuiltIn(ai) => AiPlayer::BuiltIn(*ai).fmt(f),
            Choice::Web(url) => f.write_str(url),
        }
    }
}

/// The menu's first choice: the player the link names where it is on the menu (a web AI's address
/// fills the address field), else the first AI kept here, else greedy.
fn first_choice(named: Option<&str>, kept: &[String]) -> (String, String) {
    match named.map(Choice::read) {
        Some(Ok(Choice::Web(url))) => (WEB.to_string(), url),
        Some(Ok(p @ Choice::BuiltIn(_))) => (p.to_string(), String::new()),
        Some(Ok(p @ Choice::Kept(_))) if kept.contains(&p.to_string()) => {
            (p.to_string(), String::new())
        }
        _ => (
            kept.first()
                .cloned()
                .unwrap_or_else(|| Choice::BuiltIn(BuiltIn::Greedy).to_string()),
            String::new(),
        ),
    }
}

/// Asks the player the menu names (`url` and `content_type` for a web AI) about `trial`.
async fn ask(
    chosen: &str,
    url: &str,
    content_type: ContentType,
    trial: &Trial,
) -> Result<Asked, String> {
    let player = if chosen == WEB {
        let url = url.trim();
        if url.is_empty() {
            return Err(
                "type the web AI's address (a bridged program's is the one the bridge printed)"
                    .into(),
            );
        }
        Choice::read(url)?
    } else {
        Choice::read(chosen)?
    };
    let asked = |answer: &Answer, text: Option<String>, how: String, output: Option<String>| {
        let (passed, verdict) = trial.verdict(answer);
        let answer = text.unwrap_or_else(|| match answer {
            Answer::NoMove(n) => n.to_string(),
            Answer::Move(p) => p.to_string(),
        });
        Asked {
            verdict,
            passed,
            answer,
            how,
            output,
        }
    };
    match player {
        Choice::Kept(code) => {
            let source = store::source_of(&code)?;
            let player = CodePlayer::start(source, 1, ClockSettings::default(), |_| {});
            let (moved, _, _) = trial.ask(&player).await;
            let how = match moved.ms {
                Some(ms) => format!("answered in {} ms of the code's own time", ms.round()),
                None => "no answer".to_string(),
            };
            Ok(asked(&moved.answer, moved.body, how, moved.printed))
        }
        Choice::BuiltIn(ai) => {
            let started = crate::now_ms();
            let answer = ai.answer(&trial.game, trial.team, crate::random_seed());
            let how = format!(
                "answered in {} ms on this page",
                (crate::now_ms() - started).round()
            );
            Ok(asked(&answer, None, how, None))
        }
        Choice::Web(url) => {
            let controller = web_sys::AbortController::new().map_err(|_| {
                "this browser cannot cancel requests (no AbortController)".to_string()
            })?;
            let signal = controller.signal();
            // Dropped when the answer is in, which cancels it.
            let _timer = Timeout::new(TRIAL_DEADLINE_MS as u32, move || controller.abort());
            // A game of its own (a fresh `gameId`), so a bridge starts the program afresh and a game
            // the same AI is playing is left alone.
            let body = game_request_body(
                &trial.game,
                trial.team,
                TRIAL_DEADLINE_MS,
                crate::random_seed(),
            );
            let (answer, wire) =
                web_ai::ask_wire(&url, content_type, body, &signal, TRIAL_DEADLINE_MS).await;
            let how = match (wire.status, wire.ms) {
                (Some(s), Some(ms)) => format!("HTTP {s} in {ms} ms ({content_type})"),
                (Some(s), None) => format!("HTTP {s} ({content_type})"),
                (None, _) => format!("no response ({content_type})"),
            };
            Ok(asked(&answer, wire.body, how, wire.stderr))
        }
    }
}

/// The panel, for the position the address asks about; `ais` are the AIs kept here.
#[component]
pub fn AskPanel(asking: Asking, #[prop(into)] ais: Signal<Vec<CodeAi>>) -> impl IntoView {
    let kept = move || {
        ais.with(|a| {
            a.iter()
                .flat_map(CodeAi::players)
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
        })
    };
    let (first, address) = first_choice(asking.player.as_deref(), &kept());
    let chosen = RwSignal::new(first);
    let url = RwSignal::new(address);
    let content_type = RwSignal::new(asking.content_type);
    let team = RwSignal::new(asking.team);
    let result = RwSignal::new(None::<Result<Asked, String>>);
    let busy = RwSignal::new(false);
    let game = asking.game;
    let turn = game.turn();
    let go = move |_| {
        let trial = Trial {
            title: "",
            game: game.clone(),
            team: team.get_untracked(),
        };
        busy.set(true);
        result.set(None);
        leptos::task::spawn_local(async move {
            let asked = ask(
                &chosen.get_untracked(),
                &url.get_untracked(),
                content_type.get_untracked(),
                &trial,
            )
            .await;
            result.set(Some(asked));
            busy.set(false);
        });
    };
    let option = move |value: String, label: String| {
        let selected = value == chosen.get_untracked();
        view! { <option value=value selected=selected>{label}</option> }
    };
    view! {
        <section class="ask-panel" data-testid="ask-panel">
            <h3>"Ask about this position"</h3>
            <p class="hint">
                {format!("The position at turn {turn}, from the arena's inspector: ask an AI kept here, a built-in AI, or a web AI (a program bridged with `gridarena halma bridge` is one) what it plays.")}
            </p>
            <select data-testid="ask-ai" on:change=move |ev| chosen.set(event_target_value(&ev))>
                {move || {
                    kept()
                        .into_iter()
                        .map(|value| {
                            let label = Choice::read(&value).map_or(value.clone(), |p| p.describe());
                            option(value, label)
                        })
                        .collect_view()
                }}
                {BuiltIn::ALL
                    .into_iter()
                    .map(|ai| {
                        let p = Choice::BuiltIn(ai);
                        option(p.to_string(), p.describe())
                    })
                    .collect_view()}
                {option(WEB.to_string(), "A web AI or a bridged program, at…".to_string())}
            </select>
            <Show when=move || chosen.get() == WEB>
                <input
                    type="url"
                    data-testid="ask-url"
                    placeholder="http://127.0.0.1:8001/"
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))
                />
                <select
                    data-testid="ask-type"
                    prop:value=move || content_type.get().key()
                    on:change=move |ev| {
                        content_type
                            .set(
                                if event_target_value(&ev) == "json" {
                                    ContentType::Json
                                } else {
                                    ContentType::TextPlain
                                },
                            )
                    }
                >
                    {ContentType::ALL
                        .into_iter()
                        .map(|c| view! { <option value=c.key()>{format!("sent as {c}")}</option> })
                        .collect_view()}
                </select>
            </Show>
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
            <button type="button" data-testid="ask-go" disabled=move || busy.get() on:click=go>
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
                                    <p class="hint" data-testid="ask-how">{a.how}</p>
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_s_player_is_offered_first_where_it_is_on_the_menu() {
        let kept = vec!["code:Ada".to_string(), "code:Ada@v1".to_string()];
        let pick = |named: Option<&str>| first_choice(named, &kept);
        let s = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(pick(Some("code:Ada@v1")), s("code:Ada@v1", ""));
        assert_eq!(pick(Some("builtin:search")), s("builtin:search", ""));
        // A web AI or a bridge: the address goes in the field beside the menu.
        assert_eq!(
            pick(Some("http://127.0.0.1:8001/")),
            s(WEB, "http://127.0.0.1:8001/")
        );
        // An AI no longer kept here, a person, or nonsense: the first AI kept here.
        for named in [
            None,
            Some("code:Gone"),
            Some("human"),
            Some("ftp://x"),
            Some("robot"),
        ] {
            assert_eq!(pick(named), s("code:Ada", ""), "{named:?}");
        }
        assert_eq!(first_choice(None, &[]), s("builtin:greedy", ""));
    }

    #[test]
    fn a_label_reads_as_the_arena_writes_it() {
        for label in [
            "code:Ada",
            "code:Ada@v2",
            "builtin:search",
            "http://127.0.0.1:8001/",
        ] {
            let choice = Choice::read(label);
            assert_eq!(choice.map(|c| c.to_string()), Ok(label.to_string()));
        }
        let ada = Choice::read("code:Ada@v2").unwrap();
        assert_eq!(ada.describe(), "Your AI: Ada v2");
        let search = Choice::read("builtin:search").unwrap();
        assert_eq!(search.describe(), "Built-in AI: search");
        assert!(Choice::read("human").is_err());
        assert!(Choice::read("code:").is_err());
        let program = Choice::read("course:agents/ada:python3 hw.py").unwrap_err();
        assert!(program.contains("gridarena halma bridge"), "{program}");
    }
}
