//! Small components the pages share, so that a file input, a form or a rules box is written once and
//! looks and behaves alike on every page (style/main.css styles them by these classes).

use crate::files;
use gridarena_engine::go::BoardSize;
use leptos::prelude::*;

/// A form whose submit (its button, or Enter in a field) runs `on_submit` instead of loading a page.
#[component]
pub fn SubmitForm(
    /// The form's classes ("setup").
    class: &'static str,
    /// What the form is for, for screen readers, where the form's fields do not say it.
    #[prop(optional)]
    label: Option<&'static str>,
    on_submit: Callback<()>,
    children: Children,
) -> impl IntoView {
    view! {
        <form
            class=class
            aria-label=label
            on:submit=move |ev| {
                ev.prevent_default();
                on_submit.run(());
            }
        >
            {children()}
        </form>
    }
}

/// The Go board-size select ("Board": 9x9, 13x13, 19x19), handing each chosen side to `on_change`.
#[component]
pub fn BoardSizeSelect(
    testid: &'static str,
    /// The side the select shows, followed as it changes; without it the select keeps its own choice.
    #[prop(optional, into)]
    value: Option<Signal<u32>>,
    on_change: Callback<u32>,
) -> impl IntoView {
    view! {
        <label>
            <span>"Board"</span>
            <select
                data-testid=testid
                // None sets nothing (and, tracking no signal, never runs again).
                prop:value=move || value.map(|v| v.get().to_string())
                on:change=move |ev| {
                    if let Ok(n) = event_target_value(&ev).parse::<u32>() {
                        on_change.run(n);
                    }
                }
            >
                {BoardSize::PRESETS
                    .into_iter()
                    .map(|s| view! { <option value=s.get().to_string()>{s.to_string()}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}

/// A file chosen in a [`FileInput`]: its name, and its bytes or why they were not read.
pub struct Chosen {
    pub name: String,
    pub bytes: Result<Vec<u8>, String>,
}

/// A labelled file input that reads the chosen file and hands it to `on_read`. The input is cleared on
/// each choice, so choosing the same file again reads it again.
#[component]
pub fn FileInput(
    /// The words beside the input.
    label: &'static str,
    testid: &'static str,
    /// The largest file read; a larger one is refused before reading, naming the files as `what`.
    max_bytes: usize,
    what: &'static str,
    /// The input's `accept` list, where the page suggests file types.
    #[prop(optional)]
    accept: Option<&'static str>,
    on_read: Callback<Chosen>,
) -> impl IntoView {
    let change = move |ev: leptos::ev::Event| {
        let Some(file) = files::chosen(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            let name = file.name();
            let bytes = files::read(file, max_bytes, what).await;
            on_read.run(Chosen { name, bytes });
        });
    };
    view! {
        <label class="load">
            <span>{label}</span>
            <input type="file" accept=accept data-testid=testid on:change=change />
        </label>
    }
}

/// The rules a page states before the first game, folded away under `summary`.
#[component]
pub fn RulesBox(summary: &'static str, items: &'static [&'static str]) -> impl IntoView {
    view! {
        <details class="go-rules">
            <summary>{summary}</summary>
            <ul>{items.iter().map(|item| view! { <li>{*item}</li> }).collect_view()}</ul>
        </details>
    }
}
