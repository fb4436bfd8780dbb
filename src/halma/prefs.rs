//! The player setup kept in the page URL (a link to share) and in localStorage (the next visit).
//!
//! The query string reads `?red=builtin:search&blue=http%3A%2F%2F127.0.0.1%3A8001%2F&preset=arena`, with
//! `blueType=json` for a web AI sent `application/json` and `turns=500` for a turn limit other than the
//! preset's (links without them keep their old meaning). A link
//! wins over what is stored; a value that does not parse is reported and left out, never half-applied.

use super::player::Player;
use gridarena_engine::halma::{ContentType, Preset, Team, Teams};

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
}

/// Everything the page keeps of its setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub players: Teams<Player>,
    pub preset: Preset,
    pub content_types: Teams<ContentType>,
    /// `None`: the preset's own.
    pub turn_limit: Option<u32>,
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
                _ => {}
            }
        }
        (setup, errors)
    }

    /// The query pairs for `saved`: a content type only when not the default, a turn limit when set.
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
        }
    }
}

fn from_query(query: &str) -> (Setup, Vec<String>) {
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(query) else {
        return (Setup::default(), vec![]);
    };
    let pairs: Vec<(&str, String)> = ["red", "blue", "preset", "redType", "blueType", "turns"]
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
    // Storage may be full or forbidden (private mode): the link still carries the setup.
    if let Some(storage) = window.local_storage().ok().flatten() {
        let _ = storage.set_item(KEY, &query);
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
}
