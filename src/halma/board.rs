//! The Halma board: a canvas that draws it and, over it, one transparent element per square for the
//! mouse, the keyboard and screen readers.
//!
//! A tick used to restyle, lay out and repaint a square element per changed square, pieces and dots
//! being their pseudo-elements; now the canvas is redrawn (a few hundred draw calls) and a changed
//! square's element only gets its new name and state, which moves nothing on the page. The elements are
//! written as one piece of markup when the size changes and patched in place after that, with one
//! listener for all of them, so the board costs no reactive node per square.

use super::board_paint::{context, paint, Background, Palette};
use super::board_view::BoardView;
use gridarena_engine::halma::Square;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

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
    let grid = NodeRef::<Div>::new();
    // What the squares' elements show now, so a tick touches only those that changed.
    let shown = StoredValue::new(BoardView::default());
    // The canvas's side in device pixels and one CSS pixel in device pixels, as last measured.
    let measured = StoredValue::new((0.0_f64, 1.0_f64));
    let palette = StoredValue::new(None::<Palette>);
    let background = StoredValue::new_local(None::<Background>);

    let redraw = move |v: &BoardView| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (side, px) = measured.get_value();
        if side <= 0.0 {
            return;
        }
        if palette.with_value(Option::is_none) {
            palette.set_value(Some(Palette::of(&el)));
        }
        if let Some(ctx) = context(&el) {
            palette.with_value(|p| {
                if let Some(p) = p {
                    background.update_value(|bg| paint(&ctx, v, p, bg, side, px));
                }
            });
        }
    };

    Effect::new(move |_| {
        let Some(g) = grid.get() else {
            return;
        };
        view.with(|v| {
            shown.update_value(|old| {
                patch_squares(&g, old, v, on_click.is_some());
                *old = v.clone();
            });
            redraw(v);
        });
    });

    // The canvas follows its box: a new size (a resized window, a wall with more columns) is measured
    // after layout and drawn before the frame is painted.
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut()>)>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else {
            return;
        };
        let target = el.clone();
        let resized = Closure::<dyn FnMut()>::new(move || {
            let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
            let side = (f64::from(target.client_width()) * dpr).round();
            if side != f64::from(target.width()) {
                target.set_width(side as u32);
                target.set_height(side as u32);
            }
            measured.set_value((side, dpr));
            view.with_untracked(|v| redraw(v));
        });
        if let Ok(ro) = web_sys::ResizeObserver::new(resized.as_ref().unchecked_ref()) {
            ro.observe(&el);
            observer.set_value(Some((ro, resized)));
        }
    });
    on_cleanup(move || {
        observer.update_value(|o| {
            if let Some((ro, _)) = o.take() {
                ro.disconnect();
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
        let (tx, ty) = (to.0.clamp(0, n - 1), to.1.clamp(0, n - 1));
        let next = grid.get_untracked().and_then(|g| {
            g.query_selector(&format!(".cell[data-x=\"{tx}\"][data-y=\"{ty}\"]"))
                .ok()
                .flatten()
        });
        if let Some(next) = next.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
            // One tab stop for the whole board: it moves with the focus.
            let _ = cell.set_attribute("tabindex", "-1");
            let _ = next.set_attribute("tabindex", "0");
            let _ = next.focus();
        }
    };

    view! {
        <div class="board-wrap">
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

/// Brings the squares' elements from `old` to `new`: all of them written anew when the size changed,
/// otherwise each changed square's classes, name and damage set in place.
fn patch_squares(grid: &HtmlElement, old: &BoardView, new: &BoardView, focusable: bool) {
    let n = usize::from(new.size);
    if old.size != new.size || grid.child_element_count() as usize != n {
        grid.set_inner_html(&new.grid_html(focusable));
        return;
    }
    let rows = grid.children();
    for i in old.changed(new) {
        let (x, y) = ((i % n) as u8, (i / n) as u8);
        let Some(cell) = rows
            .item(u32::from(y))
            .and_then(|row| row.children().item(u32::from(x)))
        else {
            continue;
        };
        let (was, now) = (&old.cells[i], &new.cells[i]);
        cell.set_class_name(&now.classes(x, y));
        if was.label(x, y) != now.label(x, y) {
            let _ = cell.set_attribute("aria-label", &now.label(x, y));
        }
        if was.damage != now.damage {
            cell.set_inner_html(&now.inner_html());
        }
    }
}
