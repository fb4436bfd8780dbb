//! The online Go protocol of docs/online.md: the WebSocket messages and the JSON of the HTTP API, written
//! once, for the server that writes them and the page that reads them, so the two cannot drift apart.
//!
//! The wire format is the documentation's: a `type` tag in snake_case (one word for every message so far),
//! snake_case fields (`move_number`, `clock_ms`, `to_move`). Reading is strict about types and lenient
//! about what is missing where a default is harmless (`#[serde(default)]`), and ignores fields it does not
//! know, so a newer server can add a field without breaking an older page.
//!
//! ```
//! use gridarena_engine::go::online::{ClientMsg, ServerMsg};
//!
//! let msg = ClientMsg::parse(r#"{"type":"move","game":12,"move":"D4"}"#).unwrap();
//! assert_eq!(msg, ClientMsg::Move { game: 12, mv: "D4".into() });
//! assert_eq!(msg.to_json(), r#"{"type":"move","game":12,"move":"D4"}"#);
//! assert_eq!(ServerMsg::error("x").to_json(), r#"{"type":"error","message":"x"}"#);
//! ```

use super::Komi;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game's number. Positive, as the server's database numbers them; the server converts at its
/// database with a checked conversion.
pub type GameId = u64;

/// A colour preference when seeking a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorPref {
    Black,
    White,
    Any,
}

/// A message from a client to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    Hello {
        token: String,
    },
    /// `size` is wider than a board side so that any number is read and then refused with a message
    /// that names the sizes on offer, rather than as malformed JSON.
    Seek {
        size: u32,
        color: ColorPref,
    },
    Cancel,
    /// A game against the server's own AI (the house player, named in `welcome`), at once: for when
    /// nobody else is waiting. `size` as in `seek`.
    House {
        size: u32,
        color: ColorPref,
    },
    Watch {
        game: GameId,
    },
    /// Stop following a game this connection watches as a spectator.
    Unwatch {
        game: GameId,
    },
    Move {
        game: GameId,
        #[serde(rename = "move")]
        mv: String,
    },
    Resign {
        game: GameId,
    },
}

/// Something counted for each colour: captures, or an area count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerColor {
    pub black: u32,
    pub white: u32,
}

fn default_komi() -> f64 {
    Komi::DEFAULT.points()
}

/// The whole of one game, sent on matching, on reconnecting and on watching: `moves` rebuild it exactly
/// ([`crate::go::Game::replay`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub game: GameId,
    pub size: u8,
    #[serde(default = "default_komi")]
    pub komi: f64,
    pub black: String,
    pub white: String,
    pub moves: Vec<String>,
    pub move_number: u32,
    /// `"black"` or `"white"`.
    #[serde(default)]
    pub to_move: String,
    #[serde(default)]
    pub captures: PerColor,
    /// What the player to move has left; the server always sends it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    /// SGF's `RE` once the game is over; written as `null` before.
    #[serde(default)]
    pub result: Option<String>,
}

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Welcome {
        name: String,
        #[serde(default)]
        wins: u32,
        #[serde(default)]
        losses: u32,
        /// The name of the server's AI when it takes games (`house`); absent when it does not.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        house: Option<String>,
    },
    Waiting {
        size: u32,
        color: ColorPref,
    },
    Cancelled,
    /// The answer to `unwatch`: the game's messages no longer come to this connection.
    Unwatched {
        game: GameId,
    },
    Matched {
        game: GameId,
        /// The colour the receiver plays: `"black"` or `"white"`.
        color: String,
        opponent: String,
        size: u8,
    },
    Snapshot(Snapshot),
    Move {
        game: GameId,
        /// Counts moves from 1.
        move_number: u32,
        color: String,
        #[serde(rename = "move")]
        mv: String,
        /// The stones the move took, as GTP vertices.
        #[serde(default)]
        captured: Vec<String>,
        /// The next player's time; the server always sends it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock_ms: Option<u64>,
    },
    Ended {
        game: GameId,
        result: String,
        /// The area count, for a game that was counted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        score: Option<PerColor>,
    },
    Error {
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<GameId>,
    },
}

/// The JSON text of a message. Serialising these plain types cannot fail; the fallback is still a valid
/// message rather than a panic.
fn to_json<T: Serialize>(msg: &T) -> String {
    serde_json::to_string(msg).unwrap_or_else(|_| {
        r#"{"type":"error","message":"internal error: unserialisable message"}"#.to_string()
    })
}

impl ClientMsg {
    /// Reads one message.
    pub fn parse(text: &str) -> Result<ClientMsg, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

impl ServerMsg {
    /// An error about no game in particular.
    pub fn error(message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            message: message.into(),
            game: None,
        }
    }

    /// An error about one game.
    pub fn game_error(game: GameId, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            message: message.into(),
            game: Some(game),
        }
    }

    /// Reads one message.
    pub fn parse(text: &str) -> Result<ServerMsg, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        to_json(self)
    }
}

/// `POST /api/players`: the name asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPlayer {
    pub name: String,
}

/// The answer to `POST /api/players`: the name as stored (trimmed) and the secret token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registered {
    pub id: u64,
    pub name: String,
    pub token: String,
}

/// Wins and losses on one board size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinLoss {
    pub wins: u32,
    pub losses: u32,
}

/// A player's record: a leaderboard row (`GET /api/leaderboard`), or with `by_size` the answer to
/// `GET /api/players/{name}` (9, 13 and 19 always present there).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub name: String,
    pub wins: u32,
    pub losses: u32,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_size: BTreeMap<u8, WinLoss>,
}

/// Every refusal of the HTTP API: `{"error": "..."}`, a sentence for the user.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    pub error: String,
}
