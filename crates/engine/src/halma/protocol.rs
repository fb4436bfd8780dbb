//! The seeds' JSON protocol between the referee and an AI.
//!
//! The request is built by us, so it is plain serde. The response comes from a program we do not
//! control, so it is read by hand from a JSON value: every way it can be wrong gets its own message that
//! an AI author can act on, and nothing in it can make the engine panic.

use super::point::{square_on, PieceJson, Point};
use super::state::{GameState, TeamState, STATE_VERSION};
use super::{
    CampRules, Game, Mode, Path, Piece, Position, Preset, SetupError, Square, Team, Teams,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The largest response body the referee reads.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// The board size as a `u8`, refusing anything the engine does not support.
pub(crate) fn board_size(size: i64) -> Result<u8, SetupError> {
    u8::try_from(size)
        .ok()
        .filter(|s| (super::MIN_BOARD_SIZE..=super::MAX_BOARD_SIZE).contains(s))
        .ok_or(SetupError::BoardSize(size))
}

/// What the referee sends to an AI: the seed's five fields exactly, then our additions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AiRequest {
    pub board_size: i64,
    /// The asked team's pieces.
    pub pieces: Vec<PieceJson>,
    /// The asked team's destination squares.
    pub destinations: Vec<Point>,
    /// The other team's pieces.
    pub enemy: Vec<PieceJson>,
    /// The other team's destination squares.
    #[serde(rename = "enemydestinations")]
    pub enemy_destinations: Vec<Point>,
    /// The asked team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<Team>,
    /// Ticks played so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// The preset the game was created from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Whether a piece in its destination may not end a move outside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camp_rule: Option<bool>,
    /// `course` when the course's camp rules apply on top of the seed's; absent otherwise (the
    /// referee sends it only for `course`, so requests of seed-rule games are unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camp_rules: Option<CampRules>,
    /// How long the referee waits for the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<u64>,
    /// Which game the request belongs to, so that an AI playing several games at once (a bridged
    /// program, a stateful web AI) can tell them apart: the game's seed in hex. With `team` it names one
    /// player of one game; a game started again from the same seed starts again at a lower `turn`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

impl AiRequest {
    /// The position the request describes, and the team being asked (red unless `team` says otherwise).
    /// `camp_rule` applies when the request does not say; the course's camp rules apply when
    /// `campRules` says `course`.
    pub fn to_position(&self, camp_rule: bool) -> Result<(Position, Team), SetupError> {
        let size = board_size(self.board_size)?;
        let me = self.team.unwrap_or(Team::Red);
        let pieces = |team: Team, list: &[PieceJson]| -> Result<Vec<Piece>, SetupError> {
            list.iter().map(|p| p.to_piece(team, size)).collect()
        };
        let squares = |team: Team, list: &[Point]| -> Result<Vec<Square>, SetupError> {
            list.iter()
                .map(|&p| square_on(format!("{team} destination"), p, size))
                .collect()
        };
        let mut all_pieces = Teams::<Vec<Piece>>::default();
        let mut all_dests = Teams::<Vec<Square>>::default();
        all_pieces[me] = pieces(me, &self.pieces)?;
        all_pieces[me.other()] = pieces(me.other(), &self.enemy)?;
        all_dests[me] = squares(me, &self.destinations)?;
        all_dests[me.other()] = squares(me.other(), &self.enemy_destinations)?;
        let pos = Position::new(
            size,
            self.camp_rule.unwrap_or(camp_rule),
            all_pieces,
            all_dests,
        )?
        .with_camp_rules(self.camp_rules.unwrap_or_default())?;
        Ok((pos, me))
    }

    /// The game the request describes, for a player that needs the whole game rather than the position
    /// (a program in the course's file format): at the request's `turn`, the asked team to move, the
    /// camp rule the request (else its preset) says. A request says nothing of how turns go, so the game
    /// is alternating unless its preset is the arena.
    pub fn to_game(&self) -> Result<Game, SetupError> {
        let me = self.team.unwrap_or(Team::Red);
        let turn = self.turn.unwrap_or(0).min(u32::MAX - 1);
        let simultaneous = self.preset == Some(Preset::Arena);
        let mine = TeamState {
            pieces: self.pieces.clone(),
            destinations: self.destinations.clone(),
        };
        let theirs = TeamState {
            pieces: self.enemy.clone(),
            destinations: self.enemy_destinations.clone(),
        };
        let (red, blue) = match me {
            Team::Red => (mine, theirs),
            Team::Blue => (theirs, mine),
        };
        Game::from_state(&GameState {
            version: STATE_VERSION,
            preset: self.preset,
            board_size: self.board_size,
            mode: if simultaneous {
                Mode::Simultaneous
            } else {
                Mode::Alternating
            },
            camp_rule: self
                .camp_rule
                .unwrap_or_else(|| self.preset.is_some_and(|p| p.rules().camp_rule)),
            camp_rules: self.camp_rules.unwrap_or_default(),
            turn_limit: turn + 1,
            turn,
            to_move: (!simultaneous).then_some(me),
            result: None,
            red,
            blue,
        })
    }
}

/// The most characters of an error status's own explanation a message quotes.
const STATUS_ERROR_CHARS: usize = 300;

/// What an answer with an error status says, for the message field: `HTTP 502 Bad Gateway`, and, when
/// the body is a JSON object with an `"error"` string (a bridged program's failure, many frameworks'
/// errors), that explanation too, on one line.
pub fn status_failure(status: u16, reason: &str, body: &[u8]) -> String {
    let head = match reason.trim() {
        "" => format!("HTTP {status}"),
        r => format!("HTTP {status} {}", r.chars().take(60).collect::<String>()),
    };
    let explained = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_string));
    match explained {
        Some(why) if !why.trim().is_empty() => {
            let line: String = why
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(STATUS_ERROR_CHARS)
                .collect();
            format!("{head}: {line}")
        }
        _ => head,
    }
}

/// Why an AI's answer could not be read as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResponseError {
    /// The body exceeds [`MAX_RESPONSE_BYTES`].
    TooLarge { bytes: usize },
    /// The body is empty or only whitespace.
    Empty,
    /// The body is not JSON.
    NotJson(String),
    /// The body is a JSON array: several moves, or a move in the wrong wrapping.
    List,
    /// The body is JSON but not an object.
    NotAnObject { found: &'static str },
    /// A required field is absent.
    Missing { field: String },
    /// A field has the wrong JSON type.
    WrongType {
        field: String,
        expected: &'static str,
        found: &'static str,
    },
    /// A coordinate with a fractional part.
    NotAnInteger { field: String, value: String },
    /// A coordinate too large to be any square.
    OutOfRange { field: String, value: String },
}

impl ResponseError {
    /// A stable identifier for programs (the message is for people).
    pub fn code(&self) -> &'static str {
        match self {
            ResponseError::TooLarge { .. } => "too_large",
            ResponseError::Empty => "empty_body",
            ResponseError::NotJson(_) => "invalid_json",
            ResponseError::List => "list_of_moves",
            ResponseError::NotAnObject { .. } => "not_an_object",
            ResponseError::Missing { .. } => "missing_field",
            ResponseError::WrongType { .. } => "wrong_type",
            ResponseError::NotAnInteger { .. } => "not_an_integer",
            ResponseError::OutOfRange { .. } => "out_of_range",
        }
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResponseError::TooLarge { bytes } => write!(
                f,
                "the answer is {bytes} bytes; at most {MAX_RESPONSE_BYTES} are read"
            ),
            ResponseError::Empty => f.write_str("the answer is empty"),
            ResponseError::NotJson(why) => write!(f, "the answer is not valid JSON: {why}"),
            ResponseError::List => f.write_str(
                "the answer is a JSON array: send exactly one move as an object {\"from\":{..},\"to\":[..]}",
            ),
            ResponseError::NotAnObject { found } => write!(
                f,
                "the answer is {found}: expected an object {{\"from\":{{..}},\"to\":[..]}}"
            ),
            ResponseError::Missing { field } => write!(f, "the answer has no \"{field}\""),
            ResponseError::WrongType { field, expected, found } => {
                write!(f, "\"{field}\" must be {expected}, not {found}")
            }
            ResponseError::NotAnInteger { field, value } => {
                write!(f, "\"{field}\" is {value}: coordinates must be whole numbers")
            }
            ResponseError::OutOfRange { field, value } => {
                write!(f, "\"{field}\" is {value}: far outside any board")
            }
        }
    }
}

impl std::error::Error for ResponseError {}

/// Reads an AI's response body as a move: `{"from":{"x":..,"y":..},"to":[{"x":..,"y":..},..]}`.
///
/// Unknown fields are ignored (old AIs echo `damage` inside `from`); a leading UTF-8 byte-order mark is
/// skipped. Whether the move is legal is [`Position::check`]'s question.
pub fn parse_response(body: &[u8]) -> Result<Path, ResponseError> {
    if body.len() > MAX_RESPONSE_BYTES {
        return Err(ResponseError::TooLarge { bytes: body.len() });
    }
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ResponseError::Empty);
    }
    // From a `str`, like every other JSON the page reads: one reader type keeps the wasm smaller.
    let text = std::str::from_utf8(body)
        .map_err(|e| ResponseError::NotJson(format!("the body is not UTF-8 text: {e}")))?;
    let value: Value =
        serde_json::from_str(text).map_err(|e| ResponseError::NotJson(e.to_string()))?;
    response_from_value(&value)
}

/// Reads a move that arrived inside a larger JSON document (a `check` or `tick` input) with the same
/// verdict a response body would get: its compact JSON over [`MAX_RESPONSE_BYTES`] is refused unread.
pub fn embedded_response(value: &Value) -> Result<Path, ResponseError> {
    let bytes = serde_json::to_vec(value).map_or(0, |b| b.len());
    if bytes > MAX_RESPONSE_BYTES {
        return Err(ResponseError::TooLarge { bytes });
    }
    response_from_value(value)
}

/// Reads a move from an already parsed JSON value (see [`parse_response`]).
pub fn response_from_value(value: &Value) -> Result<Path, ResponseError> {
    let obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => return Err(ResponseError::List),
        other => {
            return Err(ResponseError::NotAnObject {
                found: json_kind(other),
            })
        }
    };
    let from = point(obj.get("from"), "from")?;
    let to = match obj.get("to") {
        None => return Err(missing("to")),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| point(Some(v), &format!("to[{i}]")))
            .collect::<Result<Vec<_>, _>>()?,
        Some(other) => {
            return Err(ResponseError::WrongType {
                field: "to".into(),
                expected: "an array of squares",
                found: json_kind(other),
            })
        }
    };
    Ok(Path { from, to })
}

fn missing(field: &str) -> ResponseError {
    ResponseError::Missing {
        field: field.into(),
    }
}

fn point(value: Option<&Value>, field: &str) -> Result<Point, ResponseError> {
    let obj = match value {
        None => return Err(missing(field)),
        Some(Value::Object(o)) => o,
        Some(other) => {
            return Err(ResponseError::WrongType {
                field: field.into(),
                expected: "a square {\"x\":..,\"y\":..}",
                found: json_kind(other),
            })
        }
    };
    Ok(Point {
        x: coordinate(obj.get("x"), &format!("{field}.x"))?,
        y: coordinate(obj.get("y"), &format!("{field}.y"))?,
    })
}

fn coordinate(value: Option<&Value>, field: &str) -> Result<i64, ResponseError> {
    let n = match value {
        None => return Err(missing(field)),
        Some(Value::Number(n)) => n,
        Some(other) => {
            return Err(ResponseError::WrongType {
                field: field.into(),
                expected: "an integer",
                found: json_kind(other),
            })
        }
    };
    if let Some(v) = n.as_i64() {
        return Ok(v);
    }
    let out_of_range = || ResponseError::OutOfRange {
        field: field.into(),
        value: n.to_string(),
    };
    if n.is_u64() {
        return Err(out_of_range());
    }
    // A float: accept a whole value such as 3.0 (what some languages print), refuse 2.5.
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.fract() != 0.0 || f.is_nan() {
        return Err(ResponseError::NotAnInteger {
            field: field.into(),
            value: n.to_string(),
        });
    }
    if f.abs() >= 9.0e15 {
        return Err(out_of_range());
    }
    Ok(f as i64)
}

/// How a JSON value's type is named in messages: "a string", "an array", ...
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The longest web AI address the page and the runner accept.
pub const MAX_AI_URL_LEN: usize = 2000;

/// Checks a web AI's address as typed, for the page and the runner alike: http or https, a host,
/// nothing that could not be sent. Returns it trimmed.
pub fn check_ai_url(text: &str) -> Result<String, String> {
    let url = text.trim();
    let lower = url.to_ascii_lowercase();
    let rest = ["http://", "https://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme))
        .ok_or_else(|| {
            format!("{url:?} is not a web address: it must start with http:// or https://")
        })?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err(format!("{url:?} names no host"));
    }
    if url.len() > MAX_AI_URL_LEN {
        return Err(format!(
            "the address is {} characters long, over {MAX_AI_URL_LEN}",
            url.len()
        ));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{url:?} contains spaces or control characters"));
    }
    Ok(url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_gives_back_the_game_it_was_made_from() {
        for (preset, team) in [(Preset::Classic, Team::Blue), (Preset::Arena, Team::Red)] {
            let game = Game::new(&preset.rules(), 3).expect("a preset");
            let team = if preset == Preset::Arena {
                team
            } else {
                game.to_move().unwrap_or(team)
            };
            let back = game.request(team).to_game().expect("a game");
            assert_eq!(back.position(), game.position(), "{preset}");
            assert_eq!(back.mode(), game.mode());
            assert_eq!(back.to_move(), game.to_move());
            assert_eq!(back.turn(), game.turn());
        }
        let mut bad = Game::new(&Preset::Classic.rules(), 3)
            .unwrap()
            .request(Team::Red);
        bad.board_size = 99;
        assert!(matches!(bad.to_game(), Err(SetupError::BoardSize(99))));
        bad.board_size = 16;
        bad.turn = Some(u32::MAX);
        assert!(bad.to_game().is_ok(), "the largest turn still makes a game");
    }

    #[test]
    fn an_error_status_quotes_its_json_explanation_on_one_line() {
        assert_eq!(
            status_failure(500, "Internal Server Error", b"<h1>oops</h1>"),
            "HTTP 500 Internal Server Error"
        );
        assert_eq!(status_failure(404, "", b""), "HTTP 404");
        let body = br#"{"error": "the program crashed (exit status 1); the end of its stderr: Traceback\nNameError: x", "code": "crashed"}"#;
        assert_eq!(
            status_failure(502, "Bad Gateway", body),
            "HTTP 502 Bad Gateway: the program crashed (exit status 1); the end of its stderr: Traceback NameError: x"
        );
        let long = format!(r#"{{"error": "{}"}}"#, "x".repeat(5000));
        assert!(status_failure(502, "Bad Gateway", long.as_bytes()).len() < 400);
        assert_eq!(
            status_failure(502, "Bad Gateway", br#"{"error": 3}"#),
            "HTTP 502 Bad Gateway"
        );
    }
}
