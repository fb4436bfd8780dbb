//! `gridarena halma match --from FILE [--turn N]`: the position a match plays on from.
//!
//! FILE is told by what it holds, not by its name:
//! - a record (JSON Lines whose first line is the header: the page's Download record, `--record`'s
//!   file), read and checked by [`Record::parse_bytes`]; `--turn N` picks the game after its tick N
//!   (0 is the record's start), by default its last tick;
//! - a game state (one JSON object: the engine's [`GameState`], as `gridarena halma tick` and the page's
//!   link write it), checked by [`Game::from_state`];
//! - a web AI's request (one JSON object with `pieces` and `enemy`: what the inspector shows), made a
//!   game by [`AiRequest::to_game`]: the asked team moves next, turns are simultaneous when its preset is
//!   the arena, and the turn limit is its preset's (else the default).
//!
//! The position keeps its own rules, turn and turn limit; `--max-turns` may set another turn limit, which
//! still counts from the start of the original game.

use gridarena_engine::halma::record::{Record, MAX_RECORD_BYTES};
use gridarena_engine::halma::{
    AiRequest, Game, GameState, SetupError, DEFAULT_TURN_LIMIT, STATE_VERSION,
};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// The largest game state or request read: a classic game's state is a few KiB.
const MAX_POSITION_BYTES: usize = 1024 * 1024;

/// The position a match starts from, and where it came from for the messages.
#[derive(Debug)]
pub struct Start {
    pub game: Game,
    /// "tick 25 of game.jsonl", "state.json": for the summary line.
    pub source: String,
}

/// Reads FILE and makes the game to play on from; the error is the whole message.
pub fn load(path: &Path, turn: Option<u32>, max_turns: Option<u32>) -> Result<Start, String> {
    let name = path.display().to_string();
    let cannot = |e: std::io::Error| format!("--from {name}: cannot read it: {e}");
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    let cap = u64::try_from(MAX_RECORD_BYTES).unwrap_or(u64::MAX);
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "--from {name}: the file is larger than {} MiB, the most that is read",
            MAX_RECORD_BYTES / (1024 * 1024)
        ));
    }
    start_of(&bytes, &name, turn, max_turns)
}

/// The game `bytes` (the contents of the file `name`) holds, at `turn` for a record.
fn start_of(
    bytes: &[u8],
    name: &str,
    turn: Option<u32>,
    max_turns: Option<u32>,
) -> Result<Start, String> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // One JSON object without a "type" is a state or a request; anything else is read as a record, whose
    // parser names the line that goes wrong. A generic JSON value takes about ten times its text in
    // memory, so only a file the size of a position is read as one.
    let document = (text.len() <= MAX_POSITION_BYTES)
        .then(|| serde_json::from_slice::<Value>(text).ok())
        .flatten()
        .filter(|v| !v.get("type").is_some_and(Value::is_string));
    let (game, source) = match document {
        Some(Value::Object(map)) => {
            if let Some(n) = turn {
                return Err(format!(
                    "--turn {n}: {name} is one position (a state), not a record: --turn picks a \
                     record's tick, so leave it out"
                ));
            }
            let is_request = map.contains_key("pieces") && map.contains_key("enemy");
            let value = Value::Object(map);
            let game = if is_request {
                request_game(value, name, max_turns)?
            } else {
                state_game(value, name)?
            };
            (game, name.to_string())
        }
        Some(other) => {
            return Err(format!(
                "--from {name} is {}: expected a record (JSON Lines), a game state or a request \
                 (a JSON object)",
                gridarena_engine::halma::protocol::json_kind(&other)
            ))
        }
        None if text.len() > MAX_POSITION_BYTES => record_game(bytes, name, turn).map_err(|e| {
            format!(
                "{e} (a game state or a request is at most {} KiB, and this file is {} bytes)",
                MAX_POSITION_BYTES / 1024,
                text.len()
            )
        })?,
        None => record_game(bytes, name, turn)?,
    };
    let game = match max_turns {
        Some(limit) => with_turn_limit(&game, limit)?,
        None => game,
    };
    if let Some(result) = game.result() {
        return Err(format!(
            "the game at {source} is over ({result}): there is nothing to play on{}",
            if turn.is_some() || source.starts_with("tick ") {
                "; pick an earlier --turn"
            } else {
                ""
            }
        ));
    }
    Ok(Start { game, source })
}

/// The game after tick `turn` (default: the last) of the record in `bytes`.
fn record_game(bytes: &[u8], name: &str, turn: Option<u32>) -> Result<(Game, String), String> {
    let record = Record::parse_bytes(bytes)
        .map_err(|e| format!("--from {name} is not a record this build reads: {e}"))?;
    let ticks = record.ticks();
    let k = match turn {
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
        None => ticks,
    };
    if k > ticks {
        return Err(format!(
            "--turn {k}: {name} has {ticks} tick{} (--turn 0 to {ticks})",
            if ticks == 1 { "" } else { "s" }
        ));
    }
    let game = record
        .game(k)
        .ok_or_else(|| format!("--from {name}: tick {k} is not a playable game"))?;
    Ok((game, format!("tick {k} of {name}")))
}

/// A game state, refused with the engine's reason when it is not a playable game.
fn state_game(value: Value, name: &str) -> Result<Game, String> {
    // The version first: a newer state may not even have this build's shape.
    if let Some(version) = value.get("version").and_then(Value::as_u64) {
        if version != u64::from(STATE_VERSION) {
            let found = u32::try_from(version).unwrap_or(u32::MAX);
            return Err(format!(
                "--from {name}: {}",
                SetupError::UnsupportedVersion { found }
            ));
        }
    }
    let state: GameState = serde_json::from_value(value)
        .map_err(|e| format!("--from {name} is not a game state: {e}"))?;
    Game::from_state(&state).map_err(|e| format!("--from {name} is not a playable game: {e}"))
}

/// A web AI's request as a game to play on: its own `to_game`, with a turn limit to play to (the
/// request knows none): `max_turns`, else its preset's, else the default.
fn request_game(value: Value, name: &str, max_turns: Option<u32>) -> Result<Game, String> {
    let request: AiRequest = serde_json::from_value(value)
        .map_err(|e| format!("--from {name} is not a request: {e}"))?;
    let game = request
        .to_game()
        .map_err(|e| format!("--from {name} is not a playable game: {e}"))?;
    let limit = max_turns.unwrap_or_else(|| {
        request
            .preset
            .map_or(DEFAULT_TURN_LIMIT, |p| p.rules().turn_limit)
    });
    with_turn_limit(&game, limit)
}

/// `game` with the turn limit `limit`, which must lie after its turn.
fn with_turn_limit(game: &Game, limit: u32) -> Result<Game, String> {
    if game.result().is_none() && limit <= game.turn() {
        return Err(format!(
            "--max-turns {limit}: the position is at turn {}, and the turn limit counts from the \
             start of its game: give a limit above {}",
            game.turn(),
            game.turn()
        ));
    }
    let mut state = game.state();
    state.turn_limit = limit;
    Game::from_state(&state).map_err(|e| format!("--max-turns {limit}: {e}"))
}
