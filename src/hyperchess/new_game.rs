//! "New game": a shipped map to start on.

use crate::widgets::SubmitForm;
use gridarena_engine::hyperchess::maps;
use leptos::prelude::*;

/// Starts a game on the chosen map: `on_start` gets its index in [`maps::SHIPPED`].
#[component]
pub fn NewGameForm(on_start: Callback<usize>) -> impl IntoView {
    let choice = RwSignal::new(0usize);
    let options = maps::SHIPPED
        .iter()
        .enumerate()
        .map(|(i, (name, _))| view! { <option value=i.to_string()>{*name}</option> })
        .collect_view();
    view! {
        <SubmitForm
            class="setup"
            label="New HyperChess game"
            on_submit=Callback::new(move |()| on_start.run(choice.get_untracked()))
        >
            <label>
                <span>"Map"</span>
                <select
                    data-testid="hc-map"
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            choice.set(i);
                        }
                    }
                >
                    {options}
                </select>
            </label>
            <button type="submit" data-testid="hc-new">"New game"</button>
        </SubmitForm>
    }
}
