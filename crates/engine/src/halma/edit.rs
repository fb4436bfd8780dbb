//! The position editor's rules: what one edit may do, and whether a whole edited position could be played.
//!
//! A student debugging an AI wants to set up the position it fails in; a teacher wants the one to show.
//! An edit works on the board of a preset (its size and destinations stay): it places or removes a
//! piece, or changes a piece's damage, and is refused only when it cannot be drawn at all (off the board,
//! damage outside `0..=COLLISION_DAMAGE`). Everything else is left to [`PositionEdit::check`], which
//! says what is impossible about the position as a whole, so a position may pass through impossible
//! states while it is being built (a thirteenth piece placed before another is removed).
//!
//! The check builds the game through [`Game::from_state`], so whatever a recorded state must satisfy an
//! edited position satisfies too, and adds what only a game played from a preset's start can show: no
//! more pieces than the preset gives a team, no shared square or damage where nothing collides, equal
//! damage on a collision square, a mover where the preset alternates, and no game already won.
//!
//! A position also reads and writes a compact text for the page's link (see [`PositionEdit::to_link`]).

use super::point::PieceJson;
use super::state::{GameState, TeamState, STATE_VERSION};
use super::{
    CampRules, Game, Mode, Piece, Point, Preset, Rules, SetupError, Square, Team, Teams,
    COLLISION_DAMAGE, DEFAULT_TURN_LIMIT,
};
use std::fmt;

/// How much of a bad link's position text its error quotes.
const LINK_QUOTED: usize = 60;

/// `s` quoted, at most its first [`LINK_QUOTED`] characters: a link is anyone's text, and its error
/// must stay a line however long the text is.
fn quoted(s: &str) -> String {
    let shown: String = s.chars().take(LINK_QUOTED).collect();
    let more = if shown.len() < s.len() { "…" } else { "" };
    format!("{shown:?}{more}")
}

/// What a click of the editor does to a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Puts a piece of the team on the square, or takes it off if one stands there already. A piece of
    /// the other team stays: a red and a blue piece together make a collision square.
    Piece(Team),
    /// Takes every piece off the square.
    Remove,
    /// Raises (`true`) or lowers the damage of every piece on the square by one.
    Damage(bool),
}

/// Why one edit was refused; the position is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The square is not on the preset's board.
    OffBoard { square: Square, size: u8 },
    /// Damage is set on an empty square.
    NoPiece(Square),
    /// The damage would leave `0..=COLLISION_DAMAGE`.
    DamageRange { square: Square, damage: i16 },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::OffBoard { square, size } => {
                write!(f, "{square} is off the {size}x{size} board")
            }
            EditError::NoPiece(square) => write!(f, "no piece on {square} to damage"),
            EditError::DamageRange { square, damage } => write!(
                f,
                "damage {damage} on {square} is out of range: it is 0 to {COLLISION_DAMAGE}"
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// Why an edited position cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// What [`Game::from_state`] refuses: a stacked team, a team without pieces, an off-board piece, a
    /// damage value out of range, camp rules without a corner.
    Setup(SetupError),
    /// The camp rules or mover do not go with the preset (see [`Rules::check_options`]).
    Options(String),
    /// An alternating preset without a team to move, or a simultaneous one with one.
    Mover {
        preset: Preset,
        to_move: Option<Team>,
    },
    /// More pieces than the preset gives the team: pieces are never added in a game.
    TooManyPieces {
        team: Team,
        count: usize,
        max: usize,
    },
    /// A red and a blue piece on one square in an alternating game, where only empty squares are moved to.
    Shared(Square),
    /// A damaged piece in an alternating game, where nothing collides.
    Damaged { team: Team, square: Square },
    /// A collision square whose two pieces have different damage: they collided together and heal
    /// together, so their damage is always equal.
    UnequalDamage { square: Square, red: u8, blue: u8 },
    /// The position is already won: a game from it would be over before a move.
    Won(Team),
    /// Both teams have already filled their destinations.
    BothWon,
}

impl PositionError {
    /// The square the error is about, for the board to point at.
    pub fn square(&self) -> Option<Square> {
        match self {
            PositionError::Setup(
                SetupError::Stacked { square, .. } | SetupError::Damage { square, .. },
            )
            | PositionError::Shared(square)
            | PositionError::Damaged { square, .. }
            | PositionError::UnequalDamage { square, .. } => Some(*square),
            _ => None,
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Setup(e) => e.fmt(f),
            PositionError::Options(why) => f.write_str(why.trim_end_matches('.')),
            PositionError::Mover {
                preset,
                to_move: None,
            } => write!(f, "{preset} alternates: choose the team to move"),
            PositionError::Mover {
                preset,
                to_move: Some(t),
            } => write!(
                f,
                "{preset} is simultaneous: both teams move every tick, so {t} cannot be the one to move"
            ),
            PositionError::TooManyPieces { team, count, max } => write!(
                f,
                "{team} has {count} pieces: {max} at most, the preset's own (a game never adds pieces)"
            ),
            PositionError::Shared(square) => write!(
                f,
                "red and blue share {square}: only a simultaneous game's collision puts two pieces on one square"
            ),
            PositionError::Damaged { team, square } => write!(
                f,
                "the {team} piece on {square} is damaged: damage comes from collisions, which an alternating game has none of"
            ),
            PositionError::UnequalDamage { square, red, blue } => write!(
                f,
                "the pieces on {square} collided together, so their damage is equal, not red {red} and blue {blue}"
            ),
            PositionError::Won(team) => write!(
                f,
                "{team} has already won: its destinations are filled (HALMATE), so there is nothing to play"
            ),
            PositionError::BothWon => {
                f.write_str("both teams have already filled their destinations: the game is over")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a position's link text was not read; nothing of it is used then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LinkError {}

/// A position being edited on a preset's board: the pieces, who moves, the camp rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEdit {
    preset: Preset,
    camp_rules: CampRules,
    to_move: Option<Team>,
    pieces: Teams<Vec<Piece>>,
}

impl PositionEdit {
    /// The preset's starting position; in an alternating preset red moves.
    pub fn start(preset: Preset, camp_rules: CampRules) -> PositionEdit {
        let rules = preset.rules();
        PositionEdit {
            preset,
            camp_rules,
            to_move: (rules.mode == Mode::Alternating).then_some(Team::Red),
            pieces: rules.start.map(|_, squares| {
                squares
                    .iter()
                    .map(|&square| Piece { square, damage: 0 })
                    .collect()
            }),
        }
    }

    /// The position of `game` (a live game or a replay's tick) to edit on `preset`'s board. A finished
    /// game's mover is kept where it has one; red moves where it has none and the preset alternates.
    pub fn from_game(preset: Preset, game: &Game) -> PositionEdit {
        let alternating = preset.rules().mode == Mode::Alternating;
        PositionEdit {
            preset,
            camp_rules: game.position().camp_rules(),
            to_move: alternating.then(|| game.to_move().unwrap_or(Team::Red)),
            pieces: Teams::from_fn(|t| game.position().pieces(t).to_vec()),
        }
    }

    pub fn preset(&self) -> Preset {
        self.preset
    }

    pub fn camp_rules(&self) -> CampRules {
        self.camp_rules
    }

    /// The team to move; `None` where both move (a simultaneous preset).
    pub fn to_move(&self) -> Option<Team> {
        self.to_move
    }

    pub fn pieces(&self, team: Team) -> &[Piece] {
        &self.pieces[team]
    }

    /// The board's side, the preset's.
    pub fn size(&self) -> u8 {
        self.preset.rules().board_size
    }

    pub fn set_to_move(&mut self, to_move: Option<Team>) {
        self.to_move = to_move;
    }

    pub fn set_camp_rules(&mut self, camp_rules: CampRules) {
        self.camp_rules = camp_rules;
    }

    /// Takes every piece off the board.
    pub fn clear(&mut self) {
        self.pieces = Teams::default();
    }

    /// Uses `tool` on `square`; a refused edit changes nothing.
    pub fn apply(&mut self, tool: Tool, square: Square) -> Result<(), EditError> {
        let size = self.size();
        if square.x() >= size || square.y() >= size {
            return Err(EditError::OffBoard { square, size });
        }
        match tool {
            Tool::Piece(team) => {
                let pieces = &mut self.pieces[team];
                match pieces.iter().position(|p| p.square == square) {
                    Some(i) => {
                        pieces.remove(i);
                    }
                    None => pieces.push(Piece { square, damage: 0 }),
                }
            }
            Tool::Remove => {
                for team in Team::ALL {
                    self.pieces[team].retain(|p| p.square != square);
                }
            }
            Tool::Damage(up) => {
                let here = |p: &&mut Piece| p.square == square;
                let mut found = false;
                for team in Team::ALL {
                    for p in self.pieces[team].iter().filter(|p| p.square == square) {
                        found = true;
                        let damage = i16::from(p.damage) + if up { 1 } else { -1 };
                        if !(0..=i16::from(COLLISION_DAMAGE)).contains(&damage) {
                            return Err(EditError::DamageRange { square, damage });
                        }
                    }
                }
                if !found {
                    return Err(EditError::NoPiece(square));
                }
                for team in Team::ALL {
                    for p in self.pieces[team].iter_mut().filter(here) {
                        p.damage = if up { p.damage + 1 } else { p.damage - 1 };
                    }
                }
            }
        }
        Ok(())
    }

    /// The game that starts from this position with the preset's turn limit, or what makes it impossible.
    pub fn check(&self) -> Result<Game, PositionError> {
        self.game(DEFAULT_TURN_LIMIT)
    }

    /// The game that starts from this position, at turn 0 of `turn_limit`, or the first thing found
    /// that makes the position impossible.
    pub fn game(&self, turn_limit: u32) -> Result<Game, PositionError> {
        let rules = Rules {
            camp_rules: self.camp_rules,
            turn_limit,
            ..self.preset.rules()
        };
        rules.check_options().map_err(PositionError::Options)?;
        let alternating = rules.mode == Mode::Alternating;
        if alternating != self.to_move.is_some() {
            return Err(PositionError::Mover {
                preset: self.preset,
                to_move: self.to_move,
            });
        }
        let team = |t: Team| TeamState {
            pieces: self.pieces[t].iter().map(|&p| PieceJson::from(p)).collect(),
            destinations: rules.destinations[t]
                .iter()
                .map(|&s| Point::from(s))
                .collect(),
        };
        let game = Game::from_state(&GameState {
            version: STATE_VERSION,
            preset: Some(self.preset),
            board_size: rules.board_size.into(),
            mode: rules.mode,
            camp_rule: rules.camp_rule,
            camp_rules: self.camp_rules,
            turn_limit,
            turn: 0,
            to_move: self.to_move,
            result: None,
            red: team(Team::Red),
            blue: team(Team::Blue),
        })
        .map_err(PositionError::Setup)?;
        for t in Team::ALL {
            let (count, max) = (self.pieces[t].len(), rules.start[t].len());
            if count > max {
                return Err(PositionError::TooManyPieces {
                    team: t,
                    count,
                    max,
                });
            }
        }
        let position = game.position();
        for red in position.pieces(Team::Red) {
            let blue = position.piece_at(Team::Blue, red.square);
            match blue {
                Some(_) if alternating => return Err(PositionError::Shared(red.square)),
                Some(blue) if blue.damage != red.damage => {
                    return Err(PositionError::UnequalDamage {
                        square: red.square,
                        red: red.damage,
                        blue: blue.damage,
                    })
                }
                _ => {}
            }
        }
        if let Some((team, piece)) = position.damaged().next().filter(|_| alternating) {
            return Err(PositionError::Damaged {
                team,
                square: piece.square,
            });
        }
        match (position.has_won(Team::Red), position.has_won(Team::Blue)) {
            (true, true) => Err(PositionError::BothWon),
            (true, false) => Err(PositionError::Won(Team::Red)),
            (false, true) => Err(PositionError::Won(Team::Blue)),
            (false, false) => Ok(game),
        }
    }

    /// The position as the link writes it: `<mover>.<red>.<blue>`, the mover `red`, `blue` or `both`,
    /// each team's pieces as `x-y` (with `*d` for damage d) joined by `_`, e.g.
    /// `red.0-0_1-0*2.7-7_6-7`. Only characters a URL keeps as they are, so the link stays readable.
    pub fn to_link(&self) -> String {
        let team = |t: Team| {
            self.pieces[t]
                .iter()
                .map(|p| match p.damage {
                    0 => format!("{}-{}", p.square.x(), p.square.y()),
                    d => format!("{}-{}*{d}", p.square.x(), p.square.y()),
                })
                .collect::<Vec<_>>()
                .join("_")
        };
        format!(
            "{}.{}.{}",
            self.to_move.map_or("both", Team::name),
            team(Team::Red),
            team(Team::Blue)
        )
    }

    /// Reads [`PositionEdit::to_link`]'s text on `preset`'s board. Pieces off the board or unreadable
    /// refuse the whole text; anything else impossible is read, for [`PositionEdit::check`] to name.
    pub fn from_link(
        preset: Preset,
        camp_rules: CampRules,
        text: &str,
    ) -> Result<PositionEdit, LinkError> {
        let bad = |why: String| LinkError(format!("position {}: {why}", quoted(text)));
        let parts: Vec<&str> = text.split('.').collect();
        let [mover, red, blue] = parts[..] else {
            return Err(bad(
                "expected the mover, red's pieces and blue's pieces, separated by dots".into(),
            ));
        };
        let to_move = match mover {
            "both" => None,
            t => Some(t.parse::<Team>().map_err(|_| {
                bad(format!(
                    "unknown mover {}: expected red, blue or both",
                    quoted(t)
                ))
            })?),
        };
        let size = preset.rules().board_size;
        let number = |s: &str| s.parse::<u8>().ok();
        let piece = |s: &str| -> Option<Piece> {
            let (at, damage) = match s.split_once('*') {
                Some((at, d)) => (at, number(d)?),
                None => (s, 0),
            };
            let (x, y) = at.split_once('-')?;
            let square = Square::new(number(x)?, number(y)?)?;
            Some(Piece { square, damage })
        };
        let mut pieces = Teams::<Vec<Piece>>::default();
        for (team, list) in [(Team::Red, red), (Team::Blue, blue)] {
            for s in list.split('_').filter(|s| !s.is_empty()) {
                let p = piece(s).ok_or_else(|| {
                    bad(format!(
                        "{team} piece {} is not x-y or x-y*damage",
                        quoted(s)
                    ))
                })?;
                if p.square.x() >= size || p.square.y() >= size {
                    return Err(bad(format!(
                        "{team} piece {} is off the {size}x{size} {preset} board",
                        p.square
                    )));
                }
                pieces[team].push(p);
            }
        }
        Ok(PositionEdit {
            preset,
            camp_rules,
            to_move,
            pieces,
        })
    }

    /// What the check line says of a legal position, e.g. "a legal position: red to move, 10 red and 9
    /// blue pieces".
    pub fn describe(&self) -> String {
        let who = self
            .to_move
            .map_or("both teams move".to_string(), |t| format!("{t} to move"));
        format!(
            "a legal position: {who}, {} red and {} blue pieces",
            self.pieces.red.len(),
            self.pieces.blue.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: u8, y: u8) -> Square {
        Square::new(x, y).unwrap()
    }

    /// A mini position (8x8, alternating, red's destinations the bottom-right camp) from piece lists.
    fn mini(to_move: Option<Team>, red: &[(u8, u8, u8)], blue: &[(u8, u8, u8)]) -> PositionEdit {
        let pieces = |l: &[(u8, u8, u8)]| {
            l.iter()
                .map(|&(x, y, damage)| Piece {
                    square: sq(x, y),
                    damage,
                })
                .collect()
        };
        PositionEdit {
            preset: Preset::Mini,
            camp_rules: CampRules::Seed,
            to_move,
            pieces: Teams {
                red: pieces(red),
                blue: pieces(blue),
            },
        }
    }

    fn with_preset(mut e: PositionEdit, preset: Preset) -> PositionEdit {
        e.preset = preset;
        e
    }

    #[test]
    fn the_checks_of_a_whole_position() {
        use PositionError as E;
        let red = Some(Team::Red);
        let one = &[(0, 0, 0)][..];
        let far = &[(4, 4, 0)][..];
        // Every mini destination of a team filled by the team: it has won.
        let home = |t: Team| -> Vec<(u8, u8, u8)> {
            Preset::Mini.rules().destinations[t]
                .iter()
                .map(|s| (s.x(), s.y(), 0))
                .collect()
        };
        let (red_home, blue_home) = (home(Team::Red), home(Team::Blue));
        let eleven: Vec<(u8, u8, u8)> = (0..11).map(|i| (i % 8, 3 + i / 8, 0)).collect();
        let cases: Vec<(&str, PositionEdit, Result<(), PositionError>)> = vec![
            ("the start", PositionEdit::start(Preset::Mini, CampRules::Seed), Ok(())),
            ("one piece a side", mini(red, one, far), Ok(())),
            ("blue may move", mini(Some(Team::Blue), one, far), Ok(())),
            (
                "no mover in an alternating game",
                mini(None, one, far),
                Err(E::Mover {
                    preset: Preset::Mini,
                    to_move: None,
                }),
            ),
            (
                "a mover in a simultaneous game",
                with_preset(mini(red, &[(0, 17, 0)], &[(17, 17, 0)]), Preset::Arena),
                Err(E::Mover {
                    preset: Preset::Arena,
                    to_move: red,
                }),
            ),
            (
                "the course's camp rules off the classic board",
                PositionEdit {
                    camp_rules: CampRules::Course,
                    ..mini(red, one, far)
                },
                Err(E::Options(
                    "The course's camp rules (USC CSCI 561) are for the classic preset only, not mini."
                        .into(),
                )),
            ),
            (
                "red has no pieces",
                mini(red, &[], far),
                Err(E::Setup(SetupError::NoPieces(Team::Red))),
            ),
            (
                "two red pieces on one square",
                mini(red, &[(3, 3, 0), (3, 3, 0)], far),
                Err(E::Setup(SetupError::Stacked {
                    team: Team::Red,
                    square: sq(3, 3),
                })),
            ),
            (
                "a piece off the board",
                mini(red, &[(8, 0, 0)], far),
                Err(E::Setup(SetupError::OffBoard {
                    what: "red piece".into(),
                    x: 8,
                    y: 0,
                    size: 8,
                })),
            ),
            (
                "damage above the collision damage",
                with_preset(mini(None, &[(4, 4, 6)], &[(9, 9, 0)]), Preset::Arena),
                Err(E::Setup(SetupError::Damage {
                    team: Team::Red,
                    square: sq(4, 4),
                    damage: 6,
                })),
            ),
            (
                "eleven red pieces on mini",
                mini(red, &eleven, far),
                Err(E::TooManyPieces {
                    team: Team::Red,
                    count: 11,
                    max: 10,
                }),
            ),
            (
                "a shared square in an alternating game",
                mini(red, &[(3, 3, 0)], &[(3, 3, 0)]),
                Err(E::Shared(sq(3, 3))),
            ),
            (
                "damage in an alternating game",
                mini(red, &[(3, 3, 2)], far),
                Err(E::Damaged {
                    team: Team::Red,
                    square: sq(3, 3),
                }),
            ),
            (
                "a collision square in the arena",
                with_preset(mini(None, &[(9, 9, 3)], &[(9, 9, 3)]), Preset::Arena),
                Ok(()),
            ),
            (
                "a collision square with unequal damage",
                with_preset(mini(None, &[(9, 9, 3)], &[(9, 9, 2)]), Preset::Arena),
                Err(E::UnequalDamage {
                    square: sq(9, 9),
                    red: 3,
                    blue: 2,
                }),
            ),
            ("red has won", mini(Some(Team::Blue), &red_home, far), Err(E::Won(Team::Red))),
            ("both have won", mini(red, &red_home, &blue_home), Err(E::BothWon)),
            (
                "the course's rules on classic",
                PositionEdit::start(Preset::Classic, CampRules::Course),
                Ok(()),
            ),
        ];
        for (name, edit, want) in cases {
            assert_eq!(edit.check().map(|_| ()), want, "{name}");
        }
    }

    #[test]
    fn every_error_says_why_in_words() {
        let edit = mini(Some(Team::Red), &[(3, 3, 0)], &[(3, 3, 0)]);
        let e = edit.check().unwrap_err();
        assert_eq!(e.square(), Some(sq(3, 3)));
        assert_eq!(
            e.to_string(),
            "red and blue share (3,3): only a simultaneous game's collision puts two pieces on one square"
        );
        let e = mini(None, &[(0, 0, 0)], &[(7, 7, 0)]).check().unwrap_err();
        assert_eq!(e.to_string(), "mini alternates: choose the team to move");
        assert_eq!(e.square(), None);
        assert!(PositionError::TooManyPieces {
            team: Team::Blue,
            count: 13,
            max: 12
        }
        .to_string()
        .starts_with("blue has 13 pieces: 12 at most"));
    }

    #[test]
    fn the_edits_and_what_they_refuse() {
        use EditError as E;
        let start = || mini(Some(Team::Red), &[(0, 0, 0)], &[(7, 7, 0)]);
        type Case = (
            &'static str,
            Tool,
            (u8, u8),
            Result<(&'static [(u8, u8, u8)], &'static [(u8, u8, u8)]), EditError>,
        );
        let cases: Vec<Case> = vec![
            (
                "place red",
                Tool::Piece(Team::Red),
                (1, 1),
                Ok((&[(0, 0, 0), (1, 1, 0)], &[(7, 7, 0)])),
            ),
            (
                "red again takes it off",
                Tool::Piece(Team::Red),
                (0, 0),
                Ok((&[], &[(7, 7, 0)])),
            ),
            (
                "blue on red shares the square",
                Tool::Piece(Team::Blue),
                (0, 0),
                Ok((&[(0, 0, 0)], &[(7, 7, 0), (0, 0, 0)])),
            ),
            ("remove", Tool::Remove, (7, 7), Ok((&[(0, 0, 0)], &[]))),
            (
                "remove on an empty square",
                Tool::Remove,
                (4, 4),
                Ok((&[(0, 0, 0)], &[(7, 7, 0)])),
            ),
            (
                "damage up",
                Tool::Damage(true),
                (0, 0),
                Ok((&[(0, 0, 1)], &[(7, 7, 0)])),
            ),
            (
                "off the board",
                Tool::Piece(Team::Red),
                (8, 2),
                Err(E::OffBoard {
                    square: sq(8, 2),
                    size: 8,
                }),
            ),
            (
                "damage on an empty square",
                Tool::Damage(true),
                (4, 4),
                Err(E::NoPiece(sq(4, 4))),
            ),
            (
                "damage below 0",
                Tool::Damage(false),
                (0, 0),
                Err(E::DamageRange {
                    square: sq(0, 0),
                    damage: -1,
                }),
            ),
        ];
        for (name, tool, (x, y), want) in cases {
            let mut edit = start();
            let got = edit.apply(tool, sq(x, y));
            match want {
                Ok((red, blue)) => {
                    assert_eq!(got, Ok(()), "{name}");
                    assert_eq!(edit, mini(Some(Team::Red), red, blue), "{name}");
                }
                Err(e) => {
                    assert_eq!(got, Err(e), "{name}");
                    assert_eq!(edit, start(), "{name}: a refused edit changes nothing");
                }
            }
        }
        // Damage goes up to the collision damage and no further, on both pieces of a collision square.
        let mut edit = with_preset(mini(None, &[(9, 9, 0)], &[(9, 9, 0)]), Preset::Arena);
        for _ in 0..COLLISION_DAMAGE {
            edit.apply(Tool::Damage(true), sq(9, 9)).unwrap();
        }
        assert_eq!(
            edit.apply(Tool::Damage(true), sq(9, 9)),
            Err(E::DamageRange {
                square: sq(9, 9),
                damage: 6
            })
        );
        assert_eq!(edit.pieces(Team::Blue)[0].damage, COLLISION_DAMAGE);
        assert!(edit.check().is_ok());
    }

    #[test]
    fn a_position_reads_back_from_its_link_and_a_bad_link_says_why() {
        let edit = with_preset(
            mini(None, &[(0, 14, 0), (9, 9, 3)], &[(9, 9, 3), (17, 14, 0)]),
            Preset::Arena,
        );
        let text = edit.to_link();
        assert_eq!(text, "both.0-14_9-9*3.9-9*3_17-14");
        assert_eq!(
            PositionEdit::from_link(Preset::Arena, CampRules::Seed, &text),
            Ok(edit)
        );
        let empty = PositionEdit::from_link(Preset::Mini, CampRules::Seed, "red..").unwrap();
        assert_eq!(
            empty.check(),
            Err(PositionError::Setup(SetupError::NoPieces(Team::Red)))
        );
        for (text, why) in [
            ("red.0-0", "separated by dots"),
            ("green.0-0.7-7", "unknown mover \"green\""),
            ("red.0-0_x.7-7", "red piece \"x\" is not x-y"),
            ("red.0-0.7-7*a", "blue piece \"7-7*a\""),
            ("red.0-0.8-7", "blue piece (8,7) is off the 8x8 mini board"),
            ("red.0-0.99-7", "blue piece \"99-7\""),
        ] {
            let err = PositionEdit::from_link(Preset::Mini, CampRules::Seed, text)
                .unwrap_err()
                .to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
        // A huge link is quoted by its start only, in a message that stays a line.
        for text in [
            format!("red.0-0.{}", "x".repeat(100_000)),
            format!("{}.0-0.7-7", "g".repeat(100_000)),
            "red.0-0.7-7.".repeat(10_000),
        ] {
            let err = PositionEdit::from_link(Preset::Mini, CampRules::Seed, &text)
                .unwrap_err()
                .to_string();
            assert!(err.len() < 300 && err.contains('…'), "{err}");
        }
    }

    #[test]
    fn a_game_from_an_edited_position_starts_there_and_plays() {
        let mut edit = PositionEdit::start(Preset::Mini, CampRules::Seed);
        edit.set_to_move(Some(Team::Blue));
        edit.apply(Tool::Remove, sq(0, 0)).unwrap();
        let mut game = edit.game(30).unwrap();
        assert_eq!((game.turn(), game.turn_limit()), (0, 30));
        assert_eq!(game.to_move(), Some(Team::Blue));
        assert_eq!(game.position().pieces(Team::Red).len(), 9);
        let from = PositionEdit::from_game(Preset::Mini, &game);
        assert_eq!(from, edit);
        let mut moves = Vec::new();
        game.position().legal_moves(Team::Blue, &mut moves);
        let mv = moves[0];
        let path = game.position().path(Team::Blue, mv).unwrap();
        let outcome = game
            .play(Team::Blue, super::super::Answer::Move(path))
            .unwrap();
        assert_eq!((outcome.turn, game.to_move()), (1, Some(Team::Red)));
        assert!(edit
            .describe()
            .starts_with("a legal position: blue to move, 9 red and 10 blue"));
    }
}
