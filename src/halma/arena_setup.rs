//! Which game the arena starts, plain Rust tested natively: the first one from the link or the last
//! visit, a new one from the form's fields, or one from the position editor's position. The page only
//! moves the results into its signals.

use super::messages::{Line, Tone};
use super::player::Player;
use super::position_editor::camp_rules_for;
use super::prefs::{parse_turn_limit, Setup};
use super::session::Session;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::edit::PositionEdit;
use gridarena_engine::halma::{CampRules, ContentType, Preset, Rules, Square, Team, Teams};

/// The rules of a new game of `preset`: the form's turn limit (`None`: the preset's), and its camp rules
/// and first mover with the classic preset only (the form offers them there alone).
pub fn rules_of(
    preset: Preset,
    turn_limit: Option<u32>,
    camp_rules: CampRules,
    first_mover: Option<Team>,
) -> Rules {
    let rules = preset.rules();
    Rules {
        turn_limit: turn_limit.unwrap_or(rules.turn_limit),
        camp_rules: camp_rules_for(preset, camp_rules),
        first_mover: first_mover.filter(|_| preset == Preset::Classic),
        ..rules
    }
}

/// What the page opens with: the setup from its link or the last visit, else search against greedy in
/// the arena.
#[derive(Debug)]
pub struct Opening {
    pub session: Session,
    pub preset: Preset,
    /// `None`: the preset's own.
    pub turn_limit: Option<u32>,
    pub camp_rules: CampRules,
    pub first_mover: Option<Team>,
    pub content_types: Teams<ContentType>,
    /// The link's position, opened in the editor on the link's preset.
    pub editing: Option<PositionEdit>,
    /// The line under the board: every part of the link that did not read, else nothing.
    pub notice: Option<Line>,
}

impl Opening {
    /// The opening from `saved` and the `link_errors` found reading it; `seed` seeds the first game. A
    /// position that does not read is named with the link's other errors and left out.
    pub fn of(saved: Setup, mut link_errors: Vec<String>, seed: u64) -> Opening {
        let players = Teams {
            red: saved
                .players
                .red
                .unwrap_or(Player::BuiltIn(BuiltIn::Search)),
            blue: saved
                .players
                .blue
                .unwrap_or(Player::BuiltIn(BuiltIn::Greedy)),
        };
        let preset = saved.preset.unwrap_or(Preset::Arena);
        let camp_rules = saved.camp_rules.unwrap_or_default();
        let first_mover = saved.first_mover.flatten();
        let rules = rules_of(preset, saved.turn_limit, camp_rules, first_mover);
        let mut session = Session::with_rules(preset, rules, players, seed);
        let content_types = saved.content_types.map(|_, c| c.unwrap_or_default());
        for team in Team::ALL {
            session.set_content_type(team, content_types[team]);
        }
        let editing = saved.position.as_deref().and_then(|text| {
            PositionEdit::from_link(preset, camp_rules_for(preset, camp_rules), text)
                .map_err(|e| link_errors.push(format!("pos in the link: {e}")))
                .ok()
        });
        let notice = (!link_errors.is_empty()).then(|| Line {
            tone: Tone::Error,
            text: link_errors.join("; "),
        });
        Opening {
            session,
            preset,
            turn_limit: saved.turn_limit,
            camp_rules,
            first_mover,
            content_types,
            editing,
            notice,
        }
    }
}

/// The new-game form's fields as "New game" reads them.
#[derive(Clone, Copy, Debug)]
pub struct GameForm<'a> {
    /// Empty: a random seed.
    pub seed_text: &'a str,
    /// Empty: the preset's turn limit.
    pub turns_text: &'a str,
    pub preset: Preset,
    pub camp_rules: CampRules,
    pub first_mover: Option<Team>,
}

impl GameForm<'_> {
    /// The new game between `players` with the turn limit the form names, or why the form does not
    /// read; `random_seed` is asked only when the seed field is empty.
    pub fn game(
        self,
        players: Teams<Player>,
        random_seed: impl FnOnce() -> u64,
    ) -> Result<(Session, Option<u32>), String> {
        let seed = super::arena_model::parse_seed(self.seed_text)?;
        let limit = parse_turn_limit(self.turns_text)?;
        let rules = rules_of(self.preset, limit, self.camp_rules, self.first_mover);
        let seed = seed.unwrap_or_else(random_seed);
        Ok((
            Session::with_rules(self.preset, rules, players, seed),
            limit,
        ))
    }
}

/// A game from the editor's position `edit` between `players`, seeding the AIs with `seed`, under the
/// turn limit the form's `turns_text` names; or why it cannot start (the words the line under the board
/// shows).
pub fn game_from_edit(
    edit: &PositionEdit,
    turns_text: &str,
    players: Teams<Player>,
    seed: u64,
) -> Result<(Session, Option<u32>), String> {
    let limit = parse_turn_limit(turns_text)?;
    let game = edit
        .game(limit.unwrap_or(edit.preset().rules().turn_limit))
        .map_err(|why| format!("Impossible: {why}."))?;
    Ok((
        Session::from_game(edit.preset(), game, players, seed, true),
        limit,
    ))
}

/// The engine's verdict on an edited position: the editor's line, and the square the board flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditCheck {
    /// The position described, or why it is impossible.
    pub text: String,
    pub possible: bool,
    /// The square the error is about, where it names one.
    pub flagged: Option<Square>,
}

impl EditCheck {
    pub fn of(edit: &PositionEdit) -> EditCheck {
        match edit.check() {
            Ok(_) => EditCheck {
                text: edit.describe(),
                possible: true,
                flagged: None,
            },
            Err(why) => EditCheck {
                text: format!("Impossible: {why}."),
                possible: false,
                flagged: why.square(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::edit::Tool;

    fn greedy_pair() -> Teams<Player> {
        Teams {
            red: Player::BuiltIn(BuiltIn::Greedy),
            blue: Player::BuiltIn(BuiltIn::Greedy),
        }
    }

    #[test]
    fn an_empty_setup_opens_search_against_greedy_in_the_arena() {
        let o = Opening::of(Setup::default(), Vec::new(), 7);
        assert_eq!(o.preset, Preset::Arena);
        assert_eq!(o.session.preset(), Preset::Arena);
        assert_eq!(o.session.seed(), 7);
        assert_eq!(o.session.players().red, Player::BuiltIn(BuiltIn::Search));
        assert_eq!(o.session.players().blue, Player::BuiltIn(BuiltIn::Greedy));
        assert_eq!(
            o.session.game().turn_limit(),
            Preset::Arena.rules().turn_limit
        );
        assert!(o.editing.is_none());
        assert!(o.notice.is_none());
    }

    #[test]
    fn the_opening_follows_the_link_and_names_its_errors() {
        let (setup, errors) = Setup::parse([
            ("preset", "classic"),
            ("turns", "300"),
            ("first", "blue"),
            ("blueType", "json"),
            ("red", "nonsense:x"),
            ("pos", "not a position"),
        ]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        let o = Opening::of(setup, errors, 1);
        assert_eq!(o.session.preset(), Preset::Classic);
        assert_eq!(o.session.game().turn_limit(), 300);
        assert_eq!(o.session.game().to_move(), Some(Team::Blue));
        assert_eq!(o.session.content_type(Team::Blue), ContentType::Json);
        assert_eq!(o.content_types.blue, ContentType::Json);
        assert!(o.editing.is_none());
        let notice = o.notice.expect("the link's errors");
        assert_eq!(notice.tone, Tone::Error);
        assert!(
            notice.text.starts_with("red player in the link"),
            "{}",
            notice.text
        );
        assert!(
            notice.text.contains("; pos in the link: "),
            "{}",
            notice.text
        );
    }

    #[test]
    fn a_readable_position_in_the_link_opens_the_editor() {
        let link = PositionEdit::start(Preset::Mini, CampRules::default()).to_link();
        let setup = Setup {
            preset: Some(Preset::Mini),
            position: Some(link),
            ..Setup::default()
        };
        let o = Opening::of(setup, Vec::new(), 1);
        assert_eq!(
            o.editing,
            Some(PositionEdit::start(Preset::Mini, CampRules::default()))
        );
        assert!(o.notice.is_none());
    }

    #[test]
    fn the_first_mover_is_kept_with_the_classic_preset_only() {
        let classic = rules_of(
            Preset::Classic,
            Some(9),
            CampRules::default(),
            Some(Team::Blue),
        );
        assert_eq!(
            (classic.turn_limit, classic.first_mover),
            (9, Some(Team::Blue))
        );
        let arena = rules_of(Preset::Arena, None, CampRules::default(), Some(Team::Blue));
        assert_eq!(arena.first_mover, None);
        assert_eq!(arena.turn_limit, Preset::Arena.rules().turn_limit);
    }

    #[test]
    fn the_form_starts_a_game_or_says_which_field_does_not_read() {
        let form = GameForm {
            seed_text: " 42 ",
            turns_text: "12",
            preset: Preset::Mini,
            camp_rules: CampRules::default(),
            first_mover: None,
        };
        let (s, limit) = form
            .game(greedy_pair(), || panic!("a seed was given"))
            .unwrap();
        assert_eq!((s.seed(), limit, s.game().turn_limit()), (42, Some(12), 12));
        let (s, limit) = GameForm {
            seed_text: "",
            turns_text: "",
            ..form
        }
        .game(greedy_pair(), || 5)
        .unwrap();
        assert_eq!((s.seed(), limit), (5, None));
        assert_eq!(s.game().turn_limit(), Preset::Mini.rules().turn_limit);
        let bad_seed = GameForm {
            seed_text: "x",
            ..form
        };
        assert!(bad_seed
            .game(greedy_pair(), || 5)
            .unwrap_err()
            .contains("seed"));
        let bad_turns = GameForm {
            turns_text: "0",
            ..form
        };
        assert!(bad_turns
            .game(greedy_pair(), || 5)
            .unwrap_err()
            .contains("turn limit"));
    }

    #[test]
    fn an_edited_position_plays_or_says_why_it_cannot() {
        let mut edit = PositionEdit::start(Preset::Mini, CampRules::default());
        let (s, limit) = game_from_edit(&edit, "40", greedy_pair(), 3).unwrap();
        assert_eq!((s.seed(), limit, s.game().turn_limit()), (3, Some(40), 40));
        assert!(game_from_edit(&edit, "many", greedy_pair(), 3)
            .unwrap_err()
            .contains("turn limit"));
        for square in edit.pieces(Team::Red).to_vec() {
            edit.apply(Tool::Remove, square.square).unwrap();
        }
        let why = game_from_edit(&edit, "", greedy_pair(), 3).unwrap_err();
        assert!(why.starts_with("Impossible: "), "{why}");
        assert_eq!(EditCheck::of(&edit).text, why);
        assert!(!EditCheck::of(&edit).possible);
    }

    #[test]
    fn the_check_describes_a_good_position_and_flags_a_bad_square() {
        let mut edit = PositionEdit::start(Preset::Mini, CampRules::default());
        let good = EditCheck::of(&edit);
        assert!(good.possible);
        assert_eq!((good.text, good.flagged), (edit.describe(), None));
        // Blue keeps its count of pieces, one of them moved onto a red piece's square.
        let (red, blue) = (
            edit.pieces(Team::Red)[0].square,
            edit.pieces(Team::Blue)[0].square,
        );
        edit.apply(Tool::Remove, blue).unwrap();
        edit.apply(Tool::Piece(Team::Blue), red).unwrap();
        let shared = EditCheck::of(&edit);
        assert!(!shared.possible);
        assert_eq!(shared.flagged, Some(red));
    }
}
