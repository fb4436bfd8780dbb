//! "New game": a shipped map to start on, and who plays: two people at this screen, or one against the
//! built-in AI at a chosen strength.

use super::session::Opponent;
use crate::widgets::SubmitForm;
use gridarena_engine::hyperchess::{maps, Side};
use leptos::prelude::*;

/// The AI's strengths: a name, and the positions it searches a move. In the browser it searches about
/// half a million positions a second on a school laptop's core, so the strongest thinks about a second.
pub const STRENGTHS: [(&str, u64); 3] = [
    ("quick (20,000 positions a move)", 20_000),
    ("steady (100,000)", 100_000),
    ("deep (500,000)", 500_000),
];

/// Starts a game: `on_start` gets the map's index in [`maps::SHIPPED`] and the AI opponent, if any.
#[component]
pub fn NewGameForm(on_start: Callback<(usize, Option<Opponent>)>) -> impl IntoView {
    let choice = RwSignal::new(0usize);
    let ai_side = RwSignal::new(None::<Side>);
    let strength = RwSignal::new(1usize);
    let start = move |()| {
        let opponent = ai_side.get_untracked().map(|side| Opponent {
            side,
            nodes: STRENGTHS[strength.get_untracked().min(STRENGTHS.len() - 1)].1,
            seed: crate::random_seed(),
        });
        on_start.run((choice.get_untracked(), opponent));
    };
    view! {
        <SubmitForm class="setup" label="New HyperChess game" on_submit=Callback::new(start)>
            <IndexSelect
                label="Map"
                testid="hc-map"
                names=maps::SHIPPED.iter().map(|(name, _)| *name).collect()
                chosen=choice
            />
            <label>
                <span>"Opponent"</span>
                <select
                    data-testid="hc-opponent"
                    on:change=move |ev| {
                        ai_side.set(match event_target_value(&ev).as_str() {
                            "ai-black" => Some(Side::Black),
                            "ai-white" => Some(Side::White),
                            _ => None,
                        });
                    }
                >
                    <option value="person">"a person at this screen"</option>
                    <option value="ai-black">"the AI, playing Black"</option>
                    <option value="ai-white">"the AI, playing White"</option>
                </select>
            </label>
            <Show when=move || ai_side.get().is_some()>
                <IndexSelect
                    label="AI strength"
                    testid="hc-strength"
                    names=STRENGTHS.iter().map(|(name, _)| *name).collect()
                    chosen=strength
                />
            </Show>
            <button type="submit" data-testid="hc-new">"New game"</button>
        </SubmitForm>
    }
}

/// A labelled choice among `names`, its index kept in `chosen`. The select shows `chosen` each time it is
/// drawn, so one that comes back (the strength, after "a person" and then an AI again) shows what a new
/// game will use.
#[component]
fn IndexSelect(
    label: &'static str,
    testid: &'static str,
    names: Vec<&'static str>,
    chosen: RwSignal<usize>,
) -> impl IntoView {
    view! {
        <label>
            <span>{label}</span>
            <select
                data-testid=testid
                prop:value=move || chosen.get().to_string()
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        chosen.set(i);
                    }
                }
            >
                {names
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| view! { <option value=i.to_string()>{name}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}
