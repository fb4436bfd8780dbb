//! The chosen AI's saved versions, newest first, each with links to play it and to compare the draft
//! with it.

use super::ai::{CodeAi, CodeRef};
use super::links::{arena_link, compare_link};
use leptos::prelude::*;

/// The saved versions, newest first, each playable against the opponent chosen.
#[component]
pub fn Versions(current: Signal<Option<CodeAi>>, opponent: RwSignal<String>) -> impl IntoView {
    view! {
        <details class="versions" data-testid="code-versions">
            <summary>{move || format!("Saved versions ({})", current.with(|c| c.as_ref().map_or(0, |ai| ai.versions.len())))}</summary>
            <ul>
                {move || current.get().map(|ai| {
                    ai.versions.iter().rev().map(|v| {
                        let me = CodeRef { name: ai.name.clone(), version: Some(v.n) };
                        let format = v.source.format;
                        let label = format!("v{} · saved {}", v.n, saved_at(v.saved_ms));
                        let draft = format!("code:{}", ai.name);
                        let vs_draft = arena_link(&draft, &me.to_string(), format);
                        let compared = compare_link(&draft, &me.to_string());
                        view! {
                            <li>
                                {label}
                                " "
                                <a href=move || arena_link(&me.to_string(), &opponent.get(), format)>"play against the opponent"</a>
                                " · "
                                <a href=vs_draft>"the draft against it"</a>
                                " · "
                                <a data-testid="compare-version" href=compared>"Compare the draft with it..."</a>
                            </li>
                        }
                    }).collect_view()
                })}
            </ul>
        </details>
    }
}

/// A date and time the way the browser writes them for its user.
fn saved_at(ms: u64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
    String::from(date.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}
