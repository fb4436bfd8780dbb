//! What the board shows, square by square, as plain data: the board component only maps it to classes.

use super::session::Draft;
use gridarena_engine::halma::debug::{Debug, Mark};
use gridarena_engine::halma::edit::PositionEdit;
use gridarena_engine::halma::{Piece, Position, Square, Team, TickOutcome};

/// Who stands on a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Occupant {
    #[default]
    Empty,
    Red,
    Blue,
    /// A red and a blue piece together: they collided here.
    Both,
}

/// One square's look.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellView {
    pub occupant: Occupant,
    /// The highest damage of the pieces here (0 when none is damaged).
    pub damage: u8,
    /// Whose destination the square is.
    pub destination: Option<Team>,
    /// The team whose last move started, passed or ended here.
    pub last_move: Option<Team>,
    /// A square the human's draft may go to next.
    pub hint: bool,
    /// Part of the human's draft (the chosen piece or a landing).
    pub draft: bool,
    /// What an AI's debug marks say of this square, for screen readers and tests: the canvas draws them.
    pub mark: Option<String>,
    /// The square the position editor's check names as what makes the position impossible.
    pub flagged: bool,
}

impl CellView {
    /// Whether the square's element shows `other` as it shows this one: all but the last moves' trail,
    /// which only the canvas draws. (Every field is named, so a new one is not forgotten here.)
    pub fn same_element(&self, other: &CellView) -> bool {
        let CellView {
            occupant,
            damage,
            destination,
            last_move: _,
            hint,
            draft,
            mark,
            flagged,
        } = self;
        *occupant == other.occupant
            && *damage == other.damage
            && *destination == other.destination
            && *hint == other.hint
            && *draft == other.draft
            && *mark == other.mark
            && *flagged == other.flagged
    }

    /// The CSS classes of the square's element: what stands on it and what a person or an AI marked.
    /// The last moves' trails are the canvas's alone, so a tick changes the classes of the squares a
    /// piece left or reached, not of every square it passed.
    pub fn classes(&self, x: u8, y: u8) -> String {
        let mut c = String::from(if (x + y) % 2 == 0 {
            "cell light"
        } else {
            "cell dark"
        });
        let mut add = |s: &str| {
            c.push(' ');
            c.push_str(s);
        };
        match self.occupant {
            Occupant::Empty => {}
            Occupant::Red => add("piece red"),
            Occupant::Blue => add("piece blue"),
            Occupant::Both => add("piece both collision"),
        }
        match self.destination {
            Some(Team::Red) => add("dest-red"),
            Some(Team::Blue) => add("dest-blue"),
            None => {}
        }
        if self.damage > 0 {
            add("damaged");
            if self.occupant == Occupant::Both {
                add("both-damaged");
            }
        }
        if self.hint {
            add("hint");
        }
        if self.draft {
            add("draft");
        }
        if self.mark.is_some() {
            add("marked");
        }
        if self.flagged {
            add("flagged");
        }
        c
    }

    /// The square's accessible name, e.g. "(3,4) red piece, damage 2, blue destination"; while a person
    /// makes a move, also whether the square is part of it or where the chosen piece can go.
    pub fn label(&self, x: u8, y: u8) -> String {
        let mut s = format!("({x},{y})");
        match self.occupant {
            Occupant::Empty => s.push_str(" empty"),
            Occupant::Red => s.push_str(" red piece"),
            Occupant::Blue => s.push_str(" blue piece"),
            Occupant::Both => s.push_str(" red and blue pieces (collision)"),
        }
        if self.damage > 0 {
            s.push_str(&format!(", damage {}", self.damage));
        }
        if let Some(t) = self.destination {
            s.push_str(&format!(", {t} destination"));
        }
        // A person moving by keyboard hears what a sighted one sees outlined.
        if self.draft {
            s.push_str(", in the move being made");
        }
        if self.hint {
            s.push_str(", the chosen piece can go here");
        }
        if let Some(mark) = &self.mark {
            s.push_str(", marked ");
            s.push_str(mark);
        }
        if self.flagged {
            s.push_str(", what makes the position impossible");
        }
        s
    }
}

impl CellView {
    /// What the square's element holds: its damage as a number, over the piece the canvas draws.
    pub fn inner_html(&self) -> String {
        if self.damage > 0 {
            format!("<span class=\"damage\">{}</span>", self.damage)
        } else {
            String::new()
        }
    }
}

/// A team's last move as a line through the squares it visited, for the board's overlay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trail {
    pub team: Team,
    pub squares: Vec<(u8, u8)>,
}

/// The index of `s` on a board of `n` a side; `None` off it (a corrupt record's square is not drawn).
fn index(n: u8, s: Square) -> Option<usize> {
    (s.x() < n && s.y() < n).then(|| usize::from(s.y()) * usize::from(n) + usize::from(s.x()))
}

/// The squares of a board of `n` a side with each team's destinations and pieces (`of` gives both).
fn cells_of<'a>(n: u8, of: impl Fn(Team) -> (&'a [Square], &'a [Piece])) -> Vec<CellView> {
    let mut cells = vec![CellView::default(); usize::from(n) * usize::from(n)];
    for team in Team::ALL {
        let (destinations, pieces) = of(team);
        for &d in destinations {
            if let Some(i) = index(n, d) {
                cells[i].destination = Some(team);
            }
        }
        for p in pieces {
            if let Some(i) = index(n, p.square) {
                let c = &mut cells[i];
                c.occupant = match (c.occupant, team) {
                    (Occupant::Empty, Team::Red) => Occupant::Red,
                    (Occupant::Empty, Team::Blue) => Occupant::Blue,
                    _ => Occupant::Both,
                };
                c.damage = c.damage.max(p.damage);
            }
        }
    }
    cells
}

/// The whole board's look.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardView {
    pub size: u8,
    /// Row by row, `size * size` squares.
    pub cells: Vec<CellView>,
    pub trails: Vec<Trail>,
    /// An AI's debug marks, drawn over everything (the arena's choice of team; never on the wall).
    pub marks: Vec<Mark>,
}

impl BoardView {
    /// The look of `position`, with the last tick's moves and the human's draft drawn on it.
    pub fn new(
        position: &Position,
        last: Option<&TickOutcome>,
        draft: Option<&Draft>,
        hints: &[Square],
    ) -> BoardView {
        let n = position.size();
        let mut cells = cells_of(n, |t| (position.destinations(t), position.pieces(t)));
        let cell = |s: Square| index(n, s);
        let mut trails = Vec::new();
        for m in last.map(|o| o.moves.as_slice()).unwrap_or_default() {
            let squares: Vec<Square> = std::iter::once(m.from)
                .chain(m.to.iter().copied())
                .collect();
            for &s in &squares {
                if let Some(i) = cell(s) {
                    cells[i].last_move = Some(m.team);
                }
            }
            trails.push(Trail {
                team: m.team,
                squares: squares.iter().map(|s| (s.x(), s.y())).collect(),
            });
        }
        if let Some(d) = draft {
            for s in d.from.iter().chain(d.landings.iter()) {
                if let Some(i) = cell(*s) {
                    cells[i].draft = true;
                }
            }
        }
        for &h in hints {
            if let Some(i) = cell(h) {
                cells[i].hint = true;
            }
        }
        BoardView {
            size: n,
            cells,
            trails,
            marks: Vec::new(),
        }
    }

    /// The look of a position being edited, which may be impossible: `flagged` is the square the
    /// check names, if any. Nothing of a game (moves, drafts) is drawn over it.
    pub fn edited(edit: &PositionEdit, flagged: Option<Square>) -> BoardView {
        let n = edit.size();
        let destinations = edit.preset().rules().destinations;
        let mut cells = cells_of(n, |t| (&destinations[t], edit.pieces(t)));
        if let Some(i) = flagged.and_then(|s| index(n, s)) {
            cells[i].flagged = true;
        }
        BoardView {
            size: n,
            cells,
            ..BoardView::default()
        }
    }

    /// This view with `debug`'s marks: drawn on the canvas, and named in their squares' labels (an
    /// arrow on its first square). Marks off this board are left out.
    pub fn with_debug(mut self, debug: Option<&Debug>) -> BoardView {
        let Some(debug) = debug else { return self };
        let n = usize::from(self.size);
        for mark in &debug.marks {
            let (at, words) = match mark {
                Mark::Square { at, colour, label } => (
                    *at,
                    format!(
                        "{}{}",
                        colour.name(),
                        label.as_ref().map_or(String::new(), |l| format!(" {l}"))
                    ),
                ),
                Mark::Arrow {
                    from,
                    to,
                    colour,
                    label,
                } => (
                    *from,
                    format!(
                        "{} arrow to ({},{}){}",
                        colour.name(),
                        to.x(),
                        to.y(),
                        label.as_ref().map_or(String::new(), |l| format!(" {l}"))
                    ),
                ),
            };
            let on = |s: Square| usize::from(s.x()) < n && usize::from(s.y()) < n;
            let to_on = match mark {
                Mark::Arrow { to, .. } => on(*to),
                Mark::Square { .. } => true,
            };
            if !on(at) || !to_on {
                continue;
            }
            let cell = &mut self.cells[usize::from(at.y()) * n + usize::from(at.x())];
            match &mut cell.mark {
                Some(m) => {
                    m.push_str(", ");
                    m.push_str(&words);
                }
                None => cell.mark = Some(words),
            }
            self.marks.push(mark.clone());
        }
        self
    }
}

impl BoardView {
    /// The squares' elements, row by row, as one piece of markup: setting it once is far quicker than
    /// building 324 elements one call at a time. `focusable` puts the first square in the tab order (the
    /// board then moves focus with the arrow keys); a board nobody plays on is left out of it.
    pub fn grid_html(&self, focusable: bool) -> String {
        let n = usize::from(self.size);
        let mut html = String::with_capacity(n * n * 120);
        for y in 0..self.size {
            html.push_str("<div role=\"row\">");
            for x in 0..self.size {
                let c = self
                    .cells
                    .get(usize::from(y) * n + usize::from(x))
                    .cloned()
                    .unwrap_or_default();
                let tab = match (focusable, x == 0 && y == 0) {
                    (false, _) => "",
                    (true, true) => " tabindex=\"0\"",
                    (true, false) => " tabindex=\"-1\"",
                };
                html.push_str(&format!(
                    "<div class=\"{}\" role=\"gridcell\" aria-label=\"{}\" data-x=\"{x}\" data-y=\"{y}\"{tab}>{}</div>",
                    c.classes(x, y),
                    escape_attribute(&c.label(x, y)),
                    c.inner_html()
                ));
            }
            html.push_str("</div>");
        }
        html
    }

    /// The squares whose look differs between `self` and `next` (every square when the sizes differ).
    pub fn changed<'a>(&'a self, next: &'a BoardView) -> impl Iterator<Item = usize> + 'a {
        let all = self.size != next.size || self.cells.len() != next.cells.len();
        (0..next.cells.len()).filter(move |&i| all || self.cells[i] != next.cells[i])
    }
}

/// `text` as the value of a double-quoted attribute: a debug mark's label is an AI's text, and in
/// markup built by hand it must stay text.
fn escape_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::{Game, Preset};

    #[test]
    fn an_edited_position_shows_its_pieces_and_flags_the_square_its_check_names() {
        use gridarena_engine::halma::edit::Tool;
        use gridarena_engine::halma::CampRules;
        let sq = |x, y| Square::new(x, y).unwrap();
        let mut edit = PositionEdit::start(Preset::Mini, CampRules::Seed);
        edit.apply(Tool::Remove, sq(7, 7)).unwrap();
        edit.apply(Tool::Piece(Team::Blue), sq(0, 0)).unwrap();
        let flagged = edit.check().unwrap_err().square();
        assert_eq!(flagged, Some(sq(0, 0)));
        let v = BoardView::edited(&edit, flagged);
        assert_eq!((v.size, v.cells.len()), (8, 64));
        let corner = &v.cells[0];
        assert_eq!(corner.occupant, Occupant::Both);
        assert!(corner.classes(0, 0).contains("flagged"), "{corner:?}");
        assert!(corner
            .label(0, 0)
            .ends_with(", what makes the position impossible"));
        let emptied = &v.cells[63];
        assert_eq!(
            (emptied.occupant, emptied.destination),
            (Occupant::Empty, Some(Team::Red))
        );
        assert_eq!(v.cells.iter().filter(|c| c.flagged).count(), 1);
        assert!(v.trails.is_empty() && v.marks.is_empty());
    }

    #[test]
    fn the_arena_start_shows_pieces_and_destinations() {
        let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let v = BoardView::new(g.position(), None, None, &[]);
        assert_eq!(v.size, 18);
        assert_eq!(v.cells.len(), 324);
        let at = |x: usize, y: usize| &v.cells[y * 18 + x];
        assert_eq!(at(0, 17).occupant, Occupant::Red);
        assert_eq!(at(17, 17).occupant, Occupant::Blue);
        assert_eq!(at(17, 0).destination, Some(Team::Red));
        assert_eq!(at(0, 0).destination, Some(Team::Blue));
        assert!(at(0, 17).classes(0, 17).contains("piece red"));
        assert_eq!(at(9, 9).label(9, 9), "(9,9) empty");
        let pieces = v
            .cells
            .iter()
            .filter(|c| c.occupant != Occupant::Empty)
            .count();
        assert_eq!(pieces, 24);
    }

    #[test]
    fn the_grid_markup_has_a_row_per_line_and_one_tab_stop() {
        let g = Game::new(&Preset::Classic.rules(), 0).unwrap();
        let v = BoardView::new(g.position(), None, None, &[]);
        let html = v.grid_html(true);
        assert_eq!(html.matches("role=\"row\"").count(), 16);
        assert_eq!(html.matches("role=\"gridcell\"").count(), 256);
        assert_eq!(html.matches("tabindex=\"0\"").count(), 1);
        assert!(!v.grid_html(false).contains("tabindex"));
        assert!(html.contains("data-x=\"0\" data-y=\"0\""));
    }

    #[test]
    fn a_debug_label_stays_text_in_the_grid_markup() {
        use gridarena_engine::halma::debug;
        let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let answer = serde_json::json!({"debug": {"marks": [
            {"at": {"x": 3, "y": 13}, "label": "\"><img"},
            {"at": {"x": 3, "y": 13}, "label": "a&b'<"},
        ]}});
        let read = debug::read(&answer, 18);
        let v = BoardView::new(g.position(), None, None, &[]).with_debug(read.debug.as_ref());
        let html = v.grid_html(false);
        assert!(!html.contains("<img"), "the label became markup");
        assert!(
            html.contains(
                "aria-label=\"(3,13) empty, marked green &quot;&gt;&lt;img, green a&amp;b&#39;&lt;\""
            ),
            "{}",
            html.lines().next().unwrap_or_default()
        );
        assert_eq!(html.matches("role=\"gridcell\"").count(), 324);
    }

    #[test]
    fn only_the_squares_that_changed_are_touched() {
        let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let a = BoardView::new(g.position(), None, None, &[]);
        let mut b = a.clone();
        b.cells[5].damage = 3;
        b.cells[40].hint = true;
        assert_eq!(a.changed(&b).collect::<Vec<_>>(), vec![5, 40]);
        assert_eq!(
            b.cells[40].label(4, 2),
            "(4,2) empty, the chosen piece can go here"
        );
        assert!(b.cells[5].inner_html().contains(">3<"));
        assert_eq!(BoardView::default().changed(&a).count(), 324);
    }

    #[test]
    fn debug_marks_are_drawn_and_named_on_their_squares() {
        use gridarena_engine::halma::debug;
        let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let answer = serde_json::json!({"debug": {"text": "t", "marks": [
            {"at": {"x": 3, "y": 13}, "label": "+4"},
            {"from": {"x": 2, "y": 14}, "to": {"x": 4, "y": 12}, "color": "orange"},
            {"at": {"x": 3, "y": 13}, "color": "red"},
        ]}});
        let read = debug::read(&answer, 18);
        let plain = BoardView::new(g.position(), None, None, &[]);
        let v = plain.clone().with_debug(read.debug.as_ref());
        assert_eq!(v.marks.len(), 3);
        let at = |x: usize, y: usize| &v.cells[y * 18 + x];
        assert_eq!(at(3, 13).mark.as_deref(), Some("green +4, red"));
        assert!(at(3, 13).classes(3, 13).contains("marked"));
        assert!(at(2, 14)
            .label(2, 14)
            .ends_with(", marked orange arrow to (4,12)"));
        assert_eq!(
            plain.changed(&v).collect::<Vec<_>>(),
            vec![13 * 18 + 3, 14 * 18 + 2]
        );
        assert_eq!(plain.clone().with_debug(None), plain);
        // Read for a larger board, a mark off this one is left out.
        let big = debug::read(
            &serde_json::json!({"debug": {"marks": [{"at": {"x": 20, "y": 1}}]}}),
            32,
        );
        assert!(plain
            .clone()
            .with_debug(big.debug.as_ref())
            .marks
            .is_empty());
    }
}
