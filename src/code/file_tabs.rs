//! The chosen AI's files, as tabs above the editor: a text file opens in the editor, a binary one is
//! listed with its size.

use super::ai::{CodeAi, CodeFile};
use leptos::prelude::*;

/// The selected AI's files: the editor shows the chosen text file; binary files are listed.
#[component]
pub fn FileTabs(
    ais: RwSignal<Vec<CodeAi>>,
    selected: RwSignal<Option<String>>,
    editing: RwSignal<String>,
    on_open: Callback<()>,
) -> impl IntoView {
    let files = move || {
        let name = selected.get()?;
        ais.with(|a| {
            a.iter()
                .find(|ai| ai.name == name)
                .map(|ai| (ai.draft.main.clone(), ai.draft.files.clone()))
        })
    };
    view! {
        <ul class="code-files" data-testid="code-files">
            {move || files().map(|(main, list)| {
                list.into_iter().map(|f: CodeFile| {
                    let path = f.path.clone();
                    let label = if f.path == main { format!("{} (main)", f.path) } else { f.path.clone() };
                    let p = path.clone();
                    let text = f.text.is_some();
                    view! {
                        <li>
                            <button
                                type="button"
                                disabled=!text
                                title=if text { "Open in the editor" } else { "A binary file: kept as it is" }
                                class:chosen=move || editing.get() == p
                                on:click=move |_| {
                                    editing.set(path.clone());
                                    on_open.run(());
                                }
                            >
                                {label}
                                {(!text).then(|| format!(" ({} bytes)", f.size()))}
                            </button>
                        </li>
                    }
                }).collect_view()
            })}
        </ul>
    }
}
