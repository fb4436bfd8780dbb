//! The chosen AI's buttons under the editor: Save version, the opponent to play against, Play in the
//! arena and Delete.

use super::ai::CodeRef;
use super::ai_list::opponents;
use super::links::arena_link;
use super::page_state::CodeState;
use leptos::prelude::*;

/// The buttons; `opponent` is the player label chosen to play against.
#[component]
pub fn CodeActions(state: CodeState, opponent: RwSignal<String>) -> impl IntoView {
    let play_link = move || {
        let ai = state.current()?;
        let me = CodeRef {
            name: ai.name.clone(),
            version: None,
        };
        Some(arena_link(
            &me.to_string(),
            &opponent.get(),
            ai.draft.format,
        ))
    };
    view! {
        <div class="code-actions">
            <button type="button" data-testid="code-save" on:click=move |_| state.save_version()>"Save version"</button>
            <label>
                <span>"Play against"</span>
                <select data-testid="code-opponent" on:change=move |ev| opponent.set(event_target_value(&ev))>
                    {move || state.ais.with(|a| opponents(a))
                        .into_iter()
                        .map(|(value, label)| {
                            let chosen = value == opponent.get_untracked();
                            view! { <option value=value selected=chosen>{label}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <a class="button" data-testid="code-play" href=move || play_link().unwrap_or_default()>"Play in the arena"</a>
            <button type="button" class="danger" data-testid="code-delete" on:click=move |_| state.delete()>"Delete"</button>
        </div>
    }
}
