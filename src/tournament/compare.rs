//! The Compare page's view model (`#/compare`): "did my change help?" in the page. Two players, A and
//! B, play the games of the engine's compare schedule ([`gridarena_engine::compare`]) as a tournament of
//! two entries ([`compare::tournament`]), played by the tournament's own clock with no pacing; this
//! module reads the form, counts the games as the CLI counts them (in their numbers' order, the stop rule
//! read after each), and says what they show. It holds no signals and is tested natively.

use crate::code::ai::{CodeRef, Source};
use gridarena_engine::compare::{
    self, Counter, Divergence, Outcome, ScoreTally, StopRule, Verdict, DEFAULT_GAMES,
    DEFAULT_MIN_GAMES,
};
use gridarena_engine::halma::play::Policy;
use gridarena_engine::halma::{AiPlayer, Preset, Team};
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::roster::{Entry, Roster};
use gridarena_engine::tournament::settings::Settings;

/// The run's seed unless told otherwise: fixed, so a run repeats.
pub const DEFAULT_SEED: u64 = 1;
/// The most games in a run.
pub const MAX_GAMES: u32 = 10_000;
/// The most games at once: each built-in game holds a worker per side.
pub const MAX_CONCURRENCY: u32 = 8;
/// The deadline of each answer, as the CLI's default `--tick-ms`; a tick ends as soon as both answered.
pub const TICK_MS: u64 = 1000;

/// The form, as typed; every field is read again by [`Form::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// A player: `builtin:NAME`, a web AI's address, or `code:NAME[@vN]` (an AI kept in this browser).
    pub a: String,
    pub b: String,
    pub preset: String,
    pub games: String,
    /// No early stop before this many games (`--min-games` on the command line).
    pub min_games: String,
    pub concurrency: String,
    pub seed: String,
}

impl Form {
    /// The defaults: search against greedy on the arena preset, 50 games, `cores` at once (capped).
    pub fn new(cores: Option<u32>) -> Form {
        Form {
            a: "builtin:search".to_string(),
            b: "builtin:greedy".to_string(),
            preset: Preset::Arena.to_string(),
            games: DEFAULT_GAMES.to_string(),
            min_games: DEFAULT_MIN_GAMES.to_string(),
            concurrency: default_concurrency(cores).to_string(),
            seed: DEFAULT_SEED.to_string(),
        }
    }

    /// The form with the fields a link (`#/compare?a=...&games=...`) names, each by its name.
    pub fn with(mut self, key: &str, value: String) -> Form {
        match key {
            "a" => self.a = value,
            "b" => self.b = value,
            "preset" => self.preset = value,
            "games" => self.games = value,
            "min-games" => self.min_games = value,
            "concurrency" => self.concurrency = value,
            "seed" => self.seed = value,
            _ => {}
        }
        self
    }

    /// The fields as a link's query, in order, each value still to be encoded.
    pub fn fields(&self) -> [(&'static str, &str); 7] {
        [
            ("a", &self.a),
            ("b", &self.b),
            ("preset", &self.preset),
            ("games", &self.games),
            ("min-games", &self.min_games),
            ("concurrency", &self.concurrency),
            ("seed", &self.seed),
        ]
    }

    /// The run the form describes, or what is wrong with it. `kept` finds an AI kept here.
    pub fn check(
        &self,
        kept: impl Fn(&CodeRef) -> Result<Source, String>,
    ) -> Result<Setup, String> {
        let number = |what: &str, text: &str, low: u64, high: u64| -> Result<u64, String> {
            text.trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (low..=high).contains(n))
                .ok_or_else(|| {
                    format!(
                        "{what} must be a whole number from {low} to {high}, not {:?}.",
                        text.trim()
                    )
                })
        };
        let games = number("Games", &self.games, 2, u64::from(MAX_GAMES))? as u32;
        let min_games = number(
            "The fewest games before an early stop",
            &self.min_games,
            0,
            u64::from(MAX_GAMES),
        )? as u32;
        let concurrency = number(
            "Games at once",
            &self.concurrency,
            1,
            u64::from(MAX_CONCURRENCY),
        )? as u32;
        let seed = number("The seed", &self.seed, 0, u64::MAX)?;
        let preset = self
            .preset
            .trim()
            .parse::<Preset>()
            .map_err(|e| format!("Preset: {e}"))?;
        let a = entry("A", &self.a, &kept)?;
        let b = entry("B", &self.b, &kept)?;
        Ok(Setup {
            roster: Roster {
                entries: vec![a, b],
            },
            settings: Settings {
                preset,
                tick_ms: TICK_MS,
                concurrency,
                policy: Policy::Lenient,
                withdraw_after: None,
                seed,
                ..Settings::default()
            },
            games,
            rule: StopRule { min_games },
        })
    }
}

/// Games at once by default: the machine's cores, at least 2 and at most [`MAX_CONCURRENCY`].
pub fn default_concurrency(cores: Option<u32>) -> u32 {
    cores.unwrap_or(4).clamp(2, MAX_CONCURRENCY)
}

/// Player `side` ("A" or "B") as the form names it.
fn entry(
    side: &str,
    text: &str,
    kept: &impl Fn(&CodeRef) -> Result<Source, String>,
) -> Result<Entry, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!(
            "Player {side}: choose a built-in (builtin:search), a web AI's address, or an AI kept here (code:NAME)."
        ));
    }
    if text.starts_with(CodeRef::PREFIX) {
        let code: CodeRef = text.parse().map_err(|e| format!("Player {side}: {e}"))?;
        let source = kept(&code).map_err(|e| format!("Player {side}: {e}"))?;
        return Ok(Entry::code(side, source));
    }
    let player: AiPlayer = text.parse().map_err(|e| format!("Player {side}: {e}"))?;
    if matches!(player, AiPlayer::Program(_)) {
        return Err(format!(
            "Player {side}: a program runs only on the command line (gridarena halma compare)."
        ));
    }
    Ok(Entry::new(side, &player.to_string()))
}

/// A checked form: the two players, the settings (whose seed is the run's), and the games.
#[derive(Clone, Debug)]
pub struct Setup {
    pub roster: Roster,
    pub settings: Settings,
    pub games: u32,
    /// When the run may stop before its last game.
    pub rule: StopRule,
}

impl Setup {
    /// The run as a tournament of two entries on the compare schedule.
    pub fn tournament(self) -> Result<Tournament, String> {
        compare::tournament(self.roster, self.settings, self.games).map_err(|e| e.to_string())
    }
}

/// One counted game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// From 0.
    pub number: usize,
    pub a_seat: Team,
    pub outcome: Outcome,
    pub ticks: u32,
    /// How it ended, by seats ("red wins", a forfeit and its cause...).
    pub ending: String,
}

/// Where a run stands: the games counted (in their numbers' order), and whether it is over.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub planned: u32,
    pub tally: ScoreTally,
    pub rows: Vec<GameRow>,
    /// The stop rule ended it before its last game.
    pub stopped_early: bool,
    /// Every planned game is counted, or the rule stopped it.
    pub over: bool,
}

impl Standing {
    /// Counts `t`'s finished games from game 0 on, up to the first not finished, reading the stop rule
    /// after each, as `gridarena halma compare` does: games finished beyond where it stops are left out.
    pub fn of(t: &Tournament, rule: StopRule) -> Standing {
        let planned = t.fixtures().len() as u32;
        let mut counter = Counter::new(planned, rule);
        let mut rows = Vec::new();
        while let Some(report) = t.report(counter.next() as usize) {
            let number = counter.next() as usize;
            let Some((a_seat, outcome)) = counter.count(report.played.ending.score()) else {
                break;
            };
            rows.push(GameRow {
                number,
                a_seat,
                outcome,
                ticks: report.played.ticks,
                ending: report.played.ending.to_string(),
            });
        }
        Standing {
            planned,
            tally: *counter.tally(),
            rows,
            stopped_early: counter.stopped_early(),
            over: counter.is_over(),
        }
    }

    /// "A 72% [58%–83%] after 24 games": A's share and its 95% interval.
    pub fn score_line(&self) -> String {
        let n = self.tally.games();
        let Some(share) = self.tally.share() else {
            return "No game finished yet.".to_string();
        };
        let i = self.tally.interval();
        format!(
            "A {} [{}–{}] after {n} game{}",
            percent(share),
            percent(i.low),
            percent(i.high),
            if n == 1 { "" } else { "s" }
        )
    }

    /// "A 14, draws 2, B 8": the games as won.
    pub fn counts_line(&self) -> String {
        let t = &self.tally;
        format!("A won {}, drew {}, lost {}", t.wins, t.draws, t.losses)
    }

    /// What the run concluded, once over: "stopped early after 20 games: A is stronger".
    pub fn verdict_line(&self) -> Option<String> {
        if !self.over {
            return None;
        }
        let verdict: Verdict = self.tally.verdict();
        let n = self.tally.games();
        Some(if self.stopped_early {
            format!("Stopped early after {n} games: {verdict}.")
        } else {
            format!("All {n} games played: {verdict}.")
        })
    }

    /// The pairs counted so far, where their games part, biggest swing first, at most `top`.
    pub fn divergences(&self, t: &Tournament, top: usize) -> Vec<Divergence> {
        let counted = self.rows.len() as u32;
        let mut found = compare::divergences(counted / 2, |k| t.report(k as usize));
        found.truncate(top);
        found
    }
}

/// "72%".
fn percent(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// "A's answer won the game for red, B's lost it": what a swing says, for the seat.
pub fn swing_text(d: &Divergence) -> String {
    let seat = d.seat.name();
    match d.swing {
        s if s >= 1.0 => format!("with A's answer {seat} won, with B's {seat} lost"),
        s if s <= -1.0 => format!("with B's answer {seat} won, with A's {seat} lost"),
        s if s > 0.0 => format!("A's answer did better for {seat} by half a point"),
        s if s < 0.0 => format!("B's answer did better for {seat} by half a point"),
        _ => format!("both games ended alike for {seat}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::runner::tests::play;
    use crate::tournament::runner::Run;
    use gridarena_engine::compare::TOP_DIVERGENCES;

    fn nothing_kept(c: &CodeRef) -> Result<Source, String> {
        Err(format!("there is no AI called {} kept here", c.name))
    }

    fn form(a: &str, b: &str, games: &str) -> Form {
        Form::new(Some(16))
            .with("a", a.to_string())
            .with("b", b.to_string())
            .with("games", games.to_string())
            .with("preset", "mini".to_string())
    }

    #[test]
    fn the_form_is_checked_field_by_field() {
        let f = Form::new(Some(16));
        assert_eq!(f.concurrency, "8", "capped");
        assert_eq!(Form::new(None).concurrency, "4");
        assert_eq!(Form::new(Some(1)).concurrency, "2");
        let setup = f.check(nothing_kept).unwrap();
        assert_eq!(setup.games, 50);
        assert_eq!(setup.rule, StopRule::default());
        assert_eq!(setup.settings.seed, DEFAULT_SEED);
        let eager = Form::new(None).with("min-games", " 0 ".into());
        assert_eq!(
            eager.check(nothing_kept).unwrap().rule,
            StopRule { min_games: 0 }
        );
        assert_eq!(setup.settings.preset, Preset::Arena);
        assert_eq!(setup.roster.entries[0].player, "builtin:search");
        let bad = |f: Form, says: &str| {
            let why = f.check(nothing_kept).unwrap_err();
            assert!(why.contains(says), "{why}");
        };
        bad(form("", "builtin:greedy", "10"), "Player A: choose");
        bad(form("builtin:nope", "builtin:greedy", "10"), "Player A");
        bad(
            form("builtin:search", "code:mine", "10"),
            "Player B: there is no AI called mine",
        );
        bad(form("builtin:search", "code:mine@x", "10"), "Player B");
        bad(
            form("builtin:search", "builtin:greedy", "1"),
            "Games must be",
        );
        bad(
            form("builtin:search", "builtin:greedy", "ten"),
            "Games must be",
        );
        bad(
            Form::new(None).with("concurrency", "0".into()),
            "Games at once",
        );
        bad(Form::new(None).with("seed", "-1".into()), "The seed");
        bad(
            Form::new(None).with("min-games", "many".into()),
            "The fewest games before an early stop must be",
        );
        bad(
            Form::new(None).with("min-games", "10001".into()),
            "The fewest games before an early stop must be",
        );
        bad(Form::new(None).with("preset", "huge".into()), "Preset");
        let web = form("http://127.0.0.1:8001/", "builtin:greedy", "10")
            .check(nothing_kept)
            .unwrap();
        assert_eq!(web.roster.entries[0].player, "http://127.0.0.1:8001/");
        // The link's fields read back.
        let linked = f
            .fields()
            .iter()
            .fold(Form::new(None), |g, (k, v)| g.with(k, v.to_string()));
        assert_eq!(linked, f);
    }

    #[test]
    fn a_run_counts_in_order_stops_by_the_rule_and_lists_where_the_players_part() {
        let setup = form("builtin:search", "builtin:greedy", "40")
            .check(nothing_kept)
            .unwrap();
        let mut run = Run::new(setup.tournament().unwrap());
        assert_eq!(
            run.tournament.fixtures()[3],
            compare::fixture(DEFAULT_SEED, 3),
            "the CLI's games"
        );
        let before = Standing::of(&run.tournament, StopRule::default());
        assert_eq!(before.score_line(), "No game finished yet.");
        assert_eq!(before.verdict_line(), None);
        play(&mut run, None);
        let s = Standing::of(&run.tournament, StopRule::default());
        assert!(s.over);
        assert!(s.stopped_early, "search beats greedy: {:?}", s.tally);
        assert_eq!(s.tally.verdict(), Verdict::AStronger);
        let n = s.tally.games();
        assert!((10..40).contains(&n) && n % 2 == 0, "{n}");
        assert_eq!(s.rows.len() as u64, n);
        assert!(s.rows.iter().enumerate().all(|(k, r)| r.number == k));
        assert!(s.score_line().starts_with("A "), "{}", s.score_line());
        assert!(s.score_line().ends_with(&format!("after {n} games")));
        assert_eq!(
            s.verdict_line().unwrap(),
            format!("Stopped early after {n} games: A is stronger.")
        );
        let parts = s.divergences(&run.tournament, TOP_DIVERGENCES);
        assert!(!parts.is_empty() && parts.len() <= TOP_DIVERGENCES);
        for d in &parts {
            assert!((d.pair as u64) < n / 2);
            assert!(!swing_text(d).is_empty());
            assert_ne!(
                compare::answer_text(d.a.as_ref()),
                compare::answer_text(d.b.as_ref())
            );
        }
    }
}
