//! One request to a web AI and what came back: the content type it was sent with, the HTTP status, the
//! answer's text exactly as received, the time it took, and the referee's verdict on it.
//!
//! The page's inspector, `gridarena halma match --trace` and the records all show the same facts, so they
//! are one type here. An AI author's first question is "what did you send me, and what did you make of
//! my answer?"; everything needed to answer it without guessing is kept, and nothing that can be
//! recomputed exactly (the request body is a pure function of the state before the tick, the team and
//! the time limit, see [`request_body`](super::game_loop::request_body)).

use super::{ErrorKind, Square, Team, TickOutcome};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How a request's body is labelled.
///
/// `text/plain` is the default: a browser sends it as a CORS "simple request" (no preflight before every
/// tick) and seed-era PHP that reads the raw body works unchanged. `application/json` suits frameworks
/// that only parse a body labelled JSON (Flask's `request.get_json()`, Express's `express.json()`); the
/// browser then asks the endpoint's permission first with an OPTIONS preflight, which it must answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ContentType {
    #[default]
    #[serde(rename = "text/plain")]
    TextPlain,
    #[serde(rename = "application/json")]
    Json,
}

impl ContentType {
    pub const ALL: [ContentType; 2] = [ContentType::TextPlain, ContentType::Json];

    /// The `Content-Type` header's value.
    pub fn header(self) -> &'static str {
        match self {
            ContentType::TextPlain => "text/plain",
            ContentType::Json => "application/json",
        }
    }

    /// The short name used in links and on the command line: `text` or `json`.
    pub fn key(self) -> &'static str {
        match self {
            ContentType::TextPlain => "text",
            ContentType::Json => "json",
        }
    }

    /// The content type a short name (`text` or `json`) names, if any.
    pub fn from_key(key: &str) -> Option<ContentType> {
        ContentType::ALL.into_iter().find(|c| c.key() == key.trim())
    }
}

impl fmt::Display for ContentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.header())
    }
}

impl FromStr for ContentType {
    type Err = String;

    /// Takes the short name or the header value, in any case.
    fn from_str(s: &str) -> Result<ContentType, String> {
        let s = s.trim().to_ascii_lowercase();
        ContentType::ALL
            .into_iter()
            .find(|c| s == c.key() || s == c.header())
            .ok_or_else(|| {
                format!(
                    "{s:?} is not a content type: use text (text/plain) or json (application/json)"
                )
            })
    }
}

/// The most characters of an answer a record keeps. The live inspector shows all that was read (at most
/// [`MAX_RESPONSE_BYTES`](super::MAX_RESPONSE_BYTES)); a record keeps the start, which is where a
/// mistake shows, so that a game of hostile megabyte answers still makes a record that loads.
pub const MAX_RECORDED_BODY_CHARS: usize = 4096;

/// What went over the wire for one team in one tick.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Wire {
    /// How the request body was labelled.
    #[serde(default)]
    pub content_type: ContentType,
    /// The `timeLimitMs` the request carried: with the state before the tick it gives the body exactly.
    pub time_limit_ms: u64,
    /// The HTTP status, when a response arrived at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Milliseconds from sending to the whole answer, when one arrived in time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u32>,
    /// The answer's text as received (invalid UTF-8 replaced), when a body was read. Free text from
    /// outside: show it as text, never as HTML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Whether `body` is only the start of what was read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// A program player's stderr during the move (its tail): where a student's bug shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
}

impl Wire {
    /// A request sent with `content_type` and `time_limit_ms`, before anything came back.
    pub fn sent(content_type: ContentType, time_limit_ms: u64) -> Wire {
        Wire {
            content_type,
            time_limit_ms,
            ..Wire::default()
        }
    }

    /// Keeps `bytes` as the answer's text (invalid UTF-8 replaced).
    pub fn with_body(mut self, bytes: &[u8]) -> Wire {
        self.body = Some(String::from_utf8_lossy(bytes).into_owned());
        self
    }

    /// The same exchange with its body cut to `max_chars` characters (marked `truncated`).
    pub fn clipped(&self, max_chars: usize) -> Wire {
        let mut wire = self.clone();
        if let Some(body) = &self.body {
            if let Some((cut, _)) = body.char_indices().nth(max_chars) {
                wire.body = Some(body[..cut].to_string());
                wire.truncated = true;
            }
        }
        wire
    }
}

/// What the referee made of one team's answer in a tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
pub enum Verdict {
    /// The move was made.
    Enacted,
    /// The move was made and its piece collided with the other team's on `at`.
    Collided { at: Square },
    /// The move was legal but not made: in the arena one team's error stops both moves.
    Held,
    /// No move came, or an illegal one: the referee's code and message.
    Refused {
        kind: ErrorKind,
        code: String,
        message: String,
    },
    /// The team was not asked this tick (the other side's turn).
    NotAsked,
}

impl Verdict {
    /// `team`'s verdict in a tick that came out as `outcome`.
    pub fn of(outcome: &TickOutcome, team: Team) -> Verdict {
        if !outcome.movers.contains(&team) {
            return Verdict::NotAsked;
        }
        if let Some(e) = outcome.errors.iter().find(|e| e.team == team) {
            return Verdict::Refused {
                kind: e.kind,
                code: e.code.clone(),
                message: e.message.clone(),
            };
        }
        match outcome.moves.iter().find(|m| m.team == team) {
            Some(m) => match m.to.last().filter(|s| outcome.collisions.contains(s)) {
                Some(&at) => Verdict::Collided { at },
                None => Verdict::Enacted,
            },
            None => Verdict::Held,
        }
    }

    /// Whether the answer was the team's own problem.
    pub fn is_error(&self) -> bool {
        matches!(self, Verdict::Refused { .. })
    }
}

impl fmt::Display for Verdict {
    /// A few words a student reads at a glance: "enacted", "timed out", "illegal: ...".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Enacted => f.write_str("enacted"),
            Verdict::Collided { at } => write!(f, "enacted, collided at {at}"),
            Verdict::Held => f.write_str("legal, not enacted: the other team had an error"),
            Verdict::NotAsked => f.write_str("not asked: the other side's turn"),
            Verdict::Refused {
                kind: ErrorKind::InvalidMove,
                message,
                ..
            } => write!(f, "illegal: {message}"),
            Verdict::Refused { code, message, .. } => {
                let what = match code.as_str() {
                    "timed_out" => "timed out",
                    "invalid_json" | "empty_body" => "not JSON",
                    "too_large" => "too large",
                    "missing" => "no move",
                    // These messages say what happened in their first words already.
                    c if c == "request_failed"
                        || super::ProgramFailure::SELF_DESCRIBED.contains(&c)
                        || super::CodeFailure::CODES.contains(&c) =>
                    {
                        return f.write_str(message)
                    }
                    _ => "wrong shape",
                };
                write!(f, "{what}: {message}")
            }
        }
    }
}

/// One exchange as `gridarena halma match --trace` writes it: a line per request, with everything needed
/// to replay it by hand (`curl --data-binary @request.json`) and what the referee made of the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Exchange {
    /// The tick, counted from 1 as the message field and the records count it.
    pub tick: u32,
    pub team: Team,
    /// Where the request went.
    pub url: String,
    /// The exact body sent.
    pub request: String,
    #[serde(flatten)]
    pub wire: Wire,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// A `curl` command that sends `body` to `url` exactly as the referee did, quoted for a POSIX shell.
pub fn curl_command(url: &str, content_type: ContentType, body: &str) -> String {
    format!(
        "curl -sS -X POST {} -H {} --data-binary {}",
        shell_quote(url),
        shell_quote(&format!("Content-Type: {}", content_type.header())),
        shell_quote(body)
    )
}

/// `text` in single quotes, each `'` written as `'\''`: nothing inside is expanded by the shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::protocol::parse_response;
    use crate::halma::{Answer, Game, NoMove, Preset};

    fn arena() -> Game {
        Game::new(&Preset::Arena.rules(), 7).unwrap()
    }

    #[test]
    fn content_types_read_either_name() {
        for c in ContentType::ALL {
            assert_eq!(c.key().parse(), Ok(c));
            assert_eq!(c.header().to_uppercase().parse(), Ok(c));
        }
        assert!("xml".parse::<ContentType>().unwrap_err().contains("text"));
        assert_eq!(ContentType::default(), ContentType::TextPlain);
    }

    #[test]
    fn verdicts_follow_the_outcome() {
        let mut game = arena();
        let red = parse_response(br#"{"from":{"x":2,"y":14},"to":[{"x":3,"y":13}]}"#);
        let blue = Answer::NoMove(NoMove::TimedOut { after_ms: 1000 });
        let o = game.tick(red.into(), blue).unwrap();
        assert_eq!(Verdict::of(&o, Team::Red), Verdict::Held);
        let blue = Verdict::of(&o, Team::Blue);
        assert!(blue.is_error());
        assert_eq!(
            blue.to_string(),
            "timed out: no answer: timed out after 1000 ms"
        );

        let red = parse_response(br#"{"from":{"x":2,"y":14},"to":[{"x":3,"y":13}]}"#);
        let blue = parse_response(br#"{"from":{"x":15,"y":14},"to":[{"x":14,"y":13}]}"#);
        let o = game.tick(red.into(), blue.into()).unwrap();
        assert_eq!(Verdict::of(&o, Team::Red), Verdict::Enacted);

        let red = parse_response(br#"{"from":{"x":2,"y":15},"to":[{"x":2,"y":11}]}"#);
        let o = game
            .tick(red.into(), Answer::NoMove(NoMove::Missing))
            .unwrap();
        assert!(Verdict::of(&o, Team::Red)
            .to_string()
            .starts_with("illegal: "));
        let json = serde_json::to_string(&Verdict::of(&o, Team::Red)).unwrap();
        assert!(
            json.starts_with(r#"{"verdict":"refused","kind":"invalidMove""#),
            "{json}"
        );
    }

    #[test]
    fn a_collision_names_its_square() {
        // Two pieces stepping onto one square from either side.
        let mut game = arena();
        let mut found = None;
        for _ in 0..200 {
            let (r, b) = (Team::Red, Team::Blue);
            let pos = game.position();
            let pair = pos.moves(r).into_iter().find_map(|mr| {
                pos.moves(b)
                    .into_iter()
                    .find(|mb| mb.to == mr.to)
                    .map(|mb| (mr, mb))
            });
            let Some((mr, mb)) = pair else {
                let mr = pos.moves(r)[0];
                let mb = pos.moves(b)[0];
                let (pr, pb) = (pos.path(r, mr).unwrap(), pos.path(b, mb).unwrap());
                game.tick(Answer::Move(pr), Answer::Move(pb)).unwrap();
                continue;
            };
            let (pr, pb) = (pos.path(r, mr).unwrap(), pos.path(b, mb).unwrap());
            let o = game.tick(Answer::Move(pr), Answer::Move(pb)).unwrap();
            found = Some((o, mr.to));
            break;
        }
        let (o, at) = found.expect("a collision within 200 ticks");
        assert_eq!(Verdict::of(&o, Team::Red), Verdict::Collided { at });
    }

    #[test]
    fn clipping_keeps_whole_characters() {
        let wire = Wire::sent(ContentType::Json, 500).with_body("héllo wörld".as_bytes());
        let clipped = wire.clipped(4);
        assert_eq!(clipped.body.as_deref(), Some("héll"));
        assert!(clipped.truncated);
        assert_eq!(wire.clipped(100), wire);
        let bad = Wire::sent(ContentType::TextPlain, 1).with_body(b"\xff{");
        assert_eq!(bad.body.as_deref(), Some("\u{fffd}{"));
    }

    #[test]
    fn an_exchange_is_one_flat_json_object() {
        let e = Exchange {
            tick: 3,
            team: Team::Blue,
            url: "http://127.0.0.1:8001/".into(),
            request: "{}".into(),
            wire: Wire {
                status: Some(200),
                ms: Some(12),
                ..Wire::sent(ContentType::TextPlain, 1000)
            }
            .with_body(b"<html>"),
            verdict: Verdict::Enacted,
        };
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(
            json,
            r#"{"tick":3,"team":"blue","url":"http://127.0.0.1:8001/","request":"{}","contentType":"text/plain","timeLimitMs":1000,"status":200,"ms":12,"body":"<html>","verdict":"enacted"}"#
        );
        assert_eq!(serde_json::from_str::<Exchange>(&json).unwrap(), e);
    }

    #[test]
    fn curl_quotes_everything() {
        let c = curl_command("http://h/a?b=1&c", ContentType::Json, r#"{"n":"it's"}"#);
        assert_eq!(
            c,
            r#"curl -sS -X POST 'http://h/a?b=1&c' -H 'Content-Type: application/json' --data-binary '{"n":"it'\''s"}'"#
        );
    }
}
