//! The arena's debug marks: which team's thinking the board shows (its answer's `debug` field,
//! docs/protocol.md), and that team's line of text and any warnings about the field. The projector wall
//! never shows marks: only the arena's board takes them.

use super::arena_model::Screens;
use gridarena_engine::halma::debug::DebugRead;
use gridarena_engine::halma::Team;
use leptos::prelude::*;

/// The chosen team's debug field, read for the shown tick. The part reads it (the answer's JSON and the
/// field's checks stay out of the page's first download) and the page's board draws its marks, for as
/// long as the part is there (`try_with`).
pub type Thought = Memo<Option<(Team, DebugRead)>>;

/// The choice of team and what its AI said it was thinking in the shown tick.
#[component]
pub fn DebugMarks(
    screen: Screens,
    /// The board's size, which the marks' squares are checked against.
    size: Signal<u8>,
    /// Where the board finds what this part read: set once, when the part is in.
    thought: RwSignal<Option<Thought>>,
) -> impl IntoView {
    let team = RwSignal::new(None::<Team>);
    let read: Thought = Memo::new(move |_| {
        let team = team.get()?;
        let size = size.get();
        Some((team, screen.with(|s| s.debug(team, size))))
    });
    thought.set(Some(read));
    let thought = read;
    let choose = move |ev: leptos::ev::Event| {
        team.set(match event_target_value(&ev).as_str() {
            "red" => Some(Team::Red),
            "blue" => Some(Team::Blue),
            _ => None,
        });
    };
    let said = move || {
        thought.with(|t| {
            let (team, read) = t.as_ref()?;
            let text = read.debug.as_ref().and_then(|d| d.text.clone());
            let marks = read.debug.as_ref().map_or(0, |d| d.marks.len());
            let line = match (text, marks) {
                (Some(text), _) => format!("{team} thinks: {text}"),
                (None, 0) if read.warnings.is_empty() => {
                    format!("{team}'s answer in this tick has no debug marks.")
                }
                (None, 0) => String::new(),
                (None, n) => format!("{team}: {n} mark{}", if n == 1 { "" } else { "s" }),
            };
            let warnings = read.warnings.clone();
            Some(view! {
                <span data-testid="debug-text">{line}</span>
                {warnings
                    .into_iter()
                    .map(|w| view! { <span class="warn" data-testid="debug-warning">{format!("{team}'s debug field: {w}")}</span> })
                    .collect_view()}
            })
        })
    };
    view! {
        <div class="debug-marks">
            <label>
                <span>"Debug marks"</span>
                <select data-testid="debug-team" on:change=choose>
                    <option value="none" selected=move || team.get().is_none()>"none"</option>
                    <option value="red" selected=move || team.get() == Some(Team::Red)>"red's"</option>
                    <option value="blue" selected=move || team.get() == Some(Team::Blue)>"blue's"</option>
                </select>
            </label>
            <p class="debug-line" role="status" data-testid="debug-line">{said}</p>
        </div>
    }
}
