//! Which squares of the board's canvas a new view changes, so a tick clears and draws those alone.
//!
//! Clearing and drawing the whole canvas each tick cost the browser about 0.3 ms of rasterising on a
//! page without a GPU, most of it pixels that came out as they were (issue 38); a tick moves two
//! pieces. What the canvas shows of a square depends only on the square, except the trails' lines,
//! which cross squares and are drawn again, clipped, wherever a square is cleared.

use super::board_view::{BoardView, Occupant, Trail};
use gridarena_engine::halma::Team;

/// A piece's radius, in squares. With the shadow's below, the size of what is drawn for a square: the
/// painter (`board_paint.rs`) draws by them, and redrawing square by square relies on them ([`reach`]).
pub(super) const PIECE: f64 = 0.38;
/// How far a piece's shadow lies below it, and how much wider than the piece it is, in CSS pixels.
pub(super) const SHADOW_DROP: f64 = 1.0;
pub(super) const SHADOW_SPREAD: f64 = 0.5;

/// How far from its square's centre the furthest ink drawn for the square reaches (a piece's shadow), in
/// device pixels, on squares `s` device pixels wide, `px` being a CSS pixel. Its anti-aliased edge adds
/// a pixel. Redrawing square by square ([`Drawn::changed_squares`]) holds only while this stays inside
/// the square.
fn reach(s: f64, px: f64) -> f64 {
    s * PIECE + (SHADOW_DROP + SHADOW_SPREAD) * px
}

/// What the canvas draws inside one square: a piece (and whether it is damaged) or a last move's dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ink {
    occupant: Occupant,
    damaged: bool,
    /// The team whose last move passed this empty square (a dot).
    dot: Option<Team>,
}

impl Ink {
    fn of(cell: &super::board_view::CellView) -> Ink {
        Ink {
            occupant: cell.occupant,
            damaged: cell.damage > 0,
            dot: cell.last_move.filter(|_| cell.occupant == Occupant::Empty),
        }
    }
}

/// What the canvas shows now, as far as the next draw needs to know.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    side: f64,
    px: f64,
    size: u8,
    cells: Vec<Ink>,
    trails: Vec<Trail>,
    marks: bool,
}

impl Drawn {
    /// What drawing `view` whole on a canvas `side` device pixels wide (`px` a CSS pixel) leaves on it.
    pub fn of(view: &BoardView, side: f64, px: f64) -> Drawn {
        Drawn {
            side,
            px,
            size: view.size,
            cells: view.cells.iter().map(Ink::of).collect(),
            trails: view.trails.clone(),
            marks: !view.marks.is_empty(),
        }
    }

    /// The squares (row by row) whose pixels differ once `view` is drawn over what the canvas shows, or
    /// `None` where the whole canvas is to be drawn: another size, an AI's debug marks (lines and
    /// labels across the board) before or after, or squares so small a piece's edge reaches a
    /// neighbour's pixels.
    pub fn changed_squares(&self, view: &BoardView, side: f64, px: f64) -> Option<Vec<usize>> {
        let n = usize::from(view.size);
        if self.side != side
            || self.px != px
            || self.size != view.size
            || self.cells.len() != view.cells.len()
            || view.cells.len() != n * n
            || self.marks
            || !view.marks.is_empty()
        {
            return None;
        }
        // What is drawn for a square, with its anti-aliased edge (a pixel), stays a pixel inside the
        // square: the margin a clip rounded out to whole pixels takes.
        let s = side / n as f64;
        if s / 2.0 - reach(s, px) < 2.0 {
            return None;
        }
        let mut dirty = vec![false; n * n];
        for (i, (old, cell)) in self.cells.iter().zip(&view.cells).enumerate() {
            dirty[i] = *old != Ink::of(cell);
        }
        // A trail's line (0.12 of a square wide) stays within the rows and columns its ends span.
        if self.trails != view.trails {
            for trail in self.trails.iter().chain(&view.trails) {
                for pair in trail.squares.windows(2) {
                    let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
                    // A corrupt record's square off the board is not drawn on it.
                    let (xs, ys) = (x0.min(x1)..=x0.max(x1), y0.min(y1)..=y0.max(y1));
                    for y in ys.map(usize::from).filter(|&y| y < n) {
                        for x in xs.clone().map(usize::from).filter(|&x| x < n) {
                            dirty[y * n + x] = true;
                        }
                    }
                }
            }
        }
        Some((0..n * n).filter(|&i| dirty[i]).collect())
    }
}

/// Square `i`'s box on a canvas of squares `s` device pixels wide, rounded out to whole pixels:
/// `(x, y, width, height)`.
pub fn square_box(i: usize, n: usize, s: f64) -> (f64, f64, f64, f64) {
    let (x, y) = ((i % n) as f64 * s, (i / n) as f64 * s);
    let (x0, y0) = (x.floor(), y.floor());
    (x0, y0, (x + s).ceil() - x0, (y + s).ceil() - y0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::board_view::CellView;
    use gridarena_engine::halma::debug::{Colour, Mark};
    use gridarena_engine::halma::Square;

    const N: usize = 18;

    fn board(pieces: &[(usize, Occupant)], trails: &[(Team, &[(u8, u8)])]) -> BoardView {
        let mut cells = vec![CellView::default(); N * N];
        for &(i, occupant) in pieces {
            cells[i].occupant = occupant;
        }
        for (team, squares) in trails {
            for &(x, y) in *squares {
                if let Some(c) = cells.get_mut(usize::from(y) * N + usize::from(x)) {
                    c.last_move = Some(*team);
                }
            }
        }
        BoardView {
            size: N as u8,
            cells,
            trails: trails
                .iter()
                .map(|(team, squares)| Trail {
                    team: *team,
                    squares: squares.to_vec(),
                })
                .collect(),
            marks: Vec::new(),
        }
    }

    fn at(x: usize, y: usize) -> usize {
        y * N + x
    }

    #[test]
    fn the_same_view_changes_no_square() {
        let v = board(
            &[(at(1, 1), Occupant::Red)],
            &[(Team::Red, &[(0, 1), (1, 1)])],
        );
        assert_eq!(
            Drawn::of(&v, 596.0, 1.0).changed_squares(&v, 596.0, 1.0),
            Some(vec![])
        );
    }

    #[test]
    fn a_jump_changes_its_squares_and_those_its_old_and_new_trails_cross() {
        let before = board(
            &[(at(2, 2), Occupant::Red), (at(3, 3), Occupant::Blue)],
            &[],
        );
        // Red jumps (2,2) over (3,3) to (4,4): the trail's diagonal crosses the squares beside it.
        let after = board(
            &[(at(4, 4), Occupant::Red), (at(3, 3), Occupant::Blue)],
            &[(Team::Red, &[(2, 2), (4, 4)])],
        );
        let changed = Drawn::of(&before, 596.0, 1.0).changed_squares(&after, 596.0, 1.0);
        let mut box_of_trail: Vec<usize> = (2..=4)
            .flat_map(|y| (2..=4).map(move |x| at(x, y)))
            .collect();
        box_of_trail.sort();
        assert_eq!(changed, Some(box_of_trail.clone()));
        // The next tick, with no move, clears the old trail and its dot.
        let idle = board(
            &[(at(4, 4), Occupant::Red), (at(3, 3), Occupant::Blue)],
            &[],
        );
        let changed = Drawn::of(&after, 596.0, 1.0).changed_squares(&idle, 596.0, 1.0);
        assert_eq!(changed, Some(box_of_trail));
    }

    #[test]
    fn damage_changes_a_square_only_where_the_canvas_shows_it() {
        let mut before = board(&[(at(5, 5), Occupant::Blue)], &[]);
        let mut after = before.clone();
        after.cells[at(5, 5)].damage = 1;
        let drawn = Drawn::of(&before, 596.0, 1.0);
        assert_eq!(
            drawn.changed_squares(&after, 596.0, 1.0),
            Some(vec![at(5, 5)])
        );
        // The number is the square element's; the canvas draws a damaged piece alike at any damage.
        before.cells[at(5, 5)].damage = 1;
        after.cells[at(5, 5)].damage = 2;
        let drawn = Drawn::of(&before, 596.0, 1.0);
        assert_eq!(drawn.changed_squares(&after, 596.0, 1.0), Some(vec![]));
    }

    #[test]
    fn a_new_size_marks_or_tiny_squares_draw_the_whole_canvas() {
        let v = board(&[(at(1, 1), Occupant::Red)], &[]);
        let drawn = Drawn::of(&v, 596.0, 1.0);
        assert_eq!(drawn.changed_squares(&v, 600.0, 1.0), None, "resized");
        assert_eq!(drawn.changed_squares(&v, 596.0, 2.0), None, "zoomed");
        let mut marked = v.clone();
        marked.marks.push(Mark::Square {
            at: Square::new(1, 1).unwrap(),
            colour: Colour::Green,
            label: None,
        });
        assert_eq!(drawn.changed_squares(&marked, 596.0, 1.0), None);
        let drawn_marked = Drawn::of(&marked, 596.0, 1.0);
        assert_eq!(drawn_marked.changed_squares(&v, 596.0, 1.0), None);
        // 18 squares of 20 device pixels: a shadow's edge reaches the next square's pixels.
        let small = Drawn::of(&v, 360.0, 1.0);
        assert_eq!(small.changed_squares(&v, 360.0, 1.0), None);
        let big_enough = Drawn::of(&v, 18.0 * 42.0, 2.0);
        assert_eq!(
            big_enough.changed_squares(&v, 18.0 * 42.0, 2.0),
            Some(vec![])
        );
    }

    #[test]
    fn a_trail_off_the_board_changes_only_squares_on_it() {
        let before = board(&[], &[]);
        let after = board(&[], &[(Team::Blue, &[(16, 17), (18, 19)])]);
        let changed = Drawn::of(&before, 596.0, 1.0).changed_squares(&after, 596.0, 1.0);
        assert_eq!(changed, Some(vec![at(16, 17), at(17, 17)]));
    }

    #[test]
    fn a_square_box_is_whole_pixels_around_the_square() {
        let s = 596.0 / 18.0;
        for i in [0, 1, 19, 323] {
            let (x, y, w, h) = square_box(i, N, s);
            let (sx, sy) = ((i % N) as f64 * s, (i / N) as f64 * s);
            assert!(x <= sx && y <= sy && x + w >= sx + s && y + h >= sy + s);
            assert!(w <= s + 2.0 && h <= s + 2.0);
            assert_eq!(
                (x.fract(), y.fract(), w.fract(), h.fract()),
                (0.0, 0.0, 0.0, 0.0)
            );
        }
    }
}
