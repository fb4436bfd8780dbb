//! The player setup kept in the page URL (a link to share) and in localStorage (the next visit).
//!
//! The query string reads `?red=builtin:search&blue=http%3A%2F%2F127.0.0.1%3A8001%2F&preset=arena`, with
//! `blueType=json` for a web AI sent `application/json`, `turns=500` for a turn limit other than the
//! preset's, `camp=course` for the USC CSCI 561 course's camp rules and `first=blue` for a first mover
//! not drawn from the seed (links without them keep their old meaning), and `pos=red.0-0_1-0.7-7` for a
//! position set up in the position editor (read by the engine's
//! [`PositionEdit::from_link`](gridarena_engine::halma::edit::PositionEdit::from_link) on the preset's
//! board; only the link carries it, so a later visit does not open the editor). A link
//! wins over what is stored; a value that does not parse is reported and left out, never half-applied.

use super::player::Player;
use gridarena_engine::halma::{CampRules, ContentType, Preset, Team, Teams};

/// The turn limits the page accepts.
pub const MAX_TURN_LIMIT: u32 = 100_000;

/// The turn-limit field's text: `None` when empty (the preset's own), else a whole number 1 to 100000.
pub fn parse_turn_limit(text: &str) -> Result<Option<u32>, String> {
    match text.trim() {
        "" => Ok(None),
        t => t
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_TURN_LIMIT).contains(n))
            .map(Some)
            .ok_or_else(|| {
                format!("turn limit {t:?} is not a whole number from 1 to {MAX_TURN_LIMIT}")
            }),
    }
}

/// The localStorage key.
const KEY: &str = "gridarena.halma.setup";

/// What a link or the stored setup says; `None` where it says nothing usable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    pub players: Teams<Option<Player>>,
    pub preset: Option<Preset>,
    pub content_types: Teams<Option<ContentType>>,
    pub turn_limit: Option<u32>,
    pub camp_rules: Option<CampRules>,
    /// `Some(None)`: the link says the first mover is drawn.
    pub first_mover: Option<Option<Team>>,
    /// The position editor's position, as the link writes it (read on the preset's board by the page).
    pub position: Option<String>,
}

/// Everything the page keeps of its setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub players: Teams<Player>,
    pub preset: Preset,
    pub content_types: Teams<ContentType>,
    /// `None`: the preset's own.
    pub turn_limit: Option<u32>,
    /// The camp rules chosen for the classic preset.
    pub camp_rules: CampRules,
    /// The first mover chosen for the classic preset; `None` draws it from the seed.
    pub first_mover: Option<Team>,
    /// The position being edited or last played from the editor, in the link only.
    pub position: Option<String>,
}

/// The first-move choice as the link spells it: `drawn`, `red` or `blue`.
pub fn parse_first_mover(text: &str) -> Result<Option<Team>, String> {
    match text {
        "drawn" => Ok(None),
        t => t
            .parse::<Team>()
            .map(Some)
            .map_err(|_| format!("unknown first move {t:?}: expected drawn, red or blue")),
    }
}

impl Setup {
    /// Reads query-string pairs; unknown keys are ignored, bad values are listed in the errors.
    pub fn parse<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> (Setup, Vec<String>) {
        let mut setup = Setup::default();
        let mut errors = Vec::new();
        for (key, value) in pairs {
            match key {
                "red" | "blue" => {
                    let team = if key == "red" { Team::Red } else { Team::Blue };
                    match value.parse::<Player>() {
                        Ok(p) => setup.players[team] = Some(p),
                        Err(e) => errors.push(format!("{key} player in the link: {e}")),
                    }
                }
                "preset" => match value.parse::<Preset>() {
                    Ok(p) => setup.preset = Some(p),
                    Err(e) => errors.push(format!("preset in the link: {e}")),
                },
                "redType" | "blueType" => {
                    let team = if key == "redType" {
                        Team::Red
                    } else {
                        Team::Blue
                    };
                    match value.parse::<ContentType>() {
                        Ok(c) => setup.content_types[team] = Some(c),
                        Err(e) => errors.push(format!("{key} in the link: {e}")),
                    }
                }
                "turns" => match parse_turn_limit(value) {
                    Ok(n) => setup.turn_limit = n,
                    Err(e) => errors.push(format!("{e} (in the link)")),
                },
                "camp" => match value.parse::<CampRules>() {
                    Ok(c) => setup.camp_rules = Some(c),
                    Err(e) => errors.push(format!("camp in the link: {e}")),
                },
                "first" => match parse_first_mover(value) {
                    Ok(t) => setup.first_mover = Some(t),
                    Err(e) => errors.push(format!("first in the link: {e}")),
                },
                "pos" => setup.position = Some(value.to_string()),
                _ => {}
            }
        }
        (setup, errors)
    }

    /// The query pairs for `saved`: a content type, the camp rules and the first mover only when not
    /// the default, a turn limit when set.
    pub fn pairs(saved: &Saved) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("red", saved.players.red.to_string()),
            ("blue", saved.players.blue.to_string()),
            ("preset", saved.preset.name().to_string()),
        ];
        for (team, key) in [(Team::Red, "redType"), (Team::Blue, "blueType")] {
            let c = saved.content_types[team];
            if c != ContentType::default() {
                pairs.push((key, c.key().to_string()));
            }
        }
        if let Some(n) = saved.turn_limit {
            pairs.push(("turns", n.to_string()));
        }
        if saved.camp_rules != CampRules::default() {
            pairs.push(("camp", saved.camp_rules.name().to_string()));
        }
        if let Some(team) = saved.first_mover {
            pairs.push(("first", team.name().to_string()));
        }
        if let Some(pos) = &saved.position {
            pairs.push(("pos", pos.clone()));
        }
        pairs
    }

    /// `self` with the gaps filled from `other`.
    pub fn or(self, other: Setup) -> Setup {
        Setup {
            players: Teams {
                red: self.players.red.or(other.players.red),
                blue: self.players.blue.or(other.players.blue),
            },
            preset: self.preset.or(other.preset),
            content_types: Teams {
                red: self.content_types.red.or(other.content_types.red),
                blue: self.content_types.blue.or(other.content_types.blue),
            },
            turn_limit: self.turn_limit.or(other.turn_limit),
            camp_rules: self.camp_rules.or(other.camp_rules),
            first_mover: self.first_mover.or(other.first_mover),
            position: self.position.or(other.position),
        }
    }
}

fn from_query(query: &str) -> (Setup, Vec<String>) {
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(query) else {
        return (Setup::default(), vec![]);
    };
    let pairs: Vec<(&str, String)> = [
        "red", "blue", "preset", "redType", "blueType", "turns", "camp", "first", "pos",
    ]
    .into_iter()
    .filter_map(|k: &'static str| params.get(k).map(|v| (k, v)))
    .collect();
    Setup::parse(pairs.iter().map(|(k, v)| (*k, v.as_str())))
}

/// The setup from the page's link, else from localStorage; and what could not be read from the link.
pub fn load() -> (Setup, Vec<String>) {
    let Some(window) = web_sys::window() else {
        return (Setup::default(), vec![]);
    };
    let (linked, errors) = from_query(&window.location().search().unwrap_or_default());
    let stored = window
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .map(|q| from_query(&q).0)
        .unwrap_or_default();
    (linked.or(stored), errors)
}

/// Writes the setup into the page's link (without reloading) and into localStorage.
pub fn save(saved: &Saved) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new() else {
        return;
    };
    for (k, v) in Setup::pairs(saved) {
        params.append(k, &v);
    }
    let query = String::from(params.to_string());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            // The hash names the page (index.html): keep it.
            Some(&format!(
                "?{query}{}",
                window.location().hash().unwrap_or_default()
            )),
        );
    }
    // Storage may be full or forbidden (private mode): the link still carries the setup. The position is
    // the link's alone: the start page should not open the editor on every later visit.
    if let Some(storage) = window.local_storage().ok().flatten() {
        params.delete("pos");
        let _ = storage.set_item(KEY, &String::from(params.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::ai::BuiltIn;

    #[test]
    fn a_link_gives_players_and_preset_and_names_what_is_wrong() {
        let (setup, errors) = Setup::parse([
            ("red", "http://127.0.0.1:8001/"),
            ("blue", "builtin:robot"),
            ("preset", "mini"),
            ("other", "x"),
        ]);
        assert_eq!(
            setup.players.red,
            Some(Player::Web("http://127.0.0.1:8001/".into()))
        );
        assert_eq!(setup.players.blue, None);
        assert_eq!(setup.preset, Some(Preset::Mini));
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("blue"));
    }

    #[test]
    fn old_links_still_read_and_bad_types_and_limits_are_named() {
        let (setup, errors) = Setup::parse([("preset", "arena"), ("red", "human")]);
        assert!(errors.is_empty());
        assert_eq!(setup.content_types, Teams::default());
        assert_eq!(setup.turn_limit, None);
        let (setup, errors) =
            Setup::parse([("redType", "json"), ("blueType", "xml"), ("turns", "0")]);
        assert_eq!(setup.content_types.red, Some(ContentType::Json));
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[1].contains("from 1 to 100000"), "{errors:?}");
    }

    #[test]
    fn turn_limits_are_read_or_refused_with_the_range() {
        assert_eq!(parse_turn_limit(" "), Ok(None));
        assert_eq!(parse_turn_limit("5"), Ok(Some(5)));
        assert_eq!(parse_turn_limit("100000"), Ok(Some(100_000)));
        for bad in ["0", "100001", "-3", "ten", "2.5"] {
            assert!(parse_turn_limit(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn what_is_saved_reads_back_and_the_link_wins() {
        let players = Teams {
            red: Player::Human,
            blue: Player::BuiltIn(BuiltIn::Search),
        };
        let pairs = Setup::pairs(&Saved {
            players,
            preset: Preset::Classic,
            content_types: Teams {
                red: ContentType::TextPlain,
                blue: ContentType::Json,
            },
            turn_limit: Some(5),
            camp_rules: CampRules::Seed,
            first_mover: None,
            position: None,
        });
        assert!(
            !pairs.iter().any(|(k, _)| *k == "redType"),
            "text is the default"
        );
        let (saved, errors) = Setup::parse(pairs.iter().map(|(k, v)| (*k, v.as_str())));
        assert!(errors.is_empty());
        assert_eq!(saved.content_types.blue, Some(ContentType::Json));
        assert_eq!(saved.content_types.red, None);
        assert_eq!(saved.turn_limit, Some(5));
        assert_eq!(saved.players.red, Some(Player::Human));
        let (linked, _) = Setup::parse([("blue", "human")]);
        let merged = linked.or(saved);
        assert_eq!(merged.players.blue, Some(Player::Human));
        assert_eq!(merged.players.red, Some(Player::Human));
        assert_eq!(merged.preset, Some(Preset::Classic));
    }

    #[test]
    fn the_course_camp_rules_and_the_first_mover_read_back_and_default_when_absent() {
        let saved = Saved {
            players: Teams {
                red: Player::Human,
                blue: Player::Human,
            },
            preset: Preset::Classic,
            content_types: Teams::default(),
            turn_limit: None,
            camp_rules: CampRules::Course,
            first_mover: Some(Team::Blue),
            position: Some("blue.0-0_1-0.7-7".into()),
        };
        let pairs = Setup::pairs(&saved);
        assert!(pairs.contains(&("camp", "course".to_string())), "{pairs:?}");
        assert!(pairs.contains(&("first", "blue".to_string())), "{pairs:?}");
        let (read, errors) = Setup::parse(pairs.iter().map(|(k, v)| (*k, v.as_str())));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(read.camp_rules, Some(CampRules::Course));
        assert_eq!(read.first_mover, Some(Some(Team::Blue)));
        assert_eq!(read.position.as_deref(), Some("blue.0-0_1-0.7-7"));
        // The defaults are left out of the link, so it reads as it did before these choices.
        let plain = Setup::pairs(&Saved {
            camp_rules: CampRules::Seed,
            first_mover: None,
            position: None,
            ..saved
        });
        assert!(
            !plain
                .iter()
                .any(|(k, _)| *k == "camp" || *k == "first" || *k == "pos"),
            "{plain:?}"
        );
        let (old, errors) = Setup::parse([("preset", "classic")]);
        assert!(errors.is_empty());
        assert_eq!((old.camp_rules, old.first_mover), (None, None));
        // A link that says "drawn" overrides a stored first mover.
        let (linked, errors) = Setup::parse([("first", "drawn"), ("camp", "seed")]);
        assert!(errors.is_empty(), "{errors:?}");
        let merged = linked.or(read);
        assert_eq!(merged.first_mover, Some(None));
        assert_eq!(merged.camp_rules, Some(CampRules::Seed));
    }

    #[test]
    fn bad_camp_rules_and_first_movers_are_named_and_left_out() {
        let (setup, errors) =
            Setup::parse([("camp", "usc"), ("first", "green"), ("preset", "classic")]);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with("camp in the link") && errors[0].contains("seed or course"),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("first in the link") && errors[1].contains("drawn, red or blue"),
            "{errors:?}"
        );
        assert_eq!((setup.camp_rules, setup.first_mover), (None, None));
        assert_eq!(setup.preset, Some(Preset::Classic));
        assert_eq!(parse_first_mover("red"), Ok(Some(Team::Red)));
        assert_eq!(parse_first_mover("drawn"), Ok(None));
        assert!(parse_first_mover("Blue").is_err());
    }
}
