//! Choosing the next game before it starts: board size, opponent (a person or the AI at a strength),
//! and the colour the person plays against the AI.

use super::session::{Opponent, Setup, STRENGTHS};
use crate::widgets::{BoardSizeSelect, SubmitForm};
use gridarena_engine::go::{BoardSize, Color};
use leptos::prelude::*;

/// The colour choice, with "either" drawn at random when the game starts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ColorChoice {
    Black,
    White,
    Random,
}

/// The opponent select's value for `o`.
fn opponent_value(o: Opponent) -> String {
    match o {
        Opponent::Person => "person".to_string(),
        Opponent::Ai { playouts } => playouts.to_string(),
    }
}

fn parse_opponent(v: &str) -> Option<Opponent> {
    if v == "person" {
        return Some(Opponent::Person);
    }
    let playouts = v.parse().ok()?;
    STRENGTHS
        .iter()
        .any(|s| s.playouts == playouts)
        .then_some(Opponent::Ai { playouts })
}

#[component]
pub fn SetupForm(current: RwSignal<Setup>, on_start: Callback<Setup>) -> impl IntoView {
    let size = RwSignal::new(current.get_untracked().size);
    let opponent = RwSignal::new(current.get_untracked().opponent);
    let color = RwSignal::new(match current.get_untracked().human {
        Color::Black => ColorChoice::Black,
        Color::White => ColorChoice::White,
    });
    // A loaded game sets the size: the form follows.
    Effect::new(move |_| size.set(current.get().size));

    let start = Callback::new(move |()| {
        let human = match color.get_untracked() {
            ColorChoice::Black => Color::Black,
            ColorChoice::White => Color::White,
            ColorChoice::Random if js_sys::Math::random() < 0.5 => Color::Black,
            ColorChoice::Random => Color::White,
        };
        on_start.run(Setup {
            size: size.get_untracked(),
            opponent: opponent.get_untracked(),
            human,
        });
    });
    let strengths = STRENGTHS
        .iter()
        .map(|s| {
            view! {
                <option value=s.playouts.to_string()>
                    {format!("Built-in AI, {}: {} ({} playouts a move)", s.name, s.beats, s.playouts)}
                </option>
            }
        })
        .collect_view();
    view! {
        <SubmitForm class="setup go-setup" label="New Go game" on_submit=start>
            <BoardSizeSelect
                testid="go-size"
                value=Signal::derive(move || u32::from(size.get().get()))
                on_change=Callback::new(move |n| {
                    if let Ok(s) = BoardSize::new(n) {
                        size.set(s);
                    }
                })
            />
            <label>
                <span>"Opponent"</span>
                <select
                    data-testid="go-opponent"
                    prop:value=move || opponent_value(opponent.get())
                    on:change=move |ev| {
                        if let Some(o) = parse_opponent(&event_target_value(&ev)) {
                            opponent.set(o);
                        }
                    }
                >
                    <option value="person">"A person on this screen"</option>
                    {strengths}
                </select>
            </label>
            <label>
                <span>"You play"</span>
                <select
                    data-testid="go-color"
                    disabled=move || opponent.get() == Opponent::Person
                    on:change=move |ev| {
                        color.set(match event_target_value(&ev).as_str() {
                            "white" => ColorChoice::White,
                            "random" => ColorChoice::Random,
                            _ => ColorChoice::Black,
                        });
                    }
                >
                    <option value="black" selected=move || color.get() == ColorChoice::Black>"Black (first)"</option>
                    <option value="white" selected=move || color.get() == ColorChoice::White>"White"</option>
                    <option value="random" selected=move || color.get() == ColorChoice::Random>"Either, at random"</option>
                </select>
            </label>
            <button type="submit" data-testid="go-new-game">"New game"</button>
        </SubmitForm>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_choices_round_trip_and_unknown_values_are_refused() {
        let mut all = vec![Opponent::Person];
        all.extend(STRENGTHS.iter().map(|s| Opponent::Ai {
            playouts: s.playouts,
        }));
        for o in all {
            assert_eq!(parse_opponent(&opponent_value(o)), Some(o));
        }
        for bad in ["", "ai", "7", "-1", "99999999999"] {
            assert_eq!(parse_opponent(bad), None, "{bad}");
        }
    }
}
