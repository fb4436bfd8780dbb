//! Who plays a team: a person at this screen, an AI compiled into the page, a web AI at a URL, or a
//! student's code kept in this browser.
//!
//! The AIs' labels are the engine's ([`AiPlayer`]), shared with the command line and records; `human`
//! and `code:NAME` are the page's own.

use crate::code::ai::CodeRef;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::{AiPlayer, PlayerError};
use std::fmt;
use std::str::FromStr;

/// A team's player. Its text form (`human`, `builtin:greedy`) is what game records and the page URL hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the board; the tick waits for them.
    Human,
    /// An AI from the engine, thinking in a Web Worker of the page.
    BuiltIn(BuiltIn),
    /// An AI anywhere on the web, asked by HTTP POST every tick; the URL is checked by
    /// `protocol::check_ai_url`.
    Web(String),
    /// A student's Python or JavaScript kept in this browser, run in a Web Worker of the page.
    Code(CodeRef),
}

impl Player {
    /// The menu value standing for every web AI (the URL is typed beside the menu).
    pub const WEB_CHOICE: &'static str = "web";

    /// Every fixed choice in the player menu, in menu order (a web AI is offered apart, with its URL).
    pub fn all() -> Vec<Player> {
        BuiltIn::ALL
            .into_iter()
            .map(Player::BuiltIn)
            .chain([Player::Human])
            .collect()
    }

    /// What the player menu shows.
    pub fn describe(&self) -> String {
        match self {
            Player::Human => "Human (click the board)".to_string(),
            Player::BuiltIn(ai) => format!("Built-in AI: {}", ai.name()),
            Player::Web(url) => format!("Web AI at {url}"),
            Player::Code(code) => code.describe(),
        }
    }

    /// The player menu's value for this player.
    pub fn menu_value(&self) -> String {
        match self {
            Player::Web(_) => Player::WEB_CHOICE.to_string(),
            other => other.to_string(),
        }
    }
}

/// What the page says of a program label: programs run on a computer, and reach the page bridged.
pub const PROGRAM_IN_PAGE: &str =
    "a program runs on your computer, not in the browser: serve it with \
     `gridarena halma bridge --format course --dir DIR -- COMMAND` (docs/programs.md) and give the \
     address it prints, such as http://127.0.0.1:8001/";

impl TryFrom<AiPlayer> for Player {
    type Error = String;
    fn try_from(ai: AiPlayer) -> Result<Player, String> {
        match ai {
            AiPlayer::BuiltIn(ai) => Ok(Player::BuiltIn(ai)),
            AiPlayer::Web(url) => Ok(Player::Web(url)),
            AiPlayer::Program(program) => Err(format!("{program}: {PROGRAM_IN_PAGE}")),
            AiPlayer::Code(source) => Err(format!(
                "{}: a roster's code entry plays in a tournament; in the arena, import its files on \"Write an AI\"",
                AiPlayer::Code(source)
            )),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::BuiltIn(ai) => AiPlayer::BuiltIn(*ai).fmt(f),
            Player::Web(url) => f.write_str(url),
            Player::Code(code) => code.fmt(f),
        }
    }
}

impl FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Player, String> {
        if s == "human" {
            return Ok(Player::Human);
        }
        if s.starts_with(CodeRef::PREFIX) {
            return s.parse().map(Player::Code);
        }
        s.parse::<AiPlayer>()
            .map_err(|e| match e {
                PlayerError::Unknown(text) => {
                    format!(
                        "unknown player {text:?}: expected human, code:NAME (an AI kept in this browser), {}",
                        AiPlayer::forms()
                    )
                }
                other => other.to_string(),
            })
            .and_then(Player::try_from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for p in Player::all() {
            assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        }
        let web = "http://127.0.0.1:8001/".parse::<Player>().unwrap();
        assert_eq!(web, Player::Web("http://127.0.0.1:8001/".into()));
        assert_eq!(web.to_string().parse::<Player>(), Ok(web.clone()));
        assert_eq!(web.menu_value(), Player::WEB_CHOICE);
        assert!("ftp://x".parse::<Player>().is_err());
        assert!("builtin:nobody".parse::<Player>().is_err());
        assert!("robot".parse::<Player>().is_err());
        let code = "code:Ada@v2".parse::<Player>().unwrap();
        assert_eq!(code.to_string(), "code:Ada@v2");
        assert_eq!(code.describe(), "Your AI: Ada v2");
        assert!("code:".parse::<Player>().is_err());
        let program = "course:agents/ada:python3 hw.py"
            .parse::<Player>()
            .unwrap_err();
        assert!(program.contains("gridarena halma bridge"), "{program}");
    }
}
