//! The board as the reader chooses to see it: the z-slices side by side, or one 3D lattice to turn.

use super::board::Slices;
use super::board3d::Board3d;
use super::view::View;
use gridarena_engine::hyperchess::Coord;
use leptos::prelude::*;

#[component]
pub fn Boards(view: Memo<View>, on_click: Callback<Coord>) -> impl IntoView {
    let three_d = RwSignal::new(false);
    view! {
        <div class="hc-views">
            <button
                data-testid="hc-3d-toggle"
                aria-pressed=move || three_d.get().to_string()
                on:click=move |_| three_d.update(|on| *on = !*on)
            >
                {move || if three_d.get() { "Show the levels side by side" } else { "Show the board in 3D" }}
            </button>
        </div>
        <div class="hc-board" data-testid="hc-board">
            <Show
                when=move || three_d.get()
                fallback=move || view! { <Slices view=view on_click=on_click /> }
            >
                <Board3d view=view on_click=on_click />
            </Show>
        </div>
    }
}
