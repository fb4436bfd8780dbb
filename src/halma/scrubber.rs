//! A replay's turn slider with "Turn k / n": one for the arena's replay bar and the tournament's replay, so
//! both pages scrub a record the same way (and the browser tests find the same `scrubber`).

use leptos::prelude::*;

#[component]
pub fn Scrubber(
    /// The turn shown.
    at: impl Fn() -> usize + Copy + Send + Sync + 'static,
    /// The record's last turn.
    ticks: impl Fn() -> usize + Copy + Send + Sync + 'static,
    /// Called with the turn the slider was moved to. Plain closures, not `Signal`/`Callback`: boxed
    /// props cost the arena page, which is near its download budget, about 0.8 KB.
    on_seek: impl Fn(usize) + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <label class="scrubber">
            <span>"Turn " <output data-testid="replay-at">{at}</output> " / " {ticks}</span>
            <input
                type="range"
                data-testid="scrubber"
                aria-label="Replay turn"
                min="0"
                max=move || ticks().to_string()
                prop:value=move || at().to_string()
                on:input=move |ev| {
                    if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                        on_seek(k);
                    }
                }
            />
        </label>
    }
}
