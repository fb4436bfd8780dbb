//! Watching a recorded game: a loaded [`Record`] and the turn being shown.
//!
//! The record was verified tick by tick when it loaded, so showing turn `k` is only a look-up.

use super::answer_times::{self, TickTimes};
use super::board_view::BoardView;
use super::messages::{tick_lines, Line, Tone};
use gridarena_engine::halma::edit::PositionEdit;
use gridarena_engine::halma::record::{Record, RecordError};
use gridarena_engine::halma::{CampRules, Game};

/// A record being replayed.
#[derive(Clone, Debug)]
pub struct Replay {
    record: Record,
    name: String,
    at: usize,
    /// The answer times of the whole record, read once: the time chart shows them at every tick.
    times: Vec<TickTimes>,
}

impl Replay {
    /// Reads a record file's bytes; `name` is the file name, shown to the user.
    pub fn load(name: &str, bytes: &[u8]) -> Result<Replay, RecordError> {
        let record = Record::parse_bytes(bytes)?;
        Ok(Replay {
            times: answer_times::of_record(&record),
            record,
            name: name.chars().take(120).collect(),
            at: 0,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Each AI player's answer time, tick by tick, over the whole record.
    pub fn times(&self) -> &[TickTimes] {
        &self.times
    }

    /// The tick shown: 0 is the start position.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The number of ticks in the record.
    pub fn ticks(&self) -> usize {
        self.record.ticks()
    }

    pub fn at_end(&self) -> bool {
        self.at >= self.ticks()
    }

    /// Shows the next tick; false at the end.
    pub fn step(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        self.at += 1;
        true
    }

    /// One beat of Run or a Step: shows the next tick; whether another is left to show after it.
    pub fn advance(&mut self) -> bool {
        self.step() && !self.at_end()
    }

    /// Shows tick `k` (clamped to the record).
    pub fn seek(&mut self, k: usize) {
        self.at = k.min(self.ticks());
    }

    fn game(&self) -> Option<Game> {
        self.record.game(self.at)
    }

    /// The board at the shown tick, with that tick's moves drawn.
    pub fn board(&self) -> BoardView {
        match self.game() {
            Some(g) => BoardView::new(g.position(), self.record.outcome(self.at), None, &[]),
            None => BoardView::default(),
        }
    }

    /// The arena's address (a query, relative to the page) that opens the tick shown in its position
    /// editor, on the record's preset and camp rules, to play on from it with whichever players the
    /// arena has set up: how a tournament game is continued with the student's current AI. `None` for
    /// a record of a custom setup, which the editor cannot draw.
    pub fn arena_link(&self) -> Option<String> {
        let preset = self.record.header().preset?;
        let edit = PositionEdit::from_game(preset, &self.game()?);
        let mut link = format!("?preset={}&pos={}", preset.name(), edit.to_link());
        if edit.camp_rules() != CampRules::default() {
            link.push_str(&format!("&camp={}", edit.camp_rules().name()));
        }
        Some(link)
    }

    /// The message field at the shown tick, as it read when the tick was played.
    pub fn lines(&self) -> Vec<Line> {
        let header = self.record.header();
        let mut lines = vec![Line {
            tone: Tone::Info,
            text: format!(
                "Replay of {}: red {} vs blue {}, {} ticks",
                self.name,
                header.players.red,
                header.players.blue,
                self.ticks()
            ),
        }];
        match self.record.outcome(self.at) {
            Some(o) => lines.extend(tick_lines(o)),
            None => lines.push(Line {
                tone: Tone::Info,
                text: format!("Turn {}: the start position", header.state.turn),
            }),
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::player::Player;
    use crate::halma::session::Session;
    use gridarena_engine::halma::ai::BuiltIn;
    use gridarena_engine::halma::{Preset, Teams};

    fn recorded_game(ticks: usize) -> Session {
        let greedy = Player::BuiltIn(BuiltIn::Greedy);
        let mut s = Session::new(
            Preset::Arena,
            Teams {
                red: greedy.clone(),
                blue: greedy,
            },
            9,
        );
        for _ in 0..ticks {
            s.tick().unwrap();
        }
        s
    }

    #[test]
    fn a_downloaded_game_loads_and_steps_to_the_same_positions() {
        let s = recorded_game(6);
        let text = s.record_text().unwrap();
        let mut r = Replay::load("game.jsonl", text.as_bytes()).unwrap();
        assert_eq!((r.at(), r.ticks()), (0, 6));
        assert!(r.lines()[1].text.contains("start position"));
        while r.step() {}
        assert!(r.at_end());
        let live = BoardView::new(s.game().position(), s.last(), None, &[]);
        assert_eq!(r.board(), live);
        assert_eq!(r.lines()[1].text, "Turn 6");
        r.seek(4);
        assert!(r.advance(), "tick 5 shown, tick 6 left");
        assert!(!r.advance(), "tick 6 shown, the end");
        assert!(!r.advance() && r.at() == 6, "nothing past the end");
        r.seek(99);
        assert_eq!(r.at(), 6);
        r.seek(0);
        assert_eq!(r.at(), 0);
    }

    #[test]
    fn a_tick_opens_in_the_arena_s_editor_as_it_stood() {
        let s = recorded_game(6);
        let mut r = Replay::load("game.jsonl", s.record_text().unwrap().as_bytes()).unwrap();
        r.seek(4);
        let link = r.arena_link().unwrap();
        let query = link.strip_prefix("?preset=arena&pos=").unwrap();
        let read = PositionEdit::from_link(Preset::Arena, CampRules::default(), query).unwrap();
        let shown = r.record().game(4).unwrap();
        for team in gridarena_engine::halma::Team::ALL {
            assert_eq!(read.pieces(team), shown.position().pieces(team), "{link}");
        }
        assert!(read.check().is_ok(), "{link}");
    }

    #[test]
    fn a_broken_file_is_refused_with_the_line() {
        let s = recorded_game(3);
        let text = s.record_text().unwrap().replace("\"turn\":2", "\"turn\":7");
        let e = Replay::load("bad.jsonl", text.as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("line "), "{e}");
        assert!(Replay::load("x", b"\xff\xfe").is_err());
        assert!(Replay::load("x", b"").is_err());
    }
}
