//! The standings, crosstable and game list as the page shows them: the engine's [`Standings`] with the
//! names, and what the reports say about each entry's latency and errors. Nothing here ranks or scores;
//! the order and the points are the engine's.

use gridarena_engine::halma::Team;
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::standings::{Outcome, Standings};
use gridarena_engine::tournament::table::Table;
use gridarena_engine::tournament::EntryId;

/// One line of the standings table, as text ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    pub entry: EntryId,
    pub rank: usize,
    pub name: String,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: String,
    /// Head-to-head points among those on the same points.
    pub head_to_head: String,
    /// Sonneborn-Berger points.
    pub sonneborn_berger: String,
    /// The rating and its ~95% uncertainty, "27.1 ± 5.3".
    pub rating: String,
    /// The statistical tie group (from 0), when the entry shares it with another: such entries cannot
    /// be told apart by the games so far, whatever their ranks.
    pub tie: Option<usize>,
    /// The median time its answers took, over every game.
    pub median_ms: Option<u32>,
    pub errors: u32,
    /// Why it was withdrawn, if it was.
    pub withdrawn: Option<String>,
}

/// Points from half-points, as a class writes them: "2½", "3", "½".
pub fn points(half: u64) -> String {
    quarters(half.saturating_mul(2))
}

/// A score kept in quarter-points (Sonneborn-Berger halves a drawn opponent's half-points): "3¼", "½".
pub fn quarters(q: u64) -> String {
    let whole = q / 4;
    let part = ["", "¼", "½", "¾"][(q % 4) as usize];
    match (whole, part) {
        (0, "") => "0".to_string(),
        (0, part) => part.to_string(),
        (whole, part) => format!("{whole}{part}"),
    }
}

/// The standings table, best first: the engine's [`Table`] as text.
pub fn rows(t: &Tournament) -> Result<Vec<TableRow>, String> {
    let table = Table::of(t).map_err(|e| e.to_string())?;
    let group_size = |g: usize| table.rows.iter().filter(|r| r.tie_group == g).count();
    Ok(table
        .rows
        .iter()
        .map(|r| TableRow {
            entry: r.row.entry,
            rank: r.row.rank,
            name: r.name.clone(),
            played: r.row.played,
            wins: r.row.wins,
            draws: r.row.draws,
            losses: r.row.losses,
            points: points(r.row.half_points.into()),
            head_to_head: points(r.row.head_to_head.into()),
            sonneborn_berger: quarters(r.row.sonneborn_berger_quarters),
            rating: format!("{:.1} ± {:.1}", r.rating.mu, 2.0 * r.rating.sigma),
            tie: (group_size(r.tie_group) > 1).then_some(r.tie_group),
            median_ms: r.median_ms,
            errors: r.errors,
            withdrawn: r.withdrawn.clone(),
        })
        .collect())
}

/// The standings as CSV, with the ratings and tie groups: the engine's table file.
pub fn csv(t: &Tournament) -> Result<String, String> {
    Table::of(t)
        .map(|table| table.to_csv())
        .map_err(|e| e.to_string())
}

/// A crosstable cell: the row entry's results against the column entry, "1 ½" (win, draw); "×" on the
/// diagonal.
pub fn cell(table: &Standings, row: EntryId, column: EntryId) -> String {
    if row == column {
        return "×".to_string();
    }
    table
        .crosstable(row, column)
        .iter()
        .map(|o| match o {
            Outcome::Win => "1",
            Outcome::Draw => "½",
            Outcome::Loss => "0",
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The crosstable in standings order: the names, and each row's cells.
pub fn crosstable(t: &Tournament) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let table = t.standings().map_err(|e| e.to_string())?;
    let order: Vec<EntryId> = table.ranked().iter().map(|r| r.entry).collect();
    let names = t.names();
    let heads = order
        .iter()
        .map(|&e| names.get(e).cloned().unwrap_or_default())
        .collect();
    let cells = order
        .iter()
        .map(|&r| order.iter().map(|&c| cell(&table, r, c)).collect())
        .collect();
    Ok((heads, cells))
}

/// A finished game in the list of games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameLine {
    pub number: usize,
    pub round: usize,
    pub red: String,
    pub blue: String,
    pub ending: String,
    pub ticks: u32,
    /// Whether there is a board to replay (a withdrawal's game never started).
    pub replayable: bool,
}

/// The finished games, latest first.
pub fn games(t: &Tournament) -> Vec<GameLine> {
    let names = t.names();
    let name = |e: EntryId| names.get(e).cloned().unwrap_or_default();
    let mut lines: Vec<GameLine> = t
        .finished()
        .map(|r| GameLine {
            number: r.fixture.number,
            round: r.fixture.round,
            red: name(r.fixture.red),
            blue: name(r.fixture.blue),
            ending: r.played.ending.to_string(),
            ticks: r.played.ticks,
            replayable: r.played.ticks > 0,
        })
        .collect();
    lines.reverse();
    lines
}

/// Game `number`'s record, as the arena page's "Load record" reads it, and a file name for it.
pub fn record(t: &Tournament, number: usize) -> Result<(String, String), String> {
    let report = t
        .report(number)
        .ok_or_else(|| format!("Game {} has not finished.", number + 1))?;
    let entries = &t.roster().entries;
    let label = |team: Team| {
        entries
            .get(report.fixture.entry(team))
            .map(|e| format!("{} ({})", e.name, e.player))
            .unwrap_or_default()
    };
    let text = report
        .record(t.settings(), gridarena_engine::halma::Teams::from_fn(label))
        .map_err(|e| format!("Game {} cannot be replayed: {e}", number + 1))?;
    Ok((format!("tournament-game-{}.jsonl", number + 1), text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::replay::Replay;
    use crate::tournament::runner::tests::{play, tournament};
    use crate::tournament::runner::Run;
    use gridarena_engine::tournament::pairing::Format;

    #[test]
    fn the_table_names_every_entry_with_its_latency_errors_and_withdrawal() {
        let mut run = Run::new(tournament(
            "Ada builtin:greedy\nBo builtin:greedy\nDead http://127.0.0.1:9/",
            Format::Double,
        ));
        play(&mut run, None);
        let rows = rows(&run.tournament).unwrap();
        assert_eq!(rows.len(), 3);
        let dead = rows.iter().find(|r| r.name == "Dead").unwrap();
        assert!(dead
            .withdrawn
            .as_deref()
            .unwrap()
            .starts_with("no answer in 3 games"));
        assert!(dead.errors > 0);
        assert_eq!(dead.median_ms, None);
        assert!(dead.rating.contains(" ± "), "{}", dead.rating);
        let ada = rows.iter().find(|r| r.name == "Ada").unwrap();
        assert_eq!(ada.played, 4);
        assert!(ada.median_ms.is_some());
        let (heads, cells) = crosstable(&run.tournament).unwrap();
        assert_eq!(heads.len(), 3);
        assert_eq!(cells[0][0], "×");
        assert!(
            cells.iter().flatten().any(|c| c.split(' ').count() == 2),
            "{cells:?}"
        );
    }

    #[test]
    fn a_finished_game_gives_a_record_the_replay_loads() {
        let mut run = Run::new(tournament(
            "Ada builtin:greedy\nBo builtin:search",
            Format::RoundRobin,
        ));
        play(&mut run, None);
        let line = &games(&run.tournament)[0];
        assert!(line.replayable && line.ticks > 0);
        let (name, text) = record(&run.tournament, line.number).unwrap();
        assert_eq!(name, "tournament-game-1.jsonl");
        let replay = Replay::load(&name, text.as_bytes()).unwrap();
        assert_eq!(replay.ticks(), line.ticks as usize);
        assert!(record(&run.tournament, 7).is_err());
        assert_eq!(
            (points(5), points(1), points(4)),
            ("2½".into(), "½".into(), "2".into())
        );
        // Sonneborn-Berger keeps its quarters: 3¼ is not 3.
        assert_eq!(
            (quarters(13), quarters(3), quarters(0)),
            ("3¼".into(), "¾".into(), "0".into())
        );
    }
}
