//! The form that makes a new AI from a starter.

use super::ai::CodeAi;
use super::templates::{Template, TEMPLATES};
use crate::notice::{Line, Tone};
use crate::widgets::SubmitForm;
use leptos::prelude::*;

#[component]
pub fn NewAiForm(on_new: Callback<CodeAi>, notice: RwSignal<Option<Line>>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let template = RwSignal::new(TEMPLATES[0].key.to_string());
    let create = move || {
        let Some(t) = Template::by_key(&template.get_untracked()) else {
            return;
        };
        match CodeAi::new(&name.get_untracked(), t.source()) {
            Ok(ai) => {
                name.set(String::new());
                on_new.run(ai);
            }
            Err(why) => notice.set(Some(Line::new(Tone::Error, why))),
        }
    };
    view! {
        <SubmitForm class="new-ai" label="A new AI" on_submit=Callback::new(move |()| create())>
            <h3>"New AI"</h3>
            <label>
                <span>"Name"</span>
                <input
                    data-testid="new-ai-name"
                    maxlength=super::ai::MAX_NAME_CHARS
                    placeholder="my-ai"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
            </label>
            <label>
                <span>"Starter"</span>
                <select data-testid="new-ai-template" on:change=move |ev| template.set(event_target_value(&ev))>
                    {TEMPLATES
                        .iter()
                        .map(|t| view! { <option value=t.key>{t.label}</option> })
                        .collect_view()}
                </select>
            </label>
            <button type="submit" data-testid="new-ai-create">"Create"</button>
        </SubmitForm>
    }
}
