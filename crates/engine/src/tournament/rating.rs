//! A rating with uncertainty for every entry, so the table can show which entries the games so far cannot
//! tell apart ("these three are statistically tied") instead of only the points order.
//!
//! Decision: Weng-Lin (Weng & Lin 2011, "A Bayesian Approximation Method for Online Ranking", the model
//! behind OpenSkill and close to TrueSkill), computed by the maintained `skillratings` crate. It gives each
//! entry a mean `mu` and an uncertainty `sigma` that shrinks with every game, it handles draws, and it is a
//! plain update per game, so it needs no iteration to converge. Bradley-Terry, the other candidate, fits all
//! games at once but has no finite estimate for an undefeated entry without a prior, which is exactly the
//! entry a teacher looks at first.
//!
//! The crate's defaults are kept: every entry starts at `mu` 25, `sigma` 25/3, with `beta` 25/6 (the
//! difference in `mu` that gives about a 2-in-3 chance of winning). Only the spread of the numbers depends
//! on them, not which entries come out tied.
//!
//! Weng-Lin is an online update, so the result depends on the order of the games. [`ratings`] therefore
//! recomputes everything from scratch from the finished games in the order given, and the caller passes
//! them in schedule order: the page and the CLI run games concurrently, and the same results must give the
//! same ratings whichever game happened to finish first.

use skillratings::weng_lin::{weng_lin, WengLinConfig, WengLinRating};
use skillratings::Outcomes;

use super::{EntryId, Finished, Score, MAX_ENTRIES};

/// An entry's rating: the mean skill `mu` and its uncertainty `sigma` (one standard deviation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Rating {
    /// The rating of an entry that has not played yet: `mu` 25, `sigma` 25/3, the Weng-Lin defaults.
    pub const INITIAL: Rating = Rating {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };

    /// `mu - 3 sigma`: the usual ranking estimate, a skill the entry very probably has at least, so an
    /// entry is not ranked high on one lucky game.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    /// `mu - 2 sigma`: the bottom of the ~95% interval the table shows as "mu ± 2σ".
    pub fn low(&self) -> f64 {
        self.mu - 2.0 * self.sigma
    }

    /// `mu + 2 sigma`: the top of the ~95% interval the table shows as "mu ± 2σ".
    pub fn high(&self) -> f64 {
        self.mu + 2.0 * self.sigma
    }
}

impl Default for Rating {
    fn default() -> Self {
        Rating::INITIAL
    }
}

/// One rating per entry from every game in order, for `entries.min(MAX_ENTRIES)` entries (the same cap as
/// the schedule and the table, so a hostile count cannot make this allocate without bound).
///
/// Games naming an entry out of that range, or an entry against itself, are skipped rather than refused:
/// a rating is a view of the table, which has already said what was wrong with them. Should an update ever
/// come out non-finite, both entries keep their previous ratings, so no NaN or infinity reaches the page.
///
/// # Example
///
/// ```
/// use gridarena_engine::tournament::rating::{ratings, tied};
/// use gridarena_engine::tournament::{Finished, Pairing, Score};
///
/// let game = |red, blue, score| Finished { pairing: Pairing { red, blue }, score };
/// // Entry 0 beats 1 and 2; 1 and 2 draw.
/// let games = [game(0, 1, Score::RedWins), game(2, 0, Score::BlueWins), game(1, 2, Score::Draw)];
/// let r = ratings(3, &games);
///
/// assert!(r[0].mu > r[1].mu && r[0].mu > r[2].mu);
/// assert!(r.iter().all(|x| x.sigma < 25.0 / 3.0)); // everyone played, so everyone is better known
/// assert!(tied(r[0], r[1])); // three games are far too few to separate them
/// ```
pub fn ratings(entries: usize, games: &[Finished]) -> Vec<Rating> {
    let entries = entries.min(MAX_ENTRIES);
    let config = WengLinConfig::new();
    let mut table = vec![Rating::INITIAL; entries];
    for game in games {
        let (red, blue) = (game.pairing.red, game.pairing.blue);
        if red == blue {
            continue;
        }
        let (Some(&red_before), Some(&blue_before)) = (table.get(red), table.get(blue)) else {
            continue;
        };
        // Outcomes are from the first player's point of view: red's.
        let outcome = match game.score {
            Score::RedWins => Outcomes::WIN,
            Score::BlueWins => Outcomes::LOSS,
            Score::Draw => Outcomes::DRAW,
        };
        let (red_after, blue_after) = weng_lin(
            &to_crate(red_before),
            &to_crate(blue_before),
            &outcome,
            &config,
        );
        let (red_after, blue_after) = (from_crate(red_after), from_crate(blue_after));
        // Both or neither: a game that moves only one side would no longer be zero-sum in `mu`.
        if is_usable(red_after) && is_usable(blue_after) {
            table[red] = red_after;
            table[blue] = blue_after;
        }
    }
    table
}

/// Whether two ratings are statistically indistinguishable: `|mu_a - mu_b| < 2 * sqrt(sigma_a² + sigma_b²)`,
/// that is, the difference of the two skills is within about two of its standard deviations (~95%).
/// False when either rating is not finite, so a broken rating never merges groups.
pub fn tied(a: Rating, b: Rating) -> bool {
    // `hypot` is sqrt(a² + b²) without overflowing for huge sigmas.
    (a.mu - b.mu).abs() < 2.0 * a.sigma.hypot(b.sigma)
}

/// The tie group of every position of `ranked` (entries best first, however the caller ranked them),
/// numbered from 0. A group is a maximal run of consecutive entries that are each [`tied`] with the group's
/// first entry; comparing with the first entry rather than the previous one stops a long chain of small
/// steps from tying the top of the table with the bottom.
///
/// An entry without a rating (out of range of `ratings`) is a group of its own and ties with nothing.
///
/// For example, with entries 0, 1 and 2 within a point of each other (sigma 1) and entry 3 far below, ranked
/// `[0, 1, 2, 3]` gives `[0, 0, 0, 1]`.
pub fn tie_groups(ranked: &[EntryId], ratings: &[Rating]) -> Vec<usize> {
    let mut groups = Vec::with_capacity(ranked.len());
    let mut group = 0;
    let mut first: Option<Rating> = None;
    for (position, &entry) in ranked.iter().enumerate() {
        let rating = ratings.get(entry).copied();
        let same = matches!((first, rating), (Some(f), Some(r)) if tied(f, r));
        if !same {
            if position > 0 {
                group += 1;
            }
            first = rating;
        }
        groups.push(group);
    }
    groups
}

fn to_crate(rating: Rating) -> WengLinRating {
    WengLinRating {
        rating: rating.mu,
        uncertainty: rating.sigma,
    }
}

fn from_crate(rating: WengLinRating) -> Rating {
    Rating {
        mu: rating.rating,
        sigma: rating.uncertainty,
    }
}

/// A rating fit to keep: finite, with a positive uncertainty (a zero sigma would make every later update
/// divide towards nothing and tie nobody).
fn is_usable(rating: Rating) -> bool {
    rating.mu.is_finite() && rating.sigma.is_finite() && rating.sigma > 0.0
}

#[cfg(test)]
mod tests {
    use super::super::Pairing;
    use super::*;
    use Score::{BlueWins, Draw, RedWins};

    fn game(red: EntryId, blue: EntryId, score: Score) -> Finished {
        Finished {
            pairing: Pairing { red, blue },
            score,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// One win between two fresh entries. By hand: c = sqrt(2 beta² + 2 sigma²) = sqrt(2 (25/6)² +
    /// 2 (25/3)²) = 13.176..., the expected score is p = 1/2, so mu moves by sigma²/c · (1 - p) =
    /// 69.444.../13.176... · 1/2 = 2.635231383..., and sigma becomes sigma · sqrt(1 - (sigma/c)³ p (1 - p))
    /// = 8.333... · sqrt(1 - 0.063245...) = 8.065506316.... The same figures (27.63523138347365,
    /// 8.065506316323548, 22.36476861652635) are in skillratings' own test `test_weng`.
    #[test]
    fn one_win_from_defaults_matches_the_hand_computation() {
        let r = ratings(2, &[game(0, 1, RedWins)]);
        assert!(close(r[0].mu, 27.635_231_383_473_65), "{r:?}");
        assert!(close(r[1].mu, 22.364_768_616_526_35), "{r:?}");
        assert!(close(r[0].sigma, 8.065_506_316_323_548), "{r:?}");
        assert!(close(r[1].sigma, 8.065_506_316_323_548), "{r:?}");

        // Blue winning is the mirror image.
        let mirrored = ratings(2, &[game(1, 0, BlueWins)]);
        assert_eq!(mirrored, r);
    }

    #[test]
    fn a_draw_between_equals_leaves_their_mus_equal() {
        let r = ratings(2, &[game(0, 1, Draw)]);
        assert_eq!(r[0].mu, r[1].mu);
        assert_eq!(r[0].mu, 25.0);
        assert_eq!(r[0].sigma, r[1].sigma);
        assert!(r[0].sigma < Rating::INITIAL.sigma);
    }

    #[test]
    fn sigma_shrinks_with_every_game() {
        let games = [
            game(0, 1, RedWins),
            game(1, 2, Draw),
            game(2, 0, BlueWins),
            game(0, 1, Draw),
            game(2, 1, RedWins),
            game(0, 2, BlueWins),
        ];
        let mut before = ratings(3, &[]);
        for played in 1..=games.len() {
            let after = ratings(3, &games[..played]);
            let last = games[played - 1].pairing;
            for entry in 0..3 {
                if entry == last.red || entry == last.blue {
                    assert!(after[entry].sigma < before[entry].sigma, "game {played}");
                } else {
                    assert_eq!(after[entry], before[entry], "game {played}");
                }
            }
            before = after;
        }
    }

    /// The order of the games is the schedule's and does matter to an online update; what is promised is
    /// that the same games in the same order always give exactly the same numbers.
    #[test]
    fn the_same_input_gives_bit_identical_output() {
        let games: Vec<Finished> = (0..200)
            .map(|i| {
                let score = [RedWins, BlueWins, Draw][i % 3];
                game(i % 7, (i * 3 + 1) % 7, score)
            })
            .collect();
        let bits = |r: Vec<Rating>| -> Vec<(u64, u64)> {
            r.iter()
                .map(|x| (x.mu.to_bits(), x.sigma.to_bits()))
                .collect()
        };
        assert_eq!(bits(ratings(7, &games)), bits(ratings(7, &games)));
    }

    #[test]
    fn an_undefeated_entry_stays_finite() {
        let games: Vec<Finished> = (0..10_000).map(|i| game(0, 1 + i % 3, RedWins)).collect();
        let r = ratings(4, &games);
        assert!(r.iter().all(|x| is_usable(*x)), "{r:?}");
        assert!(r[0].mu > r[1].mu && r[0].mu > r[2].mu && r[0].mu > r[3].mu);
        assert!(!tied(r[0], r[1]));
    }

    #[test]
    fn games_out_of_range_or_against_itself_are_skipped() {
        let valid = game(0, 1, RedWins);
        let noisy = [
            game(0, 3, RedWins),
            game(3, 0, BlueWins),
            game(usize::MAX, 1, Draw),
            game(2, 2, RedWins),
            valid,
            game(1, 1, Draw),
        ];
        assert_eq!(ratings(3, &noisy), ratings(3, &[valid]));
        assert_eq!(ratings(0, &noisy), Vec::new());
    }

    #[test]
    fn entries_are_capped() {
        let r = ratings(usize::MAX, &[game(0, MAX_ENTRIES, RedWins)]);
        assert_eq!(r.len(), MAX_ENTRIES);
        assert!(r.iter().all(|x| *x == Rating::INITIAL));
    }

    #[test]
    fn interval_and_conservative_estimate() {
        let r = Rating {
            mu: 30.0,
            sigma: 2.0,
        };
        assert_eq!(r.conservative(), 24.0);
        assert_eq!(r.low(), 26.0);
        assert_eq!(r.high(), 34.0);
        assert_eq!(Rating::default(), Rating::INITIAL);
    }

    #[test]
    fn tied_is_symmetric_and_refuses_non_finite_ratings() {
        let a = Rating {
            mu: 30.0,
            sigma: 1.0,
        };
        let b = Rating {
            mu: 27.5,
            sigma: 1.0,
        };
        // 2.5 < 2 * sqrt(2) = 2.83, so tied; 3 is not.
        assert!(tied(a, b) && tied(b, a));
        let c = Rating { mu: 27.0, ..b };
        assert!(!tied(a, c) && !tied(c, a));
        let nan = Rating {
            mu: f64::NAN,
            sigma: 1.0,
        };
        assert!(!tied(a, nan) && !tied(nan, a) && !tied(nan, nan));
    }

    #[test]
    fn tie_groups_three_close_and_one_far() {
        let at = |mu| Rating { mu, sigma: 1.0 };
        // Listed out of roster order to check that groups follow `ranked`, not entry numbers.
        let table = [at(29.0), at(10.0), at(30.0), at(28.0)];
        assert_eq!(tie_groups(&[2, 0, 3, 1], &table), vec![0, 0, 0, 1]);
    }

    #[test]
    fn tie_groups_compare_with_the_first_of_the_group() {
        let at = |mu| Rating { mu, sigma: 1.0 };
        // 28 ties 30 and 26 ties 28, but 26 does not tie 30 (4 > 2.83), so it opens a new group.
        let table = [at(30.0), at(28.0), at(26.0), at(25.0)];
        assert_eq!(tie_groups(&[0, 1, 2, 3], &table), vec![0, 0, 1, 1]);
    }

    #[test]
    fn tie_groups_give_unrated_entries_their_own_group() {
        let table = [Rating::INITIAL, Rating::INITIAL];
        assert_eq!(tie_groups(&[0, 7, 1], &table), vec![0, 1, 2]);
        assert_eq!(tie_groups(&[0, 1], &table), vec![0, 0]);
        assert_eq!(tie_groups(&[], &table), Vec::<usize>::new());
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::super::Pairing;
    use super::*;
    use proptest::prelude::*;

    fn score() -> impl Strategy<Value = Score> {
        prop_oneof![
            Just(Score::RedWins),
            Just(Score::BlueWins),
            Just(Score::Draw)
        ]
    }

    proptest! {
        /// Whatever the games, every rating is finite with a positive sigma, one per entry.
        #[test]
        fn ratings_are_always_usable(
            entries in 0usize..12,
            games in prop::collection::vec((0usize..14, 0usize..14, score()), 0..300),
        ) {
            let games: Vec<Finished> = games
                .into_iter()
                .map(|(red, blue, score)| Finished { pairing: Pairing { red, blue }, score })
                .collect();
            let r = ratings(entries, &games);
            prop_assert_eq!(r.len(), entries);
            prop_assert!(r.iter().all(|x| is_usable(*x)));
        }
    }
}
