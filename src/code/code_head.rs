//! The head of the chosen AI: its name, its format (a `move(request)` function, or the course's
//! homework files, Python only) and its files.

use super::ai::{Format, Lang};
use super::file_tabs::FileTabs;
use super::page_state::CodeState;
use leptos::prelude::*;

#[component]
pub fn CodeHead(state: CodeState) -> impl IntoView {
    let current = move || state.current();
    view! {
        <div class="code-head">
            <h2 data-testid="code-title">{move || current().map(|ai| ai.name).unwrap_or_default()}</h2>
            <label>
                <span>"Format"</span>
                <select
                    data-testid="code-format"
                    prop:value=move || current().map(|ai| ai.draft.format.key()).unwrap_or_default()
                    on:change=move |ev| match event_target_value(&ev).as_str() {
                        "course" => state.set_format(Format::Course),
                        _ => state.set_format(Format::Function),
                    }
                >
                    <option value="function">"move(request)"</option>
                    <option value="course" disabled=move || current().is_some_and(|ai| ai.draft.lang != Lang::Python)>
                        "course homework (input.txt, output.txt)"
                    </option>
                </select>
            </label>
            <FileTabs
                ais=state.ais
                selected=state.selected
                editing=state.editing
                on_open=Callback::new(move |_| state.show())
            />
        </div>
    }
}
