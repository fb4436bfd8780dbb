//! The board grid: one element per square, classes from [`BoardView`], and the last moves drawn over it.

use super::board_view::{BoardView, CellView, Trail};
use gridarena_engine::halma::{Square, Team};
use leptos::prelude::*;

/// The Halma board.
///
/// The grid is rebuilt only when the board size changes; each square's look is its own signal, so a tick
/// updates the classes of the squares that changed, in place.
#[component]
pub fn Board(
    /// What to draw.
    view: Memo<BoardView>,
    /// Called with the square that was clicked.
    on_click: Callback<Square>,
) -> impl IntoView {
    let size = Memo::new(move |_| view.with(|v| v.size));
    // A signal per square, set only when that square's look changes: a tick touches a handful of
    // squares, and only they do any reactive work (a memo per square would re-run all 324 every tick).
    let cells = StoredValue::new(Vec::<RwSignal<CellView>>::new());
    Effect::new(move |_| {
        view.with(|v| {
            cells.with_value(|sigs| {
                for (sig, new) in sigs.iter().zip(&v.cells) {
                    if sig.with_untracked(|old| old != new) {
                        sig.set(new.clone());
                    }
                }
            })
        })
    });
    let grid = move || {
        let n = size.get();
        let sigs: Vec<RwSignal<CellView>> = view.with_untracked(|v| {
            (0..usize::from(n) * usize::from(n))
                .map(|i| RwSignal::new(v.cells.get(i).cloned().unwrap_or_default()))
                .collect()
        });
        cells.set_value(sigs.clone());
        sigs.into_iter()
            .enumerate()
            .map(|(i, cell)| {
                let (x, y) = ((i % usize::from(n)) as u8, (i / usize::from(n)) as u8);
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
