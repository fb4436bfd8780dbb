//! The Compare run's live score: A's share with its interval, as a line and a bar, the games counted,
//! the verdict once over, and how fast the games went.

use super::compare::Standing;
use super::compare_text::{interval_style, rate_line, share_style};
use leptos::prelude::*;

/// The score of the run in `standing`; `took_ms` is the run's time once it is over.
#[component]
pub fn CompareLive(
    standing: Memo<Option<Standing>>,
    took_ms: RwSignal<Option<f64>>,
) -> impl IntoView {
    let rate = move || {
        let n = standing.with(|s| s.as_ref().map_or(0, |s| s.tally.games()));
        took_ms.get().map(|ms| rate_line(n, ms))
    };
    view! {
        <div class="compare-live" data-testid="compare-live">
            <p data-testid="compare-score">{move || standing.get().map(|s| s.score_line())}</p>
            <div class="compare-bar" aria-hidden="true" style="position:relative;height:12px;background:#eee;max-width:30em">
                <div style=move || standing.with(|s| s.as_ref().map(|s| interval_style(&s.tally))).unwrap_or_default()></div>
                <div style="position:absolute;top:-2px;bottom:-2px;left:50%;border-left:1px solid #333"></div>
                <div style=move || standing.with(|s| s.as_ref().and_then(|s| share_style(&s.tally))).unwrap_or_default()></div>
            </div>
            <p data-testid="compare-counts">
                {move || standing.get().map(|s| format!("{} of at most {} games. {}.", s.tally.games(), s.planned, s.counts_line()))}
            </p>
            <p data-testid="compare-verdict" class="verdict">{move || standing.get().and_then(|s| s.verdict_line())}</p>
            <p data-testid="compare-rate">{rate}</p>
        </div>
    }
}
