//! The board as the reader chooses to see it: the z-slices side by side, or one 3D lattice to turn.

//! The 3D lattice (its projection, its trigonometry and its SVG's numbers) is a part split off the page
//! (`src/lazy.rs`): loaded once the page is idle, and at once on the first click that shows it.

use super::board::Slices;
use super::board3d::Board3dProps;
use super::view::View;
use crate::lazy::{LazyPart, Split};
use gridarena_engine::hyperchess::Coord;
use leptos::prelude::*;

#[component]
pub fn Boards(
    view: Memo<View>,
    on_click: Callback<Coord>,
    /// The 3D board, split off the page's module by its bin.
    board3d: Split<Board3dProps>,
) -> impl IntoView {
    let three_d = RwSignal::new(false);
    crate::lazy::preload(board3d);
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
                <LazyPart
                    what="the 3D board"
                    load=Box::new(move || (board3d.load)(Board3dProps { view, on_click }))
                    at_once=true
                />
            </Show>
        </div>
    }
}
