//! The roll call and the start: each entry green or red with why and what to fix, then start with
//! everyone or without the red entries.

use super::driver::Control;
use super::form::SettingsForm;
use super::job::Job;
use super::roll_call::{self, Check};
use super::roster_list::RosterList;
use crate::notice::{Line, Tone};
use gridarena_engine::tournament::roster::Roster;
use leptos::prelude::*;

#[component]
pub fn RollCallPanel(
    roster: RwSignal<RosterList>,
    form: RwSignal<SettingsForm>,
    checks: RwSignal<Vec<Check>>,
    ctl: Control,
) -> impl IntoView {
    let error = move |text: String| ctl.notice.set(Some(Line::new(Tone::Error, text)));
    let calls = RwSignal::new(0u64);
    let call = move |_| {
        let settings = match form.with_untracked(SettingsForm::settings) {
            Ok(s) => s,
            Err(e) => return error(e),
        };
        // Each entry with the engine's plan: what it is asked, and how long it is waited for.
        match roster.with_untracked(|r| roll_call::entries(&r.roster(), &settings)) {
            Ok(entries) => ctl.ask(Job::RollCall {
                entries,
                settings,
                checks,
                calls,
            }),
            Err(e) => error(e),
        }
    };
    // The checks belong to the roster they were made for; any change to it calls for a new roll call.
    Effect::new(move |_| {
        roster.track();
        calls.update(|n| *n += 1);
        checks.set(Vec::new());
    });
    let start = move |only_green: bool| {
        let settings = match form.with_untracked(SettingsForm::settings) {
            Ok(s) => s,
            Err(e) => return error(e),
        };
        let mut entries = roster.with_untracked(|r| r.entries().to_vec());
        if only_green {
            let kept = checks.with_untracked(|c| {
                (c.len() == entries.len())
                    .then(|| c.iter().map(|c| !c.is_red()).collect::<Vec<_>>())
            });
            let Some(kept) = kept else {
                return error("Call the roll first: it finds the red entries.".to_string());
            };
            let mut keep = kept.into_iter();
            entries.retain(|_| keep.next().unwrap_or(false));
        }
        ctl.ask(Job::Start {
            roster: Roster { entries },
            settings,
        });
    };
    let rows = move || {
        let checks = checks.get();
        roster.with(|r| {
            r.entries()
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let check = checks.get(i).cloned();
                    // A red web AI gets the endpoint doctor, which finds why in one click.
                    let doctor = matches!(check, Some(Check::Red { .. }))
                        .then(|| doctor_link(&e.player, &form.with_untracked(|f| f.tick_ms.clone())))
                        .flatten();
                    let (class, said, fix) = match check {
                        None => ("t-check", "not checked yet".to_string(), String::new()),
                        Some(Check::Waiting) => ("t-check waiting", "asking…".to_string(), String::new()),
                        Some(Check::Green(said)) => ("t-check green", said, String::new()),
                        Some(Check::Red { reason, fix }) => ("t-check red refused", reason, fix),
                    };
                    view! {
                        <li class=class data-testid="roll-entry">
                            <span class="t-name">{e.name.clone()}</span>
                            " "
                            <span data-testid="roll-said">{said}</span>
                            {(!fix.is_empty()).then(|| view! { <span class="t-fix">" Fix: " {fix}</span> })}
                            {doctor.map(|href| view! {
                                " "
                                <a href=href target="_blank" rel="noopener" data-testid="roll-doctor">"Test this AI"</a>
                            })}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let any_red = move || checks.with(|c| c.iter().any(Check::is_red));
    // Until the jobs asked are done (the saved tournament being resumed, a Start already clicked), a
    // Start would come after them and be refused.
    let waiting = move || ctl.asking();
    view! {
        <fieldset class="t-roll">
            <legend>"Roll call"</legend>
            <p class="hint">
                "Each web AI gets one real request (the start position) before round 1, and each code entry runs once on it in its own worker (loading Python takes a few seconds an entry). House bots are always ready."
            </p>
            <ul data-testid="roll-call">{rows}</ul>
            <div class="t-buttons">
                <button data-testid="roll-call-run" on:click=call>"Call the roll"</button>
                <button data-testid="start" disabled=waiting on:click=move |_| start(false)>"Start"</button>
                <button data-testid="start-green" disabled=move || waiting() || !any_red() on:click=move |_| start(true)>
                    "Start without the red entries"
                </button>
            </div>
        </fieldset>
    }
}

/// The endpoint doctor's page for `player`, if it is a web address: `#/doctor?url=...&tick=...`.
fn doctor_link(player: &str, tick_ms: &str) -> Option<String> {
    let url = player.trim();
    let web = url.to_ascii_lowercase();
    if !(web.starts_with("http://") || web.starts_with("https://")) {
        return None;
    }
    let tick = tick_ms.trim().parse::<u64>().unwrap_or(1000);
    Some(format!(
        "#/doctor?url={}&tick={tick}",
        js_sys::encode_uri_component(url)
    ))
}
