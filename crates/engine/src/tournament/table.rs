//! The table a teacher reads: the standings with each entry's rating and its uncertainty, which
//! entries the games cannot tell apart, how fast each answered and how often it erred, and why an
//! entry left. The page's standings, the CLI's printed table and `standings.csv` all come from here.

use super::event::{Tournament, TournamentError};
use super::game::GameReport;
use super::rating::{ratings, tie_groups, Rating};
use super::standings::{csv_field, Row};
use super::{EntryId, Finished};
use crate::halma::{AnswerTally, Team};
use std::fmt::Write as _;

/// One entry's line.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub row: Row,
    pub name: String,
    pub rating: Rating,
    /// Entries with the same group number are statistically tied ([`super::rating::tie_groups`]).
    pub tie_group: usize,
    /// The median time its answers took, over every tick it answered in time.
    pub median_ms: Option<u32>,
    /// Ticks it was asked in, ticks with an error.
    pub asked: u32,
    pub errors: u32,
    /// Why it was withdrawn, if it was.
    pub withdrawn: Option<String>,
}

/// The whole table, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub rows: Vec<TableRow>,
}

/// Points as people write them: `2.5`, `3`.
pub fn points_text(half_points: u32) -> String {
    if half_points % 2 == 1 {
        format!("{}.5", half_points / 2)
    } else {
        (half_points / 2).to_string()
    }
}

impl Table {
    /// The table of `t` as it stands: finished games only, rated in schedule order.
    pub fn of(t: &Tournament) -> Result<Table, TournamentError> {
        let standings = t.standings()?;
        let mut played: Vec<&GameReport> = t.finished().collect();
        played.sort_by_key(|r| r.fixture.number);
        let rated: Vec<Finished> = played
            .iter()
            .filter(|r| r.played.ending.was_played())
            .map(|r| Finished {
                pairing: r.fixture.pairing(),
                score: r.played.ending.score(),
            })
            .collect();
        let rating = ratings(t.entries(), &rated);
        let mut tallies = vec![AnswerTally::default(); t.entries()];
        for r in &played {
            for team in Team::ALL {
                if let Some(tally) = tallies.get_mut(r.fixture.entry(team)) {
                    tally.add(&r.played.sides[team]);
                }
            }
        }
        let ranked = standings.ranked();
        let order: Vec<EntryId> = ranked.iter().map(|r| r.entry).collect();
        let groups = tie_groups(&order, &rating);
        let names = t.names();
        let rows = ranked
            .into_iter()
            .zip(groups)
            .map(|(row, tie_group)| {
                let e = row.entry;
                TableRow {
                    row,
                    name: names.get(e).cloned().unwrap_or_default(),
                    rating: rating.get(e).copied().unwrap_or_default(),
                    tie_group,
                    median_ms: tallies[e].median_ms(),
                    asked: tallies[e].asked,
                    errors: tallies[e].errors,
                    withdrawn: t.withdrawn(e).map(|w| w.cause.clone()),
                }
            })
            .collect();
        Ok(Table { rows })
    }

    /// `standings.csv`: the standings' columns (`rank,name,played,wins,draws,losses,points`), then the
    /// byes, the tie-breaks, the rating with its 95% interval and tie group, the median latency, the
    /// errors and the withdrawal.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "rank,name,played,wins,draws,losses,points,byes,head_to_head,sonneborn_berger,rating,rating_low,rating_high,tie_group,median_ms,asked,errors,withdrawn\r\n",
        );
        for r in &self.rows {
            let _ = write!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{:.2},{:.2},{:.2},{},{},{},{},{}\r\n",
                r.row.rank,
                csv_field(&r.name),
                r.row.played,
                r.row.wins,
                r.row.draws,
                r.row.losses,
                points_text(r.row.half_points),
                r.row.byes,
                points_text(r.row.head_to_head),
                quarters_text(r.row.sonneborn_berger_quarters),
                r.rating.mu,
                r.rating.low(),
                r.rating.high(),
                r.tie_group + 1,
                r.median_ms.map_or(String::new(), |m| m.to_string()),
                r.asked,
                r.errors,
                csv_field(r.withdrawn.as_deref().unwrap_or("")),
            );
        }
        out
    }

    /// The table as aligned text for a terminal; a `=` before a rating marks it statistically tied with
    /// the one above.
    pub fn to_text(&self) -> String {
        let width = self
            .rows
            .iter()
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "{:>4}  {:<width$}  {:>6} {:>4} {:>4} {:>4} {:>6}  {:>6} {:>6}  {:>14}  {:>9} {:>6}\n",
            "rank",
            "name",
            "played",
            "W",
            "D",
            "L",
            "points",
            "h2h",
            "SB",
            "rating ± 2σ",
            "median ms",
            "errors"
        );
        let mut previous_group = None;
        for r in &self.rows {
            let tied = previous_group == Some(r.tie_group);
            previous_group = Some(r.tie_group);
            let rating = format!(
                "{}{:.1} ± {:.1}",
                if tied { "= " } else { "" },
                r.rating.mu,
                2.0 * r.rating.sigma
            );
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>6} {:>4} {:>4} {:>4} {:>6}  {:>6} {:>6}  {:>14}  {:>9} {:>6}",
                r.row.rank,
                r.name,
                r.row.played,
                r.row.wins,
                r.row.draws,
                r.row.losses,
                points_text(r.row.half_points),
                points_text(r.row.head_to_head),
                quarters_text(r.row.sonneborn_berger_quarters),
                rating,
                r.median_ms.map_or("-".to_string(), |m| m.to_string()),
                r.errors,
            );
        }
        out
    }
}

/// Sonneborn-Berger from quarter-points: `3.25`, `4`.
fn quarters_text(quarters: u64) -> String {
    let whole = quarters / 4;
    match quarters % 4 {
        0 => whole.to_string(),
        1 => format!("{whole}.25"),
        2 => format!("{whole}.5"),
        _ => format!("{whole}.75"),
    }
}

/// The median (the lower middle one of an even count), without a float.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_people_write_them() {
        assert_eq!(points_text(5), "2.5");
        assert_eq!(points_text(6), "3");
        assert_eq!(quarters_text(13), "3.25");
        assert_eq!(quarters_text(16), "4");
        let median = |ms: &[u32]| {
            let mut t = AnswerTally::default();
            t.set_times_ms(ms.iter().copied());
            t.median_ms()
        };
        assert_eq!(median(&[9, 1, 5, 3]), Some(3));
        assert_eq!(median(&[7]), Some(7));
        assert_eq!(median(&[]), None);
    }
}
