//! The Go board as SVG, drawn like a real goban: wood, lines, star points, coordinates, stones with shading
//! and shadows, and a mark on the last stone.
//!
//! Geometry is in whole board units (one line spacing is [`CELL`]; whole numbers, since formatting
//! floats would add kilobytes to the page); the SVG scales to any screen. Each point has
//! an invisible target under the stones, so a click anywhere on a point, on a stone too, names that point
//! and the page can explain a refusal. Stones are keyed by point and colour: a move adds one stone and
//! removes the captured ones, and nothing else on the board is rebuilt.

use gridarena_engine::go::{BoardSize, Color, Point};
use leptos::prelude::*;

/// Line spacing, in SVG units.
const CELL: u16 = 20;
/// Space around the outer lines, holding the coordinates.
const MARGIN: u16 = 22;
/// Where the coordinates sit: this far outside the outer lines.
const LABEL_GAP: u16 = 13;
/// GTP's column letters: no I.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// The SVG position of a point's centre: columns from the left, rows from the bottom.
fn at(p: Point, size: BoardSize) -> (u16, u16) {
    let n = u16::from(size.get());
    (
        MARGIN + u16::from(p.x()) * CELL,
        MARGIN + (n - 1 - u16::from(p.y())) * CELL,
    )
}

/// The star points (hoshi) of a board: the corners' 3-3 (4-4 from 13x13 up) points, the centre of an odd
/// board, and the side stars of 19x19.
pub fn star_points(size: BoardSize) -> Vec<Point> {
    let n = size.get();
    if n < 7 {
        return Vec::new();
    }
    let edge = if n >= 13 { 3 } else { 2 };
    let far = n - 1 - edge;
    let mid = n / 2;
    let mut lines = vec![edge, far];
    let center = n % 2 == 1;
    let sides = n >= 19 && center;
    if sides {
        lines.push(mid);
    }
    let mut out: Vec<Point> = lines
        .iter()
        .flat_map(|&x| lines.iter().filter_map(move |&y| Point::new(x, y)))
        .collect();
    if center && !sides {
        out.extend(Point::new(mid, mid));
    }
    out
}

/// The lines, the star points and the coordinates: everything that depends on the size only.
fn grid(size: BoardSize) -> impl IntoView {
    let n = size.get();
    let lo = MARGIN;
    let hi = MARGIN + u16::from(n - 1) * CELL;
    let mut path = String::new();
    for i in 0..n {
        let v = MARGIN + u16::from(i) * CELL;
        path.push_str(&format!("M{lo} {v}H{hi}M{v} {lo}V{hi}"));
    }
    let stars = star_points(size)
        .into_iter()
        .map(|p| {
            let (x, y) = at(p, size);
            view! { <circle class="star" cx=x cy=y r="2.2" /> }
        })
        .collect_view();
    let labels = (0..n)
        .map(|i| {
            let v = MARGIN + u16::from(i) * CELL;
            let letter = char::from(COLUMNS[usize::from(i)]).to_string();
            let number = (n - i).to_string();
            let (near, far) = (MARGIN - LABEL_GAP, hi + LABEL_GAP);
            view! {
                <text x=v y=near>{letter.clone()}</text>
                <text x=v y=far>{letter}</text>
                <text x=near y=v>{number.clone()}</text>
                <text x=far y=v>{number}</text>
            }
        })
        .collect_view();
    view! {
        <path class="lines" d=path />
        {stars}
        <g class="coords" aria-hidden="true">{labels}</g>
    }
}

/// The board. `to_play`: the colour a click would place (for the hover preview), `None` when clicks do
/// not play now. `area`: owned empty points to shade, empty when the area is hidden.
#[component]
pub fn Goban(
    #[prop(into)] size: Signal<BoardSize>,
    #[prop(into)] stones: Signal<Vec<(Point, Color)>>,
    #[prop(into)] last: Signal<Option<Point>>,
    #[prop(into)] area: Signal<Vec<(Point, Color)>>,
    #[prop(into)] to_play: Signal<Option<Color>>,
    on_play: Callback<Point>,
) -> impl IntoView {
    let extent = move || 2 * MARGIN + u16::from(size.get().get() - 1) * CELL;
    let class = move || match to_play.get() {
        Some(Color::Black) => "goban to-black",
        Some(Color::White) => "goban to-white",
        None => "goban",
    };
    let targets = move || {
        let size = size.get();
        size.points()
            .map(|p| {
                let (x, y) = at(p, size);
                view! {
                    <circle
                        class="pt"
                        cx=x
                        cy=y
                        r=CELL / 2
                        data-vertex=p.to_gtp()
                        on:click=move |_| on_play.run(p)
                    />
                }
            })
            .collect_view()
    };
    let stone = move |(p, c): (Point, Color)| {
        let (x, y) = at(p, size.get_untracked());
        let (fill, class) = match c {
            Color::Black => ("url(#go-black)", "stone black"),
            Color::White => ("url(#go-white)", "stone white"),
        };
        view! {
            <g class=class data-vertex=p.to_gtp()>
                <circle class="shadow" cx=x + 1 cy=y + 2 r="9.5" />
                <circle cx=x cy=y r="9.5" fill=fill />
            </g>
        }
    };
    let area_mark = move |(p, c): (Point, Color)| {
        let (x, y) = at(p, size.get_untracked());
        let class = match c {
            Color::Black => "area black",
            Color::White => "area white",
        };
        view! { <rect class=class x=x - 4 y=y - 4 width="8" height="8" /> }
    };
    let marker = move || {
        last.get().map(|p| {
            let (x, y) = at(p, size.get_untracked());
            let on_black = stones.with(|s| s.contains(&(p, Color::Black)));
            let class = if on_black {
                "last on-black"
            } else {
                "last on-white"
            };
            view! { <circle class=class cx=x cy=y r="4.5" data-testid="last-move" /> }
        })
    };
    view! {
        <svg
            class=class
            viewBox=move || format!("0 0 {0} {0}", extent())
            role="group"
            aria-label=move || {
                let n = size.get();
                format!("Go board, {n} by {n}. Click a point to play, or type it under the board.")
            }
            data-testid="goban"
        >
            <defs>
                <radialGradient id="go-black" cx="35%" cy="30%" r="70%">
                    <stop offset="0%" stop-color="#6b6b6b" />
                    <stop offset="100%" stop-color="#0a0a0a" />
                </radialGradient>
                <radialGradient id="go-white" cx="35%" cy="30%" r="75%">
                    <stop offset="0%" stop-color="#ffffff" />
                    <stop offset="80%" stop-color="#e4e1d8" />
                    <stop offset="100%" stop-color="#b9b5aa" />
                </radialGradient>
            </defs>
            <rect class="wood" width=extent height=extent rx="3" />
            {move || grid(size.get())}
            <g class="targets">{targets}</g>
            <g class="areas" aria-hidden="true">
                <For each=move || area.get() key=|m| *m children=area_mark />
            </g>
            <g class="stones" aria-hidden="true">
                <For each=move || stones.get() key=|s| *s children=stone />
            </g>
            {marker}
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: u32) -> Vec<String> {
        let mut v: Vec<String> = star_points(BoardSize::new(size).unwrap())
            .into_iter()
            .map(Point::to_gtp)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn star_points_are_where_a_real_board_has_them() {
        assert_eq!(names(9), ["C3", "C7", "E5", "G3", "G7"]);
        assert_eq!(names(13), ["D10", "D4", "G7", "K10", "K4"]);
        assert_eq!(
            names(19),
            ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
        );
        assert!(names(5).is_empty());
    }

    #[test]
    fn a1_is_bottom_left_on_screen() {
        let size = BoardSize::NINE;
        let a1 = at(Point::new(0, 0).unwrap(), size);
        let j9 = at(Point::new(8, 8).unwrap(), size);
        assert_eq!(a1, (MARGIN, MARGIN + 8 * CELL));
        assert_eq!(j9, (MARGIN + 8 * CELL, MARGIN));
    }
}
