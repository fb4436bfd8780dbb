//! The player setup kept in the page URL (a link to share) and in localStorage (the next visit).
//!
//! The query string reads `?red=builtin:search&blue=http%3A%2F%2F127.0.0.1%3A8001%2F&preset=arena`. A link
//! wins over what is stored; a value that does not parse is reported and left out, never half-applied.

use super::player::Player;
use gridarena_engine::halma::{Preset, Team, Teams};

/// The localStorage key.
const KEY: &str = "gridarena.halma.setup";

/// What a link or the stored setup says; `None` where it says nothing usable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    pub players: Teams<Option<Player>>,
    pub preset: Option<Preset>,
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
                _ => {}
            }
        }
        (setup, errors)
    }

    /// The query pairs for `players` and `preset`.
    pub fn pairs(players: &Teams<Player>, preset: Preset) -> Vec<(&'static str, String)> {
        vec![
            ("red", players.red.to_string()),
            ("blue", players.blue.to_string()),
            ("preset", preset.name().to_string()),
        ]
    }

    /// `self` with the gaps filled from `other`.
    pub fn or(self, other: Setup) -> Setup {
        Setup {
            players: Teams {
                red: self.players.red.or(other.players.red),
                blue: self.players.blue.or(other.players.blue),
            },
            preset: self.preset.or(other.preset),
        }
    }
}

fn from_query(query: &str) -> (Setup, Vec<String>) {
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(query) else {
        return (Setup::default(), vec![]);
    };
    let pairs: Vec<(&str, String)> = ["red", "blue", "preset"]
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
pub fn save(players: &Teams<Player>, preset: Preset) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new() else {
        return;
    };
    for (k, v) in Setup::pairs(players, preset) {
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
    fn what_is_saved_reads_back_and_the_link_wins() {
        let players = Teams {
            red: Player::Human,
            blue: Player::BuiltIn(BuiltIn::Search),
        };
        let pairs = Setup::pairs(&players, Preset::Classic);
        let (saved, errors) = Setup::parse(pairs.iter().map(|(k, v)| (*k, v.as_str())));
        assert!(errors.is_empty());
        assert_eq!(saved.players.red, Some(Player::Human));
        let (linked, _) = Setup::parse([("blue", "human")]);
        let merged = linked.or(saved);
        assert_eq!(merged.players.blue, Some(Player::Human));
        assert_eq!(merged.players.red, Some(Player::Human));
        assert_eq!(merged.preset, Some(Preset::Classic));
    }
}
