//! A whole tournament as a plain value: the schedule, which games may start now, the finished games,
//! withdrawals, and the bundle it is saved to and resumed from.
//!
//! The page and `gridarena halma tournament` hold one [`Tournament`] each and do only the playing: they
//! ask [`Tournament::next_games`] what to start, play each through a [`Match`](crate::halma::Match) ([`super::game::start`]), and hand its
//! [`GameReport`] to [`Tournament::finish`]. Everything that decides the outcome is here:
//!
//! - Round robins are scheduled whole at the start; a Swiss round is paired when the one before it has
//!   finished, from the standings then (withdrawn entries left out).
//! - A game starts when fewer than `concurrency` games run and neither entry plays `per_entry` games
//!   already; games start in schedule order, so with enough room a round robin's later rounds overlap the
//!   earlier ones' slow games.
//! - An entry that did not answer once in `withdraw_after` games in a row is withdrawn, with the cause;
//!   its games not yet started are lost without being played ([`Ending::Withdrawn`]).
//! - Games are kept in the order they finished; replaying that order (what [`Tournament::from_bundle`]
//!   does) rebuilds the same withdrawals and the same Swiss pairings, so a resumed tournament continues
//!   exactly where it stopped. Games that were in progress are simply started again from their seed.

use super::game::{Fixture, GameReport};
use super::milestone::MilestoneResult;
use super::pairing::{double_round_robin, game_seed, round_robin, swiss_round, Format, Round};
use super::roster::{Roster, RosterError};
use super::settings::Settings;
use super::standings::{Standings, StandingsError};
use super::{EntryId, Finished, Pairing, Score};
use crate::halma::play::Ending;
use crate::halma::record::ENGINE_VERSION;
use crate::halma::{AiPlayer, ContentType, Team};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The `format` of every bundle.
pub const BUNDLE_FORMAT: &str = "gridarena-halma-tournament";
/// The bundle version this build writes; it reads every version up to it. Version 2 added code
/// entries (their files in the roster), the `stalled` ending, the `consecutive` policy and `codeOnly`;
/// a version 1 bundle reads as it did.
pub const BUNDLE_VERSION: u32 = 2;
/// The largest bundle read: a 40-entry double round robin of long games is a few megabytes.
pub const MAX_BUNDLE_BYTES: usize = 256 * 1024 * 1024;

/// An entry taken out of the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Withdrawal {
    pub entry: EntryId,
    pub cause: String,
    /// How many games had finished when it happened: where a resumed tournament applies it again.
    pub after_games: usize,
    /// Withdrawn by the organiser rather than by the no-answer rule.
    #[serde(default)]
    pub by_organiser: bool,
}

/// Why a tournament could not be set up, resumed or told something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentError {
    Roster(RosterError),
    Settings(String),
    /// Fewer than two entries.
    TooFewEntries {
        entries: usize,
    },
    /// A game report for a game that is not in the schedule, or not as scheduled.
    UnknownGame {
        number: usize,
    },
    /// A second report for one game.
    AlreadyFinished {
        number: usize,
    },
    /// A withdrawal naming an entry not in the roster.
    NoSuchEntry {
        entry: EntryId,
    },
    /// A web AI or a program in a tournament for code entries only.
    NotCode {
        entry: EntryId,
        name: String,
    },
    /// The bundle is not one this build reads.
    Bundle(String),
    /// The standings refused the results (a bug, or an edited bundle).
    Standings(StandingsError),
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentError::Roster(e) => e.fmt(f),
            TournamentError::Settings(why) => f.write_str(why),
            TournamentError::TooFewEntries { entries } => write!(
                f,
                "A tournament needs at least 2 entries, and the roster has {entries}."
            ),
            TournamentError::UnknownGame { number } => write!(
                f,
                "Game {} is not in this tournament's schedule (or not with these players and seed).",
                number + 1
            ),
            TournamentError::AlreadyFinished { number } => {
                write!(f, "Game {} has already finished.", number + 1)
            }
            TournamentError::NoSuchEntry { entry } => {
                write!(f, "There is no entry {} in the roster.", entry + 1)
            }
            TournamentError::NotCode { entry, name } => write!(
                f,
                "Entry {} ({name}) is not code, and this tournament takes code entries and built-in AIs only: a web AI or a program could be played by hand.",
                entry + 1
            ),
            TournamentError::Bundle(why) => write!(f, "This is not a tournament bundle: {why}"),
            TournamentError::Standings(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TournamentError {}

/// A tournament in progress.
#[derive(Clone, Debug)]
pub struct Tournament {
    roster: Roster,
    players: Vec<AiPlayer>,
    /// Each milestone's AI, numbered after the roster.
    milestone_players: Vec<AiPlayer>,
    settings: Settings,
    /// Every game scheduled so far (a Swiss adds a round at a time), numbered by place.
    fixtures: Vec<Fixture>,
    /// Each scheduled round's bye.
    byes: Vec<Option<EntryId>>,
    /// Reports by fixture number.
    reports: Vec<Option<GameReport>>,
    /// Fixture numbers in the order their games finished.
    finished: Vec<usize>,
    running: Vec<bool>,
    withdrawals: Vec<Withdrawal>,
    /// Whether the milestone games are in the schedule: at once after a round robin's rounds, after the
    /// last round of a Swiss (whose pairing waits for every scheduled game to finish).
    milestones_scheduled: bool,
    /// Per entry: games in a row, most recent last, without a single answer.
    silent_streak: Vec<u32>,
}

impl Tournament {
    /// A tournament of `roster` under `settings`, with its first round (or all of a round robin) scheduled.
    pub fn new(roster: Roster, settings: Settings) -> Result<Tournament, TournamentError> {
        let checked = roster.check().map_err(TournamentError::Roster)?;
        settings.check().map_err(TournamentError::Settings)?;
        let entries = checked.len();
        if entries < 2 {
            return Err(TournamentError::TooFewEntries { entries });
        }
        if settings.code_only {
            if let Some(i) = checked
                .iter()
                .position(|(_, p)| !matches!(p, AiPlayer::Code(_) | AiPlayer::BuiltIn(_)))
            {
                return Err(TournamentError::NotCode {
                    entry: i,
                    name: checked[i].0.name.clone(),
                });
            }
        }
        let roster = Roster {
            entries: checked.iter().map(|(e, _)| e.clone()).collect(),
        };
        let players = checked.into_iter().map(|(_, p)| p).collect();
        let milestone_players = settings
            .milestones
            .iter()
            .map(|m| AiPlayer::BuiltIn(m.bot))
            .collect();
        let mut t = Tournament {
            roster,
            players,
            milestone_players,
            settings,
            fixtures: Vec::new(),
            byes: Vec::new(),
            reports: Vec::new(),
            finished: Vec::new(),
            running: Vec::new(),
            withdrawals: Vec::new(),
            milestones_scheduled: false,
            silent_streak: vec![0; entries],
        };
        let fixed = match t.settings.format {
            Format::RoundRobin => Some(round_robin(entries)),
            Format::Double => Some(double_round_robin(entries)),
            Format::Swiss { .. } => None,
        };
        match fixed {
            Some(rounds) => {
                for round in rounds.map_err(|e| TournamentError::Settings(e.to_string()))? {
                    t.schedule(round);
                }
            }
            None => {
                t.pair_swiss_round();
            }
        }
        t.schedule_milestones();
        Ok(t)
    }

    /// A tournament of `roster` under `settings` whose schedule is `fixtures` and nothing else, each
    /// fixture's round given a bye slot with no bye in it: for a schedule decided outside the tournament's
    /// formats, such as a comparison's ([`crate::compare::tournament`]). The roster and the settings are
    /// checked as by [`Tournament::new`]; the format must be a round robin (a Swiss would pair rounds of
    /// its own later) and there must be no milestones (their games would come on top). Each fixture must
    /// be numbered by its place, in rounds that never go back, between two different entries of the
    /// roster. Its bundle does not read back with this schedule: [`Tournament::from_bundle`] schedules
    /// the format's.
    pub fn with_fixtures(
        roster: Roster,
        settings: Settings,
        fixtures: impl IntoIterator<Item = Fixture>,
    ) -> Result<Tournament, TournamentError> {
        if settings.format != Format::RoundRobin || !settings.milestones.is_empty() {
            return Err(TournamentError::Settings(
                "A given schedule takes a round robin with no milestones.".to_string(),
            ));
        }
        let mut t = Tournament::new(roster, settings)?;
        t.fixtures.clear();
        t.reports.clear();
        t.running.clear();
        t.byes.clear();
        let entries = t.entries();
        for f in fixtures {
            let place = t.fixtures.len();
            let last_round = t.byes.len().checked_sub(1);
            if f.number != place
                || f.red >= entries
                || f.blue >= entries
                || f.red == f.blue
                || last_round.is_some_and(|r| f.round < r)
            {
                return Err(TournamentError::Settings(format!(
                    "Game {place} of the schedule does not fit it: {f:?}."
                )));
            }
            while t.byes.len() <= f.round {
                t.byes.push(None);
            }
            t.fixtures.push(f);
            t.reports.push(None);
            t.running.push(false);
        }
        Ok(t)
    }

    /// Schedules every milestone's two rounds (each entry against its AI, then with the seats
    /// swapped) once the main schedule is complete; true if it did.
    fn schedule_milestones(&mut self) -> bool {
        if self.milestones_scheduled || self.swiss_round_due() {
            return false;
        }
        self.milestones_scheduled = true;
        let milestones = self.settings.milestones.len();
        for m in 0..milestones {
            let bot = self.milestone_entry(m);
            for swapped in [false, true] {
                let games = (0..self.entries())
                    .map(|entry| match swapped {
                        false => Pairing {
                            red: entry,
                            blue: bot,
                        },
                        true => Pairing {
                            red: bot,
                            blue: entry,
                        },
                    })
                    .collect();
                self.schedule(Round { games, bye: None });
            }
        }
        milestones > 0
    }

    /// The entry number milestone `m`'s AI plays as: after the roster's.
    pub fn milestone_entry(&self, m: usize) -> EntryId {
        self.entries() + m
    }

    /// Whether `f` is a milestone game (not counted in the standings).
    pub fn is_milestone_game(&self, f: &Fixture) -> bool {
        f.red >= self.entries() || f.blue >= self.entries()
    }

    /// Each entry's results against each milestone, entry by entry in roster order.
    pub fn milestone_results(&self) -> Vec<Vec<MilestoneResult>> {
        (0..self.entries())
            .map(|entry| {
                self.settings
                    .milestones
                    .iter()
                    .enumerate()
                    .map(|(m, &milestone)| {
                        let bot = self.milestone_entry(m);
                        let (mut games, mut half_points) = (0, 0);
                        for r in self.finished() {
                            let f = &r.fixture;
                            let side = match (f.red, f.blue) {
                                (red, blue) if red == entry && blue == bot => Team::Red,
                                (red, blue) if red == bot && blue == entry => Team::Blue,
                                _ => continue,
                            };
                            games += 1;
                            half_points += match (r.played.ending.score(), side) {
                                (Score::Draw, _) => 1,
                                (Score::RedWins, Team::Red) | (Score::BlueWins, Team::Blue) => 2,
                                _ => 0,
                            };
                        }
                        MilestoneResult {
                            milestone,
                            entry,
                            games,
                            half_points,
                            passed: games == 2 && milestone.passed(half_points, games),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn schedule(&mut self, round: Round) {
        let number = self.byes.len();
        for pairing in round.games {
            self.fixtures.push(Fixture {
                number: self.fixtures.len(),
                round: number,
                red: pairing.red,
                blue: pairing.blue,
                seed: game_seed(self.settings.seed, pairing),
            });
            self.reports.push(None);
            self.running.push(false);
        }
        self.byes.push(round.bye);
    }

    /// Whether a Swiss round is still to be paired: rounds left and two entries to pair.
    fn swiss_round_due(&self) -> bool {
        let Format::Swiss { rounds } = self.settings.format else {
            return false;
        };
        self.byes.len() < rounds as usize && self.entries() - self.withdrawals.len() >= 2
    }

    /// Pairs the next Swiss round if one is due and the last one has finished; true if it did.
    fn pair_swiss_round(&mut self) -> bool {
        if !self.swiss_round_due() || self.current_round().is_some() {
            return false;
        }
        let Ok(table) = self.standings() else {
            return false;
        };
        let mut points = vec![0; self.entries()];
        for row in table.ranked() {
            points[row.entry] = row.half_points;
        }
        let history: Vec<_> = self
            .fixtures
            .iter()
            .filter(|f| !self.is_milestone_game(f))
            .map(Fixture::pairing)
            .collect();
        let byes: Vec<EntryId> = self.byes.iter().flatten().copied().collect();
        let withdrawn: Vec<EntryId> = self.withdrawals.iter().map(|w| w.entry).collect();
        match swiss_round(self.entries(), &points, &history, &byes, &withdrawn) {
            Ok(round) => {
                self.schedule(round);
                true
            }
            Err(_) => false,
        }
    }

    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn entries(&self) -> usize {
        self.players.len()
    }

    /// The player of `entry`: a roster entry's, or a milestone's built-in AI.
    pub fn player(&self, entry: EntryId) -> Option<&AiPlayer> {
        self.players.get(entry).or_else(|| {
            self.milestone_players
                .get(entry.saturating_sub(self.entries()))
        })
    }

    /// How `entry`'s requests are labelled: what its roster entry says (a web AI's), else the default.
    /// Both hosts ask what this says, so the same roster sends the same requests in the page and on
    /// the command line.
    pub fn content_type(&self, entry: EntryId) -> ContentType {
        self.roster
            .entries
            .get(entry)
            .map_or_else(ContentType::default, |e| e.content_type)
    }

    /// The names, in roster order, then each milestone's ("greedy (milestone)"), so any fixture's
    /// entries have a name here.
    pub fn names(&self) -> Vec<String> {
        let mut names = self.roster.names();
        names.extend(
            self.settings
                .milestones
                .iter()
                .map(|m| format!("{} (milestone)", m.bot)),
        );
        names
    }

    /// Every game scheduled so far.
    pub fn fixtures(&self) -> &[Fixture] {
        &self.fixtures
    }

    /// The report of game `number`, once it has finished.
    pub fn report(&self, number: usize) -> Option<&GameReport> {
        self.reports.get(number).and_then(Option::as_ref)
    }

    /// Every finished game, in the order it finished.
    pub fn finished(&self) -> impl Iterator<Item = &GameReport> {
        self.finished.iter().filter_map(|&n| self.report(n))
    }

    /// How many games have finished.
    pub fn finished_count(&self) -> usize {
        self.finished.len()
    }

    /// The games the whole tournament will have: exact for round robins; for a Swiss, the rounds times
    /// the games a round has now.
    pub fn total_games(&self) -> usize {
        match self.settings.format {
            Format::Swiss { rounds } if !self.milestones_scheduled => {
                let active = self.entries() - self.withdrawals.len();
                let per_round = active / 2;
                let left = (rounds as usize).saturating_sub(self.byes.len());
                let milestones = 2 * self.settings.milestones.len() * self.entries();
                self.fixtures.len() + left * per_round + milestones
            }
            _ => self.fixtures.len(),
        }
    }

    /// Games being played now.
    pub fn running(&self) -> Vec<Fixture> {
        self.fixtures
            .iter()
            .filter(|f| self.running[f.number])
            .copied()
            .collect()
    }

    /// The round of the earliest game not finished; `None` when every scheduled game has.
    pub fn current_round(&self) -> Option<usize> {
        self.fixtures
            .iter()
            .find(|f| self.reports[f.number].is_none())
            .map(|f| f.round)
    }

    /// Rounds scheduled so far.
    pub fn rounds_scheduled(&self) -> usize {
        self.byes.len()
    }

    /// The bye of each scheduled round.
    pub fn byes(&self) -> &[Option<EntryId>] {
        &self.byes
    }

    pub fn withdrawals(&self) -> &[Withdrawal] {
        &self.withdrawals
    }

    /// Why `entry` was withdrawn, if it was.
    pub fn withdrawn(&self, entry: EntryId) -> Option<&Withdrawal> {
        self.withdrawals.iter().find(|w| w.entry == entry)
    }

    /// Whether every game has finished and no round is left to pair.
    pub fn is_over(&self) -> bool {
        self.current_round().is_none() && !self.swiss_round_due()
    }

    /// Decides the games a withdrawn entry can no longer play and pairs a Swiss round that is due,
    /// until neither changes anything.
    fn settle(&mut self) {
        loop {
            let mut changed = false;
            for i in 0..self.fixtures.len() {
                let f = self.fixtures[i];
                if self.reports[i].is_some() || self.running[i] {
                    continue;
                }
                if let Some((team, cause)) = self.withdrawn_side(&f) {
                    self.record(GameReport::withdrawn(f, team, cause));
                    changed = true;
                }
            }
            if !(self.pair_swiss_round() || self.schedule_milestones() || changed) {
                return;
            }
        }
    }

    /// The games to start now, marked as running, in schedule order: while fewer than `concurrency`
    /// run and neither entry plays `per_entry` games already. Games of a withdrawn entry are decided on
    /// the spot (the other side wins) and never returned. Call again whenever a game finishes.
    pub fn next_games(&mut self) -> Vec<Fixture> {
        self.settle();
        // A milestone's AI is built in: it plays any number of games at once.
        let mut busy = vec![0u32; self.entries() + self.settings.milestones.len()];
        let limit = |entry: EntryId| match entry < self.entries() {
            true => self.settings.per_entry,
            false => u32::MAX,
        };
        let mut running = 0u32;
        for f in self.fixtures.iter().filter(|f| self.running[f.number]) {
            running += 1;
            busy[f.red] += 1;
            busy[f.blue] += 1;
        }
        let mut start = Vec::new();
        for f in &self.fixtures {
            if self.reports[f.number].is_some() || self.running[f.number] {
                continue;
            }
            if running >= self.settings.concurrency {
                break;
            }
            if busy[f.red] < limit(f.red) && busy[f.blue] < limit(f.blue) {
                running += 1;
                busy[f.red] += 1;
                busy[f.blue] += 1;
                start.push(*f);
            }
        }
        for f in &start {
            self.running[f.number] = true;
        }
        start
    }

    /// The side of `f` whose entry has withdrawn, with the cause (red first when both have).
    fn withdrawn_side(&self, f: &Fixture) -> Option<(Team, String)> {
        Team::ALL.into_iter().find_map(|team| {
            self.withdrawn(f.entry(team)).map(|w| {
                (
                    team,
                    format!(
                        "{} withdrew: {}",
                        self.roster.entries[w.entry].name, w.cause
                    ),
                )
            })
        })
    }

    /// Gives back a game that was started but will not finish here (the page is paused or closed): it
    /// will be started again from its seed.
    pub fn abandon(&mut self, number: usize) {
        if let Some(r) = self.running.get_mut(number) {
            *r = false;
        }
    }

    /// Takes a finished game's report. Returns the withdrawals it caused.
    pub fn finish(&mut self, report: GameReport) -> Result<Vec<Withdrawal>, TournamentError> {
        let number = report.fixture.number;
        if self.fixtures.get(number) != Some(&report.fixture) {
            return Err(TournamentError::UnknownGame { number });
        }
        if self.reports[number].is_some() {
            return Err(TournamentError::AlreadyFinished { number });
        }
        let before = self.withdrawals.len();
        self.record(report);
        Ok(self.withdrawals[before..].to_vec())
    }

    /// Stores a report and applies the no-answer rule.
    fn record(&mut self, report: GameReport) {
        let number = report.fixture.number;
        self.running[number] = false;
        if report.played.ending.was_played() {
            for team in Team::ALL {
                let entry = report.fixture.entry(team);
                if entry >= self.entries() {
                    continue;
                }
                let side = &report.played.sides[team];
                if side.asked > 0 && side.answered == 0 {
                    self.silent_streak[entry] = self.silent_streak[entry].saturating_add(1);
                } else if side.answered > 0 {
                    self.silent_streak[entry] = 0;
                }
                let limit = self.settings.withdraw_after;
                if limit.is_some_and(|k| self.silent_streak[entry] >= k)
                    && self.withdrawn(entry).is_none()
                {
                    let last = report.played.last_error[team]
                        .as_deref()
                        .unwrap_or("no answer");
                    self.withdrawals.push(Withdrawal {
                        entry,
                        cause: format!(
                            "no answer in {} games in a row (last: {last})",
                            self.silent_streak[entry]
                        ),
                        after_games: self.finished.len() + 1,
                        by_organiser: false,
                    });
                }
            }
        }
        self.reports[number] = Some(report);
        self.finished.push(number);
    }

    /// Takes `entry` out of the tournament: its games not yet started are lost unplayed.
    pub fn withdraw(&mut self, entry: EntryId, cause: &str) -> Result<(), TournamentError> {
        if entry >= self.entries() {
            return Err(TournamentError::NoSuchEntry { entry });
        }
        if self.withdrawn(entry).is_none() {
            self.withdrawals.push(Withdrawal {
                entry,
                cause: cause.to_string(),
                after_games: self.finished.len(),
                by_organiser: true,
            });
        }
        Ok(())
    }

    /// The finished games as the standings count them (milestone games apart), in schedule order.
    pub fn results(&self) -> Vec<Finished> {
        self.reports
            .iter()
            .flatten()
            .filter(|r| !self.is_milestone_game(&r.fixture))
            .map(|r| Finished {
                pairing: r.fixture.pairing(),
                score: r.played.ending.score(),
            })
            .collect()
    }

    /// The standings so far: every finished game and the byes of rounds already played.
    pub fn standings(&self) -> Result<Standings, TournamentError> {
        let current = self.current_round();
        let byes: Vec<EntryId> = self
            .byes
            .iter()
            .enumerate()
            .filter(|&(round, _)| current.is_none_or(|c| round < c))
            .filter_map(|(_, b)| *b)
            .collect();
        Standings::new(self.entries(), &self.results(), &byes).map_err(TournamentError::Standings)
    }

    /// Whether `text` is meant as a bundle rather than a roster (its `format` says so), so a reader
    /// that takes either (the CLI's roster argument, the page's import) can say what is wrong with it
    /// as the one it is.
    pub fn is_bundle(text: &str) -> bool {
        #[derive(Deserialize)]
        struct Probe {
            format: Option<String>,
        }
        serde_json::from_str::<Probe>(text.strip_prefix('\u{feff}').unwrap_or(text))
            .is_ok_and(|p| p.format.as_deref() == Some(BUNDLE_FORMAT))
    }

    /// The bundle: roster, settings, withdrawals and every finished game with its log, as JSON.
    pub fn to_bundle(&self) -> String {
        let bundle = BundleOut {
            format: BUNDLE_FORMAT,
            version: BUNDLE_VERSION,
            engine: ENGINE_VERSION,
            roster: &self.roster,
            settings: &self.settings,
            withdrawals: &self.withdrawals,
            games: self.finished().collect(),
        };
        serde_json::to_string(&bundle).unwrap_or_default()
    }

    /// A tournament from its bundle: the same schedule, every finished game applied again in the order
    /// it finished (so withdrawals and Swiss rounds come out as before), nothing running.
    pub fn from_bundle(text: &str) -> Result<Tournament, TournamentError> {
        let bad = |why: String| TournamentError::Bundle(why);
        if text.len() > MAX_BUNDLE_BYTES {
            return Err(bad(format!(
                "it is {} bytes, over the {MAX_BUNDLE_BYTES} read",
                text.len()
            )));
        }
        let bundle: BundleIn = serde_json::from_str(text.strip_prefix('\u{feff}').unwrap_or(text))
            .map_err(|e| bad(e.to_string()))?;
        if bundle.format != BUNDLE_FORMAT {
            return Err(bad(format!(
                "its format is {:?}, not {BUNDLE_FORMAT:?}",
                bundle.format
            )));
        }
        if bundle.version > BUNDLE_VERSION {
            return Err(bad(format!(
                "it is version {}, newer than this build's {BUNDLE_VERSION}; open it with a newer GridArena",
                bundle.version
            )));
        }
        let mut t = Tournament::new(bundle.roster, bundle.settings)?;
        let mut organiser: Vec<&Withdrawal> = bundle
            .withdrawals
            .iter()
            .filter(|w| w.by_organiser)
            .collect();
        organiser.sort_by_key(|w| w.after_games);
        let mut organiser = organiser.into_iter().peekable();
        for mut report in bundle.games {
            report.played.restore_answer_times();
            while let Some(w) = organiser.next_if(|w| w.after_games <= t.finished.len()) {
                t.withdraw(w.entry, &w.cause)?;
            }
            // Swiss rounds and withdrawn entries' games come out here as they did live.
            t.settle();
            let number = report.fixture.number;
            if report.played.log.ticks.len() != report.played.ticks as usize {
                return Err(bad(format!(
                    "game {} says {} ticks but logs {}",
                    number + 1,
                    report.played.ticks,
                    report.played.log.ticks.len()
                )));
            }
            let decided = t.reports.get(number).is_some_and(Option::is_some);
            if decided && matches!(report.played.ending, Ending::Withdrawn { .. }) {
                continue;
            }
            t.finish(report)?;
        }
        for w in organiser {
            t.withdraw(w.entry, &w.cause)?;
        }
        t.settle();
        Ok(t)
    }
}

#[derive(Serialize)]
struct BundleOut<'a> {
    format: &'static str,
    version: u32,
    engine: &'static str,
    roster: &'a Roster,
    settings: &'a Settings,
    withdrawals: &'a [Withdrawal],
    games: Vec<&'a GameReport>,
}

#[derive(Deserialize)]
struct BundleIn {
    format: String,
    version: u32,
    roster: Roster,
    settings: Settings,
    #[serde(default)]
    withdrawals: Vec<Withdrawal>,
    #[serde(default)]
    games: Vec<GameReport>,
}
