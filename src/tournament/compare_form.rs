//! The Compare page's form: players A and B (with the players to choose from), the preset, how many
//! games, the early-stop floor, how many at once, the seed; Start, Stop and a link to the setup.

use super::compare::Form;
use super::compare_text::field_text;
use crate::code::store as kept;
use gridarena_engine::halma::Preset;
use leptos::prelude::*;

/// The built-in players offered for A and B.
const BUILT_INS: [&str; 3] = ["builtin:search", "builtin:search-lite", "builtin:greedy"];

/// One field of the form, named `key` as a link names it, offering `list`'s choices where given.
#[component]
fn CompareField(
    form: RwSignal<Form>,
    key: &'static str,
    label: &'static str,
    #[prop(optional)] list: Option<&'static str>,
) -> impl IntoView {
    view! {
        <label>
            {label}
            <input
                data-testid=format!("compare-{key}")
                list=list
                prop:value=move || form.with(|f| field_text(f, key))
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    form.update(|f| *f = f.clone().with(key, text));
                }
            />
        </label>
    }
}

/// The form; `link` is the address of the page with the form's setup.
#[component]
pub fn CompareForm(
    form: RwSignal<Form>,
    playing: RwSignal<bool>,
    on_start: Callback<()>,
    on_stop: Callback<()>,
    link: fn(&Form) -> String,
) -> impl IntoView {
    let kept_players = kept::players();
    view! {
        <datalist id="compare-players">
            {BUILT_INS.into_iter().map(|b| view! { <option value=b></option> }).collect_view()}
            {kept_players.into_iter().map(|c| view! { <option value=c.to_string()></option> }).collect_view()}
        </datalist>
        <datalist id="compare-presets">
            {Preset::ALL.into_iter().map(|p| view! { <option value=p.name()></option> }).collect_view()}
        </datalist>
        <div class="compare-form">
            <CompareField form key="a" label="Player A " list="compare-players" />
            <CompareField form key="b" label="Player B " list="compare-players" />
            <CompareField form key="preset" label="Preset " list="compare-presets" />
            <CompareField form key="games" label="Games " />
            <CompareField form key="min-games" label="No early stop before game " />
            <CompareField form key="concurrency" label="At once " />
            <CompareField form key="seed" label="Seed " />
            <button data-testid="compare-start" on:click=move |_| on_start.run(()) disabled=move || playing.get()>"Start"</button>
            <button data-testid="compare-stop" on:click=move |_| on_stop.run(()) disabled=move || !playing.get()>"Stop"</button>
            <a data-testid="compare-link" href=move || form.with(link)>"Link to this setup"</a>
        </div>
    }
}
