//! A code entry's code, read-only, for the teacher: its files with their sizes, the main file shown,
//! any other text file shown on a click; binary files (a pickled table) named with their size.

use super::roster_list::size_text;
use gridarena_engine::halma::code::HashedSource;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn CodeView(name: String, source: Arc<HashedSource>, on_close: Callback<()>) -> impl IntoView {
    let shown = RwSignal::new(source.main.clone());
    let files = {
        let source = source.clone();
        move || {
            source
                .files
                .iter()
                .map(|f| {
                    let path = f.path.clone();
                    let main = path == source.main;
                    let size = size_text(f.size());
                    let is_text = f.text.is_some();
                    let label = path.clone();
                    let here = path.clone();
                    view! {
                        <li data-testid="code-file">
                            {if is_text {
                                view! {
                                    <button
                                        class="link"
                                        aria-pressed=move || (shown.get() == here).to_string()
                                        on:click=move |_| shown.set(path.clone())
                                    >
                                        {label}
                                    </button>
                                }
                                    .into_any()
                            } else {
                                view! { <span>{label}</span> }.into_any()
                            }}
                            " " <span class="hint">{size}</span>
                            {(!is_text).then(|| view! { <span class="hint">" (binary)"</span> })}
                            {main.then(|| view! { <span class="t-main">" main file"</span> })}
                        </li>
                    }
                })
                .collect_view()
        }
    };
    let text = move || {
        let path = shown.get();
        source
            .files
            .iter()
            .find(|f| f.path == path)
            .and_then(|f| f.text.clone())
            .unwrap_or_default()
    };
    view! {
        <section class="t-code-view" data-testid="code-view" aria-label=format!("{name}'s code")>
            <header>
                <h3>{format!("{name}'s code (read-only)")}</h3>
                <button data-testid="code-view-close" on:click=move |_| on_close.run(())>"Close"</button>
            </header>
            <ul class="t-code-files">{files}</ul>
            <p class="hint">{move || shown.get()}</p>
            <pre data-testid="code-text"><code>{text}</code></pre>
        </section>
    }
}
