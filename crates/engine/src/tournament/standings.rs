//! The standings table: points, tie-breaks, ranks, the crosstable and a CSV export.
//!
//! Points are kept in half-points (`u32`): a win is 2 half-points (1 point), a draw 1 (½ point) and a loss
//! 0, so no float ever decides a ranking and two front-ends can never round differently.
//!
//! A bye is counted in its own `byes` column and earns no points: with 5 to 40 entries a round robin gives
//! every entry the same number of byes, so scoring them would only shift everyone equally, and in a partial
//! table it would rank an idle entry above one that played and lost.
//!
//! Ranking, best first: points; then head-to-head (the points an entry scored in the games played among
//! exactly the entries on the same points, which changes nothing when they all scored the same); then
//! Sonneborn-Berger (the final points of every opponent the entry beat plus half those of every opponent it
//! drew); then roster order. Entries still equal after Sonneborn-Berger share a rank ("1, 2, 2, 4"), so the
//! roster order only decides which of them is listed first, and the tie stays visible. Head-to-head is
//! computed once per group of entries on equal points, not again within what is left tied.

use std::collections::BTreeMap;
use std::fmt;

use super::{EntryId, Finished, Pairing, Score, MAX_ENTRIES};

/// How one game went for one side: the crosstable's cell contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// The half-points this outcome is worth.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Why a table refused its input. Games and byes are numbered from 0 in the order they were recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandingsError {
    /// More entries than [`MAX_ENTRIES`].
    TooManyEntries { entries: usize },
    /// A game names an entry that is not in the roster.
    EntryOutOfRange {
        game: usize,
        pairing: Pairing,
        entry: EntryId,
        entries: usize,
    },
    /// A game pairs an entry with itself.
    AgainstItself { game: usize, entry: EntryId },
    /// A bye names an entry that is not in the roster.
    ByeOutOfRange {
        bye: usize,
        entry: EntryId,
        entries: usize,
    },
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingsError::TooManyEntries { entries } => write!(
                f,
                "A table holds at most {MAX_ENTRIES} entries, not {entries}."
            ),
            StandingsError::EntryOutOfRange {
                game,
                pairing,
                entry,
                entries,
            } => write!(
                f,
                "Game {game} ({} against {}) names entry {entry}, but the roster has only entries 0 to {}.",
                pairing.red,
                pairing.blue,
                entries.saturating_sub(1)
            ),
            StandingsError::AgainstItself { game, entry } => {
                write!(f, "Game {game} pairs entry {entry} against itself.")
            }
            StandingsError::ByeOutOfRange { bye, entry, entries } => write!(
                f,
                "Bye {bye} names entry {entry}, but the roster has only entries 0 to {}.",
                entries.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for StandingsError {}

/// One entry's line of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub entry: EntryId,
    /// Standard competition rank from 1: entries equal on every tie-break share it.
    pub rank: usize,
    /// Games played; byes are not games.
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    /// Points in half-points: 5 means 2½ points.
    pub half_points: u32,
    /// Head-to-head half-points among the entries on the same points (0 when none of them met).
    pub head_to_head: u32,
    /// Sonneborn-Berger in quarter-points (an opponent's half-points, doubled for a win), so it stays an
    /// integer even for half of a half-point.
    pub sonneborn_berger_quarters: u64,
}

/// An entry's results before ranking: its wins, draws, losses and byes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ResultTally {
    wins: u32,
    draws: u32,
    losses: u32,
    byes: u32,
}

impl ResultTally {
    fn half_points(&self) -> u32 {
        self.wins.saturating_mul(2).saturating_add(self.draws)
    }

    fn add(&mut self, outcome: Outcome) {
        let field = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *field = field.saturating_add(1);
    }
}

/// The standings of one tournament. Built from every game at once with [`Standings::new`], or kept up to
/// date game by game with [`Standings::record`] while a tournament runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    tallies: Vec<ResultTally>,
    games: Vec<Finished>,
    byes_recorded: usize,
}

/// The outcomes for red and for blue.
fn outcomes(score: Score) -> (Outcome, Outcome) {
    match score {
        Score::RedWins => (Outcome::Win, Outcome::Loss),
        Score::BlueWins => (Outcome::Loss, Outcome::Win),
        Score::Draw => (Outcome::Draw, Outcome::Draw),
    }
}

impl Standings {
    /// A table for `entries` entries with every game and bye so far; refuses the first bad game or bye.
    ///
    /// ```
    /// use gridarena_engine::tournament::standings::Standings;
    /// use gridarena_engine::tournament::{Finished, Pairing, Score};
    ///
    /// let game = |red, blue, score| Finished { pairing: Pairing { red, blue }, score };
    /// let games = [game(0, 1, Score::RedWins), game(1, 2, Score::Draw), game(2, 0, Score::Draw)];
    /// let table = Standings::new(3, &games, &[])?;
    /// let ranked: Vec<_> = table.ranked().iter().map(|row| (row.entry, row.rank, row.half_points)).collect();
    /// assert_eq!(ranked, [(0, 1, 3), (2, 2, 2), (1, 3, 1)]);
    /// let names = ["Ada".to_string(), "Bo, Jr.".to_string(), "Cy".to_string()];
    /// assert!(table.to_csv(&names).starts_with("rank,name,played,wins,draws,losses,points\r\n1,Ada,2,1,1,0,1.5\r\n"));
    /// # Ok::<(), gridarena_engine::tournament::standings::StandingsError>(())
    /// ```
    pub fn new(
        entries: usize,
        games: &[Finished],
        byes: &[EntryId],
    ) -> Result<Self, StandingsError> {
        let mut table = Self::empty(entries)?;
        for game in games {
            table.record(game)?;
        }
        for &entry in byes {
            table.record_bye(entry)?;
        }
        Ok(table)
    }

    /// A table with no games yet.
    pub fn empty(entries: usize) -> Result<Self, StandingsError> {
        if entries > MAX_ENTRIES {
            return Err(StandingsError::TooManyEntries { entries });
        }
        Ok(Standings {
            tallies: vec![ResultTally::default(); entries],
            games: Vec::new(),
            byes_recorded: 0,
        })
    }

    /// The number of entries in the roster.
    pub fn entries(&self) -> usize {
        self.tallies.len()
    }

    /// The games recorded so far, in order.
    pub fn games(&self) -> &[Finished] {
        &self.games
    }

    /// Adds one finished game; a refused game leaves the table unchanged.
    pub fn record(&mut self, game: &Finished) -> Result<(), StandingsError> {
        let index = self.games.len();
        let Pairing { red, blue } = game.pairing;
        for entry in [red, blue] {
            if entry >= self.tallies.len() {
                return Err(StandingsError::EntryOutOfRange {
                    game: index,
                    pairing: game.pairing,
                    entry,
                    entries: self.tallies.len(),
                });
            }
        }
        if red == blue {
            return Err(StandingsError::AgainstItself {
                game: index,
                entry: red,
            });
        }
        let (red_outcome, blue_outcome) = outcomes(game.score);
        if let Some(tally) = self.tallies.get_mut(red) {
            tally.add(red_outcome);
        }
        if let Some(tally) = self.tallies.get_mut(blue) {
            tally.add(blue_outcome);
        }
        self.games.push(*game);
        Ok(())
    }

    /// Adds one bye: counted in the `byes` column only, worth no points.
    pub fn record_bye(&mut self, entry: EntryId) -> Result<(), StandingsError> {
        let entries = self.tallies.len();
        let Some(tally) = self.tallies.get_mut(entry) else {
            return Err(StandingsError::ByeOutOfRange {
                bye: self.byes_recorded,
                entry,
                entries,
            });
        };
        tally.byes = tally.byes.saturating_add(1);
        self.byes_recorded = self.byes_recorded.saturating_add(1);
        Ok(())
    }

    /// Every game between `row` and `column` from `row`'s point of view, in the order they were recorded
    /// (both games of a double round robin). Empty for an entry out of range or for `row == column`.
    pub fn crosstable(&self, row: EntryId, column: EntryId) -> Vec<Outcome> {
        self.games
            .iter()
            .filter_map(|game| {
                let (red, blue) = outcomes(game.score);
                match (game.pairing.red, game.pairing.blue) {
                    (r, b) if r == row && b == column => Some(red),
                    (r, b) if b == row && r == column => Some(blue),
                    _ => None,
                }
            })
            .collect()
    }

    /// Every entry's row, best first.
    pub fn ranked(&self) -> Vec<Row> {
        let points: Vec<u32> = self.tallies.iter().map(ResultTally::half_points).collect();
        let point_of = |entry: EntryId| points.get(entry).copied().unwrap_or(0);

        let mut sonneborn_berger = vec![0u64; self.tallies.len()];
        for game in &self.games {
            let Pairing { red, blue } = game.pairing;
            let (red_outcome, blue_outcome) = outcomes(game.score);
            for (me, opponent, outcome) in [(red, blue, red_outcome), (blue, red, blue_outcome)] {
                let gained = u64::from(point_of(opponent)) * u64::from(outcome.half_points());
                if let Some(sb) = sonneborn_berger.get_mut(me) {
                    *sb = sb.saturating_add(gained);
                }
            }
        }

        // Head-to-head: only games whose two entries finished on the same points count, which are exactly
        // the games among each group of tied entries.
        let mut head_to_head = vec![0u32; self.tallies.len()];
        for game in &self.games {
            let Pairing { red, blue } = game.pairing;
            if point_of(red) != point_of(blue) {
                continue;
            }
            let (red_outcome, blue_outcome) = outcomes(game.score);
            for (me, outcome) in [(red, red_outcome), (blue, blue_outcome)] {
                if let Some(h2h) = head_to_head.get_mut(me) {
                    *h2h = h2h.saturating_add(outcome.half_points());
                }
            }
        }

        let mut rows: Vec<Row> = self
            .tallies
            .iter()
            .enumerate()
            .map(|(entry, tally)| Row {
                entry,
                rank: 0,
                played: tally
                    .wins
                    .saturating_add(tally.draws)
                    .saturating_add(tally.losses),
                wins: tally.wins,
                draws: tally.draws,
                losses: tally.losses,
                byes: tally.byes,
                half_points: tally.half_points(),
                head_to_head: head_to_head.get(entry).copied().unwrap_or(0),
                sonneborn_berger_quarters: sonneborn_berger.get(entry).copied().unwrap_or(0),
            })
            .collect();
        let key = |row: &Row| {
            (
                row.half_points,
                row.head_to_head,
                row.sonneborn_berger_quarters,
            )
        };
        rows.sort_by(|a, b| key(b).cmp(&key(a)).then(a.entry.cmp(&b.entry)));

        let mut previous: Option<((u32, u32, u64), usize)> = None;
        for (position, row) in rows.iter_mut().enumerate() {
            let rank = match previous {
                Some((k, rank)) if k == key(row) => rank,
                _ => position + 1,
            };
            row.rank = rank;
            previous = Some((key(row), rank));
        }
        rows
    }

    /// The table as CSV (RFC 4180, CRLF line ends): `rank,name,played,wins,draws,losses,points`, header
    /// first, best first, points with one decimal (`2.5`, `3.0`). `names` is in roster order; an entry
    /// without a name is written `Entry N` (N from 1). See [`csv_field`] for how names are escaped.
    pub fn to_csv(&self, names: &[String]) -> String {
        let mut out = String::from("rank,name,played,wins,draws,losses,points\r\n");
        for row in self.ranked() {
            let name = names
                .get(row.entry)
                .cloned()
                .unwrap_or_else(|| format!("Entry {}", row.entry.saturating_add(1)));
            let half = if row.half_points % 2 == 1 { 5 } else { 0 };
            out.push_str(&format!(
                "{},{},{},{},{},{},{}.{}\r\n",
                row.rank,
                csv_field(&name),
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.half_points / 2,
                half
            ));
        }
        out
    }
}

/// One CSV field. A name starting with `=`, `+`, `-` or `@` gets a leading `'`, because spreadsheets run
/// such a cell as a formula and names are typed by students (the OWASP "CSV injection" advice); then a
/// field holding a comma, a quote or a line break is quoted with its quotes doubled, as RFC 4180 asks.
pub fn csv_field(text: &str) -> String {
    let guarded = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// Every crosstable cell at once: (row, column) to that pair's outcomes from the row's point of view.
pub type Crosstable = BTreeMap<(EntryId, EntryId), Vec<Outcome>>;

impl Standings {
    /// Every non-empty crosstable cell at once, for a front-end drawing the whole grid; the same cells as
    /// [`Standings::crosstable`].
    pub fn crosstable_all(&self) -> Crosstable {
        let mut cells = Crosstable::new();
        for game in &self.games {
            let (red, blue) = outcomes(game.score);
            let Pairing { red: r, blue: b } = game.pairing;
            cells.entry((r, b)).or_default().push(red);
            cells.entry((b, r)).or_default().push(blue);
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Score::{BlueWins, Draw, RedWins};

    fn game(red: EntryId, blue: EntryId, score: Score) -> Finished {
        Finished {
            pairing: Pairing { red, blue },
            score,
        }
    }

    fn games(list: &[(EntryId, EntryId, Score)]) -> Vec<Finished> {
        list.iter().map(|&(r, b, s)| game(r, b, s)).collect()
    }

    /// (entry, rank, half-points) best first.
    type Ranked = Vec<(EntryId, usize, u32)>;

    fn order(table: &Standings) -> Ranked {
        table
            .ranked()
            .iter()
            .map(|row| (row.entry, row.rank, row.half_points))
            .collect()
    }

    /// A double round robin where 0, 1 and 2 finish on 2½ points each behind 3. Among themselves 0 scored
    /// 2½, 1 scored 2 and 2 scored 1½, while Sonneborn-Berger alone would order them 2, 1, 0: so this
    /// only passes if head-to-head comes first.
    fn three_way_head_to_head() -> Vec<Finished> {
        games(&[
            (0, 1, RedWins),
            (1, 0, Draw),
            (0, 2, Draw),
            (2, 0, Draw),
            (1, 2, RedWins),
            (2, 1, Draw),
            (0, 3, BlueWins),
            (3, 0, RedWins),
            (1, 3, Draw),
            (3, 1, RedWins),
            (2, 3, Draw),
            (3, 2, Draw),
        ])
    }

    /// A single round robin where 0 and 1 drew each other and finish on 1½ points: 1 beat the leader 3
    /// and 0 only beat the last, 2, so Sonneborn-Berger puts 1 first despite roster order.
    fn sonneborn_berger_only() -> Vec<Finished> {
        games(&[
            (0, 1, Draw),
            (0, 2, RedWins),
            (3, 0, RedWins),
            (1, 3, RedWins),
            (2, 1, RedWins),
            (3, 2, RedWins),
        ])
    }

    #[test]
    fn rankings() {
        let all_draws = games(&[
            (0, 1, Draw),
            (0, 2, Draw),
            (0, 3, Draw),
            (1, 2, Draw),
            (1, 3, Draw),
            (2, 3, Draw),
        ]);
        let shared_second = games(&[
            (0, 1, RedWins),
            (0, 2, RedWins),
            (0, 3, RedWins),
            (1, 2, Draw),
            (1, 3, RedWins),
            (3, 2, BlueWins),
        ]);
        let cases: [(&str, Vec<Finished>, Ranked); 5] = [
            (
                "three-way tie broken by head-to-head",
                three_way_head_to_head(),
                vec![(3, 1, 9), (0, 2, 5), (1, 3, 5), (2, 4, 5)],
            ),
            (
                "tie broken only by Sonneborn-Berger",
                sonneborn_berger_only(),
                vec![(3, 1, 4), (1, 2, 3), (0, 3, 3), (2, 4, 2)],
            ),
            (
                "all draws: everyone shares first, listed in roster order",
                all_draws,
                vec![(0, 1, 3), (1, 1, 3), (2, 1, 3), (3, 1, 3)],
            ),
            (
                "equal on every tie-break: 1, 2, 2, 4",
                shared_second,
                vec![(0, 1, 6), (1, 2, 3), (2, 2, 3), (3, 4, 0)],
            ),
            (
                "no games: everyone shares first",
                Vec::new(),
                vec![(0, 1, 0), (1, 1, 0), (2, 1, 0), (3, 1, 0)],
            ),
        ];
        for (name, list, expected) in cases {
            let table = Standings::new(4, &list, &[]);
            assert_eq!(table.map(|t| order(&t)), Ok(expected), "{name}");
        }
    }

    #[test]
    fn tie_break_columns() {
        let table =
            Standings::new(4, &three_way_head_to_head(), &[]).unwrap_or_else(|e| panic!("{e}"));
        let columns: Vec<_> = table
            .ranked()
            .iter()
            .map(|r| (r.entry, r.head_to_head, r.sonneborn_berger_quarters))
            .collect();
        // 3 is alone on its points, so it has no head-to-head games.
        assert_eq!(columns, [(3, 0, 45), (0, 5, 25), (1, 4, 29), (2, 3, 33)]);
    }

    #[test]
    fn tallies_draws_and_byes() {
        let table = Standings::new(4, &three_way_head_to_head(), &[2, 2, 0])
            .unwrap_or_else(|e| panic!("{e}"));
        let tallies: Vec<_> = table
            .ranked()
            .iter()
            .map(|r| (r.entry, r.played, r.wins, r.draws, r.losses, r.byes))
            .collect();
        assert_eq!(
            tallies,
            [
                (3, 6, 3, 3, 0, 0),
                (0, 6, 1, 3, 2, 1),
                (1, 6, 1, 3, 2, 0),
                (2, 6, 0, 5, 1, 2),
            ],
            "byes are counted but worth nothing and are not games"
        );
    }

    #[test]
    fn live_updates_match_the_batch_table() {
        let list = sonneborn_berger_only();
        let mut live = Standings::empty(4).unwrap_or_else(|e| panic!("{e}"));
        for g in &list {
            assert_eq!(live.record(g), Ok(()));
        }
        assert_eq!(Standings::new(4, &list, &[]), Ok(live));
    }

    #[test]
    fn crosstable_has_both_games_from_each_side() {
        let table =
            Standings::new(4, &three_way_head_to_head(), &[]).unwrap_or_else(|e| panic!("{e}"));
        let cases = [
            (0, 1, vec![Outcome::Win, Outcome::Draw]),
            (1, 0, vec![Outcome::Loss, Outcome::Draw]),
            (0, 3, vec![Outcome::Loss, Outcome::Loss]),
            (3, 0, vec![Outcome::Win, Outcome::Win]),
            (2, 3, vec![Outcome::Draw, Outcome::Draw]),
            (0, 0, vec![]),
            (0, 99, vec![]),
        ];
        let all = table.crosstable_all();
        for (row, column, expected) in cases {
            assert_eq!(table.crosstable(row, column), expected, "({row}, {column})");
            let cell = all.get(&(row, column)).cloned().unwrap_or_default();
            assert_eq!(cell, expected, "crosstable_all ({row}, {column})");
        }
        assert_eq!(all.len(), 12, "every ordered pair of 4 entries met");
    }

    #[test]
    fn csv_fields() {
        let cases = [
            ("Ada", "Ada"),
            ("", ""),
            ("Bo, Jr.", "\"Bo, Jr.\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("two\nlines", "\"two\nlines\""),
            ("cr\r", "\"cr\r\""),
            ("=SUM(A1)", "'=SUM(A1)"),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@cmd", "'@cmd"),
            ("=1,2", "\"'=1,2\""),
            ("a=b", "a=b"),
            ("Zoë", "Zoë"),
        ];
        for (name, expected) in cases {
            assert_eq!(csv_field(name), expected, "{name:?}");
        }
    }

    #[test]
    fn csv_table() {
        let table =
            Standings::new(4, &sonneborn_berger_only(), &[]).unwrap_or_else(|e| panic!("{e}"));
        let names = ["=Ann".to_string(), "Bo, Jr.".to_string(), "Cy".to_string()];
        assert_eq!(
            table.to_csv(&names),
            "rank,name,played,wins,draws,losses,points\r\n\
             1,Entry 4,3,2,0,1,2.0\r\n\
             2,\"Bo, Jr.\",3,1,1,1,1.5\r\n\
             3,'=Ann,3,1,1,1,1.5\r\n\
             4,Cy,3,1,0,2,1.0\r\n"
        );
        let empty = Standings::new(0, &[], &[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            empty.to_csv(&[]),
            "rank,name,played,wins,draws,losses,points\r\n"
        );
    }

    #[test]
    fn hostile_input_is_refused() {
        let cases = [
            (
                3,
                games(&[(0, 1, RedWins), (1, 3, Draw)]),
                vec![],
                StandingsError::EntryOutOfRange {
                    game: 1,
                    pairing: Pairing { red: 1, blue: 3 },
                    entry: 3,
                    entries: 3,
                },
            ),
            (
                3,
                games(&[(usize::MAX, 0, BlueWins)]),
                vec![],
                StandingsError::EntryOutOfRange {
                    game: 0,
                    pairing: Pairing {
                        red: usize::MAX,
                        blue: 0,
                    },
                    entry: usize::MAX,
                    entries: 3,
                },
            ),
            (
                0,
                games(&[(0, 0, Draw)]),
                vec![],
                StandingsError::EntryOutOfRange {
                    game: 0,
                    pairing: Pairing { red: 0, blue: 0 },
                    entry: 0,
                    entries: 0,
                },
            ),
            (
                3,
                games(&[(2, 2, Draw)]),
                vec![],
                StandingsError::AgainstItself { game: 0, entry: 2 },
            ),
            (
                3,
                games(&[(0, 1, Draw)]),
                vec![1, 7],
                StandingsError::ByeOutOfRange {
                    bye: 1,
                    entry: 7,
                    entries: 3,
                },
            ),
            (
                usize::MAX,
                vec![],
                vec![],
                StandingsError::TooManyEntries {
                    entries: usize::MAX,
                },
            ),
            (
                MAX_ENTRIES + 1,
                vec![],
                vec![],
                StandingsError::TooManyEntries {
                    entries: MAX_ENTRIES + 1,
                },
            ),
        ];
        for (entries, list, byes, expected) in cases {
            assert_eq!(
                Standings::new(entries, &list, &byes),
                Err(expected),
                "{expected:?}"
            );
            let sentence = expected.to_string();
            assert!(
                sentence.ends_with('.') && sentence.starts_with(char::is_uppercase),
                "{sentence}"
            );
        }
        assert!(Standings::new(MAX_ENTRIES, &[], &[]).is_ok());
    }

    #[test]
    fn a_refused_game_leaves_the_table_unchanged() {
        let mut table =
            Standings::new(3, &games(&[(0, 1, RedWins)]), &[]).unwrap_or_else(|e| panic!("{e}"));
        let before = table.clone();
        for bad in [game(0, 5, RedWins), game(1, 1, Draw), game(9, 0, BlueWins)] {
            assert!(table.record(&bad).is_err(), "{bad:?}");
            assert!(table.record_bye(3).is_err());
            assert_eq!(table, before, "{bad:?}");
        }
        assert_eq!(
            table.record(&game(0, 5, Draw)).map_err(|e| e.to_string()),
            Err(
                "Game 1 (0 against 5) names entry 5, but the roster has only entries 0 to 2."
                    .to_string()
            )
        );
    }
}
