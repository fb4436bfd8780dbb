//! Writing a record: the [`Recorder`], which turns a game into its lines as it is played.
//!
//! Apart from reading because the two trust differently: the recorder trusts its caller (the game it is
//! handed is the game that was played), the reader trusts nothing. They meet only in the format, which
//! `mod.rs` holds.

use super::{
    clip_chars, to_json, Header, ENGINE_VERSION, MAX_LABEL_CHARS, RECORD_FORMAT, RECORD_VERSION,
};
use crate::halma::exchange::{Wire, MAX_RECORDED_BODY_CHARS};
#[cfg(test)]
use crate::halma::GameState;
use crate::halma::{Game, GameResult, Teams, TickOutcome};
use serde::Serialize;

/// Builds a record tick by tick, as the game is played.
///
/// Each line is available as soon as it is made, so the CLI can stream a long match to a file and the
/// browser can offer the download at any moment; a record cut short is still a valid record. The recorder
/// trusts its caller to push each outcome with the game it came from; [`Record::parse`] is where records
/// are checked. A game of more than [`MAX_RECORD_LINES`] ticks writes a record too long to load back.
///
/// [`Record::parse`]: super::Record::parse
/// [`MAX_RECORD_LINES`]: super::MAX_RECORD_LINES
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::ai::BuiltIn;
    use crate::halma::{GameLoop, Preset};

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
}
