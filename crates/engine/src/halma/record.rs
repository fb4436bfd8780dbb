//! Game records (replays): a whole game as JSON Lines, written by [`Recorder`] and read back by
//! [`Record::parse`].
//!
//! The browser downloads and loads these files, and `gridarena halma match --record` writes them, so one
//! format serves both and a record made by either loads in the other. Every line is one JSON object:
//!
//! ```text
//! {"type":"header","format":"gridarena-halma-record","version":1,"engine":"0.1.0","preset":"mini","seed":7,"players":{"red":"builtin:greedy","blue":"human"},"state":{..}}
//! {"type":"tick","outcome":{"turn":1,"movers":["red"],"moves":[..],..},"state":{..}}
//! {"type":"result","result":{"kind":"win","winner":"red"},"turn":57}
//! ```
//!
//! - The header comes first and once. `state` is the game before the first tick; it need not be at turn 0,
//!   since a record may start from any state `gridarena halma tick` accepts. `seed` is kept for people
//!   (it drew the first mover); the state, not the seed, is what the record is replayed from.
//! - One `tick` line per tick: the [`TickOutcome`] to show, and the [`GameState`] after the tick, in exactly
//!   the format `gridarena halma tick` reads and writes. Storing every state, rather than only the moves,
//!   lets a viewer jump anywhere on the turn scrubber without replaying, and lets anyone cut a line out of a
//!   record and continue the game from it with the CLI.
//! - A tick line may carry `wires`: for each web AI asked that tick, what went over the wire ([`Wire`]:
//!   content type, time limit, HTTP status, milliseconds, the answer's text cut to
//!   [`MAX_RECORDED_BODY_CHARS`]). The request itself is not stored: [`Record::request`] rebuilds it
//!   exactly from the state before the tick. Records made before this member existed load as before.
//! - An optional `result` line once the game has ended. A record without it is a game that was stopped
//!   (or is still being written), not a broken file.
//!
//! Blank lines, Windows line ends and a leading UTF-8 byte-order mark are accepted, because records pass
//! through editors and downloads. Unknown members are ignored so that later additions do not break older
//! readers; a change that older readers would misread bumps [`RECORD_VERSION`].
//!
//! **Nothing in a record is trusted.** A file is whatever someone chose to upload, so [`Record::parse`]
//! checks it the way the referee checks an AI: sizes are capped before anything is built, every state must
//! be a playable game, and every tick is played again with the rules and must give the recorded outcome and
//! state. A record that passes shows a game that could really have happened. Its text still comes from
//! outside: the player labels, the error codes and messages of the outcomes and the engine version are free
//! text (a label is often a URL; a message can quote what an AI sent). Whoever displays them must escape
//! them (text nodes, never `inner_html`), and the same goes for a [`RecordError`]'s message, which may quote
//! a piece of the file.

use super::exchange::{Wire, MAX_RECORDED_BODY_CHARS};
use super::game_loop::game_request_body;
use super::protocol::{json_kind, Point, MAX_RESPONSE_BYTES};
use super::{
    Answer, EnactedMove, ErrorKind, Game, GameResult, GameState, NoMove, Path, Preset, SetupError,
    Team, Teams, TickOutcome, TickRefused,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// The `format` of every record, so that a reader can tell a record from any other JSON Lines file.
pub const RECORD_FORMAT: &str = "gridarena-halma-record";

/// The record version this build writes and reads; bumped when older readers would misread a record.
pub const RECORD_VERSION: u32 = 1;

/// The engine version written into headers: when two builds disagree about a record, this says which
/// build made it.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The largest record [`Record::parse`] reads. A 1,000-turn arena game is about 1.4 MB, so this leaves
/// room for long games while keeping a hostile upload from exhausting a browser tab.
pub const MAX_RECORD_BYTES: usize = 64 * 1024 * 1024;

/// The most lines [`Record::parse`] reads (blank ones included): about 100 times the default turn
/// limit, and a bound on the work a record can ask for whatever its lines hold.
pub const MAX_RECORD_LINES: usize = 100_000;

/// The longest player label or engine version, in characters. A URL fits; a label is shown in the page
/// next to the board, so a megabyte of it would only break the layout.
pub const MAX_LABEL_CHARS: usize = 256;

/// How much of a piece of the file an error message quotes: enough to recognise it, never a flood.
const QUOTE_CHARS: usize = 80;

/// What the header says about the game, besides the format and version every header carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The engine version that wrote the record. Free text when read back.
    pub engine: String,
    /// The preset the game was created from; `null` for a custom setup. Always the same as `state.preset`.
    #[serde(default)]
    pub preset: Option<Preset>,
    /// The game's seed (it drew the first mover of an alternating game).
    pub seed: u64,
    /// Who played each team: "builtin:greedy", "human", a URL, ... Free text: escape it when shown.
    pub players: Teams<String>,
    /// The game before the first recorded tick.
    pub state: GameState,
}

/// Builds a record tick by tick, as the game is played.
///
/// Each line is available as soon as it is made, so the CLI can stream a long match to a file and the
/// browser can offer the download at any moment; a record cut short is still a valid record. The recorder
/// trusts its caller to push each outcome with the game it came from; [`Record::parse`] is where records
/// are checked. A game of more than [`MAX_RECORD_LINES`] ticks writes a record too long to load back.
#[derive(Clone, Debug)]
pub struct Recorder {
    lines: Vec<String>,
    ticks: usize,
    turn: u32,
    result: Option<GameResult>,
    closed: bool,
    /// Where the last tick line holds the game's state: the next tick's players are sent that same
    /// state, and a page spares writing it twice (see [`Recorder::state_json`]).
    state_in_last: Option<std::ops::Range<usize>>,
}

impl Recorder {
    /// Starts a record with its header; `game` is the game before its first tick. Labels longer than
    /// [`MAX_LABEL_CHARS`] are shortened, so that every record written here also loads.
    pub fn new(players: Teams<String>, seed: u64, game: &Game) -> Recorder {
        let header = Header {
            engine: ENGINE_VERSION.into(),
            preset: game.preset(),
            seed,
            players: players.map(|_, label| clip_chars(label, MAX_LABEL_CHARS).to_owned()),
            state: game.state(),
        };
        let line = HeaderOut {
            kind: "header",
            format: RECORD_FORMAT,
            version: RECORD_VERSION,
            header: &header,
        };
        Recorder {
            lines: vec![to_json(&line)],
            ticks: 0,
            turn: game.turn(),
            result: game.result(),
            closed: false,
            state_in_last: None,
        }
    }

    /// Appends the line of a tick: its outcome and `game` as it stands after the tick. Returns the line,
    /// or `None` once [`Recorder::finish`] has closed the record (a tick after the result line would make
    /// the record unreadable, so it is dropped instead).
    pub fn push(&mut self, outcome: &TickOutcome, game: &Game) -> Option<&str> {
        self.push_with_wires(outcome, game, None)
    }

    /// [`Recorder::push`], keeping what went over the wire for each web AI this tick (each body cut to
    /// [`MAX_RECORDED_BODY_CHARS`]), so a replay's inspector shows the exchanges as they happened.
    pub fn push_with_wires(
        &mut self,
        outcome: &TickOutcome,
        game: &Game,
        wires: Option<&Teams<Option<Wire>>>,
    ) -> Option<&str> {
        if self.closed {
            return None;
        }
        let wires = wires
            .filter(|w| w.red.is_some() || w.blue.is_some())
            .map(|w| w.map(|_, wire| wire.as_ref().map(|w| w.clipped(MAX_RECORDED_BODY_CHARS))));
        // What `TickOut` would write, with the state's place in it kept.
        let mut line = format!(r#"{{"type":"tick","outcome":{},"state":"#, to_json(outcome));
        let start = line.len();
        line.push_str(&to_json(&game.state()));
        self.state_in_last = Some(start..line.len());
        if let Some(wires) = &wires {
            line.push_str(r#","wires":"#);
            line.push_str(&to_json(wires));
        }
        line.push('}');
        self.lines.push(line);
        self.ticks += 1;
        self.turn = game.turn();
        self.result = game.result();
        self.lines.last().map(String::as_str)
    }

    /// The game's state as the last tick line wrote it (the JSON of [`Game::state`]), if the record's
    /// last tick left the game at `turn`: what the next tick sends its players, already written.
    pub fn state_json(&self, turn: u32) -> Option<&str> {
        let range = self.state_in_last.clone()?;
        (self.turn == turn)
            .then(|| self.lines.last()?.get(range))
            .flatten()
    }

    /// Closes the record: appends the result line if the last pushed game has ended, and returns it.
    /// Calling it again writes nothing more.
    pub fn finish(&mut self) -> Option<&str> {
        if self.closed {
            return None;
        }
        self.closed = true;
        self.state_in_last = None;
        let result = self.result?;
        let line = ResultOut {
            kind: "result",
            result,
            turn: self.turn,
        };
        self.lines.push(to_json(&line));
        self.lines.last().map(String::as_str)
    }

    /// Every line so far, the header first, without line ends.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The record so far as one text, each line ended by `\n`: what is saved to a `.jsonl` file.
    pub fn text(&self) -> String {
        let mut text = String::with_capacity(self.lines.iter().map(|l| l.len() + 1).sum());
        for line in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    /// How many tick lines have been written.
    pub fn ticks(&self) -> usize {
        self.ticks
    }
}

/// A record read back and checked: the header, every state, every outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    header: Header,
    /// `states[0]` is the header's state, `states[k]` the state after tick k.
    states: Vec<GameState>,
    /// `outcomes[k - 1]` is tick k's outcome.
    outcomes: Vec<TickOutcome>,
    /// `wires[k - 1]` is what went over the wire in tick k, where the record kept it.
    wires: Vec<Option<Teams<Option<Wire>>>>,
}

impl Record {
    /// Reads and checks a record (see the module documentation for what is checked).
    ///
    /// ```
    /// use gridarena_engine::halma::record::{Record, RecordError, Recorder};
    /// use gridarena_engine::halma::{Answer, Game, Preset, Teams};
    ///
    /// // A record of one move, as a match writes it; reading it plays the move again.
    /// let mut game = Game::new(&Preset::Mini.rules(), 7).unwrap();
    /// let players = Teams { red: "human".to_string(), blue: "builtin:greedy".to_string() };
    /// let mut recorder = Recorder::new(players, 7, &game);
    /// let mover = game.to_move().unwrap();
    /// let first = game.position().moves(mover)[0];
    /// let path = game.position().path(mover, first).unwrap();
    /// let outcome = game.play(mover, Answer::Move(path)).unwrap();
    /// recorder.push(&outcome, &game);
    /// let record = Record::parse(&recorder.text()).unwrap();
    /// assert_eq!((record.ticks(), record.header().seed), (1, 7));
    /// assert_eq!(record.game(1), Some(game));
    ///
    /// // A record must start with its header; the error names the line.
    /// let err = Record::parse("{\"type\":\"result\"}").unwrap_err();
    /// assert!(matches!(err, RecordError::MissingHeader { line: 1, found: "result" }));
    /// assert_eq!(err.to_string(), "line 1: the record starts with a result line: the header must come first");
    /// ```
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge { bytes: text.len() });
        }
        parse_text(text.strip_prefix('\u{feff}').unwrap_or(text))
    }

    /// Reads a record from raw bytes, such as a file's contents, which may not be text at all.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge { bytes: bytes.len() });
        }
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(text) => parse_text(text),
            Err(e) => {
                let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
                let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
                Err(RecordError::NotUtf8 { line })
            }
        }
    }

    /// The header: players, seed, preset, engine version and the starting state.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// How many ticks the record holds.
    pub fn ticks(&self) -> usize {
        self.outcomes.len()
    }

    /// The state after tick `k`; `k = 0` is the starting state. `None` past the last tick.
    pub fn state(&self, k: usize) -> Option<&GameState> {
        self.states.get(k)
    }

    /// The game after tick `k`, ready to render or to play on from.
    pub fn game(&self, k: usize) -> Option<Game> {
        // Every stored state passed `Game::from_state` while parsing, so this only fails past the end.
        Game::from_state(self.states.get(k)?).ok()
    }

    /// The outcome of tick `k`, for `k` from 1 to [`Record::ticks`]: what led to [`Record::state`]`(k)`.
    pub fn outcome(&self, k: usize) -> Option<&TickOutcome> {
        self.outcomes.get(k.checked_sub(1)?)
    }

    /// What went over the wire for `team` in tick `k` (from 1), if the record kept it: a web AI's
    /// exchange in a record made by this build or a later one.
    pub fn wire(&self, k: usize, team: Team) -> Option<&Wire> {
        self.wires.get(k.checked_sub(1)?)?.as_ref()?[team].as_ref()
    }

    /// The exact request body `team` was sent in tick `k`, rebuilt from the state before the tick, the
    /// time limit the record kept and the game's seed (its `gameId`): the body is a pure function of them.
    pub fn request(&self, k: usize, team: Team) -> Option<String> {
        let wire = self.wire(k, team)?;
        let before = self.game(k.checked_sub(1)?)?;
        Some(game_request_body(
            &before,
            team,
            wire.time_limit_ms,
            self.header.seed,
        ))
    }

    /// How the game ended, if it did within the record.
    pub fn result(&self) -> Option<GameResult> {
        self.states.last().and_then(|s| s.result)
    }
}

/// Why a text is not a record this build can show. Every variant but [`RecordError::TooLarge`] and
/// [`RecordError::Empty`] names the first line (1-based) where the record goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The input exceeds [`MAX_RECORD_BYTES`]; nothing was read.
    TooLarge { bytes: usize },
    /// No line holds anything.
    Empty,
    /// The record goes on past [`MAX_RECORD_LINES`].
    TooManyLines { line: usize },
    /// The bytes are not UTF-8 text ([`Record::parse_bytes`] only).
    NotUtf8 { line: usize },
    /// The line is not JSON.
    NotJson { line: usize, detail: String },
    /// The line is JSON but not the shape its type requires; `what` is "header", "tick", "result", or
    /// "record" for a line that is not an object at all.
    Malformed {
        line: usize,
        what: &'static str,
        detail: String,
    },
    /// The line's `"type"` is missing or not one of "header", "tick", "result".
    UnknownType { line: usize, found: String },
    /// The first line that holds anything is not the header; `found` is its type.
    MissingHeader { line: usize, found: &'static str },
    /// A second header: a record holds one game.
    HeaderNotFirst { line: usize, first: usize },
    /// The header's `format` is not [`RECORD_FORMAT`].
    UnsupportedFormat { line: usize, found: String },
    /// The header's `version` is not [`RECORD_VERSION`].
    UnsupportedVersion { line: usize, found: String },
    /// A player label or the engine version is longer than [`MAX_LABEL_CHARS`].
    TextTooLong {
        line: usize,
        field: &'static str,
        chars: usize,
    },
    /// A state that is not a playable game.
    InvalidState { line: usize, error: SetupError },
    /// A tick's turn is not the previous state's turn plus one; `field` says which turn.
    TurnOutOfSequence {
        line: usize,
        field: &'static str,
        expected: u32,
        found: u32,
    },
    /// A line after the result line.
    AfterResult { line: usize, result_line: usize },
    /// The tick is not what the rules make of the previous state and the recorded moves.
    Illegal { line: usize, detail: String },
    /// The result line does not say what the last state says.
    ResultMismatch { line: usize, detail: String },
}

impl RecordError {
    /// The line where the record goes wrong, if the error belongs to one line.
    pub fn line(&self) -> Option<usize> {
        use RecordError::*;
        match self {
            TooLarge { .. } | Empty => None,
            TooManyLines { line }
            | NotUtf8 { line }
            | NotJson { line, .. }
            | Malformed { line, .. }
            | UnknownType { line, .. }
            | MissingHeader { line, .. }
            | HeaderNotFirst { line, .. }
            | UnsupportedFormat { line, .. }
            | UnsupportedVersion { line, .. }
            | TextTooLong { line, .. }
            | InvalidState { line, .. }
            | TurnOutOfSequence { line, .. }
            | AfterResult { line, .. }
            | Illegal { line, .. }
            | ResultMismatch { line, .. } => Some(*line),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError::*;
        if let Some(line) = self.line() {
            write!(f, "line {line}: ")?;
        }
        match self {
            TooLarge { bytes } => write!(
                f,
                "the record is {bytes} bytes; at most {MAX_RECORD_BYTES} are read"
            ),
            Empty => f.write_str("the record is empty: it has no header line"),
            TooManyLines { .. } => write!(
                f,
                "the record goes on past {MAX_RECORD_LINES} lines, the most that are read"
            ),
            NotUtf8 { .. } => f.write_str("not UTF-8 text: a record is a JSON Lines text file"),
            NotJson { detail, .. } => write!(f, "not valid JSON ({detail})"),
            Malformed { what, detail, .. } => write!(f, "malformed {what} line: {detail}"),
            UnknownType { found, .. } => write!(
                f,
                "\"type\" is {found}: expected \"header\", \"tick\" or \"result\""
            ),
            MissingHeader { found, .. } => write!(
                f,
                "the record starts with a {found} line: the header must come first"
            ),
            HeaderNotFirst { first, .. } => write!(
                f,
                "a second header (the first is on line {first}): a record holds one game"
            ),
            UnsupportedFormat { found, .. } => write!(
                f,
                "\"format\" is {found}: this is not a GridArena Halma record (\"{RECORD_FORMAT}\")"
            ),
            UnsupportedVersion { found, .. } => write!(
                f,
                "record version {found} is not supported: this build reads version {RECORD_VERSION}"
            ),
            TextTooLong { field, chars, .. } => write!(
                f,
                "\"{field}\" is {chars} characters long; at most {MAX_LABEL_CHARS} are allowed"
            ),
            InvalidState { error, .. } => write!(f, "the state is not a playable game: {error}"),
            TurnOutOfSequence {
                field,
                expected,
                found,
                ..
            } => write!(
                f,
                "\"{field}\" is {found}: the tick after turn {} must be turn {expected}",
                expected.saturating_sub(1)
            ),
            AfterResult { result_line, .. } => {
                write!(f, "nothing may follow the result line (line {result_line})")
            }
            Illegal { detail, .. } => write!(f, "the tick disagrees with the rules: {detail}"),
            ResultMismatch { detail, .. } => {
                write!(f, "the result line contradicts the last state: {detail}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

// ---------------------------------------------------------------------------------------------------
// Writing

#[derive(Serialize)]
struct HeaderOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    header: &'a Header,
}

/// A tick line, as [`Recorder::push_with_wires`] writes it by hand.
#[cfg(test)]
#[derive(Serialize)]
struct TickOut<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    outcome: &'a TickOutcome,
    state: &'a GameState,
    #[serde(skip_serializing_if = "Option::is_none")]
    wires: Option<&'a Teams<Option<Wire>>>,
}

#[derive(Serialize)]
struct ResultOut {
    #[serde(rename = "type")]
    kind: &'static str,
    result: GameResult,
    turn: u32,
}

/// One line of compact JSON. These types have only string keys and no fallible `Serialize`, so
/// serde_json cannot fail on them; the fallback exists only so that the engine has no panic path.
fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------------
// Reading

#[derive(Deserialize)]
struct TickIn {
    outcome: TickOutcome,
    state: GameState,
    /// Absent in records made before the inspector, and for ticks without a web AI.
    #[serde(default)]
    wires: Option<Teams<Option<Wire>>>,
}

#[derive(Deserialize)]
struct ResultIn {
    result: GameResult,
    turn: u32,
}

#[derive(Clone, Copy)]
enum LineType {
    Header,
    Tick,
    Result,
}

impl LineType {
    fn name(self) -> &'static str {
        match self {
            LineType::Header => "header",
            LineType::Tick => "tick",
            LineType::Result => "result",
        }
    }
}

/// The record read so far.
struct Reader {
    /// The header and its line number.
    header: Option<(Header, usize)>,
    /// The game at the last state read, the next tick is replayed on it; `Some` once the header is read.
    game: Option<Game>,
    states: Vec<GameState>,
    outcomes: Vec<TickOutcome>,
    wires: Vec<Option<Teams<Option<Wire>>>>,
    result_line: Option<usize>,
}

fn parse_text(text: &str) -> Result<Record, RecordError> {
    let mut reader = Reader {
        header: None,
        game: None,
        states: Vec::new(),
        outcomes: Vec::new(),
        wires: Vec::new(),
        result_line: None,
    };
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if line > MAX_RECORD_LINES {
            return Err(RecordError::TooManyLines { line });
        }
        if raw.trim().is_empty() {
            continue;
        }
        reader.read_line(line, raw)?;
    }
    match reader.header {
        None => Err(RecordError::Empty),
        Some((header, _)) => Ok(Record {
            header,
            states: reader.states,
            outcomes: reader.outcomes,
            wires: reader.wires,
        }),
    }
}

impl Reader {
    fn read_line(&mut self, line: usize, raw: &str) -> Result<(), RecordError> {
        if let Some(result_line) = self.result_line {
            return Err(RecordError::AfterResult { line, result_line });
        }
        let value: Value = serde_json::from_str(raw).map_err(|e| RecordError::NotJson {
            line,
            detail: clip_chars(&e.to_string(), QUOTE_CHARS * 2).to_owned(),
        })?;
        let Value::Object(map) = value else {
            return Err(RecordError::Malformed {
                line,
                what: "record",
                detail: format!("it is {}: every line is a JSON object", json_kind(&value)),
            });
        };
        let kind = match map.get("type") {
            Some(Value::String(s)) if s == "header" => LineType::Header,
            Some(Value::String(s)) if s == "tick" => LineType::Tick,
            Some(Value::String(s)) if s == "result" => LineType::Result,
            found => {
                return Err(RecordError::UnknownType {
                    line,
                    found: describe(found),
                })
            }
        };
        let game = match (kind, &self.header, &self.game) {
            (LineType::Header, None, _) => return self.read_header(line, map),
            (LineType::Header, Some((_, first)), _) => {
                return Err(RecordError::HeaderNotFirst {
                    line,
                    first: *first,
                })
            }
            (_, _, Some(game)) => game,
            (_, _, None) => {
                return Err(RecordError::MissingHeader {
                    line,
                    found: kind.name(),
                })
            }
        };
        if let LineType::Tick = kind {
            let tick: TickIn = from_map(map, line, "tick")?;
            let next = read_tick(line, game, &tick)?;
            check_wires(line, &tick)?;
            self.game = Some(next);
            self.states.push(tick.state);
            self.outcomes.push(tick.outcome);
            self.wires.push(tick.wires);
        } else {
            let result: ResultIn = from_map(map, line, "result")?;
            check_result(line, game, &result)?;
            self.result_line = Some(line);
        }
        Ok(())
    }

    fn read_header(&mut self, line: usize, map: Map<String, Value>) -> Result<(), RecordError> {
        match map.get("format") {
            Some(Value::String(s)) if s == RECORD_FORMAT => {}
            found => {
                return Err(RecordError::UnsupportedFormat {
                    line,
                    found: describe(found),
                })
            }
        }
        match map.get("version") {
            Some(Value::Number(n)) if n.as_u64() == Some(RECORD_VERSION.into()) => {}
            found => {
                return Err(RecordError::UnsupportedVersion {
                    line,
                    found: describe(found),
                })
            }
        }
        let header: Header = from_map(map, line, "header")?;
        for (field, text) in [
            ("players.red", &header.players.red),
            ("players.blue", &header.players.blue),
            ("engine", &header.engine),
        ] {
            let chars = text.chars().count();
            if chars > MAX_LABEL_CHARS {
                return Err(RecordError::TextTooLong { line, field, chars });
            }
        }
        let game = Game::from_state(&header.state)
            .map_err(|error| RecordError::InvalidState { line, error })?;
        if header.preset != header.state.preset {
            return Err(RecordError::Malformed {
                line,
                what: "header",
                detail: format!(
                    "\"preset\" is {} but the state's preset is {}",
                    preset_name(header.preset),
                    preset_name(header.state.preset)
                ),
            });
        }
        self.states.push(header.state.clone());
        self.game = Some(game);
        self.header = Some((header, line));
        Ok(())
    }
}

fn from_map<T: serde::de::DeserializeOwned>(
    map: Map<String, Value>,
    line: usize,
    what: &'static str,
) -> Result<T, RecordError> {
    serde_json::from_value(Value::Object(map)).map_err(|e| RecordError::Malformed {
        line,
        what,
        detail: clip_chars(&e.to_string(), QUOTE_CHARS * 2).to_owned(),
    })
}

/// Checks a tick's exchanges: a body no longer than the referee ever reads, and a time limit that a
/// request could carry. Their text is shown as text, so nothing else in them can do harm.
fn check_wires(line: usize, tick: &TickIn) -> Result<(), RecordError> {
    let Some(wires) = &tick.wires else {
        return Ok(());
    };
    for team in Team::ALL {
        let Some(wire) = &wires[team] else { continue };
        let bytes = wire.body.as_ref().map_or(0, String::len);
        if bytes > MAX_RESPONSE_BYTES {
            return Err(RecordError::Malformed {
                line,
                what: "tick",
                detail: format!(
                    "{team}'s answer is {bytes} bytes: the referee never reads more than {MAX_RESPONSE_BYTES}"
                ),
            });
        }
        if !tick.outcome.movers.contains(&team) {
            return Err(RecordError::Malformed {
                line,
                what: "tick",
                detail: format!("an exchange for {team}, who was not asked this tick"),
            });
        }
    }
    Ok(())
}

/// Checks a tick line against the game before it, by playing the recorded moves again; returns the game
/// after it.
fn read_tick(line: usize, before: &Game, tick: &TickIn) -> Result<Game, RecordError> {
    let illegal = |detail: String| RecordError::Illegal { line, detail };
    let after =
        Game::from_state(&tick.state).map_err(|error| RecordError::InvalidState { line, error })?;
    if let Some(result) = before.result() {
        return Err(illegal(format!(
            "the game had already ended at turn {} ({result}); no tick may follow",
            before.turn()
        )));
    }
    // A game at u32::MAX has reached any turn limit, so it has a result and was refused above.
    let expected = before.turn().saturating_add(1);
    for (field, found) in [
        ("outcome.turn", tick.outcome.turn),
        ("state.turn", tick.state.turn),
    ] {
        if found != expected {
            return Err(RecordError::TurnOutOfSequence {
                line,
                field,
                expected,
                found,
            });
        }
    }

    // The outcome lists only the moves that were enacted, so those are the answers to play again: a tick
    // that enacted nothing is replayed with no answers at all, which changes the same things (the turn,
    // and who moves next) and nothing else.
    let mut answers = Teams::from_fn(|_| Answer::NoMove(NoMove::Missing));
    for m in &tick.outcome.moves {
        if matches!(answers[m.team], Answer::Move(_)) {
            return Err(illegal(format!(
                "the outcome enacts two moves for {}",
                m.team
            )));
        }
        answers[m.team] = Answer::Move(Path::new(m.from, m.to.clone()));
    }
    let mut replay = before.clone();
    let expected_outcome = replay
        .tick(answers.red, answers.blue)
        .map_err(|e: TickRefused| illegal(e.to_string()))?;
    check_outcome(before, &tick.outcome, &expected_outcome).map_err(illegal)?;

    let (want, got) = (canonical(&replay.state()), canonical(&after.state()));
    if want != got {
        return Err(illegal(format!(
            "the state is not what the tick makes of the previous one: {}",
            state_difference(&want, &got)
        )));
    }
    Ok(after)
}

/// Compares a recorded outcome with the one the rules give. The errors cannot be compared directly: the
/// replay only knows that a team had no enacted move, not whether it timed out or sent an illegal move,
/// so they are checked for what the rules do say about them.
fn check_outcome(
    before: &Game,
    recorded: &TickOutcome,
    replayed: &TickOutcome,
) -> Result<(), String> {
    if sorted(recorded.movers.clone()) != sorted(replayed.movers.clone()) {
        return Err(format!(
            "the outcome says {} moved but the rules ask {}",
            teams_list(&recorded.movers),
            teams_list(&replayed.movers)
        ));
    }
    let by_team = |moves: &[EnactedMove]| {
        let mut moves = moves.to_vec();
        crate::sort::sort_by_key(&mut moves, |m| m.team);
        moves
    };
    if by_team(&recorded.moves) != by_team(&replayed.moves) {
        if replayed.moves.is_empty() {
            let why: Vec<String> = replayed.errors.iter().map(|e| e.to_string()).collect();
            return Err(format!(
                "the enacted moves cannot be played: {}",
                clip_chars(&why.join("; "), QUOTE_CHARS * 4)
            ));
        }
        return Err("the enacted moves are not the ones the rules carry out".into());
    }
    if sorted(recorded.collisions.clone()) != sorted(replayed.collisions.clone()) {
        return Err(format!(
            "the outcome lists collisions at {}; the rules give {}",
            squares_list(&recorded.collisions),
            squares_list(&replayed.collisions)
        ));
    }
    let damaged = |o: &TickOutcome| {
        let mut d: Vec<_> = o
            .damaged
            .iter()
            .map(|p| (p.team, p.y, p.x, p.damage))
            .collect();
        crate::sort::sort(&mut d);
        d
    };
    if damaged(recorded) != damaged(replayed) {
        return Err("the outcome's damaged pieces are not the ones the rules give".into());
    }
    if recorded.result != replayed.result {
        return Err(format!(
            "the outcome's result is {}; the rules give {}",
            result_text(recorded.result),
            result_text(replayed.result)
        ));
    }

    match (recorded.moves.is_empty(), recorded.errors.first()) {
        (false, Some(e)) => {
            return Err(format!(
                "moves were enacted although {} has an error",
                e.team
            ))
        }
        (true, None) => {
            return Err("nothing was enacted, yet no team has an error to explain why".into())
        }
        _ => {}
    }
    let mut seen = Vec::new();
    for e in &recorded.errors {
        if !recorded.movers.contains(&e.team) {
            return Err(format!(
                "{} has an error but was not asked for a move",
                e.team
            ));
        }
        if seen.contains(&e.team) {
            return Err(format!("{} has two errors", e.team));
        }
        seen.push(e.team);
        match (e.kind, &e.submitted) {
            (ErrorKind::InvalidMove, Some(path)) => {
                if before.position().check(e.team, path).is_ok() {
                    return Err(format!(
                        "{}'s move {} is called invalid, but it is legal",
                        e.team,
                        clip_chars(&path.to_string(), QUOTE_CHARS)
                    ));
                }
            }
            (ErrorKind::InvalidMove, None) => {
                return Err(format!(
                    "{}'s move is called invalid, but the outcome does not say which move",
                    e.team
                ))
            }
            (ErrorKind::NoMove, Some(_)) => {
                return Err(format!(
                    "{} is said to have no move, yet a move is listed",
                    e.team
                ))
            }
            (ErrorKind::NoMove, None) => {}
        }
    }
    Ok(())
}

fn check_result(line: usize, game: &Game, result: &ResultIn) -> Result<(), RecordError> {
    let mismatch = |detail: String| RecordError::ResultMismatch { line, detail };
    if game.result() != Some(result.result) {
        return Err(mismatch(format!(
            "it says {}, but the last state's result is {}",
            result_text(Some(result.result)),
            result_text(game.result())
        )));
    }
    if game.turn() != result.turn {
        return Err(mismatch(format!(
            "it is at turn {}, but the last state is at turn {}",
            result.turn,
            game.turn()
        )));
    }
    Ok(())
}

/// A state with its lists in one order: the order of pieces and destinations carries no meaning, and a
/// record edited by hand or written by another program may list them differently.
fn canonical(state: &GameState) -> GameState {
    let mut state = state.clone();
    for team in [&mut state.red, &mut state.blue] {
        crate::sort::sort_by_key(&mut team.pieces, |p| (p.y, p.x, p.damage));
        crate::sort::sort_by_key(&mut team.destinations, |p| (p.y, p.x));
    }
    state
}

/// The first difference between the state the rules give (`want`) and the recorded one (`got`), in
/// words, so that whoever edited or generated the record can find it.
fn state_difference(want: &GameState, got: &GameState) -> String {
    if want.turn != got.turn {
        return format!("the turn is {}; the rules give {}", got.turn, want.turn);
    }
    if want.to_move != got.to_move {
        let name = |t: Option<Team>| t.map_or("null", Team::name);
        return format!(
            "\"toMove\" is {}; the rules give {}",
            name(got.to_move),
            name(want.to_move)
        );
    }
    if want.result != got.result {
        return format!(
            "the result is {}; the rules give {}",
            result_text(got.result),
            result_text(want.result)
        );
    }
    for team in Team::ALL {
        let (w, g) = match team {
            Team::Red => (&want.red, &got.red),
            Team::Blue => (&want.blue, &got.blue),
        };
        if w.pieces != g.pieces {
            let only = |a: &[super::PieceJson], b: &[super::PieceJson]| {
                let list: Vec<String> = a
                    .iter()
                    .filter(|p| !b.contains(p))
                    .take(4)
                    .map(|p| match p.damage {
                        0 => format!("({},{})", p.x, p.y),
                        d => format!("({},{}) damage {d}", p.x, p.y),
                    })
                    .collect();
                if list.is_empty() {
                    "nothing".to_owned()
                } else {
                    list.join(", ")
                }
            };
            return format!(
                "{team}'s pieces: the record has {} where the rules give {}",
                only(&g.pieces, &w.pieces),
                only(&w.pieces, &g.pieces)
            );
        }
        if w.destinations != g.destinations {
            return format!("{team}'s destinations changed");
        }
    }
    "the game's settings changed (board size, mode, camp rule, turn limit or preset)".into()
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    crate::sort::sort(&mut v);
    v
}

fn teams_list(teams: &[Team]) -> String {
    match teams {
        [] => "no team".into(),
        _ => teams
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(" and "),
    }
}

fn squares_list(squares: &[super::Square]) -> String {
    match squares {
        [] => "no square".into(),
        _ => squares
            .iter()
            .map(|&s| Point::from(s).to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn result_text(result: Option<GameResult>) -> String {
    match result {
        None => "none (the game goes on)".into(),
        Some(r) => format!("\"{r}\""),
    }
}

fn preset_name(preset: Option<Preset>) -> &'static str {
    preset.map_or("null", Preset::name)
}

/// A member's value as an error message shows it: a string quoted (and shortened), anything else by kind.
fn describe(value: Option<&Value>) -> String {
    match value {
        None => "missing".into(),
        Some(Value::String(s)) => to_json(&clip_chars(s, QUOTE_CHARS)),
        Some(Value::Number(n)) => clip_chars(&n.to_string(), QUOTE_CHARS).to_owned(),
        Some(other) => json_kind(other).into(),
    }
}

/// The first `max` characters of `s`, cut on a character boundary.
fn clip_chars(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((end, _)) => s.get(..end).unwrap_or(s),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::ai::BuiltIn;
    use crate::halma::GameLoop;

    /// Plays `ticks` ticks of greedy against greedy on `game`, pushing each to `recorder` if given.
    fn greedy(game: &mut GameLoop, ticks: u32, mut recorder: Option<&mut Recorder>) {
        for _ in 0..ticks {
            if game.game().result().is_some() {
                break;
            }
            for ask in game.begin(|_| true).unwrap() {
                let answer = BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed);
                assert!(game.deliver(ask.turn, ask.team, answer));
            }
            let outcome = game.finish(0).unwrap();
            if let Some(r) = recorder.as_mut() {
                r.push(&outcome, game.game());
            }
        }
    }

    /// A tick line is written by hand, to keep the state's place in it: byte for byte what the derived
    /// serializer writes, with and without wires, and the state it names is the game's.
    #[test]
    fn a_tick_line_is_what_serde_writes_and_keeps_the_state_it_wrote() {
        let mut game = GameLoop::new(Game::new(&Preset::Arena.rules(), 3).unwrap(), 3);
        let players = Teams {
            red: "builtin:greedy".to_string(),
            blue: "https://example.org/\"ai\"".to_string(),
        };
        let mut recorder = Recorder::new(players, 3, game.game());
        assert_eq!(recorder.state_json(0), None, "no tick line yet");
        let wire = Wire {
            body: Some("{\"path\":[[1,2]],\"note\":\"\u{e9}\\n\"}".to_string()),
            status: Some(200),
            ms: Some(12),
            ..Wire::default()
        };
        for k in 0..6 {
            for ask in game.begin(|_| true).unwrap() {
                let answer = BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed);
                assert!(game.deliver(ask.turn, ask.team, answer));
            }
            let outcome = game.finish(0).unwrap();
            let wires = Teams {
                red: None,
                blue: Some(wire.clone()),
            };
            let wires = (k % 2 == 1).then_some(&wires);
            let line = recorder
                .push_with_wires(&outcome, game.game(), wires)
                .unwrap()
                .to_string();
            let derived = to_json(&TickOut {
                kind: "tick",
                outcome: &outcome,
                state: &game.game().state(),
                wires,
            });
            assert_eq!(line, derived, "tick {k}");
            let state = to_json(&game.game().state());
            assert_eq!(
                recorder.state_json(game.game().turn()),
                Some(state.as_str())
            );
            assert_eq!(
                recorder.state_json(game.game().turn() + 1),
                None,
                "another turn"
            );
        }
        recorder.finish();
        assert_eq!(recorder.state_json(game.game().turn()), None, "closed");
    }

    /// `gridarena halma match --from` writes records that start where the position was, not at the
    /// preset's opening: they load, start at that turn, count on from it and replay every tick exactly.
    #[test]
    fn a_record_from_a_position_mid_game_replays_exactly() {
        for preset in [Preset::Mini, Preset::Arena] {
            let mut game = GameLoop::new(Game::new(&preset.rules(), 4).unwrap(), 4);
            greedy(&mut game, 10, None);
            let start = game.game().clone();
            assert_eq!(start.turn(), 10, "{preset}");
            let players = Teams {
                red: "builtin:greedy".to_string(),
                blue: "builtin:greedy".to_string(),
            };
            let mut recorder = Recorder::new(players, 8, &start);
            let mut rest = GameLoop::new(start.clone(), 8);
            let mut played = vec![start.clone()];
            while played.len() <= 20 && rest.game().result().is_none() {
                greedy(&mut rest, 1, Some(&mut recorder));
                played.push(rest.game().clone());
            }
            recorder.finish();
            let record = Record::parse(&recorder.text()).unwrap();
            assert_eq!(record.header().state, start.state(), "{preset}");
            let ticks = played.len() - 1;
            assert!(ticks > 1, "{preset}");
            assert_eq!(record.ticks(), ticks, "{preset}");
            for (k, game) in played.iter().enumerate() {
                assert_eq!(record.game(k).as_ref(), Some(game), "{preset} tick {k}");
            }
            assert_eq!(record.outcome(1).unwrap().turn, 11, "{preset}");
            let last = u32::try_from(ticks).unwrap() + 10;
            assert_eq!(record.game(ticks).unwrap().turn(), last, "{preset}");
            assert_eq!(record.result(), rest.game().result(), "{preset}");
        }
    }

    /// Records from before `--from` (every one of them starts at turn 0) read as before: the format did
    /// not change, only what the header's state may be.
    #[test]
    fn a_record_from_the_opening_still_reads() {
        let mut game = GameLoop::new(Game::new(&Preset::Mini.rules(), 2).unwrap(), 2);
        let players = Teams {
            red: "human".to_string(),
            blue: "builtin:greedy".to_string(),
        };
        let mut recorder = Recorder::new(players, 2, game.game());
        greedy(&mut game, 6, Some(&mut recorder));
        let record = Record::parse(&recorder.text()).unwrap();
        assert_eq!(record.game(0).unwrap().turn(), 0);
        assert_eq!(record.game(6).as_ref(), Some(game.game()));
    }
}
