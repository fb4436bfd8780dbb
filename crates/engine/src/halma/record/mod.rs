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
//!   [`MAX_RECORDED_BODY_CHARS`](super::exchange::MAX_RECORDED_BODY_CHARS)). The request itself is not stored: [`Record::request`] rebuilds it
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
//!
//! The code is split by idea, one file each: `writer.rs` builds a record as a game is played
//! ([`Recorder`]); `reader.rs` turns a text into a [`Record`] line by line; `verify.rs` holds the checks
//! that make a record trustworthy, above all replaying each tick with the rules; `error.rs` says what can
//! be wrong with a record ([`RecordError`]). This file holds what they share: the format's constants, the
//! [`Header`], and the [`Record`] a reader walks through.

mod error;
mod reader;
mod verify;
mod writer;

pub use error::RecordError;
pub use writer::Recorder;

use super::exchange::Wire;
use super::game_loop::game_request_body;
use super::{Game, GameResult, GameState, Preset, Team, Teams, TickOutcome};
use serde::{Deserialize, Serialize};

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

/// One line of compact JSON. These types have only string keys and no fallible `Serialize`, so
/// serde_json cannot fail on them; the fallback exists only so that the engine has no panic path.
fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The first `max` characters of `s`, cut on a character boundary.
fn clip_chars(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((end, _)) => s.get(..end).unwrap_or(s),
        None => s,
    }
}
