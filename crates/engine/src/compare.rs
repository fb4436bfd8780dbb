//! "Did my change help?": two players, A and B, play a run of games with the seats swapped every other
//! game, and the run says whether one is stronger, with how sure it is. `gridarena halma compare` plays
//! the games; the schedule, the score and the stop rule are here, pure, so the page can share them.
//!
//! # The schedule
//!
//! Games are numbered from 0. Game `k` puts A on red when `k` is even and on blue when it is odd
//! ([`a_seat`]), and the two games of a pair (`2j` and `2j + 1`) share one seed ([`game_seed`], derived
//! from the run's seed and `j` the way a tournament derives its seeds): the same start, the same drawn
//! first mover, only the seats swapped, as in a double round robin. So A moves first in one game of each
//! pair and B in the other, whether the first mover is drawn from the seed or named (`--first`), and
//! neither gets the better seat. A run's seed fixes every game: the same seed plays the same games.
//!
//! # The score and its interval
//!
//! A's score is its share of the points, a win 1 and a draw ½, over the games played ([`ScoreTally::share`]).
//! The interval around it is the Wilson score interval ([`Interval::wilson`]), taking the share of points
//! as a binomial proportion. Why Wilson, and not the textbook normal (Wald) interval `p ± z·√(p(1−p)/n)`:
//!
//! - A lopsided comparison is exactly what a student's improvement gives, and at 0% or 100% the Wald
//!   interval has width zero: after three wins it would claim certainty. Wilson's interval after `n` wins
//!   in `n` games is `[n/(n+z²), 1]`, honest about a short run, and it never leaves `[0, 1]`.
//! - Wilson's interval is the score test turned around: it excludes ½ exactly when the test of "the two
//!   are equal" rejects, that is when `|share − ½| > z / (2√n)`. The test's variance is the one under that
//!   hypothesis, ¼ per game with no draws; a draw scores ½ with no variance at all, so with draws the true
//!   variance is smaller and the interval is conservative: draws never make the run stop sooner than a
//!   test that knew the draw rate would.
//!
//! # When it stops, and what it concludes
//!
//! The run stops early when a pair of games has just ended, at least [`StopRule::min_games`] games are
//! played (a lucky start of three wins proves little), and the *decision interval* excludes ½; else it
//! plays all its games. The verdict ([`Verdict`]) is read from the decision interval too.
//!
//! The decision interval is the 99% Wilson interval ([`DECISION_Z`]), wider than the 95% one shown beside
//! the score. The reason is the repeated look: a run checks after every pair, and each check is one more
//! chance for chance to look like a difference. Checked after every pair at 95%, two *equal* players are
//! called different in about 20% of 50-game runs (simulated); at 99% per look about 4.4% of 50-game runs,
//! 6% of 100-game runs and 8% of 200-game runs are (the test `equal_players_are_rarely_called_different`
//! checks the 50-game figure), while a player that scores 70% is still found in about 70% of 50-game runs
//! and one that scores 80% in 98%.
//!
//! # Where the two players' answers differed
//!
//! The two games of a pair start from the same position with the same drawn first mover, A in a seat in
//! the first game and B in that seat in the second. So they are one game, tick for tick, until the first
//! tick where the two players, in the same seat of the same position, answer differently (another move,
//! or a move against a no-move; the answer's time does not count): the pair's *divergence*
//! ([`divergence`]). All that follows comes from it, so it is the position where the players' difference
//! showed. Its *swing* is how differently the pair then ended for that seat: the seat's points (a win 1,
//! a draw ½) in the game where A sat in it minus those in the game where B did, from −1 to 1. A swing of
//! 1 means A's answer there went on to win and B's to lose; 0, that the difference did not change how
//! the game ended. [`divergences`] ranks the pairs by the size of the swing, the biggest first (then by
//! pair), and leaves out pairs that never part (players that answer alike play the same game twice).

use crate::halma::play::LoggedAnswer;
use crate::halma::Team;
use crate::tournament::event::{Tournament, TournamentError};
use crate::tournament::game::{Fixture, GameReport};
use crate::tournament::pairing::Format;
use crate::tournament::roster::Roster;
use crate::tournament::settings::{Settings, MAX_PER_ENTRY};
use crate::tournament::Score;
use crate::SplitMix64;
use serde::Serialize;
use std::fmt;

/// Games in a run unless told otherwise.
pub const DEFAULT_GAMES: u32 = 50;
/// Games before a run may stop early unless told otherwise.
pub const DEFAULT_MIN_GAMES: u32 = 10;
/// The normal quantile of the interval shown: 95%, two-sided.
pub const SHOWN_Z: f64 = 1.959_963_984_540_054;
/// The normal quantile of the decision interval: 99%, two-sided (see the module's notes).
pub const DECISION_Z: f64 = 2.575_829_303_548_901;

/// The divergences a comparison lists (the page and the command line).
pub const TOP_DIVERGENCES: usize = 5;

/// The entry number of A in a compare game's [`Fixture`]; B is 1.
pub const A: usize = 0;
/// The entry number of B in a compare game's [`Fixture`].
pub const B: usize = 1;

/// A's seat in game `k` (from 0): red when `k` is even, blue when it is odd.
pub fn a_seat(k: u32) -> Team {
    if k % 2 == 0 {
        Team::Red
    } else {
        Team::Blue
    }
}

/// The seed of game `k` (from 0) of a run seeded with `seed`: both games of a pair (`2j`, `2j + 1`)
/// share it, and different pairs and runs get unrelated seeds (SplitMix64, as tournament seeds).
pub fn game_seed(seed: u64, k: u32) -> u64 {
    let h = SplitMix64::new(seed).next_u64();
    SplitMix64::new(h ^ u64::from(k / 2)).next_u64()
}

/// Game `k` of a run seeded with `seed`, as a tournament fixture: entry [`A`] and entry [`B`] in their
/// seats, the pair as its round.
pub fn fixture(seed: u64, k: u32) -> Fixture {
    let (red, blue) = match a_seat(k) {
        Team::Red => (A, B),
        Team::Blue => (B, A),
    };
    Fixture {
        number: k as usize,
        round: (k / 2) as usize,
        red,
        blue,
        seed: game_seed(seed, k),
    }
}

/// A run of `games` games as a tournament of two entries (A first, B second) on the compare schedule:
/// game `k` is [`fixture`]`(settings.seed, k)` for `k` in `0..games`, each pair a round, so a compare run
/// in the page plays the very games `gridarena halma compare --seed` plays. The format and the
/// milestones are ignored, and either entry may play every game at once (`per_entry` follows the
/// concurrency). Its bundle does not read back as a comparison: the page does not keep one.
pub fn tournament(
    roster: Roster,
    mut settings: Settings,
    games: u32,
) -> Result<Tournament, TournamentError> {
    let entries = roster.entries.len();
    if entries != 2 {
        return Err(TournamentError::Settings(format!(
            "A comparison takes two players, not {entries}."
        )));
    }
    settings.format = Format::RoundRobin;
    settings.milestones.clear();
    settings.per_entry = settings.concurrency.min(MAX_PER_ENTRY);
    let seed = settings.seed;
    Tournament::with_fixtures(roster, settings, (0..games).map(|k| fixture(seed, k)))
}

/// How a game went for A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// How a game that ended `score` went for A, which played `a_seat`.
    pub fn of(score: Score, a_seat: Team) -> Outcome {
        match (score, a_seat) {
            (Score::Draw, _) => Outcome::Draw,
            (Score::RedWins, Team::Red) | (Score::BlueWins, Team::Blue) => Outcome::Win,
            (Score::RedWins, Team::Blue) | (Score::BlueWins, Team::Red) => Outcome::Loss,
        }
    }

    /// "A wins", "draw", "B wins".
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "A wins",
            Outcome::Draw => "draw",
            Outcome::Loss => "B wins",
        }
    }
}

/// A two-sided interval on a share, both ends within `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Knows nothing: `[0, 1]`.
    pub const ALL: Interval = Interval {
        low: 0.0,
        high: 1.0,
    };

    /// The Wilson score interval of `points` out of `n` trials at the normal quantile `z`. `[0, 1]` for
    /// no games (or nonsense: points outside `0..=n`, a `z` that is not a positive number).
    pub fn wilson(points: f64, n: u64, z: f64) -> Interval {
        // Games counted in u64 go into an f64 exactly up to 2^53, far beyond any run.
        let n = n as f64;
        if n <= 0.0 || !(0.0..=n).contains(&points) || !(z.is_finite() && z > 0.0) {
            return Interval::ALL;
        }
        let p = points / n;
        let z2 = z * z;
        let denominator = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denominator;
        let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // The interval always holds p (at 0 and 1 it ends there exactly); min and max keep the rounding
        // from saying otherwise.
        Interval {
            low: (centre - half).min(p).clamp(0.0, 1.0),
            high: (centre + half).max(p).clamp(0.0, 1.0),
        }
    }

    /// Whether ½, "the two are equal", lies outside it.
    pub fn excludes_half(&self) -> bool {
        self.low > 0.5 || self.high < 0.5
    }
}

/// What the games say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// The decision interval lies above ½.
    AStronger,
    /// The decision interval lies below ½.
    BStronger,
    /// It holds ½: no difference shown (which is not "no difference").
    NoDifference,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::AStronger => "A is stronger",
            Verdict::BStronger => "B is stronger",
            Verdict::NoDifference => "no difference shown",
        })
    }
}

/// A's wins, draws and losses so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct ScoreTally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl ScoreTally {
    /// Counts one more game.
    pub fn add(&mut self, outcome: Outcome) {
        let count = match outcome {
            Outcome::Win => &mut self.wins,
            Outcome::Draw => &mut self.draws,
            Outcome::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// A's points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// A's share of the points, `None` before the first game.
    pub fn share(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The 95% Wilson interval on A's share: the one shown.
    pub fn interval(&self) -> Interval {
        Interval::wilson(self.points(), self.games(), SHOWN_Z)
    }

    /// The 99% Wilson interval on A's share: the one the verdict and the stop rule read.
    pub fn decision_interval(&self) -> Interval {
        Interval::wilson(self.points(), self.games(), DECISION_Z)
    }

    /// What the games so far say.
    pub fn verdict(&self) -> Verdict {
        let i = self.decision_interval();
        if i.low > 0.5 {
            Verdict::AStronger
        } else if i.high < 0.5 {
            Verdict::BStronger
        } else {
            Verdict::NoDifference
        }
    }
}

/// When a run may stop before its last game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StopRule {
    /// No early stop before this many games.
    pub min_games: u32,
}

impl Default for StopRule {
    fn default() -> StopRule {
        StopRule {
            min_games: DEFAULT_MIN_GAMES,
        }
    }
}

impl StopRule {
    /// Whether a run standing at `tally` stops now: a pair has just ended (an even number of games, so
    /// each player has had each seat as often), at least [`StopRule::min_games`] are played, and the
    /// games show a difference ([`ScoreTally::verdict`]).
    pub fn stops(&self, tally: &ScoreTally) -> bool {
        let n = tally.games();
        n > 0
            && n % 2 == 0
            && n >= u64::from(self.min_games)
            && tally.verdict() != Verdict::NoDifference
    }
}

/// A run's games counted in their numbers' order, the stop rule read after each: game `k` counts once
/// games `0..k` have. The page and the CLI both count through it, so where a run stops and what it
/// concludes never depend on which game happened to finish first, nor on who played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counter {
    planned: u32,
    rule: StopRule,
    tally: ScoreTally,
    counted: u32,
    stopped_early: bool,
}

impl Counter {
    /// A run of `planned` games under `rule`, none counted yet.
    pub fn new(planned: u32, rule: StopRule) -> Counter {
        Counter {
            planned,
            rule,
            tally: ScoreTally::default(),
            counted: 0,
            stopped_early: false,
        }
    }

    /// The number of the game to count next.
    pub fn next(&self) -> u32 {
        self.counted
    }

    /// Counts game [`Counter::next`], which ended `score`: A's seat in it and how it went for A.
    /// `None` once the run is over, when nothing more counts.
    pub fn count(&mut self, score: Score) -> Option<(Team, Outcome)> {
        if self.is_over() {
            return None;
        }
        let a_seat = a_seat(self.counted);
        let outcome = Outcome::of(score, a_seat);
        self.tally.add(outcome);
        self.counted += 1;
        if self.counted < self.planned && self.rule.stops(&self.tally) {
            self.stopped_early = true;
        }
        Some((a_seat, outcome))
    }

    /// The games counted so far.
    pub fn tally(&self) -> &ScoreTally {
        &self.tally
    }

    /// Whether the stop rule ended the run before its last game.
    pub fn stopped_early(&self) -> bool {
        self.stopped_early
    }

    /// Whether nothing more counts: the rule stopped the run, or every planned game is counted.
    pub fn is_over(&self) -> bool {
        self.stopped_early || self.counted >= self.planned
    }
}

/// Where the two games of a pair part (see the module's notes).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Divergence {
    /// The pair: games `2 * pair` (A on red) and `2 * pair + 1` (A on blue).
    pub pair: u32,
    /// The tick (from 0) whose answers differ: the position is the one both games had after `tick` ticks.
    pub tick: usize,
    /// The seat whose answers differ (red when both do).
    pub seat: Team,
    /// A's answer in that seat, and B's, as logged (`None`: not asked, the game having ended).
    pub a: Option<LoggedAnswer>,
    pub b: Option<LoggedAnswer>,
    /// The seat's points with A in it minus its points with B in it, from −1 to 1.
    pub swing: f64,
}

impl Divergence {
    /// The game (its number) where A sat in the seat.
    pub fn a_game(&self) -> u32 {
        2 * self.pair + u32::from(self.seat == Team::Blue)
    }

    /// The game (its number) where B sat in the seat.
    pub fn b_game(&self) -> u32 {
        2 * self.pair + u32::from(self.seat == Team::Red)
    }
}

/// An answer as it is compared: the move or the no-move's code, not its time or its message.
fn said(answer: Option<&LoggedAnswer>) -> Option<(&Option<String>, &Option<String>)> {
    answer.map(|a| (&a.path, &a.code))
}

/// `seat`'s answer in tick `i` of a log.
fn logged(ticks: &[[Option<LoggedAnswer>; 2]], i: usize, seat: Team) -> Option<&LoggedAnswer> {
    ticks.get(i).and_then(|tick| tick[seat as usize].as_ref())
}

/// The seat's points in a game that ended `score`: a win 1, a draw ½.
fn seat_points(score: Score, seat: Team) -> f64 {
    match (score, seat) {
        (Score::Draw, _) => 0.5,
        (Score::RedWins, Team::Red) | (Score::BlueWins, Team::Blue) => 1.0,
        _ => 0.0,
    }
}

/// Where pair `pair`'s games part: `first` is game `2 * pair` (A on red), `second` game `2 * pair + 1`
/// (A on blue). `None` when they never do (the same answers to the last tick of both).
pub fn divergence(pair: u32, first: &GameReport, second: &GameReport) -> Option<Divergence> {
    let (x, y) = (&first.played.log.ticks, &second.played.log.ticks);
    let tick = (0..x.len().max(y.len())).find(|&i| {
        Team::ALL
            .iter()
            .any(|&t| said(logged(x, i, t)) != said(logged(y, i, t)))
    })?;
    let answer =
        |ticks: &[[Option<LoggedAnswer>; 2]], seat: Team| logged(ticks, tick, seat).cloned();
    let seat = Team::ALL
        .into_iter()
        .find(|&t| said(logged(x, tick, t)) != said(logged(y, tick, t)))
        .unwrap_or(Team::Red);
    // A sits on red in the first game, on blue in the second.
    let (a_report, b_report) = match seat {
        Team::Red => (first, second),
        Team::Blue => (second, first),
    };
    Some(Divergence {
        pair,
        tick,
        seat,
        a: answer(&a_report.played.log.ticks, seat),
        b: answer(&b_report.played.log.ticks, seat),
        swing: seat_points(a_report.played.ending.score(), seat)
            - seat_points(b_report.played.ending.score(), seat),
    })
}

/// An answer as a divergence shows it: the move (`"x,y x,y"`), "no move (CODE)", or "(not asked)".
pub fn answer_text(answer: Option<&LoggedAnswer>) -> String {
    match answer {
        None => "(not asked)".to_string(),
        Some(a) => match (&a.path, &a.code) {
            (Some(path), _) => path.clone(),
            (None, Some(code)) => format!("no move ({code})"),
            (None, None) => "(nothing)".to_string(),
        },
    }
}

/// The divergences of every pair whose two games `report` gives (by game number), biggest swing first
/// (then by pair); pairs that never part are left out.
pub fn divergences<'a>(
    pairs: u32,
    report: impl Fn(u32) -> Option<&'a GameReport>,
) -> Vec<Divergence> {
    let mut found: Vec<Divergence> = (0..pairs)
        .filter_map(|j| divergence(j, report(2 * j)?, report(2 * j + 1)?))
        .collect();
    found.sort_by(|p, q| {
        q.swing
            .abs()
            .total_cmp(&p.swing.abs())
            .then(p.pair.cmp(&q.pair))
    });
    found
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_counter_counts_in_order_and_stops_after_a_pair_by_the_rule() {
        let rule = StopRule { min_games: 4 };
        let mut c = Counter::new(10, rule);
        // A wins every game: red wins game 0 (A red), blue wins game 1 (A blue), and so on.
        let won = |k: u32| {
            if k % 2 == 0 {
                Score::RedWins
            } else {
                Score::BlueWins
            }
        };
        let mut seen = Vec::new();
        while let Some((seat, outcome)) = c.count(won(c.next())) {
            seen.push((seat, outcome));
        }
        assert!(c.stopped_early() && c.is_over());
        assert_eq!(c.next() as usize, seen.len());
        assert_eq!(c.next() % 2, 0, "a run stops after a whole pair");
        assert!(c.next() >= 4, "not before the rule's minimum");
        assert_eq!(seen[0], (Team::Red, Outcome::Win));
        assert_eq!(seen[1], (Team::Blue, Outcome::Win));
        assert_eq!(c.tally().wins, c.next());
        // Draws all the way: no difference, every planned game counted, then nothing more.
        let mut even = Counter::new(6, rule);
        while even.count(Score::Draw).is_some() {}
        assert!(even.is_over() && !even.stopped_early());
        assert_eq!((even.next(), even.tally().draws), (6, 6));
        // The last game never counts as stopping early.
        let mut short = Counter::new(2, StopRule { min_games: 2 });
        short.count(Score::RedWins);
        short.count(Score::BlueWins);
        assert!(short.is_over() && !short.stopped_early());
    }
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> ScoreTally {
        ScoreTally {
            wins,
            draws,
            losses,
        }
    }

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    /// (wins, draws, losses), share, 95% interval, verdict.
    type Case = ((u32, u32, u32), Option<f64>, (f64, f64), Verdict);

    #[test]
    fn score_interval_and_verdict_in_a_table() {
        // (wins, draws, losses), share, 95% interval, verdict.
        let cases: &[Case] = &[
            // n = 0: nothing known.
            ((0, 0, 0), None, (0.0, 1.0), Verdict::NoDifference),
            // n = 1: a single game proves nothing.
            ((1, 0, 0), Some(1.0), (0.2065, 1.0), Verdict::NoDifference),
            (
                (0, 1, 0),
                Some(0.5),
                (0.0546, 0.9454),
                Verdict::NoDifference,
            ),
            ((0, 0, 1), Some(0.0), (0.0, 0.7935), Verdict::NoDifference),
            // All wins: n/(n+z²) to 1; ten wins are enough at 99%.
            ((10, 0, 0), Some(1.0), (0.7225, 1.0), Verdict::AStronger),
            ((0, 0, 10), Some(0.0), (0.0, 0.2775), Verdict::BStronger),
            // Five straight: the 95% interval excludes a half, the 99% one does not.
            ((5, 0, 0), Some(1.0), (0.5655, 1.0), Verdict::NoDifference),
            // All draws, and an even split: centred on a half, never a verdict.
            (
                (0, 50, 0),
                Some(0.5),
                (0.3664, 0.6336),
                Verdict::NoDifference,
            ),
            (
                (25, 0, 25),
                Some(0.5),
                (0.3664, 0.6336),
                Verdict::NoDifference,
            ),
            (
                (20, 10, 20),
                Some(0.5),
                (0.3664, 0.6336),
                Verdict::NoDifference,
            ),
            // 8 of 10 is not enough even at 95%; 16 of 20 is, at 99% too.
            (
                (8, 0, 2),
                Some(0.8),
                (0.4902, 0.9433),
                Verdict::NoDifference,
            ),
            ((16, 0, 4), Some(0.8), (0.5840, 0.9193), Verdict::AStronger),
            // Draws count half: 30 wins, 20 draws, 10 losses is 40 of 60.
            (
                (30, 20, 10),
                Some(2.0 / 3.0),
                (0.5406, 0.7727),
                Verdict::AStronger,
            ),
            (
                (3, 4, 33),
                Some(0.125),
                (0.0546, 0.2611),
                Verdict::BStronger,
            ),
        ];
        for &((w, d, l), share, (low, high), verdict) in cases {
            let t = tally(w, d, l);
            let at = format!("{t:?}");
            assert_eq!(t.games(), u64::from(w + d + l), "{at}");
            match (t.share(), share) {
                (Some(a), Some(b)) => assert!(near(a, b), "{at}: share {a}"),
                (a, b) => assert_eq!(a, b, "{at}"),
            }
            let i = t.interval();
            assert!(near(i.low, low) && near(i.high, high), "{at}: {i:?}");
            assert!(i.low <= i.high && i.low >= 0.0 && i.high <= 1.0, "{at}");
            if let Some(s) = t.share() {
                assert!(i.low <= s && s <= i.high, "{at}: the share is inside");
            }
            assert_eq!(t.verdict(), verdict, "{at}");
            // The decision interval holds the shown one.
            let d = t.decision_interval();
            assert!(d.low <= i.low + 1e-12 && i.high <= d.high + 1e-12, "{at}");
        }
    }

    #[test]
    fn the_stop_rule_in_a_table() {
        let rule = StopRule::default();
        // (wins, draws, losses), stops.
        let cases: &[((u32, u32, u32), bool)] = &[
            ((0, 0, 0), false),
            ((1, 0, 0), false),
            // A lucky start: the interval excludes a half, but too few games.
            ((6, 0, 0), false),
            ((0, 0, 8), false),
            // Ten straight: stop.
            ((10, 0, 0), true),
            ((0, 0, 10), true),
            // Eleven straight: not after an odd game, a pair is half played.
            ((11, 0, 0), false),
            ((12, 0, 0), true),
            // 50/50 and all draws never stop.
            ((5, 0, 5), false),
            ((25, 0, 25), false),
            ((0, 40, 0), false),
            ((8, 0, 2), false),
            ((16, 0, 4), true),
            ((4, 0, 16), true),
        ];
        for &((w, d, l), stops) in cases {
            let t = tally(w, d, l);
            assert_eq!(rule.stops(&t), stops, "{t:?}");
        }
        // No minimum: a run may stop at the first pair that says so... which two games never do.
        let eager = StopRule { min_games: 0 };
        assert!(!eager.stops(&tally(0, 0, 0)));
        assert!(!eager.stops(&tally(2, 0, 0)));
        assert!(!eager.stops(&tally(6, 0, 0)));
        assert!(eager.stops(&tally(8, 0, 0)));
        assert!(!StopRule { min_games: 20 }.stops(&tally(12, 0, 0)));
    }

    #[test]
    fn nonsense_never_panics_and_knows_nothing() {
        assert_eq!(Interval::wilson(3.0, 2, SHOWN_Z), Interval::ALL);
        assert_eq!(Interval::wilson(-1.0, 2, SHOWN_Z), Interval::ALL);
        assert_eq!(Interval::wilson(f64::NAN, 2, SHOWN_Z), Interval::ALL);
        assert_eq!(Interval::wilson(1.0, 2, 0.0), Interval::ALL);
        assert_eq!(Interval::wilson(1.0, 2, f64::INFINITY), Interval::ALL);
        let mut t = tally(u32::MAX, u32::MAX, u32::MAX);
        t.add(Outcome::Win);
        assert_eq!(t.wins, u32::MAX);
        let i = t.interval();
        assert!(i.low > 0.4 && i.high < 0.6, "{i:?}");
        assert!(!Interval::ALL.excludes_half());
    }

    #[test]
    fn outcomes_follow_a_seat() {
        assert_eq!(Outcome::of(Score::RedWins, Team::Red), Outcome::Win);
        assert_eq!(Outcome::of(Score::RedWins, Team::Blue), Outcome::Loss);
        assert_eq!(Outcome::of(Score::BlueWins, Team::Blue), Outcome::Win);
        assert_eq!(Outcome::of(Score::BlueWins, Team::Red), Outcome::Loss);
        assert_eq!(Outcome::of(Score::Draw, Team::Red), Outcome::Draw);
        let mut t = ScoreTally::default();
        for o in [Outcome::Win, Outcome::Draw, Outcome::Loss, Outcome::Win] {
            t.add(o);
        }
        assert_eq!(t, tally(2, 1, 1));
        assert_eq!(t.points(), 2.5);
    }

    #[test]
    fn seats_alternate_and_pairs_share_a_seed() {
        for k in 0..20u32 {
            let f = fixture(42, k);
            assert_eq!(f.number, k as usize);
            assert_eq!(f.round, (k / 2) as usize);
            assert_eq!(f.entry(a_seat(k)), A);
            assert_eq!(f.entry(a_seat(k).other()), B);
            assert_eq!(a_seat(k), if k % 2 == 0 { Team::Red } else { Team::Blue });
            assert_eq!(f.seed, game_seed(42, k));
            assert_eq!(
                game_seed(42, k),
                game_seed(42, k ^ 1),
                "a pair shares its seed"
            );
        }
        // Pairs and runs differ; a run repeats.
        assert_ne!(game_seed(42, 0), game_seed(42, 2));
        assert_ne!(game_seed(42, 0), game_seed(43, 0));
        assert_eq!(game_seed(42, 7), game_seed(42, 7));
        assert_eq!(a_seat(u32::MAX), Team::Blue);
        let _ = fixture(u64::MAX, u32::MAX);
    }

    /// The module's figure: two equal players (no draws), 50 games, a look after every pair from the
    /// tenth game and at the end, are called different in about 4.4% of runs.
    #[test]
    fn equal_players_are_rarely_called_different() {
        let rule = StopRule::default();
        let mut rng = SplitMix64::new(2024);
        let runs = 4000;
        let mut called = 0;
        for _ in 0..runs {
            let mut t = ScoreTally::default();
            for k in 1..=DEFAULT_GAMES {
                t.add(if rng.below(2) == 0 {
                    Outcome::Win
                } else {
                    Outcome::Loss
                });
                if rule.stops(&t) || (k == DEFAULT_GAMES && t.verdict() != Verdict::NoDifference) {
                    called += 1;
                    break;
                }
            }
        }
        let rate = f64::from(called) / f64::from(runs);
        assert!((0.025..0.065).contains(&rate), "{rate}");
    }

    /// A comparison of `a` against `b` (built-ins) played to its end as the page plays one: a
    /// tournament of two entries on the compare schedule. The reports by game number.
    fn played(a: &str, b: &str, games: u32) -> Vec<GameReport> {
        use crate::halma::{AiPlayer, Preset};
        use crate::tournament::roster::entries_from_lines;
        let entries = entries_from_lines(&format!("A {a}\nB {b}")).unwrap();
        let settings = Settings {
            preset: Preset::Mini,
            max_turns: Some(40),
            concurrency: 3,
            seed: 7,
            ..Settings::default()
        };
        let mut t = tournament(Roster { entries }, settings, games).unwrap();
        assert_eq!(
            t.settings().per_entry,
            3,
            "either entry plays every game at once"
        );
        let expected: Vec<Fixture> = (0..games).map(|k| fixture(7, k)).collect();
        assert_eq!(
            t.fixtures(),
            &expected[..],
            "the compare schedule, game for game"
        );
        loop {
            let start = t.next_games();
            if start.is_empty() {
                break;
            }
            assert!(start.len() <= 3);
            for f in start {
                let mut game = t.start(&f).unwrap();
                let tick_ms = t.settings().tick_ms;
                while game.ending().is_none() {
                    for ask in game.begin(|_| true, tick_ms).unwrap() {
                        let Some(AiPlayer::BuiltIn(ai)) = t.player(f.entry(ask.team)) else {
                            panic!("built-ins only")
                        };
                        let answer = ai.answer(game.game(), ask.team, ask.seed);
                        game.deliver(ask.turn, ask.team, answer, Some(1));
                    }
                    game.finish(1).unwrap();
                }
                t.finish(GameReport {
                    fixture: f,
                    played: game.report().unwrap(),
                })
                .unwrap();
            }
        }
        assert!(t.is_over());
        (0..games as usize)
            .map(|k| t.report(k).unwrap().clone())
            .collect()
    }

    #[test]
    fn a_comparison_takes_exactly_two_players_and_keeps_no_format_or_milestones() {
        use crate::tournament::milestone::parse_list;
        use crate::tournament::roster::entries_from_lines;
        let settings = Settings {
            format: Format::Swiss { rounds: 3 },
            milestones: parse_list("greedy:50").unwrap(),
            concurrency: 40,
            seed: 9,
            ..Settings::default()
        };
        let three =
            entries_from_lines("A builtin:greedy\nB builtin:greedy\nC builtin:greedy").unwrap();
        let err = tournament(Roster { entries: three }, settings.clone(), 4).unwrap_err();
        assert_eq!(
            err,
            TournamentError::Settings("A comparison takes two players, not 3.".to_string())
        );
        let two = entries_from_lines("A builtin:greedy\nB builtin:greedy").unwrap();
        let t = tournament(Roster { entries: two }, settings, 5).unwrap();
        assert_eq!(t.settings().format, Format::RoundRobin);
        assert!(t.settings().milestones.is_empty());
        assert_eq!(t.settings().per_entry, MAX_PER_ENTRY);
        assert_eq!(t.total_games(), 5);
        assert_eq!(
            t.byes(),
            &[None, None, None],
            "a round per pair, the last half full"
        );
    }

    #[test]
    fn alike_players_never_part_and_unlike_ones_do() {
        let same = played("builtin:greedy", "builtin:greedy", 4);
        assert_eq!(divergences(2, |k| same.get(k as usize)), vec![]);
        // A pair is one game until the players differ.
        assert_eq!(same[0].played.log, same[1].played.log);

        let games = played("builtin:search-lite", "builtin:greedy", 6);
        let found = divergences(3, |k| games.get(k as usize));
        assert_eq!(found.len(), 3, "search-lite and greedy differ somewhere");
        for d in &found {
            let (first, second) = (&games[2 * d.pair as usize], &games[2 * d.pair as usize + 1]);
            assert_eq!(
                first.played.log.ticks[..d.tick],
                second.played.log.ticks[..d.tick]
            );
            assert_ne!(d.a, d.b);
            assert!((-1.0..=1.0).contains(&d.swing));
            assert_eq!(d.a_game() + d.b_game(), 4 * d.pair + 1);
        }
        for w in found.windows(2) {
            assert!(w[0].swing.abs() >= w[1].swing.abs());
        }
        // Only a pair's two games count: a missing one leaves the pair out.
        assert_eq!(
            divergences(3, |k| (k != 5).then(|| &games[k as usize])).len(),
            2
        );
    }

    #[test]
    fn the_divergence_is_the_first_differing_answer_and_its_swing_the_seats_points() {
        let games = played("builtin:greedy", "builtin:greedy", 2);
        let (first, mut second) = (games[0].clone(), games[1].clone());
        // B (red in the second game) answers otherwise at tick 3, and the second game ends otherwise.
        let seat = (0..2)
            .find(|&s| second.played.log.ticks[3][s].is_some())
            .unwrap();
        let other = LoggedAnswer {
            ms: Some(9),
            code: Some("timed_out".to_string()),
            ..LoggedAnswer::default()
        };
        second.played.log.ticks[3][seat] = Some(other.clone());
        // Times do not count.
        for tick in &mut second.played.log.ticks[..3] {
            for a in tick.iter_mut().flatten() {
                a.ms = Some(12345);
            }
        }
        let team = Team::ALL[seat];
        second.played.ending = crate::halma::play::Ending::Forfeit {
            team,
            cause: "test".to_string(),
        };
        let d = divergence(0, &first, &second).unwrap();
        assert_eq!((d.pair, d.tick, d.seat), (0, 3, team));
        // Red: A sat there in the first game; blue: in the second.
        let (a, b) = match team {
            Team::Red => (first.played.log.ticks[3][seat].clone(), Some(other)),
            Team::Blue => (Some(other), first.played.log.ticks[3][seat].clone()),
        };
        assert_eq!((d.a.clone(), d.b.clone()), (a, b));
        let points = |r: &GameReport| seat_points(r.played.ending.score(), team);
        let swing = match team {
            Team::Red => points(&first) - points(&second),
            Team::Blue => points(&second) - points(&first),
        };
        assert_eq!(d.swing, swing);
        assert_eq!(points(&second), 0.0, "the forfeiting seat scores nothing");
    }
}
