//! The online Go messages as the page sends and reads them; docs/online.md is the specification the server
//! implements too. Reading is strict about types and lenient about extra fields, so a newer server can add
//! fields without breaking an older page.

use serde::{Deserialize, Serialize};

/// What the page says to the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    Hello { token: String },
    Seek { size: u8, color: Preference },
    Cancel,
    Watch { game: u64 },
    Move { game: u64, r#move: String },
    Resign { game: u64 },
}

/// A colour preference when seeking a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preference {
    Black,
    White,
    Any,
}

/// Stones captured by each colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Captures {
    pub black: u32,
    pub white: u32,
}

/// An area count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct AreaScore {
    pub black: u32,
    pub white: u32,
}

/// The whole of one game, sent on connecting, on reconnecting and on watching.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Snapshot {
    pub game: u64,
    pub size: u8,
    pub black: String,
    pub white: String,
    pub moves: Vec<String>,
    pub move_number: u32,
    #[serde(default)]
    pub clock_ms: Option<u64>,
    #[serde(default)]
    pub result: Option<String>,
}

/// What the server says.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Welcome {
        name: String,
        #[serde(default)]
        wins: u32,
        #[serde(default)]
        losses: u32,
    },
    Waiting {
        size: u8,
        color: Preference,
    },
    Cancelled,
    Matched {
        game: u64,
        color: String,
        opponent: String,
        size: u8,
    },
    Snapshot(Snapshot),
    Move {
        game: u64,
        move_number: u32,
        color: String,
        r#move: String,
        #[serde(default)]
        clock_ms: Option<u64>,
    },
    Ended {
        game: u64,
        result: String,
        #[serde(default)]
        score: Option<AreaScore>,
    },
    Error {
        message: String,
        #[serde(default)]
        game: Option<u64>,
    },
}

/// The name and secret the server issued, as the browser keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub name: String,
    pub token: String,
}

/// A player's record (`GET /api/players/{name}`, and each leaderboard row).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Record {
    pub name: String,
    pub wins: u32,
    pub losses: u32,
}

impl ClientMsg {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl ServerMsg {
    /// Reads one message; the error says what was wrong, for the page's log.
    pub fn parse(text: &str) -> Result<ServerMsg, String> {
        serde_json::from_str(text).map_err(|e| format!("unreadable message from the server: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_are_written_as_the_protocol_says() {
        let cases = [
            (
                ClientMsg::Hello { token: "ab".into() },
                r#"{"type":"hello","token":"ab"}"#,
            ),
            (
                ClientMsg::Seek {
                    size: 9,
                    color: Preference::Any,
                },
                r#"{"type":"seek","size":9,"color":"any"}"#,
            ),
            (ClientMsg::Cancel, r#"{"type":"cancel"}"#),
            (
                ClientMsg::Watch { game: 12 },
                r#"{"type":"watch","game":12}"#,
            ),
            (
                ClientMsg::Move {
                    game: 12,
                    r#move: "D4".into(),
                },
                r#"{"type":"move","game":12,"move":"D4"}"#,
            ),
            (
                ClientMsg::Resign { game: 3 },
                r#"{"type":"resign","game":3}"#,
            ),
        ];
        for (msg, json) in cases {
            assert_eq!(msg.to_json(), json);
        }
    }

    #[test]
    fn server_messages_from_the_documentation_are_read() {
        let snapshot = r#"{"type":"snapshot","game":12,"size":9,"komi":0.5,"black":"Ada","white":"Bob",
            "moves":["D4","pass"],"move_number":2,"to_move":"black","captures":{"black":0,"white":0},
            "clock_ms":298000,"result":null}"#;
        let ServerMsg::Snapshot(s) = ServerMsg::parse(snapshot).unwrap() else {
            panic!("not a snapshot");
        };
        assert_eq!((s.game, s.size, s.move_number), (12, 9, 2));
        assert_eq!(s.moves, ["D4", "pass"]);
        assert_eq!(s.clock_ms, Some(298_000));
        let mv = r#"{"type":"move","game":12,"move_number":3,"color":"white","move":"E5","captured":["D5"],"clock_ms":300000}"#;
        assert!(matches!(
            ServerMsg::parse(mv).unwrap(),
            ServerMsg::Move { move_number: 3, .. }
        ));
        let ended =
            r#"{"type":"ended","game":12,"result":"B+3.5","score":{"black":41,"white":40}}"#;
        assert!(matches!(
            ServerMsg::parse(ended).unwrap(),
            ServerMsg::Ended { .. }
        ));
        let welcome = r#"{"type":"welcome","name":"Ada","wins":3,"losses":1}"#;
        assert!(matches!(
            ServerMsg::parse(welcome).unwrap(),
            ServerMsg::Welcome { wins: 3, .. }
        ));
        for bad in [
            "",
            "{}",
            r#"{"type":"nonsense"}"#,
            r#"{"type":"move","game":"x"}"#,
            "[1]",
        ] {
            assert!(ServerMsg::parse(bad).is_err(), "{bad}");
        }
    }
}
