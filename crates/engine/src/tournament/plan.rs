//! How each entry of a tournament is asked: the one place that decides, for the page and for
//! `gridarena halma tournament` alike, what its roll call asks it, how long the roll call and each game
//! move wait for it, and how its requests are labelled.
//!
//! The two hosts used to decide these each on their own, and disagreed: the CLI asked a course-format
//! entry a `SINGLE` move at its roll call and played its games on its course clock, while the page asked
//! it a first `GAME` move within three ticks and cut its game moves at the tick, so the same homework
//! was green and won on the command line and red and lost in the browser. Now a host reads an
//! [`EntryPlan`] and obeys it:
//!
//! | entry | roll call | roll call waits | a game move waits | content type |
//! |---|---|---|---|---|
//! | built-in AI | nothing asked: always ready | - | the tick | - |
//! | web AI | the start position, as a game's first request | [`roll_call_ms`] | the tick | the roster's |
//! | code, function format | the start position, as a game's first request | [`roll_call_ms`] | the tick | - |
//! | code, course format | one `SINGLE` move on a full clock | its course clock | its course clock | - |
//! | program (course or lines) | one `SINGLE` move on a full clock | its course clock | its course clock | - |
//!
//! A course-format entry is the course's homework: it budgets its own 300 s over a game, and may spend a
//! good share of it on one move (the course's agents spend about 1/15 on their first). Cutting it at the
//! tick would judge it by a rule it was never written for, so it runs on its clock
//! ([`crate::halma::code::CourseClock`]), and a tick waits for its answer. Everything else answers a
//! request that says `timeLimitMs` = the tick, and is cut there.

use super::event::Tournament;
use super::game::{self, Fixture};
use super::roster::{Roster, RosterError};
use super::settings::Settings;
use super::EntryId;
use crate::halma::code::Format;
use crate::halma::play::{Cut, Deadline, Seat};
use crate::halma::{AiPlayer, ContentType, Game, Match, SetupError, Team, Teams};

/// The shortest wait of a roll call for an entry cut at the tick: a first request may find a server
/// asleep, or an interpreter cold, even when its later moves fit a short tick.
pub const ROLL_CALL_MIN_MS: u64 = 3000;

/// How long the roll call waits for an entry that is cut at the tick in its games: three ticks, at
/// least [`ROLL_CALL_MIN_MS`], so a slow AI is told how slow it is rather than only that it timed out.
pub fn roll_call_ms(settings: &Settings) -> u64 {
    settings.tick_ms.saturating_mul(3).max(ROLL_CALL_MIN_MS)
}

/// What kind of player an entry is, as far as asking it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A built-in AI: answers at once, in the host.
    BuiltIn,
    /// A web AI: an HTTP POST of the request JSON.
    Web,
    /// A student's code in the `move(request)` format: answers the web protocol's request.
    FunctionCode,
    /// A student's code in the course's format: reads `input.txt`, writes `output.txt`, on its clock.
    CourseCode,
    /// A program on the referee's machine (course or lines format), on its clock.
    Program,
}

impl EntryKind {
    /// The kind of `player`.
    pub fn of(player: &AiPlayer) -> EntryKind {
        match player {
            AiPlayer::BuiltIn(_) => EntryKind::BuiltIn,
            AiPlayer::Web(_) => EntryKind::Web,
            AiPlayer::Code(source) => match source.format {
                Format::Function => EntryKind::FunctionCode,
                Format::Course => EntryKind::CourseCode,
            },
            AiPlayer::Program(_) => EntryKind::Program,
        }
    }

    /// The wire of a player of this kind in a [`Match`], its requests labelled `content_type` if it
    /// is a web AI (no other kind is sent a labelled request): a course-format entry (code or program)
    /// is cut on its course clock, every other at the tick. A host's single match and a tournament's
    /// game both seat their players here.
    pub fn seat(self, content_type: ContentType) -> Seat {
        match self {
            EntryKind::Web => Seat::at_the_tick(content_type),
            EntryKind::BuiltIn | EntryKind::FunctionCode => Seat::default(),
            EntryKind::CourseCode | EntryKind::Program => Seat {
                content_type: ContentType::default(),
                cut: Cut::CourseClock,
            },
        }
    }

    /// When a game move of this kind is given up on, with a tick of `tick_ms`.
    pub fn moves(self, tick_ms: u64) -> Deadline {
        self.seat(ContentType::default()).cut.deadline(tick_ms)
    }

    /// What the roll call asks this kind under `settings`: nothing of a built-in AI; the first
    /// game's request, within [`roll_call_ms`], of an entry cut at the tick; a `SINGLE` move on its
    /// whole clock of an entry on its course clock.
    pub fn roll_call(self, settings: &Settings) -> Option<RollCall> {
        match self.moves(settings.tick_ms) {
            _ if self == EntryKind::BuiltIn => None,
            Deadline::Millis(_) => Some(RollCall {
                occasion: Occasion::Game,
                deadline: Deadline::Millis(roll_call_ms(settings)),
            }),
            Deadline::CourseClock => Some(RollCall {
                occasion: Occasion::Single,
                deadline: Deadline::CourseClock,
            }),
        }
    }
}

/// What a roll call asks an entry for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// The start position, exactly as the entry's first game will ask it (a course-format entry would
    /// read `GAME` in `input.txt`).
    Game,
    /// The course's one-move check outside a game: `input.txt` says `SINGLE`, and the whole clock is
    /// left. What the course's own referee asked an agent before its games.
    Single,
}

/// An entry's roll call: what it is asked, and how long it is waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollCall {
    pub occasion: Occasion,
    pub deadline: Deadline,
}

/// How one entry of a tournament is asked, in its roll call and in its games; both hosts obey it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryPlan {
    pub kind: EntryKind,
    /// The roll call's question; `None` where there is nothing to ask (a built-in AI is always ready).
    pub roll_call: Option<RollCall>,
    /// Its side's wire in a game's [`Match`]: how its requests are labelled (the roster's word for a web
    /// AI, the default for everyone else, as no other kind is sent a labelled request) and where a move
    /// is cut.
    pub seat: Seat,
    /// When a game move is given up on: the seat's cut under the plan's settings.
    pub moves: Deadline,
}

impl EntryPlan {
    /// The plan of `player` under `settings`; `content_type` is what its roster entry says (read for
    /// a web AI only).
    pub fn new(player: &AiPlayer, content_type: ContentType, settings: &Settings) -> EntryPlan {
        let kind = EntryKind::of(player);
        let seat = kind.seat(content_type);
        EntryPlan {
            kind,
            roll_call: kind.roll_call(settings),
            moves: seat.cut.deadline(settings.tick_ms),
            seat,
        }
    }

    /// Whether a roll call's answer `latency_ms` after asking would have come in time in a game: an
    /// answer slower than the tick is no use, however right, for an entry cut at the tick.
    pub fn in_time(&self, latency_ms: u64) -> bool {
        self.moves.in_time(latency_ms)
    }
}

impl Tournament {
    /// The plan of `entry`: a roster entry's, or a milestone's built-in AI's; `None` for no entry.
    pub fn plan(&self, entry: EntryId) -> Option<EntryPlan> {
        let player = self.player(entry)?;
        Some(EntryPlan::new(
            player,
            self.content_type(entry),
            self.settings(),
        ))
    }

    /// The match of `fixture`, each side on the seat its entry's plan gives it: what every host plays
    /// a scheduled game through.
    pub fn start(&self, fixture: &Fixture) -> Result<Match, SetupError> {
        let seats = Teams::from_fn(|team| {
            self.plan(fixture.entry(team))
                .map_or_else(Seat::default, |plan| plan.seat)
        });
        game::start(fixture, self.settings(), seats)
    }
}

/// Every entry of `roster` (checked, in roster order) with its player and its plan under `settings`:
/// what a roll call before the tournament asks.
pub fn roster_plans(
    roster: &Roster,
    settings: &Settings,
) -> Result<Vec<(String, AiPlayer, EntryPlan)>, RosterError> {
    Ok(roster
        .check()?
        .into_iter()
        .map(|(entry, player)| {
            let plan = EntryPlan::new(&player, entry.content_type, settings);
            (entry.name, player, plan)
        })
        .collect())
}

/// The position every roll call asks from, and the team asked: the tournament's first game (seeded
/// with the tournament's seed) before its first tick, the first of its movers. Both hosts ask this one
/// position, so an entry's roll call reads the same in both.
pub fn roll_call_position(settings: &Settings) -> Result<(Game, Team), SetupError> {
    let game = Game::new(&settings.rules(), settings.seed)?;
    let team = game.movers().first().copied().unwrap_or(Team::Red);
    Ok((game, team))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::ai::BuiltIn;
    use crate::halma::code::ClockSettings;
    use crate::halma::code::{CodeFile, HashedSource, Lang, Source};
    use crate::halma::{Preset, Program, ProgramFormat};
    use crate::tournament::roster::Entry;
    use std::sync::Arc;

    fn settings(tick_ms: u64) -> Settings {
        Settings {
            tick_ms,
            ..Settings::default()
        }
    }

    fn code(lang: Lang, format: Format) -> AiPlayer {
        let main = match lang {
            Lang::Python => "main.py",
            Lang::JavaScript => "main.js",
        };
        let source = Source {
            lang,
            format,
            main: main.to_string(),
            files: vec![CodeFile::text(main, "x = 1\n")],
        };
        AiPlayer::Code(Arc::new(HashedSource::new(source)))
    }

    fn web() -> AiPlayer {
        AiPlayer::Web("http://127.0.0.1:8001/".to_string())
    }

    fn program(format: ProgramFormat) -> AiPlayer {
        AiPlayer::Program(Program::new(format, "agents/ada", "python3 homework.py").unwrap())
    }

    #[test]
    fn a_built_in_is_not_asked_at_the_roll_call_and_is_cut_at_the_tick() {
        let plan = EntryPlan::new(
            &AiPlayer::BuiltIn(BuiltIn::Greedy),
            ContentType::Json,
            &settings(500),
        );
        assert_eq!(plan.kind, EntryKind::BuiltIn);
        assert_eq!(plan.roll_call, None);
        assert_eq!(plan.moves, Deadline::Millis(500));
        assert_eq!(
            plan.seat.content_type,
            ContentType::default(),
            "only a web AI's"
        );
    }

    #[test]
    fn a_web_entry_gets_a_first_request_within_three_ticks_labelled_as_its_roster_says() {
        for content_type in ContentType::ALL {
            let plan = EntryPlan::new(&web(), content_type, &settings(2000));
            assert_eq!(plan.kind, EntryKind::Web);
            assert_eq!(
                plan.roll_call,
                Some(RollCall {
                    occasion: Occasion::Game,
                    deadline: Deadline::Millis(6000),
                })
            );
            assert_eq!(plan.moves, Deadline::Millis(2000));
            assert_eq!(plan.seat.content_type, content_type);
        }
        // A short tick still gets the roll call's least wait.
        let quick = EntryPlan::new(&web(), ContentType::TextPlain, &settings(200));
        assert_eq!(
            quick.roll_call.map(|r| r.deadline),
            Some(Deadline::Millis(ROLL_CALL_MIN_MS))
        );
    }

    #[test]
    fn function_code_in_either_language_is_asked_as_a_web_entry_is() {
        for lang in [Lang::Python, Lang::JavaScript] {
            let plan = EntryPlan::new(
                &code(lang, Format::Function),
                ContentType::Json,
                &settings(1000),
            );
            assert_eq!(plan.kind, EntryKind::FunctionCode);
            assert_eq!(
                plan.roll_call,
                Some(RollCall {
                    occasion: Occasion::Game,
                    deadline: Deadline::Millis(3000),
                })
            );
            assert_eq!(plan.moves, Deadline::Millis(1000));
            assert_eq!(plan.seat.content_type, ContentType::default());
            assert!(plan.in_time(1000) && !plan.in_time(1001));
        }
    }

    #[test]
    fn course_code_is_asked_single_and_plays_on_its_clock_not_the_tick() {
        // The page asked a first GAME move within three ticks and cut its moves at the tick; the CLI
        // asked SINGLE and waited for its clock. The clock is the course's rule.
        let plan = EntryPlan::new(
            &code(Lang::Python, Format::Course),
            ContentType::default(),
            &settings(5000),
        );
        assert_eq!(plan.kind, EntryKind::CourseCode);
        assert_eq!(
            plan.roll_call,
            Some(RollCall {
                occasion: Occasion::Single,
                deadline: Deadline::CourseClock,
            })
        );
        assert_eq!(plan.moves, Deadline::CourseClock);
        assert!(
            plan.in_time(20_000),
            "a 20 s move is well inside a 300 s clock"
        );
        assert_eq!(
            plan.moves.longest_ms(ClockSettings::default()),
            310_000,
            "the course's 300 s and 10 s of grace"
        );
    }

    #[test]
    fn a_program_of_either_format_is_asked_single_on_its_clock() {
        for format in ProgramFormat::ALL {
            let plan = EntryPlan::new(&program(format), ContentType::Json, &settings(1000));
            assert_eq!(plan.kind, EntryKind::Program);
            assert_eq!(
                plan.roll_call,
                Some(RollCall {
                    occasion: Occasion::Single,
                    deadline: Deadline::CourseClock,
                })
            );
            assert_eq!(plan.moves, Deadline::CourseClock);
            assert_eq!(plan.seat.content_type, ContentType::default());
        }
    }

    #[test]
    fn a_tournament_plans_its_roster_and_its_milestones() {
        let mut json = Entry::new("Json", "http://127.0.0.1:8001/");
        json.content_type = ContentType::Json;
        let course = match code(Lang::Python, Format::Course) {
            AiPlayer::Code(source) => Entry::hashed("Course", source),
            _ => unreachable!(),
        };
        let roster = Roster {
            entries: vec![json, course, Entry::new("House", "builtin:greedy")],
        };
        let s = Settings {
            preset: Preset::Classic,
            milestones: vec!["greedy:50".parse().unwrap()],
            ..settings(700)
        };
        let t = Tournament::new(roster.clone(), s.clone()).unwrap();
        let plans: Vec<EntryPlan> = (0..4).map(|e| t.plan(e).unwrap()).collect();
        assert_eq!(plans[0].seat.content_type, ContentType::Json);
        assert_eq!(plans[0].moves, Deadline::Millis(700));
        assert_eq!(plans[1].moves, Deadline::CourseClock);
        assert_eq!(plans[2].roll_call, None);
        assert_eq!(plans[3].kind, EntryKind::BuiltIn, "the milestone's AI");
        assert_eq!(t.plan(4), None);
        let listed = roster_plans(&roster, &s).unwrap();
        let names: Vec<&str> = listed.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names, ["Json", "Course", "House"]);
        assert!(listed.iter().zip(&plans).all(|((_, _, p), q)| p == q));
    }

    #[test]
    fn the_roll_call_asks_the_first_games_position() {
        let s = Settings {
            preset: Preset::Mini,
            seed: 77,
            ..Settings::default()
        };
        let (game, team) = roll_call_position(&s).unwrap();
        let first = Game::new(&s.rules(), 77).unwrap();
        assert_eq!(game.state(), first.state());
        assert_eq!(Some(&team), first.movers().first());
    }
}
