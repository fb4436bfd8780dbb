//! GridWorld's controls, modernised: Step, Run/Stop, the tick-length slider.

use leptos::prelude::*;

/// The shortest and longest tick the slider offers, in milliseconds.
pub const MIN_TICK_MS: u32 = 50;
pub const MAX_TICK_MS: u32 = 3000;
pub const DEFAULT_TICK_MS: u32 = 1000;

/// Step, Run/Stop and the speed slider.
#[component]
pub fn Controls(
    /// Whether Run is on.
    running: RwSignal<bool>,
    /// The tick length in milliseconds.
    tick_ms: RwSignal<u32>,
    /// Whether a tick may be played (the game goes on).
    playable: Signal<bool>,
    /// Whether a tick is waiting for its answers: Step waits for it to end.
    awaiting_answers: Signal<bool>,
    /// Plays one tick.
    on_step: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="controls" role="group" aria-label="Game controls">
            <button
                data-testid="step"
                title="Play one tick (S)"
                disabled=move || running.get() || !playable.get() || awaiting_answers.get()
                aria-busy=move || awaiting_answers.get().to_string()
                on:click=move |_| on_step.run(())
            >
                "Step"
            </button>
            <button
                data-testid="run"
                title="Play ticks until stopped (Space)"
                disabled=move || running.get() || !playable.get()
                on:click=move |_| running.set(true)
            >
                "Run"
            </button>
            <button
                data-testid="stop"
                title="Stop after the current tick (Space)"
                disabled=move || !running.get()
                on:click=move |_| running.set(false)
            >
                "Stop"
            </button>
            <label class="speed">
                <span>"Tick " <output data-testid="tick-ms">{move || tick_ms.get()}</output> " ms"</span>
                <input
                    type="range"
                    data-testid="speed"
                    aria-label="Tick length in milliseconds"
                    min=MIN_TICK_MS
                    max=MAX_TICK_MS
                    step="50"
                    prop:value=move || tick_ms.get().to_string()
                    on:input=move |ev| {
                        if let Ok(ms) = event_target_value(&ev).parse::<u32>() {
                            tick_ms.set(ms.clamp(MIN_TICK_MS, MAX_TICK_MS));
                        }
                    }
                />
            </label>
        </div>
    }
}
