//! The match's error policy, log and seats, played with greedy and scripted errors.

use super::*;
use crate::halma::ai::BuiltIn;
use crate::halma::Preset;

/// The rules and policy of a test game: a preset, a turn limit and a policy.
#[derive(Clone, Copy)]
struct Settings {
    preset: Preset,
    max_turns: u32,
    policy: Policy,
}

fn settings(policy: Policy, max_turns: u32) -> Settings {
    Settings {
        preset: Preset::Arena,
        max_turns,
        policy,
    }
}

/// A new match of `settings` whose built-in AIs play with `seed`.
fn start(seed: u64, settings: &Settings) -> Match {
    let mut rules = settings.preset.rules();
    rules.turn_limit = settings.max_turns;
    Match::new(Game::new(&rules, seed).unwrap(), seed, settings.policy)
}

/// Every side asked, in a tick of a second.
fn all(m: &mut Match) -> Vec<Ask> {
    m.begin(|_| true, 1000).unwrap()
}

/// Plays a game where `errs(team, tick)` gives `team`'s error in that tick (from 1), if any;
/// otherwise it plays greedy's move.
fn play(settings: &Settings, errs: impl Fn(Team, u32) -> Option<NoMove>) -> MatchReport {
    let mut game = start(5, settings);
    while game.ending().is_none() {
        let asks = all(&mut game);
        for ask in asks {
            let tick = game.game().turn() + 1;
            let answer = match errs(ask.team, tick) {
                Some(why) => Answer::NoMove(why),
                None => BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed),
            };
            assert!(game.deliver(ask.turn, ask.team, answer, Some(1)));
        }
        game.finish(1000).unwrap();
    }
    let report = game.report().unwrap();
    assert_eq!(report.ticks as usize, report.log.ticks.len());
    report
}

fn http_500() -> NoMove {
    NoMove::Failed("HTTP 500 Internal Server Error".to_string())
}

#[test]
fn at_the_turn_limit_the_side_with_more_error_ticks_loses_under_every_policy() {
    for policy in [
        Policy::Lenient,
        Policy::Strict { errors: 100 },
        Policy::Consecutive { errors: 10 },
    ] {
        let report = play(&settings(policy, 20), |team, tick| {
            (team == Team::Blue && tick % 2 == 0).then(http_500)
        });
        let Ending::Stalled { team, cause } = &report.ending else {
            panic!("{policy}: {:?}", report.ending)
        };
        assert_eq!(*team, Team::Blue, "{policy}");
        assert_eq!(report.ticks, 20);
        assert_eq!((report.sides.red.errors, report.sides.blue.errors), (0, 10));
        assert!(
            cause.starts_with(
                "its errors stalled the game: 10 error ticks in 20, the other side 0; the last: blue: "
            ) && cause.contains("HTTP 500"),
            "{cause}"
        );
        assert_eq!(report.ending.winner(), Some(Team::Red));
        assert!(report.ending.was_played());
        assert!(report.ending.to_string().starts_with("red wins"));
    }
}

#[test]
fn at_the_turn_limit_equal_error_counts_draw() {
    let clean = play(&settings(Policy::Lenient, 15), |_, _| None);
    assert_eq!(
        clean.ending,
        Ending::Played {
            result: GameResult::TurnLimit
        }
    );
    let both = play(&settings(Policy::Lenient, 15), |team, tick| {
        let bad = match team {
            Team::Red => tick <= 4,
            Team::Blue => tick > 11,
        };
        bad.then(http_500)
    });
    assert_eq!((both.sides.red.errors, both.sides.blue.errors), (4, 4));
    assert_eq!(both.ending.winner(), None);
    assert!(matches!(both.ending, Ending::Played { .. }));
}

#[test]
fn the_consecutive_policy_forfeits_at_exactly_n_in_a_row_and_a_move_starts_again() {
    let policy = Policy::Consecutive { errors: 3 };
    // Errors on ticks 1, 2, 4, 5, 7, 8, 9: the moves on 3 and 6 start the count again; the 9th is the
    // third in a row.
    let report = play(&settings(policy, 100), |team, tick| {
        (team == Team::Blue && (tick % 3 != 0 || tick == 9)).then(http_500)
    });
    let Ending::Forfeit { team, cause } = &report.ending else {
        panic!("{:?}", report.ending)
    };
    assert_eq!(*team, Team::Blue);
    assert_eq!(report.ticks, 9);
    assert_eq!(report.sides.blue.errors, 7);
    assert!(
        cause.starts_with("3 errors in a row; the last: blue: ") && cause.contains("HTTP 500"),
        "{cause}"
    );
    assert_eq!(report.ending.winner(), Some(Team::Red));
    // Two in a row, then a move, all game long: never forfeited, and the turn limit goes against it.
    let report = play(&settings(policy, 30), |team, tick| {
        (team == Team::Red && tick % 3 != 0).then(http_500)
    });
    assert!(
        matches!(
            report.ending,
            Ending::Stalled {
                team: Team::Red,
                ..
            }
        ),
        "{:?}",
        report.ending
    );
}

#[test]
fn both_sides_reaching_the_count_in_one_tick_is_a_double_forfeit() {
    let report = play(
        &settings(Policy::Consecutive { errors: 4 }, 100),
        |team, _| {
            Some(match team {
                Team::Red => http_500(),
                Team::Blue => NoMove::TimedOut { after_ms: 1000 },
            })
        },
    );
    let Ending::DoubleForfeit { cause } = &report.ending else {
        panic!("{:?}", report.ending)
    };
    assert_eq!(report.ticks, 4);
    assert!(
        cause.contains("red: request failed") && cause.contains("blue: no answer: timed out"),
        "{cause}"
    );
    assert_eq!(report.ending.winner(), None);
}

#[test]
fn a_spent_clock_forfeits_at_once_under_strict_and_consecutive_but_not_lenient() {
    let out_of_time = |team: Team, tick: u32| {
        (team == Team::Red && tick >= 3).then_some(NoMove::Program(ProgramFailure::OutOfTime))
    };
    for policy in [
        Policy::Consecutive { errors: 10 },
        Policy::Strict { errors: 5 },
    ] {
        let report = play(&settings(policy, 50), out_of_time);
        let Ending::Forfeit { team, cause } = &report.ending else {
            panic!("{policy}: {:?}", report.ending)
        };
        assert_eq!((*team, report.ticks), (Team::Red, 3), "{policy}");
        assert!(cause.contains("out of time"), "{cause}");
    }
    let lenient = play(&settings(Policy::Lenient, 50), out_of_time);
    assert!(
        matches!(
            lenient.ending,
            Ending::Stalled {
                team: Team::Red,
                ..
            }
        ),
        "{:?}",
        lenient.ending
    );
    assert_eq!(lenient.ticks, 50);
}

#[test]
fn a_match_may_make_a_spent_clock_lose_under_the_lenient_policy() {
    let mut game = start(3, &settings(Policy::Lenient, 50)).with_out_of_time_loss(true);
    let asks = all(&mut game);
    for ask in asks {
        let answer = match ask.team {
            Team::Red => BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed),
            Team::Blue => Answer::NoMove(NoMove::Program(ProgramFailure::OutOfTime)),
        };
        let took = Some(Duration::from_micros(1500));
        assert!(game.deliver_timed(ask.turn, ask.team, answer, took));
    }
    game.finish(1000).unwrap();
    assert!(matches!(
        game.ending(),
        Some(Ending::Forfeit {
            team: Team::Blue,
            ..
        })
    ));
    assert_eq!(game.begin(|_| true, 1000), Err(LoopError::NotInProgress));
    let report = game.report().unwrap();
    // The tally keeps the microseconds, the log whole milliseconds.
    assert_eq!(report.sides.red.mean_ms(), Some(1.5));
    assert_eq!(report.log.ticks[0][0].as_ref().and_then(|l| l.ms), Some(1));
    let mut read: MatchReport =
        serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(read.sides.red.median_ms(), None);
    read.restore_answer_times();
    assert_eq!(read.sides.red.median_ms(), report.sides.red.median_ms());
    assert_eq!(read.sides.blue.causes["out_of_time"].count, 1);
}

#[test]
fn a_stalled_ending_is_in_the_bundle_as_a_kind_and_old_sides_still_read() {
    let ending = Ending::Stalled {
        team: Team::Red,
        cause: "x".to_string(),
    };
    let json = serde_json::to_string(&ending).unwrap();
    assert_eq!(json, r#"{"kind":"stalled","team":"red","cause":"x"}"#);
    assert_eq!(serde_json::from_str::<Ending>(&json).unwrap(), ending);
    // A report written before `lastError` was kept still reads.
    let old = r#"{"ending":{"kind":"played","result":{"kind":"turnLimit"}},"ticks":0,
        "sides":{"red":{"asked":2,"answered":1,"errors":1},"blue":{"asked":2,"answered":2,"errors":0}},
        "log":{"ticks":[]}}"#;
    let report: MatchReport = serde_json::from_str(old).unwrap();
    assert_eq!(report.sides.red.errors, 1);
}

/// Plays `game` with greedy on both sides for at most `ticks` ticks, or to its end.
fn greedy_ticks(game: &mut Match, ticks: u32) {
    for _ in 0..ticks {
        if game.ending().is_some() {
            break;
        }
        for ask in all(game) {
            let answer = BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed);
            assert!(game.deliver(ask.turn, ask.team, answer, Some(1)));
        }
        game.finish(1000).unwrap();
    }
}

#[test]
fn a_game_played_on_from_a_position_goes_on_from_its_turn_as_the_whole_game_did() {
    for preset in [Preset::Mini, Preset::Arena] {
        let settings = Settings {
            preset,
            max_turns: 60,
            policy: Policy::default(),
        };
        let mut whole = start(9, &settings);
        greedy_ticks(&mut whole, u32::MAX);
        let whole = (whole.game().clone(), whole.report().unwrap());

        let mut first = start(9, &settings);
        greedy_ticks(&mut first, 25);
        let at = first.game().clone();
        assert_eq!(at.turn(), 25, "{preset}");
        let mut rest = Match::new(at.clone(), 9, Policy::default());
        assert_eq!(rest.game(), &at);
        greedy_ticks(&mut rest, u32::MAX);
        let report = rest.report().unwrap();
        // The same seed and players give the same game: built-in seeds count from the game's turn.
        assert_eq!(rest.game(), &whole.0, "{preset}");
        assert_eq!(report.ending, whole.1.ending, "{preset}");
        assert_eq!(report.ticks, whole.1.ticks - 25, "{preset}");
    }
}

#[test]
fn a_game_played_on_from_its_end_is_over_before_its_first_tick() {
    let settings = Settings {
        preset: Preset::Mini,
        max_turns: 4,
        policy: Policy::default(),
    };
    let mut game = start(3, &settings);
    greedy_ticks(&mut game, u32::MAX);
    let ended = game.game().clone();
    assert_eq!(ended.result(), Some(GameResult::TurnLimit));
    let mut again = Match::new(ended, 3, Policy::default());
    let report = again.report().expect("over at once");
    assert_eq!(report.ticks, 0);
    assert_eq!(
        report.ending,
        Ending::Played {
            result: GameResult::TurnLimit
        }
    );
    assert!(again.begin(|_| true, 1000).is_err(), "no tick is played");
}

#[test]
fn a_person_at_the_board_is_not_asked_and_its_move_is_logged_so_the_record_plays_it() {
    let rules = Preset::Arena.rules();
    let mut m = Match::new(Game::new(&rules, 4).unwrap(), 4, Policy::Lenient);
    let human = Team::Blue;
    let position = m.game().position();
    let first = position.moves(human)[0];
    let path = position.path(human, first).unwrap();
    m.submit(human, path.clone());
    let asks = m.begin(|t| t != human, 700).unwrap();
    assert_eq!(asks.len(), 1);
    assert_eq!(m.awaiting(), vec![Team::Red]);
    assert!(m.is_awaiting());
    let red = BuiltIn::Greedy.answer(m.game(), Team::Red, asks[0].seed);
    assert!(m.deliver(asks[0].turn, Team::Red, red, Some(3)));
    assert!(!m.is_awaiting());
    let outcome = m.finish(700).unwrap();
    assert_eq!(outcome.moves.len(), 2, "{outcome:?}");
    assert_eq!((m.tally(human).asked, m.tally(Team::Red).asked), (0, 1));
    // The person's move is in the log, without a latency, and the record plays the tick again.
    let played = m.game().clone();
    let log = GameLog {
        ticks: vec![[
            Some(LoggedAnswer::new(
                &BuiltIn::Greedy.answer(&Game::new(&rules, 4).unwrap(), Team::Red, asks[0].seed),
                Some(3),
            )),
            Some(LoggedAnswer::new(&Answer::Move(path), None)),
        ]],
    };
    let mut kept = m.clone();
    kept.ending = Some(Ending::Played {
        result: GameResult::TurnLimit,
    });
    assert_eq!(kept.report().unwrap().log, log);
    let record = log
        .record(&rules, 4, Teams::from_fn(|t| t.to_string()))
        .unwrap();
    let replayed = crate::halma::record::Record::parse(&record).unwrap();
    assert_eq!(replayed.game(1).unwrap().position(), played.position());
}

#[test]
fn a_person_who_has_not_moved_yet_is_no_error_in_the_tally() {
    let rules = Preset::Arena.rules();
    let mut m = Match::new(Game::new(&rules, 4).unwrap(), 4, Policy::Lenient);
    let human = Team::Blue;
    let asks = m.begin(|t| t != human, 700).unwrap();
    let red = BuiltIn::Greedy.answer(m.game(), Team::Red, asks[0].seed);
    assert!(m.deliver(asks[0].turn, Team::Red, red, Some(3)));
    let outcome = m.finish(700).unwrap();
    assert!(
        outcome.errors.iter().any(|e| e.team == human),
        "the rules count a mover without a move: {outcome:?}"
    );
    assert_eq!(m.tally(human).errors, 0, "{:?}", m.tally(human));
    assert_eq!(m.tally(human).asked, 0);
    assert_eq!(m.tally(Team::Red).errors, 0);
}

#[test]
fn each_side_is_asked_on_its_seat() {
    let rules = Preset::Arena.rules();
    let seats = Teams {
        red: Seat {
            content_type: ContentType::Json,
            cut: Cut::AtTheTick,
        },
        blue: Seat {
            content_type: ContentType::TextPlain,
            cut: Cut::CourseClock,
        },
    };
    let mut m = Match::new(Game::new(&rules, 2).unwrap(), 2, Policy::default()).with_seats(seats);
    m.begin(|_| true, 250).unwrap();
    assert_eq!(m.content_type(Team::Red), ContentType::Json);
    assert_eq!(m.deadline(Team::Red), Deadline::Millis(250));
    assert_eq!(m.deadline(Team::Blue), Deadline::CourseClock);
    assert!(m.request_body(Team::Red).contains(r#""timeLimitMs":250"#));
    m.finish(250).unwrap();
    m.begin(|_| true, 900).unwrap();
    assert_eq!(m.deadline(Team::Red), Deadline::Millis(900));
}
