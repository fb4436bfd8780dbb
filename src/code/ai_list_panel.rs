//! The list of AIs kept in this browser, at the left of the "Write an AI" page: a button per AI to
//! choose it, the form for a new one, and files, .zip and links in and out.

use super::ai::CodeAi;
use super::ai_list::describe;
use super::new_ai::NewAiForm;
use super::page_state::CodeState;
use super::transfer::Transfer;
use leptos::prelude::*;

#[component]
pub fn AiListPanel(state: CodeState) -> impl IntoView {
    let (ais, selected, notice) = (state.ais, state.selected, state.notice);
    let on_new = Callback::new(move |ai: CodeAi| state.add(ai, "Made a new AI"));
    let on_import = Callback::new(move |ai: CodeAi| state.add(ai, "Imported"));
    view! {
        <aside class="code-list">
            <h2>"Your AIs"</h2>
            <p class="hint">"Kept in this browser only: export an AI to keep it elsewhere."</p>
            <ul data-testid="code-ais">
                <For each=move || ais.get() key=|ai| ai.name.clone() let:ai>
                    {
                        let name = ai.name.clone();
                        let (n, label) = (name.clone(), describe(&ai));
                        view! {
                            <li>
                                <button
                                    type="button"
                                    class:chosen=move || selected.get().as_deref() == Some(n.as_str())
                                    data-testid="code-ai"
                                    on:click=move |_| state.choose(name.clone())
                                >
                                    {label}
                                </button>
                            </li>
                        }
                    }
                </For>
            </ul>
            <NewAiForm on_new=on_new notice=notice />
            <Transfer on_import=on_import notice=notice current=Signal::derive(move || state.current()) />
        </aside>
    }
}
