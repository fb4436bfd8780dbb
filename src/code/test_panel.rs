//! "Test": the AI's draft tried on fixed positions in a fresh worker, each with the referee's verdict
//! and what the code printed.

use super::ai::Source;
use super::player::{CodePlayer, Status};
use super::trial::trials;
use gridarena_engine::halma::code::ClockSettings;
use leptos::prelude::*;

/// One position's result.
#[derive(Clone, Debug, PartialEq)]
struct Finding {
    title: String,
    passed: bool,
    verdict: String,
    output: Option<String>,
    ms: Option<f64>,
}

#[component]
pub fn TestPanel(source: Signal<Option<Source>>) -> impl IntoView {
    let findings = RwSignal::new(Vec::<Finding>::new());
    let status = RwSignal::new(String::new());
    let running = RwSignal::new(false);
    let run = move |_| {
        let Some(source) = source.get_untracked() else {
            return;
        };
        running.set(true);
        findings.set(Vec::new());
        status.set("Starting…".to_string());
        leptos::task::spawn_local(async move {
            let format = source.format;
            let player = CodePlayer::start(source, 1, ClockSettings::default(), move |s| {
                if let Status::Loading(text) = s {
                    if !text.is_empty() {
                        status.set(text.clone());
                    }
                }
            });
            if let Status::Failed(failure) = player.settled().await {
                status.set(String::new());
                findings.set(vec![Finding {
                    title: "loading the code".to_string(),
                    passed: false,
                    verdict: failure.to_string(),
                    output: None,
                    ms: None,
                }]);
                running.set(false);
                return;
            }
            status.set("Asking for moves…".to_string());
            for trial in trials(format) {
                let (moved, passed, verdict) = trial.ask(&player).await;
                findings.update(|f| {
                    f.push(Finding {
                        title: trial.title.to_string(),
                        passed,
                        verdict,
                        output: moved.printed,
                        ms: moved.ms,
                    })
                });
                // A new game for each position: no state carried from one test to the next.
                player.new_game(1);
            }
            let passed = findings.with_untracked(|f| f.iter().filter(|f| f.passed).count());
            let total = findings.with_untracked(Vec::len);
            status.set(format!("{passed} of {total} positions passed."));
            running.set(false);
        });
    };
    view! {
        <section class="test-panel" data-testid="code-test-panel">
            <h3>"Test"</h3>
            <p class="hint">"Asks the draft for a move in fixed positions, in a fresh worker, and shows the referee's verdict and what the code printed."</p>
            <button type="button" data-testid="code-test" disabled=move || running.get() on:click=run>"Test"</button>
            <span class="test-status" data-testid="code-test-status">{move || status.get()}</span>
            <ol class="findings" data-testid="code-findings">
                <For each=move || findings.get() key=|f| f.title.clone() let:f>
                    <li class=if f.passed { "passed" } else { "failed" } data-testid="code-finding">
                        <strong>{if f.passed { "✓ " } else { "✗ " }}{f.title.clone()}</strong>
                        <span>{format!(": {}", f.verdict)}</span>
                        {f.ms.map(|ms| format!(" ({} ms)", ms.round()))}
                        {f.output.clone().map(|o| view! { <pre class="printed">{o}</pre> })}
                    </li>
                </For>
            </ol>
        </section>
    }
}
