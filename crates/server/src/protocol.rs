//! The WebSocket messages of docs/online.md, as Rust types: what a client sends ([`ClientMsg`]) and what
//! the server sends ([`ServerMsg`]). Every message is a JSON object with a `type`.

use serde::{Deserialize, Serialize};

/// A colour preference when seeking a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorPref {
    Black,
    White,
    Any,
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClientMsg {
    Hello {
        token: String,
    },
    Seek {
        size: u32,
        color: ColorPref,
    },
    Cancel,
    Watch {
        game: i64,
    },
    Move {
        game: i64,
        #[serde(rename = "move")]
        mv: String,
    },
    Resign {
        game: i64,
    },
}

/// Captures per colour, or an area count per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerColor {
    pub black: u32,
    pub white: u32,
}

/// A whole game as a client needs it to draw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub game: i64,
    pub size: u8,
    pub komi: f64,
    pub black: String,
    pub white: String,
    pub moves: Vec<String>,
    pub move_number: u32,
    pub to_move: String,
    pub captures: PerColor,
    pub clock_ms: u64,
    pub result: Option<String>,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMsg {
    Welcome {
        name: String,
        wins: i64,
        losses: i64,
    },
    Waiting {
        size: u32,
        color: ColorPref,
    },
    Cancelled,
    Matched {
        game: i64,
        color: String,
        opponent: String,
        size: u8,
    },
    Snapshot(Snapshot),
    Move {
        game: i64,
        move_number: u32,
        color: String,
        #[serde(rename = "move")]
        mv: String,
        captured: Vec<String>,
        clock_ms: u64,
    },
    Ended {
        game: i64,
        result: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        score: Option<PerColor>,
    },
    Error {
        message: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        game: Option<i64>,
    },
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
    pub fn game_error(game: i64, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            message: message.into(),
            game: Some(game),
        }
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        // Serialising these plain structs cannot fail; the fallback is still a valid message.
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"type":"error","message":"internal error: unserialisable message"}"#.to_string()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_the_documented_shape() {
        let m: ClientMsg =
            serde_json::from_str(r#"{"type":"move","game":12,"move":"D4"}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Move {
                game: 12,
                mv: "D4".into()
            }
        );
        let m: ClientMsg =
            serde_json::from_str(r#"{"type":"seek","size":9,"color":"any"}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Seek {
                size: 9,
                color: ColorPref::Any
            }
        );
        assert!(serde_json::from_str::<ClientMsg>(r#"{"type":"nope"}"#).is_err());
        assert_eq!(ServerMsg::Cancelled.to_json(), r#"{"type":"cancelled"}"#);
        assert_eq!(
            ServerMsg::error("x").to_json(),
            r#"{"type":"error","message":"x"}"#
        );
        let snap = ServerMsg::Snapshot(Snapshot {
            game: 1,
            size: 9,
            komi: 0.5,
            black: "A".into(),
            white: "B".into(),
            moves: vec![],
            move_number: 0,
            to_move: "black".into(),
            captures: PerColor { black: 0, white: 0 },
            clock_ms: 1,
            result: None,
        })
        .to_json();
        assert!(
            snap.starts_with(r#"{"type":"snapshot","game":1,"#),
            "{snap}"
        );
        assert!(snap.contains(r#""result":null"#));
    }
}
