//! The live standings table: the engine's order and points, with each entry's latency, errors and
//! withdrawal, and a code entry's hash (the first 12 hex digits of its code's SHA-256: the code that
//! was played, fixed when the tournament started).

use super::runner::Run;
use super::table::{self, TableRow};
use leptos::prelude::*;
use std::collections::HashMap;

#[component]
pub fn StandingsTable(
    run: RwSignal<Option<Run>>,
    /// The finished games the table shows (see `table_pace`).
    shown: ReadSignal<usize>,
) -> impl IntoView {
    // Taken once: a tournament's code does not change (each hash was worked out when its code was read).
    let hashes: HashMap<String, String> = run.with_untracked(|r| {
        r.as_ref().map_or_else(HashMap::new, |r| {
            r.tournament
                .roster()
                .entries
                .iter()
                .filter_map(|e| Some((e.name.clone(), e.code.as_ref()?.sha256().to_string())))
                .collect()
        })
    });
    let rows = Memo::new(move |_| {
        // Recomputed when the shown count of finished games changes, not on every tick.
        shown.track();
        run.with_untracked(|r| r.as_ref().map(|r| table::rows(&r.tournament)))
            .unwrap_or(Ok(Vec::new()))
    });
    let body = move || {
        match rows.get() {
        Err(why) => view! { <tr><td colspan="13">{why}</td></tr> }.into_any(),
        Ok(rows) => rows
            .into_iter()
            .map(|r: TableRow| {
                // Neighbouring tie groups alternate their shading, so each group reads as one block.
                let class = format!(
                    "{}{}",
                    if r.withdrawn.is_some() { "withdrawn " } else { "" },
                    match r.tie {
                        Some(g) if g % 2 == 0 => "tie-a",
                        Some(_) => "tie-b",
                        None => "",
                    }
                );
                let tie = r.tie.map(|g| format!("tied group {}", g + 1));
                let tied = tie.is_some();
                let hash = hashes.get(&r.name).map(|h| view! {
                    " " <code class="t-hash" data-testid="standings-hash" title=h.clone()>{h[..12.min(h.len())].to_string()}</code>
                });
                view! {
                    <tr class=class data-testid="standings-row">
                        <td>{r.rank}</td>
                        <th scope="row">{r.name}{hash}</th>
                        <td>{r.played}</td>
                        <td>{r.wins}</td>
                        <td>{r.draws}</td>
                        <td>{r.losses}</td>
                        <td class="points">{r.points}</td>
                        <td>{r.head_to_head}</td>
                        <td>{r.sonneborn_berger}</td>
                        <td class="rating" title=tie>
                            {r.rating}
                            {tied.then(|| view! { <span class="tie" aria-hidden="true">" ⁅"</span> })}
                        </td>
                        <td>{r.median_ms.map_or_else(|| "–".to_string(), |ms| format!("{ms} ms"))}</td>
                        <td>{r.errors}</td>
                        <td class="why">{r.withdrawn.unwrap_or_default()}</td>
                    </tr>
                }
            })
            .collect_view()
            .into_any(),
    }
    };
    view! {
        <table class="t-standings" data-testid="standings">
            <caption>"Standings"</caption>
            <thead>
                <tr>
                    <th>"#"</th><th>"Name"</th><th>"Played"</th><th>"W"</th><th>"D"</th><th>"L"</th>
                    <th>"Points"</th><th title="head-to-head points among those level on points">"H2H"</th>
                    <th title="Sonneborn-Berger">"SB"</th>
                    <th title="Weng-Lin rating ± two standard deviations; shaded rows with ⁅ are statistically tied">
                        "Rating ± 2σ"
                    </th><th>"Median answer"</th><th>"Errors"</th>
                    <th>"Withdrawn"</th>
                </tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}
