//! The schedule: who meets whom, on which side, in each round.
//!
//! Round robins are fixed in advance (the circle method, as in Berger tables), so a whole round robin can be
//! printed before the first game. A Swiss round depends on the results so far, so [`swiss_round`] pairs
//! one round at a time from the points, the games played and the byes given. Nothing here panics: hostile
//! input (ids out of range, duplicates, self-pairings in the history) is ignored or refused with a
//! [`PairingError`].

use std::fmt;
use std::str::FromStr;

use super::{EntryId, Pairing, MAX_ENTRIES};
use crate::SplitMix64;

/// Rounds a bare `swiss` gets: enough to separate 40 entries (about log2(40) + 2).
pub const DEFAULT_SWISS_ROUNDS: u32 = 7;

/// Steps one Swiss search may take before it gives up and the next, looser search runs.
const SEARCH_STEPS: u32 = 20_000;

/// Steps all Swiss searches of one round may take together; past it a greedy pairing is used.
const ROUND_STEPS: u32 = 2_000_000;

/// How a tournament is scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Every pair meets once.
    RoundRobin,
    /// Every pair meets twice, once on each side, with the same seed, so neither gets the better seat.
    Double,
    /// A fixed number of rounds, each paired from the standings so far.
    Swiss { rounds: u32 },
}

impl fmt::Display for Format {
    /// The CLI's spelling; a Swiss writes its rounds (`swiss:7`) so that the text parses back to it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::RoundRobin => f.write_str("round-robin"),
            Format::Double => f.write_str("double"),
            Format::Swiss { rounds } => write!(f, "swiss:{rounds}"),
        }
    }
}

/// Why a format's text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Not one of `round-robin`, `double`, `swiss`, `swiss:N`.
    Unknown(String),
    /// `swiss:N` with an N that is not a whole number from 1 up.
    BadRounds(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Unknown(s) => write!(
                f,
                "\"{s}\" is not a tournament format; use round-robin, double, swiss or swiss:ROUNDS."
            ),
            FormatError::BadRounds(s) => {
                write!(f, "\"{s}\" is not a number of Swiss rounds; use a whole number from 1 up.")
            }
        }
    }
}

impl std::error::Error for FormatError {}

impl FromStr for Format {
    type Err = FormatError;

    /// `round-robin`, `double`, `swiss` (with [`DEFAULT_SWISS_ROUNDS`]) or `swiss:N`; a CLI with a
    /// separate `--rounds` flag can parse `swiss` and replace the rounds.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "round-robin" => Ok(Format::RoundRobin),
            "double" => Ok(Format::Double),
            "swiss" => Ok(Format::Swiss {
                rounds: DEFAULT_SWISS_ROUNDS,
            }),
            other => match other.strip_prefix("swiss:") {
                Some(n) => match n.parse::<u32>() {
                    Ok(rounds) if rounds >= 1 => Ok(Format::Swiss { rounds }),
                    _ => Err(FormatError::BadRounds(n.to_string())),
                },
                None => Err(FormatError::Unknown(other.to_string())),
            },
        }
    }
}

/// One round: the games, and the entry that sits out when the count is odd.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Round {
    pub games: Vec<Pairing>,
    pub bye: Option<EntryId>,
}

/// Why no schedule could be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// Fewer than two entries (still playing) to pair.
    TooFewEntries { entries: usize },
    /// More entries than [`MAX_ENTRIES`].
    TooManyEntries { entries: usize },
    /// The points list does not have one value per entry.
    PointsMismatch { entries: usize, points: usize },
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::TooFewEntries { entries } => write!(
                f,
                "A tournament needs at least 2 entries to pair, and there are {entries}."
            ),
            PairingError::TooManyEntries { entries } => write!(
                f,
                "A tournament takes at most {MAX_ENTRIES} entries, and there are {entries}."
            ),
            PairingError::PointsMismatch { entries, points } => write!(
                f,
                "There are {entries} entries but {points} scores; give one score per entry."
            ),
        }
    }
}

impl std::error::Error for PairingError {}

fn check_count(entries: usize) -> Result<(), PairingError> {
    if entries < 2 {
        Err(PairingError::TooFewEntries { entries })
    } else if entries > MAX_ENTRIES {
        Err(PairingError::TooManyEntries { entries })
    } else {
        Ok(())
    }
}

/// A single round robin over `entries` entries by the circle method: `entries - 1` rounds when even,
/// `entries` rounds with one bye each when odd.
///
/// One position stays fixed while the others rotate; the fixed entry alternates sides by round, and a
/// rotating entry is red exactly when its distance from the round's pivot is odd, which gives every entry
/// as many reds as blues, give or take one.
///
/// ```
/// use gridarena_engine::tournament::pairing::{round_robin, Round};
///
/// let rounds = round_robin(5).unwrap();
/// assert_eq!(rounds.len(), 5);
/// assert!(rounds.iter().all(|r: &Round| r.games.len() == 2 && r.bye.is_some()));
/// assert!(round_robin(1).is_err());
/// ```
pub fn round_robin(entries: usize) -> Result<Vec<Round>, PairingError> {
    check_count(entries)?;
    // With an odd count a phantom entry (`entries`) holds the fixed position: meeting it is the bye.
    let m = entries + entries % 2;
    let fixed = m - 1;
    let k = m - 1; // rotating positions, and rounds
    let mut rounds = Vec::with_capacity(k);
    for r in 0..k {
        let mut round = Round::default();
        if fixed < entries {
            round.games.push(if r % 2 == 0 {
                Pairing {
                    red: fixed,
                    blue: r,
                }
            } else {
                Pairing {
                    red: r,
                    blue: fixed,
                }
            });
        } else {
            round.bye = Some(r);
        }
        for i in 1..m / 2 {
            let a = (r + i) % k;
            let b = (r + k - i) % k;
            round.games.push(if i % 2 == 1 {
                Pairing { red: a, blue: b }
            } else {
                Pairing { red: b, blue: a }
            });
        }
        rounds.push(round);
    }
    Ok(rounds)
}

/// A double round robin: the round robin, then every round again with the sides swapped.
pub fn double_round_robin(entries: usize) -> Result<Vec<Round>, PairingError> {
    let first = round_robin(entries)?;
    let second: Vec<Round> = first
        .iter()
        .map(|r| Round {
            games: r
                .games
                .iter()
                .map(|g| Pairing {
                    red: g.blue,
                    blue: g.red,
                })
                .collect(),
            bye: r.bye,
        })
        .collect();
    Ok(first.into_iter().chain(second).collect())
}

/// The seed of every game between `a` and `b` in a tournament seeded with `tournament_seed`: the same
/// whatever the order of `a` and `b`, so both games of a double round robin start alike and only the
/// seats differ.
pub fn pair_seed(tournament_seed: u64, a: EntryId, b: EntryId) -> u64 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let h = SplitMix64::new(tournament_seed).next_u64();
    let h = SplitMix64::new(h ^ lo as u64).next_u64();
    SplitMix64::new(h ^ hi as u64).next_u64()
}

/// The seed of one game: its pair's seed, in any format.
pub fn game_seed(tournament_seed: u64, game: Pairing) -> u64 {
    pair_seed(tournament_seed, game.red, game.blue)
}

/// What the history says about the entries, with hostile rows left out.
struct Record {
    entries: usize,
    /// Games between each pair, `entries * entries`, symmetric.
    met: Vec<u32>,
    /// Blue games minus red games per entry.
    balance: Vec<i64>,
    /// Whether the entry's latest game was as red.
    last_red: Vec<Option<bool>>,
}

impl Record {
    fn new(entries: usize, history: &[Pairing]) -> Self {
        let mut rec = Record {
            entries,
            met: vec![0; entries * entries],
            balance: vec![0; entries],
            last_red: vec![None; entries],
        };
        for g in history {
            if g.red >= entries || g.blue >= entries || g.red == g.blue {
                continue;
            }
            rec.met[g.red * entries + g.blue] += 1;
            rec.met[g.blue * entries + g.red] += 1;
            rec.balance[g.red] -= 1;
            rec.balance[g.blue] += 1;
            rec.last_red[g.red] = Some(true);
            rec.last_red[g.blue] = Some(false);
        }
        rec
    }

    fn met(&self, a: EntryId, b: EntryId) -> bool {
        self.met.get(a * self.entries + b).is_some_and(|&c| c > 0)
    }

    /// Whether the two can meet with both staying within one of balanced sides.
    fn sides_fit(&self, a: EntryId, b: EntryId) -> bool {
        let (ba, bb) = (self.balance[a], self.balance[b]);
        !(ba > 0 && bb > 0 || ba < 0 && bb < 0)
    }

    /// Red to the one who played blue more often, then to the one who was blue last, then to the
    /// higher ranked `a` on even boards and `b` on odd ones, so the top boards alternate.
    fn sides(&self, a: EntryId, b: EntryId, board: usize) -> Pairing {
        let a_red = match self.balance[a].cmp(&self.balance[b]) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => match (self.last_red[a], self.last_red[b]) {
                (Some(false), Some(true)) => true,
                (Some(true), Some(false)) => false,
                _ => board % 2 == 0,
            },
        };
        if a_red {
            Pairing { red: a, blue: b }
        } else {
            Pairing { red: b, blue: a }
        }
    }
}

/// A round's games before sides are given: higher-ranked entry first.
type Pairs = Vec<(EntryId, EntryId)>;

/// Rules of one search: how many repeat meetings it may use, whether sides must stay balanced.
struct Limits {
    repeats: usize,
    sides: bool,
}

/// Backtracking over the rank-ordered list: the first unpaired entry takes the best-ranked unpaired
/// entry that the limits allow, so equal scores meet first and the rest pair down.
fn search(
    order: &[EntryId],
    rec: &Record,
    limits: &Limits,
    steps: &mut u32,
    used: &mut [bool],
    out: &mut Vec<(EntryId, EntryId)>,
    repeats_used: usize,
) -> bool {
    let Some(i) = used.iter().position(|u| !u) else {
        return true;
    };
    used[i] = true;
    for j in i + 1..order.len() {
        if used[j] {
            continue;
        }
        if *steps == 0 {
            break;
        }
        *steps -= 1;
        let (p, q) = (order[i], order[j]);
        let repeat = usize::from(rec.met(p, q));
        if repeats_used + repeat > limits.repeats || limits.sides && !rec.sides_fit(p, q) {
            continue;
        }
        used[j] = true;
        out.push((p, q));
        if search(order, rec, limits, steps, used, out, repeats_used + repeat) {
            return true;
        }
        out.pop();
        used[j] = false;
    }
    used[i] = false;
    false
}

/// Pairs in rank order, each taking the best-ranked unpaired entry not met yet, else any: always
/// succeeds, used only when the searches ran out of steps.
fn greedy(order: &[EntryId], rec: &Record) -> Vec<(EntryId, EntryId)> {
    let mut used = vec![false; order.len()];
    let mut out = Vec::new();
    for i in 0..order.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let free = (i + 1..order.len()).filter(|&j| !used[j]);
        let pick = free
            .clone()
            .find(|&j| !rec.met(order[i], order[j]))
            .or_else(|| free.clone().next());
        if let Some(j) = pick {
            used[j] = true;
            out.push((order[i], order[j]));
        }
    }
    out
}

/// Pairs the next Swiss round.
///
/// `points` holds each entry's half-points (a win 2, a draw 1), `history` every game so far,
/// `byes_so_far` who has sat out, `withdrawn` who plays no more. Entries rank by points, then by roster
/// order. Searches run loosest-last: no repeat with sides kept within one, then no repeat; then
/// one repeat with sides kept, then one repeat, and so on; each is bounded by a step budget, so a round for 40 entries is paired in
/// milliseconds, and a greedy pairing follows if every search ran out. With an odd count the bye goes to
/// the lowest-ranked entry without a bye that still lets the search succeed (when everyone has had one,
/// to the lowest-ranked entry). Ids out of range, self-pairings and duplicates in the lists are ignored.
///
/// ```
/// use gridarena_engine::tournament::{pairing::swiss_round, Pairing};
///
/// // Round 1 of four: 0 meets 1 and 2 meets 3, the top boards alternating sides.
/// let round = swiss_round(4, &[0, 0, 0, 0], &[], &[], &[]).unwrap();
/// assert_eq!(
///     round.games,
///     vec![Pairing { red: 0, blue: 1 }, Pairing { red: 3, blue: 2 }]
/// );
/// assert_eq!(round.bye, None);
/// ```
pub fn swiss_round(
    entries: usize,
    points: &[u32],
    history: &[Pairing],
    byes_so_far: &[EntryId],
    withdrawn: &[EntryId],
) -> Result<Round, PairingError> {
    if entries > MAX_ENTRIES {
        return Err(PairingError::TooManyEntries { entries });
    }
    if points.len() != entries {
        return Err(PairingError::PointsMismatch {
            entries,
            points: points.len(),
        });
    }
    let mut order: Vec<EntryId> = (0..entries).filter(|e| !withdrawn.contains(e)).collect();
    if order.len() < 2 {
        return Err(PairingError::TooFewEntries {
            entries: order.len(),
        });
    }
    // Stable: equal points keep roster order.
    order.sort_by_key(|&e| std::cmp::Reverse(points[e]));
    let rec = Record::new(entries, history);

    // Bye candidates, lowest-ranked first: those without a bye, or everyone when all have had one.
    let candidates: Vec<Option<EntryId>> = if order.len() % 2 == 0 {
        vec![None]
    } else {
        let fresh: Vec<Option<EntryId>> = order
            .iter()
            .rev()
            .filter(|e| !byes_so_far.contains(e))
            .map(|&e| Some(e))
            .collect();
        if fresh.is_empty() {
            order.iter().rev().map(|&e| Some(e)).collect()
        } else {
            fresh
        }
    };

    let levels: Vec<Limits> = (0..=order.len() / 2)
        .flat_map(|repeats| [true, false].map(|sides| Limits { repeats, sides }))
        .collect();

    let mut total = ROUND_STEPS;
    let mut found: Option<(Option<EntryId>, Pairs)> = None;
    'levels: for limits in &levels {
        for &bye in &candidates {
            if total == 0 {
                break 'levels;
            }
            let rest: Vec<EntryId> = order.iter().copied().filter(|&e| Some(e) != bye).collect();
            let mut steps = SEARCH_STEPS.min(total);
            let before = steps;
            let mut used = vec![false; rest.len()];
            let mut out = Vec::with_capacity(rest.len() / 2);
            let ok = search(&rest, &rec, limits, &mut steps, &mut used, &mut out, 0);
            // Each try costs at least its list's length, so many cheap failures still end.
            total = total.saturating_sub((before - steps).max(rest.len() as u32));
            if ok {
                found = Some((bye, out));
                break 'levels;
            }
        }
    }
    let (bye, pairs) = found.unwrap_or_else(|| {
        let bye = candidates.first().copied().flatten();
        let rest: Vec<EntryId> = order.iter().copied().filter(|&e| Some(e) != bye).collect();
        (bye, greedy(&rest, &rec))
    });
    let games = pairs
        .iter()
        .enumerate()
        .map(|(board, &(a, b))| rec.sides(a, b, board))
        .collect();
    Ok(Round { games, bye })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    fn key(a: EntryId, b: EntryId) -> (EntryId, EntryId) {
        (a.min(b), a.max(b))
    }

    #[test]
    fn format_text_round_trips() {
        let table: &[(&str, Result<Format, FormatError>)] = &[
            ("round-robin", Ok(Format::RoundRobin)),
            ("double", Ok(Format::Double)),
            ("swiss", Ok(Format::Swiss { rounds: 7 })),
            ("swiss:5", Ok(Format::Swiss { rounds: 5 })),
            ("swiss:0", Err(FormatError::BadRounds("0".into()))),
            ("swiss:x", Err(FormatError::BadRounds("x".into()))),
            ("knockout", Err(FormatError::Unknown("knockout".into()))),
            ("", Err(FormatError::Unknown(String::new()))),
        ];
        for (text, want) in table {
            let got = text.parse::<Format>();
            assert_eq!(&got, want, "{text}");
            if let Ok(f) = got {
                assert_eq!(f.to_string().parse::<Format>(), Ok(f));
            }
        }
    }

    #[test]
    fn too_few_or_too_many_entries_are_refused() {
        for n in [0, 1, MAX_ENTRIES + 1, usize::MAX] {
            assert!(round_robin(n).is_err(), "{n}");
            assert!(double_round_robin(n).is_err(), "{n}");
        }
        assert_eq!(
            round_robin(1),
            Err(PairingError::TooFewEntries { entries: 1 })
        );
        assert!(PairingError::TooFewEntries { entries: 1 }
            .to_string()
            .ends_with('.'));
    }

    /// Games per ordered pair, byes per entry, blue minus red per entry.
    type Tally = (BTreeMap<(EntryId, EntryId), u32>, Vec<u32>, Vec<i64>);

    /// Games and byes per entry, and red/blue counts, over a schedule.
    fn tally(rounds: &[Round], n: usize) -> Tally {
        let mut pairs = BTreeMap::new();
        let mut byes = vec![0; n];
        let mut balance = vec![0i64; n];
        for r in rounds {
            let mut seen = BTreeSet::new();
            for g in &r.games {
                assert!(g.red < n && g.blue < n && g.red != g.blue);
                assert!(
                    seen.insert(g.red) && seen.insert(g.blue),
                    "twice in a round"
                );
                *pairs.entry((g.red, g.blue)).or_insert(0) += 1;
                balance[g.red] -= 1;
                balance[g.blue] += 1;
            }
            if let Some(b) = r.bye {
                assert!(seen.insert(b));
                byes[b] += 1;
            }
            assert_eq!(seen.len(), n, "everyone plays or sits out");
        }
        (pairs, byes, balance)
    }

    #[test]
    fn round_robin_meets_every_pair_once_with_balanced_sides() {
        for n in 2..=41 {
            let rounds = round_robin(n).unwrap();
            let want_rounds = if n % 2 == 0 { n - 1 } else { n };
            assert_eq!(rounds.len(), want_rounds, "n={n}");
            let (pairs, byes, balance) = tally(&rounds, n);
            let mut unordered = BTreeMap::new();
            for (&(a, b), &c) in &pairs {
                *unordered.entry(key(a, b)).or_insert(0) += c;
            }
            assert_eq!(unordered.len(), n * (n - 1) / 2, "n={n}");
            assert!(unordered.values().all(|&c| c == 1), "n={n}");
            let want_byes = u32::from(n % 2 == 1);
            assert!(byes.iter().all(|&b| b == want_byes), "n={n}: {byes:?}");
            assert!(balance.iter().all(|b| b.abs() <= 1), "n={n}: {balance:?}");
        }
    }

    #[test]
    fn double_round_robin_plays_each_ordered_pair_once_with_one_seed_per_pair() {
        for n in 2..=41 {
            let rounds = double_round_robin(n).unwrap();
            let (pairs, byes, balance) = tally(&rounds, n);
            assert_eq!(pairs.len(), n * (n - 1), "n={n}");
            assert!(pairs.values().all(|&c| c == 1), "n={n}");
            assert!(byes.iter().all(|&b| b == 2 * u32::from(n % 2 == 1)));
            assert!(balance.iter().all(|&b| b == 0), "n={n}");
            for &(a, b) in pairs.keys() {
                let s = game_seed(99, Pairing { red: a, blue: b });
                assert_eq!(s, game_seed(99, Pairing { red: b, blue: a }));
                assert_eq!(s, pair_seed(99, a, b));
            }
        }
        // Different pairs and different tournaments get different seeds.
        assert_ne!(pair_seed(1, 0, 1), pair_seed(1, 0, 2));
        assert_ne!(pair_seed(1, 0, 1), pair_seed(2, 0, 1));
        assert_ne!(pair_seed(1, 0, 1), pair_seed(1, 1, 1));
    }

    /// The fewest repeats of any pairing of `players` (with sides kept within one when `sides`), by
    /// trying every pairing; `None` when none exists.
    fn fewest_repeats(
        players: &[EntryId],
        met: &BTreeSet<(EntryId, EntryId)>,
        balance: &[i64],
        sides: bool,
    ) -> Option<usize> {
        let Some((&p, rest)) = players.split_first() else {
            return Some(0);
        };
        (0..rest.len())
            .filter_map(|j| {
                let q = rest[j];
                let (bp, bq) = (balance[p], balance[q]);
                if sides && (bp > 0 && bq > 0 || bp < 0 && bq < 0) {
                    return None;
                }
                let mut others = rest.to_vec();
                others.remove(j);
                let here = usize::from(met.contains(&key(p, q)));
                fewest_repeats(&others, met, balance, sides).map(|r| r + here)
            })
            .min()
    }

    fn balance_of(history: &[Pairing], n: usize) -> Vec<i64> {
        let mut balance = vec![0i64; n];
        for g in history {
            balance[g.red] -= 1;
            balance[g.blue] += 1;
        }
        balance
    }

    /// Plays `rounds` Swiss rounds with results drawn from `seed`. Every round must use the fewest
    /// repeats possible, and may leave sides more than one apart only when no pairing with that few
    /// repeats keeps them (both checked by brute force when `brute_force`, else required outright).
    fn simulate_swiss(n: usize, rounds: usize, seed: u64, brute_force: bool) {
        let mut rng = SplitMix64::new(seed);
        let mut points = vec![0u32; n];
        let mut history: Vec<Pairing> = Vec::new();
        let mut byes: Vec<EntryId> = Vec::new();
        for round_no in 0..rounds {
            let round = swiss_round(n, &points, &history, &byes, &[]).unwrap();
            let met: BTreeSet<_> = history.iter().map(|g| key(g.red, g.blue)).collect();
            let before = balance_of(&history, n);
            let repeats = round
                .games
                .iter()
                .filter(|g| met.contains(&key(g.red, g.blue)))
                .count();
            history.extend(round.games.iter().copied());
            let after = balance_of(&history, n);
            let balanced = after.iter().all(|b| b.abs() <= 1);
            let at = format!("n={n} seed={seed} round {round_no}");
            if brute_force {
                let candidates: Vec<EntryId> = if n % 2 == 0 {
                    vec![usize::MAX]
                } else {
                    (0..n).filter(|e| !byes.contains(e)).collect()
                };
                let best = |sides: bool| {
                    candidates
                        .iter()
                        .filter_map(|&b| {
                            let rest: Vec<EntryId> = (0..n).filter(|&e| e != b).collect();
                            fewest_repeats(&rest, &met, &before, sides)
                        })
                        .min()
                };
                assert_eq!(Some(repeats), best(false), "{at}: avoidable repeat");
                if !balanced {
                    assert!(
                        best(true).is_none_or(|r| r > repeats),
                        "{at}: avoidable side imbalance {after:?}"
                    );
                }
            } else {
                assert_eq!(repeats, 0, "{at}: a repeat");
                assert!(balanced, "{at}: sides {after:?}");
            }
            if let Some(b) = round.bye {
                points[b] += 2;
                byes.push(b);
            }
            for g in &round.games {
                match rng.below(3) {
                    0 => points[g.red] += 2,
                    1 => points[g.blue] += 2,
                    _ => {
                        points[g.red] += 1;
                        points[g.blue] += 1;
                    }
                }
            }
        }
        let mut sorted = byes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), byes.len(), "n={n}: a second bye {byes:?}");
    }

    #[test]
    fn simulated_swiss_avoids_repeats_keeps_sides_and_gives_one_bye_each() {
        for seed in 0..20 {
            simulate_swiss(6, 7, seed, true);
            simulate_swiss(9, 7, seed, true);
            simulate_swiss(40, 7, seed, false);
        }
    }

    #[test]
    fn swiss_pairs_equal_scores_and_gives_the_bye_to_the_lowest_ranked() {
        // 0 and 1 lead with 4 half-points, 2 and 3 have 2, 4 has none: 4 sits out.
        let round = swiss_round(5, &[4, 4, 2, 2, 0], &[], &[], &[]).unwrap();
        assert_eq!(round.bye, Some(4));
        let pairs: BTreeSet<_> = round.games.iter().map(|g| key(g.red, g.blue)).collect();
        assert_eq!(pairs, BTreeSet::from([(0, 1), (2, 3)]));
        // 4 has had a bye, so 3 (lowest without one) sits out.
        let round = swiss_round(5, &[4, 4, 2, 2, 0], &[], &[4], &[]).unwrap();
        assert_eq!(round.bye, Some(3));
        // 0 and 1 have met: 0 pairs down to 2.
        let met = [Pairing { red: 0, blue: 1 }];
        let round = swiss_round(4, &[4, 4, 2, 2], &met, &[], &[]).unwrap();
        let pairs: BTreeSet<_> = round.games.iter().map(|g| key(g.red, g.blue)).collect();
        assert_eq!(pairs, BTreeSet::from([(0, 2), (1, 3)]));
        // Red to whoever played blue more.
        let hist = [Pairing { red: 2, blue: 0 }, Pairing { red: 1, blue: 3 }];
        let round = swiss_round(4, &[2, 2, 2, 2], &hist, &[], &[]).unwrap();
        assert!(round.games.contains(&Pairing { red: 0, blue: 1 }));
    }

    #[test]
    fn swiss_never_pairs_withdrawn_entries() {
        let round = swiss_round(6, &[0; 6], &[], &[], &[1, 4]).unwrap();
        let playing: BTreeSet<_> = round.games.iter().flat_map(|g| [g.red, g.blue]).collect();
        assert_eq!(playing, BTreeSet::from([0, 2, 3, 5]));
        assert_eq!(round.bye, None);
    }

    #[test]
    fn swiss_survives_hostile_input() {
        let junk = [
            Pairing { red: 0, blue: 0 },
            Pairing { red: 99, blue: 1 },
            Pairing {
                red: 1,
                blue: usize::MAX,
            },
            Pairing { red: 0, blue: 1 },
            Pairing { red: 0, blue: 1 },
        ];
        // Entries, points, byes so far, withdrawn, whether a round comes back.
        type Case = (usize, Vec<u32>, Vec<EntryId>, Vec<EntryId>, bool);
        let table: &[Case] = &[
            (0, vec![], vec![], vec![], false),
            (1, vec![0], vec![], vec![], false),
            (3, vec![0, 0], vec![], vec![], false),
            (
                3,
                vec![0, 0, 0],
                vec![7, 7, usize::MAX],
                vec![usize::MAX, 9],
                true,
            ),
            (4, vec![u32::MAX; 4], vec![0, 0, 1], vec![2, 2], true),
            (4, vec![0; 4], vec![], vec![0, 1, 2, 3], false),
            (5, vec![0; 5], vec![0, 1, 2, 3, 4], vec![], true),
            (
                MAX_ENTRIES + 1,
                vec![0; MAX_ENTRIES + 1],
                vec![],
                vec![],
                false,
            ),
        ];
        for (n, points, byes, withdrawn, ok) in table {
            let got = swiss_round(*n, points, &junk, byes, withdrawn);
            assert_eq!(got.is_ok(), *ok, "n={n}: {got:?}");
            if let Ok(round) = got {
                let ids: Vec<EntryId> = round
                    .games
                    .iter()
                    .flat_map(|g| [g.red, g.blue])
                    .chain(round.bye)
                    .collect();
                let distinct: BTreeSet<_> = ids.iter().copied().collect();
                assert_eq!(distinct.len(), ids.len(), "n={n}: twice in a round");
                assert!(ids.iter().all(|e| e < n && !withdrawn.contains(e)), "n={n}");
                assert_eq!(
                    ids.len()
                        + withdrawn
                            .iter()
                            .filter(|&&w| w < *n)
                            .collect::<BTreeSet<_>>()
                            .len(),
                    *n
                );
            }
        }
        // Withdrawn leaving 2 of 4: they play.
        let round = swiss_round(4, &[0; 4], &junk, &[], &[0, 2]).unwrap();
        assert_eq!(round.games.len(), 1);
    }

    #[test]
    fn swiss_after_everyone_has_met_still_pairs_everyone() {
        for n in [39, 40, MAX_ENTRIES - 1] {
            let history: Vec<Pairing> = double_round_robin(n)
                .unwrap()
                .into_iter()
                .flat_map(|r| r.games)
                .collect();
            let points: Vec<u32> = (0..n as u32).map(|i| i % 5).collect();
            let byes: Vec<EntryId> = (0..n).collect();
            let round = swiss_round(n, &points, &history, &byes, &[]).unwrap();
            assert_eq!(round.games.len(), n / 2, "n={n}");
            assert_eq!(round.bye.is_some(), n % 2 == 1, "n={n}");
        }
    }
}
