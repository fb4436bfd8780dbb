//! The board in 3D: the nodes as a lattice in an SVG, drawn far to near ([`scene::project`]). Drag
//! (mouse or touch) or the arrow keys turn it; a click on a node, or Enter on a focused one, goes to the
//! page as a click on the flat board does.

use super::scene::{project, Angles, Dot, HEIGHT, WIDTH};
use super::view::View;
use gridarena_engine::hyperchess::Coord;
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::prelude::*;

/// A press that moves further than this (in screen pixels) turns the board rather than clicking.
const CLICK_SLOP: f64 = 5.0;

/// An arrow key's turn, in the drag's units.
const KEY_TURN: f64 = 15.0;

/// A drag in progress: where the pointer was last, and whether it has moved enough to be a turn.
#[derive(Clone, Copy, Default)]
struct Drag {
    at: Option<(f64, f64)>,
    travelled: f64,
}

#[component]
pub fn Board3d(view: Memo<View>, on_click: Callback<Coord>) -> impl IntoView {
    let angles = RwSignal::new(Angles::default());
    let drag = StoredValue::new(Drag::default());
    let scene = Memo::new(move |_| project(&view.get(), angles.get()));

    let down = move |ev: PointerEvent| {
        drag.set_value(Drag {
            at: Some((f64::from(ev.client_x()), f64::from(ev.client_y()))),
            travelled: 0.0,
        });
    };
    let moved = move |ev: PointerEvent| {
        let (x, y) = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        let Some((x0, y0)) = drag.with_value(|d| d.at) else {
            return;
        };
        if ev.buttons() == 0 {
            drag.update_value(|d| d.at = None);
            return;
        }
        let step = (x - x0).abs() + (y - y0).abs();
        if drag.with_value(|d| d.travelled) + step <= CLICK_SLOP {
            // The wobble of a click: the board stays put, so the node under the pointer still gets it.
            return;
        }
        drag.update_value(|d| {
            d.at = Some((x, y));
            d.travelled += step;
        });
        angles.update(|a| *a = a.dragged(x - x0, y - y0));
    };
    let up = move |_: PointerEvent| drag.update_value(|d| d.at = None);
    let keys = move |ev: KeyboardEvent| {
        let (dx, dy) = match ev.key().as_str() {
            "ArrowLeft" => (-KEY_TURN, 0.0),
            "ArrowRight" => (KEY_TURN, 0.0),
            "ArrowUp" => (0.0, -KEY_TURN),
            "ArrowDown" => (0.0, KEY_TURN),
            _ => return,
        };
        ev.prevent_default();
        angles.update(|a| *a = a.dragged(dx, dy));
    };
    // A press that turned the board is not a click on the node it ended on.
    let click = move |at: Coord| {
        if drag.with_value(|d| d.travelled) <= CLICK_SLOP {
            on_click.run(at);
        }
    };

    view! {
        <svg
            class="hc3d"
            data-testid="hc-3d"
            viewBox=format!("0 0 {WIDTH} {HEIGHT}")
            role="group"
            aria-label="The board in 3D: drag, or use the arrow keys, to turn it; Tab to a node and press Enter to choose it"
            tabindex="0"
            on:pointerdown=down
            on:pointermove=moved
            on:pointerup=up
            on:pointercancel=up
            on:keydown=keys
        >
            <g class="hc3d-lattice">
                {move || {
                    scene
                        .with(|s| s.lines.clone())
                        .into_iter()
                        .map(|l| view! { <line x1=l.x1 y1=l.y1 x2=l.x2 y2=l.y2 /> })
                        .collect_view()
                }}
            </g>
            {move || scene.with(|s| s.dots.clone()).into_iter().map(|d| node(d, click, on_click)).collect_view()}
        </svg>
    }
}

/// One node: a disc in its cell's colours and marks, with its piece's symbol. A click goes through
/// `click` (which ignores the end of a drag); Enter or Space goes straight to `on_click`, since a drag
/// earlier has nothing to do with a key.
fn node(
    d: Dot,
    click: impl Fn(Coord) + Copy + 'static,
    on_click: Callback<Coord>,
) -> impl IntoView {
    let at = d.cell.at;
    let class = d.cell.class().replacen("hc-cell", "hc-node", 1);
    let symbol = d.cell.piece.map(|p| p.symbol().to_string());
    let enter = move |ev: KeyboardEvent| {
        if matches!(ev.key().as_str(), "Enter" | " ") {
            ev.prevent_default();
            ev.stop_propagation();
            on_click.run(at);
        }
    };
    view! {
        <g
            class=class
            role="button"
            tabindex="0"
            aria-label=d.cell.label()
            data-x=at.x
            data-y=at.y
            data-z=at.z
            on:click=move |_| click(at)
            on:keydown=enter
        >
            <circle cx=d.x cy=d.y r=d.r />
            <text x=d.x y=d.y font-size=d.r * 1.5>{symbol}</text>
        </g>
    }
}
