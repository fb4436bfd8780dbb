//! The Compare run's counted games, one row each: A's seat, the result for A, the turns, how it ended,
//! and a button to replay it.

use super::compare::Standing;
use leptos::prelude::*;

/// The games of `standing`; `replay_at` shows game `number` at `tick`.
#[component]
pub fn CompareGames(
    standing: Memo<Option<Standing>>,
    replay_at: Callback<(usize, usize)>,
) -> impl IntoView {
    view! {
        <table class="compare-games" data-testid="compare-games">
            <thead><tr><th>"Game"</th><th>"A's seat"</th><th>"Result"</th><th>"Turns"</th><th>"How it ended"</th><th></th></tr></thead>
            <tbody>
                {move || standing.get().map(|s| s.rows).unwrap_or_default().into_iter().map(|g| {
                    let number = g.number;
                    view! {
                        <tr data-testid="compare-game">
                            <td>{g.number + 1}</td>
                            <td>{g.a_seat.name()}</td>
                            <td>{g.outcome.name()}</td>
                            <td>{g.ticks}</td>
                            <td>{g.ending}</td>
                            <td>{(g.ticks > 0).then(|| view! {
                                <button data-testid="compare-replay" on:click=move |_| replay_at.run((number, 0))>"Replay"</button>
                            })}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}
