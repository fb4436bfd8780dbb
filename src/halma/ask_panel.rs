//! "Ask about this position": the position before the inspector's tick, live or replayed, sent to one of
//! the AIs kept in this browser, with its answer, what it printed and the referee's verdict. A student
//! sees at once what their AI makes of the very position where it went wrong, and whether a fix helps.

use super::arena_model::Screen;
use super::replay::Replay;
use super::session::Session;
use crate::code::ai::{CodeRef, Format};
use crate::code::player::CodePlayer;
use crate::code::store;
use crate::code::trial::{Trial, TRIAL_DEADLINE_MS};
use gridarena_engine::halma::{Answer, Team};
use leptos::prelude::*;

/// What an asked AI said.
#[derive(Clone, Debug, PartialEq)]
struct Asked {
    verdict: String,
    passed: bool,
    answer: String,
    output: Option<String>,
}

/// The panel, asking about the position before tick `tick` (the position now when no tick is played).
#[component]
pub fn AskPanel(
    session: RwSignal<Session>,
    replay: RwSignal<Option<Replay>>,
    #[prop(into)] tick: Signal<u32>,
) -> impl IntoView {
    let kept: Vec<String> = store::load()
        .unwrap_or_default()
        .iter()
        .flat_map(|ai| {
            let draft = CodeRef {
                name: ai.name.clone(),
                version: None,
            };
            let versions = ai.versions.iter().rev().map(|v| CodeRef {
                name: ai.name.clone(),
                version: Some(v.n),
            });
            std::iter::once(draft)
                .chain(versions)
                .map(|r| r.to_string())
        })
        .collect();
    let chosen = RwSignal::new(kept.first().cloned().unwrap_or_default());
    let team = RwSignal::new(Team::Red);
    let result = RwSignal::new(None::<Result<Asked, String>>);
    let busy = RwSignal::new(false);
    let ask = move |_| {
        let k = tick.get_untracked();
        let position = replay.with_untracked(|r| {
            session.with_untracked(|s| Screen::of(s, r.as_ref()).game_before(k))
        });
        let code = chosen.get_untracked().parse::<CodeRef>();
        let (game, code) = match (position, code) {
            (Some(g), Ok(c)) => (g, c),
            (None, _) => {
                result.set(Some(Err(format!(
                    "the position before tick {k} is not kept"
                ))));
                return;
            }
            (_, Err(why)) => {
                result.set(Some(Err(why)));
                return;
            }
        };
        let source = match store::source_of(&code) {
            Ok(s) => s,
            Err(why) => {
                result.set(Some(Err(why)));
                return;
            }
        };
        let trial = Trial {
            title: "",
            game,
            team: team.get_untracked(),
        };
        busy.set(true);
        result.set(None);
        leptos::task::spawn_local(async move {
            let format = source.format;
            let player = CodePlayer::start(source, 1, |_| {});
            let input = match format {
                Format::Course => trial.input(),
                Format::Function => None,
            };
            let moved = player
                .ask_within(&trial.request(), input.as_deref(), TRIAL_DEADLINE_MS)
                .await;
            let (passed, verdict) = trial.verdict(&moved.answer);
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
    let empty = kept.is_empty();
    view! {
        <section class="ask-panel" data-testid="ask-panel">
            <h3>"Ask about this position"</h3>
            {if empty {
                view! {
                    <p class="hint">
                        "Write an AI on the " <a href="#/code">"Write an AI"</a>
                        " page to ask it what it would play in the position before this tick."
                    </p>
                }
                    .into_any()
            } else {
                view! {
                    <p class="hint">"Sends the position before this tick to an AI kept in this browser."</p>
                    <select data-testid="ask-ai" on:change=move |ev| chosen.set(event_target_value(&ev))>
                        {kept
                            .into_iter()
                            .map(|label| view! { <option value=label.clone()>{label.clone()}</option> })
                            .collect_view()}
                    </select>
                    <select
                        data-testid="ask-team"
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
                }
                    .into_any()
            }}
        </section>
    }
}
