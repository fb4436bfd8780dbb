//! Reading a record: [`Record::parse`] and [`Record::parse_bytes`] take a text apart line by line, check
//! each line's shape and order (one header first, ticks, at most one result last), and hand every tick and
//! result line to the checks in `verify.rs`.
//!
//! Apart from the checks because this is about the file (its size, its encoding, JSON, which line may
//! come where), and they are about the game.

use super::verify::{check_result, check_wires, read_tick, ResultIn, TickIn};
use super::{
    clip_chars, to_json, Header, Record, RecordError, MAX_LABEL_CHARS, MAX_RECORD_BYTES,
    MAX_RECORD_LINES, QUOTE_CHARS, RECORD_FORMAT, RECORD_VERSION,
};
use crate::halma::exchange::Wire;
use crate::halma::protocol::json_kind;
use crate::halma::{Game, GameState, Preset, Teams, TickOutcome};
use serde_json::{Map, Value};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::ai::BuiltIn;
    use crate::halma::record::Recorder;
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
