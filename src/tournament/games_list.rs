//! The finished games, newest first, each with a Replay button.

use super::runner::Run;
use super::table::{self, GameLine};
use leptos::prelude::*;

#[component]
pub fn GamesList(
    run: RwSignal<Option<Run>>,
    /// The finished games the table shows (see `table_pace`).
    shown: ReadSignal<usize>,
    on_replay: Callback<usize>,
) -> impl IntoView {
    // Each line with its place in the order the games finished, its number in the list. A finished
    // game's line never changes: keyed by all it shows, a game's end adds one line at the top and leaves
    // the others alone (rewritten one by one, every line's text and number changed, and a wall of 16
    // games laid the whole list out again a few times a second).
    let lines = Memo::new(move |_| {
        // Recomputed when the shown count of finished games changes, not on every tick.
        shown.track();
        let lines = run
            .with_untracked(|r| r.as_ref().map(|r| table::games(&r.tournament)))
            .unwrap_or_default();
        let count = lines.len();
        lines
            .into_iter()
            .enumerate()
            .map(|(i, line)| (count - i, line))
            .collect::<Vec<_>>()
    });
    let line = move |(place, g): (usize, GameLine)| {
        let number = g.number;
        view! {
            <li data-testid="game-line" value=place>
                {format!("Round {}, game {}: {} (red) vs {} (blue): {}, {} ticks ",
                    g.round + 1, g.number + 1, g.red, g.blue, g.ending, g.ticks)}
                {g.replayable.then(|| view! {
                    <button data-testid="replay" on:click=move |_| on_replay.run(number)>"Replay"</button>
                })}
            </li>
        }
    };
    view! {
        <details class="t-games" open>
            <summary>"Finished games (" {move || shown.get()} ")"</summary>
            <ol data-testid="games" reversed>
                <For each=move || lines.get() key=Clone::clone children=line />
            </ol>
        </details>
    }
}
