//! The finished games, newest first, each with a Replay button.

use super::runner::Run;
use super::table;
use leptos::prelude::*;

#[component]
pub fn GamesList(run: RwSignal<Option<Run>>, on_replay: Callback<usize>) -> impl IntoView {
    let finished =
        Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, |r| r.tournament.finished_count())));
    let lines = Memo::new(move |_| {
        // Read (not only tracked), so the count is brought up to date before it is compared.
        let _ = finished.get();
        run.with_untracked(|r| r.as_ref().map(|r| table::games(&r.tournament)))
            .unwrap_or_default()
    });
    view! {
        <details class="t-games" open>
            <summary>"Finished games (" {move || finished.get()} ")"</summary>
            <ol data-testid="games" reversed>
                {move || lines.get().into_iter().map(|g| {
                    let number = g.number;
                    view! {
                        <li data-testid="game-line">
                            {format!("Round {}, game {}: {} (red) vs {} (blue): {}, {} ticks ",
                                g.round + 1, g.number + 1, g.red, g.blue, g.ending, g.ticks)}
                            {g.replayable.then(|| view! {
                                <button data-testid="replay" on:click=move |_| on_replay.run(number)>"Replay"</button>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ol>
        </details>
    }
}
