//! Draws a [`BoardView`] on a canvas: the squares, the destinations, the pieces, their damage and the last
//! moves' trails, in one pass. One canvas costs the page under two hundred draw calls a tick and no style,
//! layout or paint work for 324 elements; the squares' elements above it (see `board.rs`) stay for
//! clicks, the keyboard and screen readers. A tick clears and draws only the squares it changed
//! (`board_repaint.rs`).

use super::board_repaint::{square_box, Drawn, PIECE, SHADOW_DROP, SHADOW_SPREAD};
use super::board_view::{BoardView, CellView, Occupant};
use gridarena_engine::halma::debug::{Colour, Mark};
use gridarena_engine::halma::{Square, Team};
use std::f64::consts::TAU;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The theme's colours, read from the stylesheet's custom properties so the canvas and the CSS agree.
#[derive(Clone, Debug, PartialEq)]
struct Palette {
    light: String,
    dark: String,
    red: String,
    blue: String,
}

impl Palette {
    /// The colours of `el`'s computed style; a property the page lacks keeps the built-in colour.
    fn of(el: &web_sys::Element) -> Palette {
        let style = web_sys::window().and_then(|w| w.get_computed_style(el).ok().flatten());
        let get = |name: &str, fallback: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| fallback.to_string())
        };
        Palette {
            light: get("--light", "#f3ead8"),
            dark: get("--dark", "#e0d2b4"),
            red: get("--red", "#cc0099"),
            blue: get("--blue", "#006699"),
        }
    }

    fn team(&self, team: Team) -> &str {
        match team {
            Team::Red => &self.red,
            Team::Blue => &self.blue,
        }
    }
}

/// Everything the board's canvas keeps between draws, in one place.
#[derive(Default)]
pub struct Painter {
    /// The canvas's side in device pixels (0 until it is first measured) and one CSS pixel in device
    /// pixels.
    side: f64,
    px: f64,
    palette: Option<Palette>,
    background: Option<Background>,
    /// The board canvas's 2D context, asked for once: a canvas keeps its context for good, and asking
    /// each tick cost two calls into the browser (about 15 µs).
    context: Option<CanvasRenderingContext2d>,
    /// What the board's canvas shows, so the next draw clears and draws only the squares it changes;
    /// `None` when that is not known (not drawn yet, resized, its context lost and restored).
    drawn: Option<Drawn>,
}

impl Painter {
    /// The canvases were laid out: their bitmaps take the new size, in device pixels, and `view` is
    /// drawn. `squares` is the canvas under `canvas` that shows the squares.
    pub fn resized(
        &mut self,
        canvas: &HtmlCanvasElement,
        squares: &HtmlCanvasElement,
        view: &BoardView,
    ) {
        let px = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let side = (f64::from(canvas.client_width()) * px).round();
        for c in [canvas, squares] {
            if side != f64::from(c.width()) {
                c.set_width(side as u32);
                c.set_height(side as u32);
            }
        }
        (self.side, self.px) = (side, px);
        // A canvas given a size, or one whose context the browser restored, is blank.
        self.drawn = None;
        self.background = None;
        self.draw(canvas, squares, view);
    }

    /// Draws `view`, once the canvases have been measured: the squares on `squares` when they changed,
    /// the rest on `canvas`.
    pub fn draw(
        &mut self,
        canvas: &HtmlCanvasElement,
        squares: &HtmlCanvasElement,
        view: &BoardView,
    ) {
        if self.side <= 0.0 {
            return;
        }
        let palette = self.palette.get_or_insert_with(|| Palette::of(canvas));
        if self.context.is_none() {
            self.context = context(canvas);
        }
        if let Some(ctx) = &self.context {
            let under = Background::ensure(
                &mut self.background,
                squares,
                view,
                palette,
                self.side,
                self.px,
            );
            let only = under
                .then_some(self.drawn.as_ref())
                .flatten()
                .and_then(|d| d.changed_squares(view, self.side, self.px));
            paint(
                ctx,
                view,
                palette,
                under,
                only.as_deref(),
                self.side,
                self.px,
            );
            self.drawn = under.then(|| Drawn::of(view, self.side, self.px));
        }
    }
}

/// What the canvas under the board shows: the squares and the destinations, which do not change from
/// tick to tick. Drawn there once, they cost a tick nothing: the board's own canvas, over them, is
/// cleared and gets the pieces, where copying the squares onto it cost a tick a whole bitmap (issue 38).
struct Background {
    /// Its side in device pixels and the destinations it shows, square by square.
    side: u32,
    destinations: Vec<Option<Team>>,
}

impl Background {
    /// Draws the squares for `view` on `under` unless it shows them at `side` device pixels already (a
    /// new game or a resized board draws them again). Whether `under` shows them.
    fn ensure(
        cache: &mut Option<Background>,
        under: &HtmlCanvasElement,
        view: &BoardView,
        palette: &Palette,
        side: f64,
        px: f64,
    ) -> bool {
        let destinations = || view.cells.iter().map(|c| c.destination);
        let fresh = cache.as_ref().is_some_and(|b| {
            b.side == side as u32
                && b.side == under.width()
                && b.destinations.iter().copied().eq(destinations())
        });
        if fresh {
            return true;
        }
        *cache = None;
        let Some(ctx) = context(under) else {
            return false;
        };
        squares(&ctx, view, palette, side, px);
        *cache = Some(Background {
            side: side as u32,
            destinations: destinations().collect(),
        });
        true
    }
}

fn context(el: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    el.get_context("2d").ok()??.dyn_into().ok()
}

/// Draws `view` over the canvas of `side` by `side` device pixels; `px` is one CSS pixel in device
/// pixels, so lines keep their CSS widths on any screen. `under`: the canvas below shows the squares,
/// so this one is cleared to let them through rather than drawn over. `only`: the squares to clear and
/// draw (the rest show `view` already, see [`Drawn::changed_squares`]); `None` draws them all.
fn paint(
    ctx: &CanvasRenderingContext2d,
    view: &BoardView,
    palette: &Palette,
    under: bool,
    only: Option<&[usize]>,
    side: f64,
    px: f64,
) {
    let n = usize::from(view.size);
    if n == 0 || view.cells.len() != n * n || side <= 0.0 || only.is_some_and(<[_]>::is_empty) {
        return;
    }
    let s = side / n as f64;
    let at = |i: usize| corner(i, n, s);
    ctx.set_global_alpha(1.0);
    let mut wanted = vec![only.is_none(); n * n];
    if let Some(only) = only {
        // Everything below is clipped to these squares: what it draws elsewhere (a trail's line across
        // them) lands on pixels that show it already.
        ctx.save();
        ctx.begin_path();
        for &i in only {
            let (x, y, w, h) = square_box(i, n, s);
            ctx.rect(x, y, w, h);
            wanted[i] = true;
        }
        ctx.clip();
    }
    if under {
        ctx.clear_rect(0.0, 0.0, side, side);
    } else {
        squares(ctx, view, palette, side, px);
    }
    let cells = || view.cells.iter().enumerate().filter(|&(i, _)| wanted[i]);
    let centre = |i: usize| {
        let (x, y) = at(i);
        (x + s / 2.0, y + s / 2.0)
    };
    // Where a last move started or passed: a small dot on the empty squares.
    for team in Team::ALL {
        let dots =
            cells().filter(|(_, c)| c.last_move == Some(team) && c.occupant == Occupant::Empty);
        fill_discs(
            ctx,
            palette.team(team),
            0.6,
            dots.map(|(i, _)| centre(i)),
            s * 0.12,
        );
    }
    pieces(ctx, cells, palette, centre, s * PIECE, px);
    trails(ctx, view, palette, s);
    marks(ctx, &view.marks, s, px);
    if only.is_some() {
        ctx.restore();
    }
}

/// The squares and the destinations (a light tint and an inner border in the team's colour).
fn squares(
    ctx: &CanvasRenderingContext2d,
    view: &BoardView,
    palette: &Palette,
    side: f64,
    px: f64,
) {
    let n = usize::from(view.size);
    let s = side / n as f64;
    let at = |i: usize| corner(i, n, s);
    // The whole board light, then the dark squares (x + y odd), so the colour is set twice.
    ctx.set_fill_style_str(&palette.light);
    ctx.fill_rect(0.0, 0.0, side, side);
    ctx.set_fill_style_str(&palette.dark);
    for i in (0..n * n).filter(|i| ((i % n) + (i / n)) % 2 == 1) {
        let (x, y) = at(i);
        ctx.fill_rect(x, y, s, s);
    }
    for team in Team::ALL {
        let cells: Vec<usize> = (0..n * n)
            .filter(|&i| view.cells[i].destination == Some(team))
            .collect();
        ctx.set_fill_style_str(palette.team(team));
        ctx.set_stroke_style_str(palette.team(team));
        ctx.set_line_width(2.0 * px);
        ctx.set_global_alpha(0.12);
        for &i in &cells {
            let (x, y) = at(i);
            ctx.fill_rect(x, y, s, s);
        }
        ctx.set_global_alpha(0.55);
        for &i in &cells {
            let (x, y) = at(i);
            ctx.stroke_rect(x + px, y + px, s - 2.0 * px, s - 2.0 * px);
        }
    }
    ctx.set_global_alpha(1.0);
}

/// The top-left corner of square `i` (row by row) on a board of `n` squares a side, each `s` wide.
fn corner(i: usize, n: usize, s: f64) -> (f64, f64) {
    ((i % n) as f64 * s, (i / n) as f64 * s)
}

/// Fills a disc of radius `r` around each of `centres` in one colour, as one path: one fill call for
/// all, where a fill per disc made a tick a few hundred canvas calls (the discs never overlap, so
/// the picture is the same).
fn fill_discs(
    ctx: &CanvasRenderingContext2d,
    colour: &str,
    alpha: f64,
    centres: impl Iterator<Item = (f64, f64)>,
    r: f64,
) {
    let r = r.max(0.5);
    let mut any = false;
    for (cx, cy) in centres {
        if !any {
            ctx.begin_path();
            any = true;
        }
        // A subpath of its own, so no line joins one disc to the next.
        ctx.move_to(cx + r, cy);
        let _ = ctx.arc(cx, cy, r, 0.0, TAU);
    }
    if any {
        ctx.set_global_alpha(alpha);
        ctx.set_fill_style_str(colour);
        ctx.fill();
    }
}

/// The pieces, each a disc of radius `r` with a shadow; a damaged one lighter, with a dark ring. Two
/// pieces on one square (a collision) are half red, half blue; the square's element blinks over it
/// (see style/main.css). Drawn a colour at a time: no piece's disc or shadow reaches another square.
fn pieces<'a, I: Iterator<Item = (usize, &'a CellView)>>(
    ctx: &CanvasRenderingContext2d,
    cells: impl Fn() -> I,
    palette: &Palette,
    centre: impl Fn(usize) -> (f64, f64),
    r: f64,
    px: f64,
) {
    let occupied = || cells().filter(|(_, c)| c.occupant != Occupant::Empty);
    // A shadow a pixel below, unblurred: a blurred canvas shadow costs more than the rest of the board.
    let shadows = occupied().map(|(i, _)| {
        let (cx, cy) = centre(i);
        (cx, cy + SHADOW_DROP * px)
    });
    fill_discs(ctx, "#000", 0.3, shadows, r + SHADOW_SPREAD * px);
    for team in Team::ALL {
        let occupant = match team {
            Team::Red => Occupant::Red,
            Team::Blue => Occupant::Blue,
        };
        for damaged in [false, true] {
            let discs = occupied()
                .filter(|(_, c)| c.occupant == occupant && (c.damage > 0) == damaged)
                .map(|(i, _)| centre(i));
            let alpha = if damaged { 0.75 } else { 1.0 };
            fill_discs(ctx, palette.team(team), alpha, discs, r);
        }
    }
    for (i, c) in occupied().filter(|(_, c)| c.occupant == Occupant::Both) {
        let (cx, cy) = centre(i);
        ctx.set_global_alpha(if c.damage > 0 { 0.75 } else { 1.0 });
        for (team, from) in [(Team::Red, TAU / 4.0), (Team::Blue, -TAU / 4.0)] {
            ctx.set_fill_style_str(palette.team(team));
            ctx.begin_path();
            let _ = ctx.arc(cx, cy, r, from, from + TAU / 2.0);
            ctx.fill();
        }
    }
    // A dark ring inside the edge of each damaged piece; the square's element shows the damage as a
    // number over it.
    let mut rings = occupied().filter(|(_, c)| c.damage > 0).peekable();
    if rings.peek().is_some() {
        let ring = (r - px).max(0.5);
        ctx.begin_path();
        for (i, _) in rings {
            let (cx, cy) = centre(i);
            ctx.move_to(cx + ring, cy);
            let _ = ctx.arc(cx, cy, ring, 0.0, TAU);
        }
        ctx.set_global_alpha(1.0);
        ctx.set_stroke_style_str("#222");
        ctx.set_line_width(2.0 * px);
        ctx.stroke();
    }
    ctx.set_global_alpha(1.0);
}

/// Each last move as a line through the centres of the squares it visited, over the pieces.
fn trails(ctx: &CanvasRenderingContext2d, view: &BoardView, palette: &Palette, s: f64) {
    ctx.set_global_alpha(0.8);
    ctx.set_line_width(s * 0.12);
    ctx.set_line_cap("round");
    ctx.set_line_join("round");
    for t in &view.trails {
        if t.squares.len() < 2 {
            continue;
        }
        ctx.set_stroke_style_str(palette.team(t.team));
        ctx.begin_path();
        for (k, &(x, y)) in t.squares.iter().enumerate() {
            let (cx, cy) = ((f64::from(x) + 0.5) * s, (f64::from(y) + 0.5) * s);
            if k == 0 {
                ctx.move_to(cx, cy);
            } else {
                ctx.line_to(cx, cy);
            }
        }
        ctx.stroke();
    }
    ctx.set_global_alpha(1.0);
}

/// A debug mark's colour: strong enough over both square colours and both teams' pieces.
fn shade(colour: Colour) -> &'static str {
    match colour {
        Colour::Green => "#1a9e3f",
        Colour::Red => "#d62828",
        Colour::Blue => "#1d5fd1",
        Colour::Yellow => "#e0b000",
        Colour::Orange => "#f07800",
        Colour::Purple => "#8a3fc7",
        Colour::Grey => "#6b6b6b",
        Colour::White => "#ffffff",
    }
}

/// An AI's debug marks over everything: a square as a tinted frame, an arrow as a line with a head, and
/// each label in the square (an arrow's at its middle), dark text on a light halo so it reads anywhere.
fn marks(ctx: &CanvasRenderingContext2d, marks: &[Mark], s: f64, px: f64) {
    let centre = |q: Square| ((f64::from(q.x()) + 0.5) * s, (f64::from(q.y()) + 0.5) * s);
    let mut labels = Vec::new();
    for mark in marks {
        match mark {
            Mark::Square { at, colour, label } => {
                let (x, y) = (f64::from(at.x()) * s, f64::from(at.y()) * s);
                ctx.set_global_alpha(0.25);
                ctx.set_fill_style_str(shade(*colour));
                ctx.fill_rect(x, y, s, s);
                ctx.set_global_alpha(0.95);
                ctx.set_stroke_style_str(shade(*colour));
                ctx.set_line_width(3.0 * px);
                ctx.stroke_rect(x + 1.5 * px, y + 1.5 * px, s - 3.0 * px, s - 3.0 * px);
                if let Some(l) = label {
                    labels.push((centre(*at), l));
                }
            }
            Mark::Arrow {
                from,
                to,
                colour,
                label,
            } => {
                let ((x0, y0), (x1, y1)) = (centre(*from), centre(*to));
                let (dx, dy) = (x1 - x0, y1 - y0);
                let len = (dx * dx + dy * dy).sqrt();
                if len < 1.0 {
                    continue;
                }
                let (ux, uy) = (dx / len, dy / len);
                let head = (s * 0.35).min(len / 2.0);
                ctx.set_global_alpha(0.85);
                ctx.set_stroke_style_str(shade(*colour));
                ctx.set_fill_style_str(shade(*colour));
                ctx.set_line_width(s * 0.08);
                ctx.set_line_cap("round");
                ctx.begin_path();
                ctx.move_to(x0, y0);
                ctx.line_to(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
                ctx.stroke();
                ctx.begin_path();
                ctx.move_to(x1, y1);
                ctx.line_to(
                    x1 - ux * head - uy * head * 0.5,
                    y1 - uy * head + ux * head * 0.5,
                );
                ctx.line_to(
                    x1 - ux * head + uy * head * 0.5,
                    y1 - uy * head - ux * head * 0.5,
                );
                ctx.close_path();
                ctx.fill();
                if let Some(l) = label {
                    labels.push((((x0 + x1) / 2.0, (y0 + y1) / 2.0), l));
                }
            }
        }
    }
    ctx.set_global_alpha(1.0);
    // Setting a font makes the browser bring the page's style up to date first (a forced style and
    // layout, about 2 ms a tick after the tick's DOM changes), so only a tick with labels pays for it.
    if labels.is_empty() {
        return;
    }
    // Whole pixels, formatted as an integer: a float's formatting alone weighs 4 KB of the page.
    ctx.set_font(&format!(
        "bold {}px sans-serif",
        (s * 0.4).round().max(8.0) as u32
    ));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    ctx.set_line_width(3.0 * px);
    ctx.set_stroke_style_str("#ffffff");
    ctx.set_fill_style_str("#111111");
    for ((x, y), text) in labels {
        let _ = ctx.stroke_text(text, x, y);
        let _ = ctx.fill_text(text, x, y);
    }
}
