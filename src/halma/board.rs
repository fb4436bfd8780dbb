//! The board grid: one element per square, classes from [`BoardView`], and the last moves drawn over it.

use super::board_view::{BoardView, Trail};
use gridarena_engine::halma::{Square, Team};
use leptos::prelude::*;

/// The Halma board.
///
/// The grid is rebuilt only when the board size changes; each square's look is its own small reactive
/// closure, so a tick updates classes in place instead of recreating 324 elements.
#[component]
pub fn Board(
    /// What to draw.
    view: Memo<BoardView>,
    /// Called with the square that was clicked.
    on_click: Callback<Square>,
) -> impl IntoView {
    let size = Memo::new(move |_| view.with(|v| v.size));
    let grid = move || {
        let n = size.get();
        (0..usize::from(n) * usize::from(n))
            .map(|i| {
                let (x, y) = ((i % usize::from(n)) as u8, (i / usize::from(n)) as u8);
                // A memo per square: a tick changes a handful of squares, and only their elements are
                // touched (attribute closures would otherwise rewrite all 324 squares every tick).
                let cell =
                    Memo::new(move |_| view.with(|v| v.cells.get(i).cloned().unwrap_or_default()));
                let class = move || cell.with(|c| c.classes(x, y));
                let label = move || cell.with(|c| c.label(x, y));
                let damage = move || {
                    let d = cell.with(|c| c.damage);
                    (d > 0).then(|| view! { <span class="damage">{d}</span> })
                };
                view! {
                    <div
                        class=class
                        role="gridcell"
                        aria-label=label
                        data-x=x
                        data-y=y
                        on:click=move |_| {
                            if let Some(s) = Square::new(x, y) {
                                on_click.run(s);
                            }
                        }
                    >
                        {damage}
                    </div>
                }
            })
            .collect_view()
    };
    let trails = move || {
        view.with(|v| {
            v.trails
                .iter()
                .map(|t: &Trail| {
                    let points = t
                        .squares
                        .iter()
                        .map(|(x, y)| format!("{}.5,{}.5", x, y))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let class = match t.team {
                        Team::Red => "trail red",
                        Team::Blue => "trail blue",
                    };
                    view! { <polyline class=class points=points /> }
                })
                .collect_view()
        })
    };
    view! {
        <div class="board-wrap">
            <div
                class="board"
                role="grid"
                aria-label="Halma board"
                data-testid="board"
                style=move || format!("--n: {}", size.get())
            >
                {grid}
            </div>
            <svg
                class="trails"
                aria-hidden="true"
                viewBox=move || format!("0 0 {0} {0}", size.get())
                preserveAspectRatio="none"
            >
                {trails}
            </svg>
        </div>
    }
}
