//! The "Write an AI" page (`#/code`): the AIs kept in this browser, an editor, saved versions, Test on
//! fixed positions, Play in the arena, and files, .zip and links in and out.
//!
//! Every change to the code is kept at once (the draft), so a reload loses nothing; "Save version"
//! keeps a numbered copy that the arena can play against the draft. The page's state and what its
//! buttons do are in [`CodeState`]; its parts each have their own file, named for what they show.

use super::ai_list::BUILT_IN_OPPONENTS;
use super::ai_list_panel::AiListPanel;
use super::ask_panel::{position_in_address, AskPanel};
use super::code_actions::CodeActions;
use super::code_head::CodeHead;
use super::memory;
use super::page_state::CodeState;
use super::test_panel::TestPanel;
use super::transfer;
use super::versions::Versions;
use super::worker::MAX_MEMORY_MB;
use crate::notice::{tone_class, Line, Tone};
use leptos::html::Div;
use leptos::prelude::*;

/// The page.
#[component]
pub fn CodePage() -> impl IntoView {
    let state = CodeState::load();
    state.keep_on_leaving();
    let host = NodeRef::<Div>::new();
    state.mount_editor(host);
    // A code link (`#/code?ai=...`) is taken once, then dropped from the address.
    if let Some(packed) = transfer::link_in_address() {
        leptos::task::spawn_local(async move {
            match transfer::from_link(&packed).await {
                Ok(ai) => state.add(ai, "Opened the AI from the link"),
                Err(why) => state.notice.set(Some(Line::new(Tone::Error, why))),
            }
            transfer::forget_link();
        });
    }
    // A position the arena's inspector sent to ask about.
    let asking = position_in_address().map(|read| match read {
        Ok(asking) => view! { <AskPanel asking=asking ais=state.ais /> }.into_any(),
        Err(why) => view! { <p class="error" data-testid="ask-result">{why}</p> }.into_any(),
    });
    let opponent = RwSignal::new(BUILT_IN_OPPONENTS[0].0.to_string());
    let (notice, selected) = (state.notice, state.selected);
    let current = Signal::derive(move || state.current());

    view! {
        <section class="code-page" data-testid="code-page">
            <AiListPanel state=state />
            <div class="code-main">
                <p class=move || notice.with(|n| n.as_ref().map_or("notice", |l| tone_class(l.tone)).to_string())
                   data-testid="code-notice" role="status">
                    {move || notice.with(|n| n.as_ref().map(|l| l.text.clone()).unwrap_or_default())}
                </p>
                {asking}
                <Show
                    when=move || selected.with(Option::is_some)
                    fallback=|| view! { <EmptyState /> }
                >
                    <CodeHead state=state />
                </Show>
                <div class="editor" node_ref=host data-testid="editor"></div>
                <Show when=move || selected.with(Option::is_some)>
                    <CodeActions state=state opponent=opponent />
                    <Versions current=current opponent=opponent />
                    <TestPanel source=Signal::derive(move || current.get().map(|ai| ai.draft)) />
                </Show>
                <p class="hint" data-testid="code-limits">{memory::note(MAX_MEMORY_MB)}</p>
            </div>
        </section>
    }
}

/// What stands in the editor's place before there is an AI to edit. It names the form ("New AI"), not
/// where it is: the list is at the left on a wide screen and above on a phone.
#[component]
fn EmptyState() -> impl IntoView {
    view! {
        <div class="code-empty" data-testid="code-empty">
            <h2>"No AI yet"</h2>
            <p>"Make one in the New AI form: choose a starter and press Create."</p>
        </div>
    }
}
