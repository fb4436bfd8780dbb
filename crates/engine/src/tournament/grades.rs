//! The grades file: one row per entry, in roster order, with what a teacher grades on: the milestones
//! passed, the class games' results, the errors by kind, the answer time and the hash of the code that
//! played. The page's "Export grades" and the CLI's `grades.csv` are this text, so both read alike.

use super::event::{Tournament, TournamentError};
use super::milestone::MilestoneResult;
use super::standings::csv_field;
use super::table::points_text;
use crate::halma::{AiPlayer, AnswerTally, Team};
use std::fmt::Write;

/// One entry's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    pub name: String,
    /// A code entry's full SHA-256.
    pub code_sha256: Option<String>,
    pub milestones: Vec<MilestoneResult>,
    /// Class games, as the standings count them.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub half_points: u32,
    /// Every game it played, milestones included.
    pub tally: AnswerTally,
    pub withdrawn: Option<String>,
}

impl Grade {
    /// Milestones passed.
    pub fn passed(&self) -> usize {
        self.milestones.iter().filter(|m| m.passed).count()
    }
}

/// Every entry's grade so far, in roster order.
pub fn grades(t: &Tournament) -> Result<Vec<Grade>, TournamentError> {
    let standings = t.standings()?;
    let rows = standings.ranked();
    let milestones = t.milestone_results();
    let mut tallies = vec![AnswerTally::default(); t.entries()];
    for r in t.finished() {
        for team in Team::ALL {
            if let Some(tally) = tallies.get_mut(r.fixture.entry(team)) {
                tally.add(&r.played.sides[team]);
            }
        }
    }
    let names = t.names();
    Ok((0..t.entries())
        .map(|entry| {
            let row = rows.iter().find(|r| r.entry == entry);
            Grade {
                name: names[entry].clone(),
                code_sha256: match t.player(entry) {
                    Some(AiPlayer::Code(source)) => Some(source.sha256().to_string()),
                    _ => None,
                },
                milestones: milestones[entry].clone(),
                games: row.map_or(0, |r| r.played),
                wins: row.map_or(0, |r| r.wins),
                draws: row.map_or(0, |r| r.draws),
                losses: row.map_or(0, |r| r.losses),
                half_points: row.map_or(0, |r| r.half_points),
                tally: std::mem::take(&mut tallies[entry]),
                withdrawn: t.withdrawn(entry).map(|w| w.cause.clone()),
            }
        })
        .collect())
}

/// A milestone's cell: `pass (1.5 of 2)`, `fail (0.5 of 2)`, or `pending (1 of 2 games)`.
fn milestone_cell(m: &MilestoneResult) -> String {
    let points = points_text(m.half_points);
    match (m.games, m.passed) {
        (2, true) => format!("pass ({points} of 2)"),
        (2, false) => format!("fail ({points} of 2)"),
        (games, _) => format!("pending ({games} of 2 games)"),
    }
}

/// The errors by kind, the most frequent first: `timed_out 3; exception 2`.
fn error_kinds(tally: &AnswerTally) -> String {
    tally
        .causes_by_count()
        .iter()
        .map(|(code, cause)| format!("{code} {}", cause.count))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `grades.csv` (RFC 4180, CRLF): `name,code_sha256,milestones_passed,` one column per milestone
/// (`greedy:50`), then `games,wins,draws,losses,points,errors,error_kinds,median_ms,withdrawn`.
pub fn to_csv(t: &Tournament) -> Result<String, TournamentError> {
    let grades = grades(t)?;
    let mut out = String::from("name,code_sha256,milestones_passed");
    for m in &t.settings().milestones {
        let _ = write!(out, ",{}", csv_field(&m.to_string()));
    }
    out.push_str(",games,wins,draws,losses,points,errors,error_kinds,median_ms,withdrawn\r\n");
    for g in &grades {
        let _ = write!(
            out,
            "{},{},{}",
            csv_field(&g.name),
            g.code_sha256.as_deref().unwrap_or(""),
            g.passed()
        );
        for m in &g.milestones {
            let _ = write!(out, ",{}", milestone_cell(m));
        }
        let _ = write!(
            out,
            ",{},{},{},{},{},{},{},{},{}\r\n",
            g.games,
            g.wins,
            g.draws,
            g.losses,
            points_text(g.half_points),
            g.tally.errors,
            csv_field(&error_kinds(&g.tally)),
            g.tally.median_ms().map_or(String::new(), |m| m.to_string()),
            csv_field(g.withdrawn.as_deref().unwrap_or("")),
        );
    }
    Ok(out)
}
