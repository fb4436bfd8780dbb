//! The settings of a game and the three presets.

use super::{Square, Team, Teams};
use serde::{Deserialize, Serialize};

/// The damage a collision gives both pieces: they step, not jump, for this many enacted ticks.
pub const COLLISION_DAMAGE: u8 = 5;

/// The default turn limit; a game that reaches it is a draw.
pub const DEFAULT_TURN_LIMIT: u32 = 1000;

/// How the teams take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Both teams move every tick; equal final squares collide (the arena, seed 000).
    Simultaneous,
    /// One team moves per turn; the first mover is drawn from the game's seed (classic Halma, seed 003).
    Alternating,
}

/// A named starting setup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// The web-AI arena of seeds 000/001: 18x18, 12 a side in the bottom corners, simultaneous.
    #[default]
    Arena,
    /// Classic Halma of seed 003: 16x16, 19 a side in opposite corners, alternating, camp rule.
    Classic,
    /// A small alternating board for quick demos: 8x8, 10 a side.
    Mini,
}

impl Preset {
    /// Every preset, the default first.
    pub const ALL: [Preset; 3] = [Preset::Arena, Preset::Classic, Preset::Mini];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Arena => "arena",
            Preset::Classic => "classic",
            Preset::Mini => "mini",
        }
    }

    /// The preset's settings with its default board size and turn limit.
    pub fn rules(self) -> Rules {
        match self {
            Preset::Arena => Rules::arena(18),
            Preset::Classic => Rules::corner_camps(Preset::Classic, 16, classic_camp),
            Preset::Mini => Rules::corner_camps(Preset::Mini, 8, |x, y| x + y < 4),
        }
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown preset {s:?}: expected arena, classic or mini"))
    }
}

/// Which camp rules apply besides the seed's (a piece in its destination may not leave it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CampRules {
    /// The seed's rules only: today's default.
    #[default]
    Seed,
    /// The USC CSCI 561 course's referee: a move that starts outside the team's own camp may not end
    /// inside it, and while a piece is still in the own camp the team must move a piece out of it (or,
    /// if no move can, further from its own corner). The seed's camp rule stays in force.
    Course,
}

impl CampRules {
    /// Both settings, the default first.
    pub const ALL: [CampRules; 2] = [CampRules::Seed, CampRules::Course];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            CampRules::Seed => "seed",
            CampRules::Course => "course",
        }
    }

    /// Whether this is the default, the seed's rules (for `skip_serializing_if`).
    pub fn is_seed(&self) -> bool {
        *self == CampRules::Seed
    }
}

impl std::fmt::Display for CampRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for CampRules {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CampRules::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                format!("unknown camp rules {s:?}: expected seed or course (USC CSCI 561)")
            })
    }
}

/// Seed 003's camp: rows of 5, 5, 4, 3 and 2 squares in the corner.
fn classic_camp(x: u8, y: u8) -> bool {
    x <= 4 && y <= 4 && x + y <= 5
}

/// Everything that fixes a new game: the board, how turns go, and where each team starts and must go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The preset these settings came from, if any.
    pub preset: Option<Preset>,
    /// Squares per side.
    pub board_size: u8,
    /// Simultaneous ticks or alternating turns.
    pub mode: Mode,
    /// Whether a piece that stands in its destination may not end a move outside it.
    pub camp_rule: bool,
    /// The seed's camp rules, or the course's on top of them (see [`CampRules`]).
    pub camp_rules: CampRules,
    /// In an alternating game, the team that opens; `None` draws it from the game's seed
    /// ([`Rules::first_mover`]). The course's games let White (blue) open.
    pub first_mover: Option<Team>,
    /// Ticks after which an unfinished game is a draw.
    pub turn_limit: u32,
    /// Each team's starting squares.
    pub start: Teams<Vec<Square>>,
    /// The squares each team must fill to win.
    pub destinations: Teams<Vec<Square>>,
}

impl Rules {
    /// The arena on a board of `size` a side: blocks 3 wide and 4 tall in the bottom corners, 3x3
    /// destinations in the diagonally opposite top corners. Below 6 squares a side the two
    /// teams' blocks overlap, and [`Game::new`](super::Game::new) refuses the setup.
    pub fn arena(size: u8) -> Rules {
        let far = size.saturating_sub(3);
        let block = |x0: u8, y0: u8, w: u8, h: u8| -> Vec<Square> {
            (y0..y0.saturating_add(h))
                .flat_map(|y| (x0..x0.saturating_add(w)).filter_map(move |x| Square::new(x, y)))
                .collect()
        };
        Rules {
            preset: (size == 18).then_some(Preset::Arena),
            board_size: size,
            mode: Mode::Simultaneous,
            camp_rule: false,
            camp_rules: CampRules::Seed,
            first_mover: None,
            turn_limit: DEFAULT_TURN_LIMIT,
            start: Teams {
                red: block(0, size.saturating_sub(4), 3, 4),
                blue: block(far, size.saturating_sub(4), 3, 4),
            },
            destinations: Teams {
                red: block(far, 0, 3, 3),
                blue: block(0, 0, 3, 3),
            },
        }
    }

    /// Red's camp is the top-left squares that satisfy `camp`, blue's its point mirror; each team's
    /// destination is the other's camp.
    fn corner_camps(preset: Preset, size: u8, camp: fn(u8, u8) -> bool) -> Rules {
        let last = size - 1;
        let red: Vec<Square> = (0..size)
            .flat_map(|y| (0..size).map(move |x| (x, y)))
            .filter(|&(x, y)| camp(x, y))
            .filter_map(|(x, y)| Square::new(x, y))
            .collect();
        let blue: Vec<Square> = red
            .iter()
            .rev()
            .filter_map(|s| Square::new(last - s.x(), last - s.y()))
            .collect();
        Rules {
            preset: Some(preset),
            board_size: size,
            mode: Mode::Alternating,
            camp_rule: true,
            camp_rules: CampRules::Seed,
            first_mover: None,
            turn_limit: DEFAULT_TURN_LIMIT,
            destinations: Teams {
                red: blue.clone(),
                blue: red.clone(),
            },
            start: Teams { red, blue },
        }
    }

    /// Refuses the options that only some setups take, said for a person: the course's camp rules are
    /// for the classic preset only (the course's board), and a first mover can only be named where the
    /// teams alternate.
    pub fn check_options(&self) -> Result<(), String> {
        if self.camp_rules == CampRules::Course && self.preset != Some(Preset::Classic) {
            return Err(format!(
                "The course's camp rules (USC CSCI 561) are for the classic preset only, not {}.",
                self.preset.map_or("a custom setup", Preset::name)
            ));
        }
        if self.first_mover.is_some() && self.mode != Mode::Alternating {
            return Err(format!(
                "A first mover can only be named in an alternating game (classic or mini), not {}: \
                 both teams move every tick there.",
                self.preset.map_or("a custom setup", Preset::name)
            ));
        }
        Ok(())
    }

    /// The team that opens an alternating game created from `seed` under these rules: the one they
    /// name, or else the one drawn from `seed`.
    pub fn opener(&self, seed: u64) -> Team {
        self.first_mover.unwrap_or_else(|| Rules::first_mover(seed))
    }

    /// The team that moves first in an alternating game created from `seed` when the rules name none.
    pub fn first_mover(seed: u64) -> Team {
        if crate::SplitMix64::new(seed).next_u64() & 1 == 0 {
            Team::Red
        } else {
            Team::Blue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xy(squares: &[Square]) -> Vec<(u8, u8)> {
        let mut v: Vec<_> = squares.iter().map(|s| (s.x(), s.y())).collect();
        v.sort();
        v
    }

    #[test]
    fn arena_matches_the_seed_layout() {
        let r = Preset::Arena.rules();
        assert_eq!(r.board_size, 18);
        assert_eq!(r.start.red.len(), 12);
        assert_eq!(r.start.blue.len(), 12);
        assert!(r
            .start
            .red
            .iter()
            .all(|s| s.x() <= 2 && (14..=17).contains(&s.y())));
        assert!(r
            .start
            .blue
            .iter()
            .all(|s| s.x() >= 15 && (14..=17).contains(&s.y())));
        assert_eq!(r.destinations.red.len(), 9);
        assert!(r.destinations.red.iter().all(|s| s.x() >= 15 && s.y() <= 2));
        assert!(r.destinations.blue.iter().all(|s| s.x() <= 2 && s.y() <= 2));
        assert_eq!(r.mode, Mode::Simultaneous);
        assert!(!r.camp_rule);
    }

    #[test]
    fn classic_camps_have_19_squares_in_rows_of_5_5_4_3_2() {
        let r = Preset::Classic.rules();
        assert_eq!(r.start.red.len(), 19);
        let rows: Vec<usize> = (0..5)
            .map(|y| r.start.red.iter().filter(|s| s.y() == y).count())
            .collect();
        assert_eq!(rows, [5, 5, 4, 3, 2]);
        let mirrored: Vec<(u8, u8)> = xy(&r.start.red)
            .iter()
            .map(|&(x, y)| (15 - x, 15 - y))
            .collect();
        let mut mirrored = mirrored;
        mirrored.sort();
        assert_eq!(xy(&r.start.blue), mirrored);
        assert_eq!(xy(&r.destinations.red), xy(&r.start.blue));
        assert_eq!(xy(&r.destinations.blue), xy(&r.start.red));
    }

    #[test]
    fn mini_has_ten_a_side() {
        let r = Preset::Mini.rules();
        assert_eq!(r.board_size, 8);
        assert_eq!(r.start.red.len(), 10);
        assert!(r.start.blue.iter().all(|s| s.x() + s.y() > 10));
    }

    #[test]
    fn camp_rules_parse_as_they_print_and_default_to_the_seed() {
        for c in CampRules::ALL {
            assert_eq!(c.to_string().parse::<CampRules>(), Ok(c));
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{c}\""));
        }
        let err = "usc".parse::<CampRules>().unwrap_err();
        assert!(err.contains("seed") && err.contains("course"), "{err}");
        for p in Preset::ALL {
            assert_eq!(p.rules().camp_rules, CampRules::Seed);
            assert_eq!(p.rules().first_mover, None);
        }
    }

    #[test]
    fn course_rules_need_the_classic_preset_and_a_first_mover_alternation() {
        let course = |p: Preset| Rules {
            camp_rules: CampRules::Course,
            ..p.rules()
        };
        assert_eq!(course(Preset::Classic).check_options(), Ok(()));
        let err = course(Preset::Mini).check_options().unwrap_err();
        assert!(err.contains("classic preset only, not mini"), "{err}");
        let first = |p: Preset| Rules {
            first_mover: Some(Team::Red),
            ..p.rules()
        };
        assert_eq!(first(Preset::Mini).check_options(), Ok(()));
        assert!(first(Preset::Arena)
            .check_options()
            .unwrap_err()
            .contains("alternating"));
    }

    #[test]
    fn a_named_first_mover_opens_whatever_the_seed() {
        let mut r = Preset::Classic.rules();
        assert!((0..64).all(|s| r.opener(s) == Rules::first_mover(s)));
        r.first_mover = Some(Team::Blue);
        assert!((0..64).all(|s| r.opener(s) == Team::Blue));
    }

    #[test]
    fn first_mover_depends_on_the_seed_only() {
        let firsts: Vec<Team> = (0..64).map(Rules::first_mover).collect();
        assert_eq!(firsts, (0..64).map(Rules::first_mover).collect::<Vec<_>>());
        assert!(firsts.contains(&Team::Red) && firsts.contains(&Team::Blue));
    }
}
