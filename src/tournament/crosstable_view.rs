//! The crosstable: each row's results against each column (both games of a pair in a double round
//! robin), in standings order.

use super::runner::Run;
use super::table;
use leptos::prelude::*;

#[component]
pub fn Crosstable(
    run: RwSignal<Option<Run>>,
    /// The finished games the table shows (see `table_pace`).
    shown: ReadSignal<usize>,
) -> impl IntoView {
    let grid = Memo::new(move |_| {
        // Recomputed when the shown count of finished games changes, not on every tick.
        shown.track();
        run.with_untracked(|r| {
            r.as_ref()
                .and_then(|r| table::crosstable(&r.tournament).ok())
        })
        .unwrap_or_default()
    });
    view! {
        <table class="t-cross" data-testid="crosstable">
            <caption>"Crosstable (row against column: 1 win, ½ draw, 0 loss)"</caption>
            <thead>
                <tr>
                    <th></th>
                    {move || grid.with(|(heads, _)| heads.iter().map(|h| view! { <th scope="col">{h.clone()}</th> }).collect_view())}
                </tr>
            </thead>
            <tbody>
                {move || grid.with(|(heads, cells)| {
                    heads
                        .iter()
                        .zip(cells)
                        .map(|(h, row)| view! {
                            <tr>
                                <th scope="row">{h.clone()}</th>
                                {row.iter().map(|c| view! { <td>{c.clone()}</td> }).collect_view()}
                            </tr>
                        })
                        .collect_view()
                })}
            </tbody>
        </table>
    }
}
