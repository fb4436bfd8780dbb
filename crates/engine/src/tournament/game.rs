//! One tournament game: a [`Match`] (the game every host plays, with its players' wires, tally, error
//! policy and log) set up from the tournament's [`Settings`] and a scheduled [`Fixture`], and reported
//! with that fixture for the standings.

use super::settings::Settings;
use super::{Pairing, Score};
use crate::halma::play::{Ending, LogError, MatchReport, Seat};
use crate::halma::{Game, Match, SetupError, Team, Teams};
use serde::{Deserialize, Serialize};

/// A scheduled game: its number in the schedule, its round, who plays which side, and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fixture {
    /// Its place in the schedule, from 0: games are rated and listed in this order.
    pub number: usize,
    /// Its round, from 0.
    pub round: usize,
    pub red: super::EntryId,
    pub blue: super::EntryId,
    pub seed: u64,
}

impl Fixture {
    pub fn pairing(&self) -> Pairing {
        Pairing {
            red: self.red,
            blue: self.blue,
        }
    }

    /// The entry playing `team`.
    pub fn entry(&self, team: Team) -> super::EntryId {
        match team {
            Team::Red => self.red,
            Team::Blue => self.blue,
        }
    }
}

/// A finished tournament game: its fixture and how the match went. The bundle writes the match's fields
/// beside the fixture, as before the match was a type of its own ([`ReportWire`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "ReportWire", into = "ReportWire")]
pub struct GameReport {
    pub fixture: Fixture,
    pub played: MatchReport,
}

/// A report as a bundle writes it: the fixture and the match's fields side by side. Spelled out rather
/// than `#[serde(flatten)]`, which buffers each report through serde's generic content and put 15 KB of
/// that code on the tournament page's first download (issue 52).
#[derive(Serialize, Deserialize)]
struct ReportWire {
    fixture: Fixture,
    ending: Ending,
    ticks: u32,
    sides: Teams<crate::halma::tally::AnswerTally>,
    #[serde(default)]
    last_error: Teams<Option<String>>,
    log: crate::halma::play::GameLog,
}

impl From<ReportWire> for GameReport {
    fn from(w: ReportWire) -> GameReport {
        GameReport {
            fixture: w.fixture,
            played: MatchReport {
                ending: w.ending,
                ticks: w.ticks,
                sides: w.sides,
                last_error: w.last_error,
                log: w.log,
            },
        }
    }
}

impl From<GameReport> for ReportWire {
    fn from(r: GameReport) -> ReportWire {
        let MatchReport {
            ending,
            ticks,
            sides,
            last_error,
            log,
        } = r.played;
        ReportWire {
            fixture: r.fixture,
            ending,
            ticks,
            sides,
            last_error,
            log,
        }
    }
}

impl GameReport {
    /// A game that never starts: `team`'s entry withdrew before it, so the other side wins.
    pub fn withdrawn(fixture: Fixture, team: Team, cause: String) -> GameReport {
        GameReport {
            fixture,
            played: MatchReport::withdrawn(team, cause),
        }
    }

    /// The game played again from its log into the record format the arena page loads, under
    /// `settings` (the tournament's) with `players` labelling the sides.
    pub fn record(&self, settings: &Settings, players: Teams<String>) -> Result<String, LogError> {
        self.played
            .log
            .record(&settings.rules(), self.fixture.seed, players)
    }
}

/// The match of `fixture` under `settings` (its rules and error policy), its sides on `seats`, before
/// its first tick.
pub fn start(
    fixture: &Fixture,
    settings: &Settings,
    seats: Teams<Seat>,
) -> Result<Match, SetupError> {
    let game = Game::new(&settings.rules(), fixture.seed)?;
    Ok(Match::new(game, fixture.seed, settings.policy).with_seats(seats))
}

impl Ending {
    /// How the game counts in a tournament's standings.
    pub fn score(&self) -> Score {
        match self.winner() {
            Some(Team::Red) => Score::RedWins,
            Some(Team::Blue) => Score::BlueWins,
            None => Score::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_from_a_bundle_written_before_the_match_was_a_type() {
        let old = r#"{"fixture":{"number":0,"round":0,"red":0,"blue":1,"seed":1},
            "ending":{"kind":"played","result":{"kind":"turnLimit"}},"ticks":0,
            "sides":{"red":{"asked":2,"answered":1,"errors":1},"blue":{"asked":2,"answered":2,"errors":0}},
            "log":{"ticks":[]}}"#;
        let report: GameReport = serde_json::from_str(old).unwrap();
        assert_eq!(report.played.sides.red.errors, 1);
        assert_eq!(report.fixture.seed, 1);
        let json = serde_json::to_string(&report).unwrap();
        assert!(
            json.starts_with(
                r#"{"fixture":{"number":0,"round":0,"red":0,"blue":1,"seed":1},"ending":"#
            ),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<GameReport>(&json).unwrap(), report);
    }

    #[test]
    fn an_ending_scores_for_its_winner() {
        let forfeit = Ending::Forfeit {
            team: Team::Red,
            cause: "x".to_string(),
        };
        assert_eq!(forfeit.score(), Score::BlueWins);
        assert_eq!(
            Ending::DoubleForfeit {
                cause: String::new()
            }
            .score(),
            Score::Draw
        );
    }
}
