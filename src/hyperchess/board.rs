//! The board: one grid per level (z), side by side, holes left as gaps; a click on a location goes to the
//! page, which asks the session what it means.

use super::view::{Cell, View};
use gridarena_engine::hyperchess::Coord;
use leptos::prelude::*;

#[component]
pub fn Slices(view: Memo<View>, on_click: Callback<Coord>) -> impl IntoView {
    move || {
        let v = view.get();
        let (lo, hi) = (v.lo, v.hi);
        let width = hi.x - lo.x + 1;
        (lo.z..=hi.z)
            .map(|z| {
                let cells = (lo.y..=hi.y)
                    .flat_map(|y| (lo.x..=hi.x).map(move |x| Coord::new(x, y, z)))
                    .map(|at| cell(v.cell(at), at, on_click))
                    .collect_view();
                view! {
                    <figure class="hc-slice" data-testid="hc-slice">
                        <figcaption>{format!("z = {z}")}</figcaption>
                        <div class="hc-grid" style=format!("--w: {width}")>{cells}</div>
                    </figure>
                }
            })
            .collect_view()
    }
}

fn cell(c: Option<&Cell>, at: Coord, on_click: Callback<Coord>) -> AnyView {
    let Some(c) = c else {
        return view! { <span class="hc-hole" aria-hidden="true"></span> }.into_any();
    };
    view! {
        <button
            class=c.class()
            aria-label=c.label()
            data-x=at.x
            data-y=at.y
            data-z=at.z
            on:click=move |_| on_click.run(at)
        >
            {c.piece.map(|p| p.symbol().to_string())}
        </button>
    }
    .into_any()
}
