//! The Halma board: two canvases that draw it (the squares, drawn once a game, and over them what moves)
//! and, over those, one transparent element per square for the mouse, the keyboard and screen readers.
//!
//! A tick used to restyle, lay out and repaint a square element per changed square, pieces and dots
//! being their pseudo-elements; now the canvas is redrawn (under two hundred draw calls) and a changed
//! square's element only gets its new name and state, which moves nothing on the page. The elements are
//! written as one piece of markup when the size changes and patched in place after that, with one
//! listener for all of them, so the board costs no reactive node per square.

use super::board_paint::Painter;
use super::board_view::BoardView;
use gridarena_engine::halma::Square;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, ResizeObserver};

/// The Halma board.
#[component]
pub fn Board(
    /// What to draw.
    view: Memo<BoardView>,
    /// Called with the square that was clicked or chosen with Enter or Space; without it the board is
    /// only watched (the tournament's wall) and takes no keyboard focus.
    #[prop(optional)]
    on_click: Option<Callback<Square>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let squares = NodeRef::<Canvas>::new();
    let grid = NodeRef::<Div>::new();
    // What the squares' elements show now, so a tick touches only those that changed; the canvas's
    // state; the observer of its size. One stored value: each type stored costs the module code of its own.
    let state = StoredValue::new_local(State::default());

    Effect::new(move |_| {
        let (Some(g), Some(c), Some(under)) = (grid.get(), canvas.get(), squares.get()) else {
            return;
        };
        view.with(|v| {
            state.update_value(|s| {
                patch_squares(&g, &mut s.squares, &s.shown, v, on_click.is_some());
                s.shown = v.clone();
                s.painter.draw(&c, &under, v);
                if s.observer.is_none() {
                    s.observer = observe_size(&c, &under, state, view);
                }
            })
        });
    });
    on_cleanup(move || {
        state.update_value(|s| {
            if let Some(watch) = s.observer.take() {
                watch.stop();
            }
        })
    });

    let square_of = |target: Option<web_sys::EventTarget>| -> Option<(HtmlElement, Square)> {
        let cell = target?
            .dyn_into::<Element>()
            .ok()?
            .closest(".cell")
            .ok()??;
        let coord = |name: &str| cell.get_attribute(name)?.parse::<u8>().ok();
        let square = Square::new(coord("data-x")?, coord("data-y")?)?;
        Some((cell.dyn_into().ok()?, square))
    };
    let click = move |ev: web_sys::MouseEvent| {
        if let (Some(on_click), Some((_, s))) = (on_click, square_of(ev.target())) {
            on_click.run(s);
        }
    };
    let key = move |ev: web_sys::KeyboardEvent| {
        let (Some(on_click), Some((cell, s))) = (on_click, square_of(ev.target())) else {
            return;
        };
        let n = i16::from(view.with_untracked(|v| v.size));
        let (x, y) = (i16::from(s.x()), i16::from(s.y()));
        let to = match ev.key().as_str() {
            "ArrowLeft" => (x - 1, y),
            "ArrowRight" => (x + 1, y),
            "ArrowUp" => (x, y - 1),
            "ArrowDown" => (x, y + 1),
            "Home" => (0, y),
            "End" => (n - 1, y),
            "Enter" | " " => {
                // The arena's own Enter (confirm) and Space (run) are for the page, not a chosen square.
                ev.prevent_default();
                ev.stop_propagation();
                on_click.run(s);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        let last = (n - 1).max(0);
        let (tx, ty) = (to.0.clamp(0, last) as u8, to.1.clamp(0, last) as u8);
        let at = usize::from(ty) * n.max(0) as usize + usize::from(tx);
        let next = state.with_value(|s| s.squares.get(at).cloned());
        if let Some(next) = next.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
            // One tab stop for the whole board: it moves with the focus.
            let _ = cell.set_attribute("tabindex", "-1");
            let _ = next.set_attribute("tabindex", "0");
            let _ = next.focus();
        }
    };

    view! {
        <div class="board-wrap">
            <canvas class="board-squares" aria-hidden="true" node_ref=squares></canvas>
            <canvas class="board-canvas" aria-hidden="true" node_ref=canvas></canvas>
            <div
                class="board"
                role="grid"
                aria-label="Halma board"
                data-testid="board"
                node_ref=grid
                style=move || format!("--n: {}", view.with(|v| v.size))
                on:click=click
                on:keydown=key
            ></div>
        </div>
    }
}

#[derive(Default)]
struct State {
    shown: BoardView,
    /// The squares' elements, row by row, as `shown` wrote them: a tick finds a changed square here,
    /// where asking the grid for its rows and a row for its squares cost four DOM calls a square.
    squares: Vec<Element>,
    painter: Painter,
    observer: Option<Watch>,
}

/// What follows the canvases' size and context: stopped when the board goes.
struct Watch {
    observer: ResizeObserver,
    canvases: [HtmlCanvasElement; 2],
    redraw: Closure<dyn FnMut()>,
}

impl Watch {
    fn stop(self) {
        self.observer.disconnect();
        for c in &self.canvases {
            let _ = c.remove_event_listener_with_callback(
                "contextrestored",
                self.redraw.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Follows the canvas's box: a new size (a resized window, a wall with more columns) is measured after
/// layout and drawn before the frame is painted; the first report comes as soon as it is laid out. A
/// canvas whose context the browser lost and restored (it may, under memory pressure) is blank, and is
/// drawn whole again the same way.
fn observe_size(
    canvas: &HtmlCanvasElement,
    squares: &HtmlCanvasElement,
    state: StoredValue<State, LocalStorage>,
    view: Memo<BoardView>,
) -> Option<Watch> {
    let (target, under) = (canvas.clone(), squares.clone());
    let resized = Closure::<dyn FnMut()>::new(move || {
        view.with_untracked(|v| state.update_value(|s| s.painter.resized(&target, &under, v)));
    });
    let observer = ResizeObserver::new(resized.as_ref().unchecked_ref()).ok()?;
    observer.observe(canvas);
    let canvases = [canvas.clone(), squares.clone()];
    for c in &canvases {
        let _ =
            c.add_event_listener_with_callback("contextrestored", resized.as_ref().unchecked_ref());
    }
    Some(Watch {
        observer,
        canvases,
        redraw: resized,
    })
}

/// Brings the squares' elements from `old` to `new`: all of them written anew when the size changed,
/// otherwise each changed square's classes, name and damage set in place. `squares` holds the elements,
/// row by row.
fn patch_squares(
    grid: &HtmlElement,
    squares: &mut Vec<Element>,
    old: &BoardView,
    new: &BoardView,
    focusable: bool,
) {
    let n = usize::from(new.size);
    if old.size != new.size || grid.child_element_count() as usize != n || squares.len() != n * n {
        grid.set_inner_html(&new.grid_html(focusable));
        *squares = square_elements(grid);
        return;
    }
    for i in old.changed(new) {
        let (was, now) = (&old.cells[i], &new.cells[i]);
        // A square on a last move's trail changes only on the canvas: its element stays as it is.
        if was.same_element(now) {
            continue;
        }
        let (x, y) = ((i % n) as u8, (i / n) as u8);
        let Some(cell) = squares.get(i) else {
            continue;
        };
        let classes = now.classes(x, y);
        if was.classes(x, y) != classes {
            cell.set_class_name(&classes);
        }
        let label = now.label(x, y);
        if was.label(x, y) != label {
            let _ = cell.set_attribute("aria-label", &label);
        }
        if was.damage != now.damage {
            cell.set_inner_html(&now.inner_html());
        }
    }
}

/// The squares' elements row by row: row `y` of the grid, column `x` of the row (see
/// [`BoardView::grid_html`]).
fn square_elements(grid: &HtmlElement) -> Vec<Element> {
    let rows = grid.children();
    (0..rows.length())
        .filter_map(|y| rows.item(y))
        .flat_map(|row| {
            let row = row.children();
            (0..row.length()).filter_map(move |x| row.item(x))
        })
        .collect()
}
