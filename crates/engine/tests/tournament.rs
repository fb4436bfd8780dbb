//! A whole tournament driven as the front-ends drive it: built-in players answering at once, a dead
//! entry never answering, the bundle saved mid-way and resumed.

use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::play::{Ending, Policy};
use gridarena_engine::halma::record::Record;
use gridarena_engine::halma::{AiPlayer, Answer, NoMove, Preset, ProgramFailure, Team, Teams};
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::game::GameReport;
use gridarena_engine::tournament::pairing::Format;
use gridarena_engine::tournament::roster::{Entry, Roster};
use gridarena_engine::tournament::settings::Settings;
use gridarena_engine::tournament::Score;

fn roster(players: &[(&str, &str)]) -> Roster {
    Roster {
        entries: players
            .iter()
            .map(|(name, player)| Entry::new(name, player))
            .collect(),
    }
}

fn settings(format: Format) -> Settings {
    Settings {
        format,
        preset: Preset::Mini,
        max_turns: Some(60),
        concurrency: 3,
        seed: 11,
        ..Settings::default()
    }
}

/// Plays one game: built-ins answer with their seed, web players "never answer" (a refused connection).
fn play(t: &Tournament, fixture: gridarena_engine::tournament::game::Fixture) -> GameReport {
    let mut game = t.start(&fixture).unwrap();
    let tick_ms = t.settings().tick_ms;
    let players = Teams::from_fn(|team| t.player(fixture.entry(team)).cloned().unwrap());
    while game.ending().is_none() {
        let asks = game.begin(|_| true, tick_ms).unwrap();
        for ask in asks {
            let (answer, ms) = match &players[ask.team] {
                AiPlayer::BuiltIn(ai) => (ai.answer(game.game(), ask.team, ask.seed), Some(1)),
                AiPlayer::Web(_) => (
                    Answer::NoMove(NoMove::Failed("connection refused".into())),
                    None,
                ),
                // A program here is one whose clock has run out: it answers at once, and never a move.
                AiPlayer::Program(_) => (
                    Answer::NoMove(NoMove::Program(ProgramFailure::OutOfTime)),
                    Some(0),
                ),
                // Code here is code that does not parse: it answers at once, and never a move.
                AiPlayer::Code(_) => (
                    Answer::NoMove(NoMove::Failed("syntax error: main.py line 1".into())),
                    Some(0),
                ),
            };
            assert!(game.deliver(ask.turn, ask.team, answer, ms));
        }
        game.finish(100).unwrap();
    }
    GameReport {
        fixture,
        played: game.report().unwrap(),
    }
}

/// Runs `t` to the end, stopping after `stop_after` games if given; returns the order games started in.
fn run(t: &mut Tournament, stop_after: Option<usize>) {
    loop {
        let start = t.next_games();
        if start.is_empty() {
            assert!(t.is_over(), "nothing to start, yet not over");
            return;
        }
        for f in start {
            if stop_after.is_some_and(|n| t.finished_count() >= n) {
                return;
            }
            let report = play(t, f);
            t.finish(report).unwrap();
        }
    }
}

const FOUR: [(&str, &str); 4] = [
    ("Ada", "builtin:greedy"),
    ("Bo", "builtin:search"),
    ("Cy", "builtin:greedy"),
    ("Dead", "http://127.0.0.1:9/"),
];

#[test]
fn a_double_round_robin_plays_every_pair_twice_and_withdraws_the_dead_entry() {
    let mut t = Tournament::new(roster(&FOUR), settings(Format::Double)).unwrap();
    assert_eq!(t.total_games(), 12);
    run(&mut t, None);
    assert_eq!(t.finished_count(), 12);
    let dead = t
        .withdrawn(3)
        .expect("the entry that never answers is withdrawn");
    assert!(
        dead.cause.starts_with(
            "no answer in 3 games in a row (last: blue: request failed: connection refused"
        ) || dead.cause.starts_with(
            "no answer in 3 games in a row (last: red: request failed: connection refused"
        ),
        "{}",
        dead.cause
    );
    let unplayed = t
        .finished()
        .filter(|r| matches!(r.played.ending, Ending::Withdrawn { .. }))
        .count();
    assert_eq!(
        unplayed, 3,
        "after 3 silent games its other 3 are lost unplayed"
    );
    let table = t.standings().unwrap();
    let rows = table.ranked();
    let dead_row = rows.iter().find(|r| r.entry == 3).unwrap();
    // Its 3 silent games were forfeited after 10 errors in a row (the default policy; under the lenient
    // one they would still be lost at the turn limit, by error count), the 3 it never played are losses.
    assert_eq!(
        (
            dead_row.played,
            dead_row.wins,
            dead_row.draws,
            dead_row.losses
        ),
        (6, 0, 0, 6)
    );
    assert_eq!(rows.iter().map(|r| r.played).sum::<u32>(), 24);
}

#[test]
fn a_resumed_tournament_ends_with_the_same_table_as_an_uninterrupted_one() {
    for format in [
        Format::RoundRobin,
        Format::Double,
        Format::Swiss { rounds: 3 },
    ] {
        let mut whole = Tournament::new(roster(&FOUR), settings(format)).unwrap();
        run(&mut whole, None);
        let mut first = Tournament::new(roster(&FOUR), settings(format)).unwrap();
        run(&mut first, Some(4));
        let bundle = first.to_bundle();
        let mut resumed = Tournament::from_bundle(&bundle).unwrap();
        assert_eq!(resumed.finished_count(), first.finished_count(), "{format}");
        run(&mut resumed, None);
        assert_eq!(
            resumed.standings().unwrap().ranked(),
            whole.standings().unwrap().ranked(),
            "{format}"
        );
        assert_eq!(
            resumed.to_bundle().len(),
            whole.to_bundle().len(),
            "{format}"
        );
    }
}

#[test]
fn concurrency_and_the_per_entry_limit_are_kept() {
    let six: Vec<(String, String)> = (0..6)
        .map(|i| (format!("e{i}"), "builtin:greedy".to_string()))
        .collect();
    let six: Vec<(&str, &str)> = six.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let mut t = Tournament::new(
        roster(&six),
        Settings {
            concurrency: 2,
            ..settings(Format::RoundRobin)
        },
    )
    .unwrap();
    let start = t.next_games();
    assert_eq!(start.len(), 2);
    assert!(t.next_games().is_empty(), "two running already");
    let mut t = Tournament::new(
        roster(&six),
        Settings {
            concurrency: 64,
            ..settings(Format::RoundRobin)
        },
    )
    .unwrap();
    let start = t.next_games();
    assert_eq!(
        start.len(),
        3,
        "one game per entry at once: 6 entries, 3 games"
    );
    let mut seen = [0; 6];
    for f in &start {
        seen[f.red] += 1;
        seen[f.blue] += 1;
    }
    assert_eq!(seen, [1; 6]);
}

#[test]
fn the_strict_policy_forfeits_on_the_nth_error_and_names_the_cause() {
    let players = [("Ada", "builtin:greedy"), ("Dead", "http://127.0.0.1:9/")];
    let mut t = Tournament::new(
        roster(&players),
        Settings {
            policy: Policy::Strict { errors: 2 },
            ..settings(Format::RoundRobin)
        },
    )
    .unwrap();
    run(&mut t, None);
    let report = t.finished().next().unwrap();
    let Ending::Forfeit { team, cause } = &report.played.ending else {
        panic!("{:?}", report.played.ending)
    };
    // Mini alternates, so the dead side's second error is on the third or fourth tick.
    assert_eq!(report.played.sides[*team].errors, 2);
    assert!(
        report.played.ticks <= 4,
        "the second error ends it: {}",
        report.played.ticks
    );
    assert_eq!(report.fixture.entry(*team), 1);
    assert!(
        cause.contains("2 errors; the last:") && cause.contains("connection refused"),
        "{cause}"
    );
    assert!(report.played.ending.to_string().contains("forfeited"));
}

#[test]
fn a_spent_clock_loses_at_once_under_the_strict_policy_and_costs_a_move_under_the_lenient() {
    let players = [
        ("Ada", "builtin:greedy"),
        ("Slow", "course:agents/slow:./agent"),
    ];
    let strict = Settings {
        policy: Policy::Strict { errors: 5 },
        ..settings(Format::RoundRobin)
    };
    let mut t = Tournament::new(roster(&players), strict).unwrap();
    run(&mut t, None);
    let report = t.finished().next().unwrap();
    let Ending::Forfeit { team, cause } = &report.played.ending else {
        panic!("{:?}", report.played.ending)
    };
    assert_eq!(report.fixture.entry(*team), 1);
    assert_eq!(
        report.played.sides[*team].errors, 1,
        "the first spent clock ends it, not the fifth"
    );
    assert!(cause.contains("out of time"), "{cause}");
    let lenient = Settings {
        policy: Policy::Lenient,
        ..settings(Format::RoundRobin)
    };
    let mut lenient = Tournament::new(roster(&players), lenient).unwrap();
    run(&mut lenient, None);
    let report = lenient.finished().next().unwrap();
    // The game goes on: greedy wins on the board, or at the turn limit by the error count.
    assert!(
        matches!(
            report.played.ending,
            Ending::Played { .. } | Ending::Stalled { .. }
        ),
        "{:?}",
        report.played.ending
    );
    assert!(report.played.sides[Team::Blue].errors + report.played.sides[Team::Red].errors > 1);
    assert_eq!(report.played.ending.score(), {
        let slow = if report.fixture.red == 1 {
            Team::Red
        } else {
            Team::Blue
        };
        if slow == Team::Red {
            Score::BlueWins
        } else {
            Score::RedWins
        }
    });
}

#[test]
fn a_finished_game_replays_into_a_record_the_arena_page_loads() {
    let mut t = Tournament::new(roster(&FOUR), settings(Format::RoundRobin)).unwrap();
    run(&mut t, Some(3));
    for report in t.finished() {
        let players = Teams::from_fn(|team: Team| {
            t.roster().entries[report.fixture.entry(team)]
                .player
                .clone()
        });
        let text = report.record(t.settings(), players).unwrap();
        let record = Record::parse(&text).unwrap();
        assert_eq!(record.ticks(), report.played.ticks as usize);
        if let Ending::Played { result } = report.played.ending {
            assert_eq!(record.result(), Some(result));
        }
    }
}

#[test]
fn hostile_bundles_are_refused_with_a_reason() {
    let cases = [
        ("[]", "This is not a tournament bundle"),
        (
            r#"{"format":"x","version":1,"roster":{"entries":[]},"settings":{}}"#,
            "missing field",
        ),
    ];
    for (text, message) in cases {
        let e = Tournament::from_bundle(text).unwrap_err().to_string();
        assert!(e.contains(message), "{text}: {e}");
    }
    let mut t = Tournament::new(roster(&FOUR), settings(Format::RoundRobin)).unwrap();
    run(&mut t, Some(2));
    let bundle = t.to_bundle();
    let newer = bundle.replacen("\"version\":2", "\"version\":9", 1);
    assert!(Tournament::from_bundle(&newer)
        .unwrap_err()
        .to_string()
        .contains("newer"));
    let moved = bundle.replacen("\"seed\":", "\"seed\":1", 2);
    assert!(
        Tournament::from_bundle(&moved).is_err(),
        "a game's seed changed"
    );
    let twice = {
        let mut v: serde_json::Value = serde_json::from_str(&bundle).unwrap();
        let game = v["games"][0].clone();
        v["games"].as_array_mut().unwrap().push(game);
        v.to_string()
    };
    assert!(Tournament::from_bundle(&twice)
        .unwrap_err()
        .to_string()
        .contains("already finished"));
    let _ = BuiltIn::Greedy;
}

#[test]
fn code_entries_travel_in_the_bundle_and_a_final_takes_code_only() {
    use gridarena_engine::halma::code::{CodeFile, Format as CodeFormat, Lang, Source};
    let source = Source {
        lang: Lang::Python,
        format: CodeFormat::Function,
        main: "main.py".into(),
        files: vec![
            CodeFile::text("main.py", "def move(request):\n    return None\n"),
            CodeFile::binary("table.pkl", b"\x80\x04\x95"),
        ],
    };
    let mut entries =
        roster(&[("House", "builtin:greedy"), ("Web", "http://127.0.0.1:9/")]).entries;
    entries.push(Entry::code("Ada", source.clone()));
    let class = Roster { entries };
    let mut t = Tournament::new(class.clone(), settings(Format::RoundRobin)).unwrap();
    run(&mut t, Some(1));
    let resumed = Tournament::from_bundle(&t.to_bundle()).unwrap();
    let Some(AiPlayer::Code(played)) = resumed.player(2) else {
        panic!("{:?}", resumed.player(2))
    };
    assert_eq!(
        played.source(),
        &source,
        "the bundle alone carries the code"
    );
    assert_eq!(played.sha256(), source.sha256());
    assert!(t.to_bundle().contains(&source.sha256()));

    let final_settings = Settings {
        code_only: true,
        ..settings(Format::RoundRobin)
    };
    let e = Tournament::new(class, final_settings.clone())
        .unwrap_err()
        .to_string();
    assert!(e.contains("Entry 2 (Web) is not code"), "{e}");
    let finalists = Roster {
        entries: vec![
            Entry::code("Ada", source.clone()),
            Entry::new("House", "builtin:search"),
        ],
    };
    assert!(Tournament::new(finalists, final_settings).is_ok());
}

#[test]
fn milestones_are_played_by_every_entry_twice_and_kept_out_of_the_standings() {
    use gridarena_engine::tournament::milestone::parse_list;
    for format in [Format::RoundRobin, Format::Swiss { rounds: 2 }] {
        let with = Settings {
            milestones: parse_list("greedy:50 search-lite:50").unwrap(),
            ..settings(format)
        };
        let mut t = Tournament::new(roster(&FOUR), with.clone()).unwrap();
        let mut plain = Tournament::new(roster(&FOUR), settings(format)).unwrap();
        assert_eq!(t.total_games(), plain.total_games() + 2 * 2 * 4, "{format}");
        run(&mut t, None);
        run(&mut plain, None);
        // The class's table is the same with or without milestones.
        let rows = |t: &Tournament| {
            t.standings()
                .unwrap()
                .ranked()
                .iter()
                .map(|r| (r.entry, r.half_points, r.played))
                .collect::<Vec<_>>()
        };
        assert_eq!(rows(&t), rows(&plain), "{format}");
        assert_eq!(t.finished_count(), plain.finished_count() + 16);
        let results = t.milestone_results();
        for (entry, per) in results.iter().enumerate() {
            for r in per {
                assert_eq!(r.games, 2, "{format}: entry {entry} v {}", r.milestone);
            }
        }
        // Search beats both milestones in both seats.
        let search = &results[1];
        assert!(search.iter().all(|r| r.passed), "{format}: {search:?}");
        // The dead entry's errors gain it nothing: it passes no milestone.
        assert!(
            results[3].iter().all(|r| !r.passed && r.half_points == 0),
            "{format}: {:?}",
            results[3]
        );
        // Milestone games have names, replay and survive a resume.
        let names = t.names();
        assert_eq!(names[t.milestone_entry(1)], "search-lite (milestone)");
        let resumed = Tournament::from_bundle(&t.to_bundle()).unwrap();
        assert_eq!(resumed.milestone_results(), results);
        assert!(resumed.is_over());
    }
}

/// How each entry of the class below answers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Class {
    Greedy,
    Search,
    /// A legal move drawn at random: an AI that plays, badly.
    Random,
    /// Never answers.
    Dead,
    /// Answers HTTP 500 every tick.
    Crashing,
    /// Answers an error 9 ticks out of 10 and a legal move the 10th: just under the default policy's
    /// 10 in a row, to drag every game it is losing to the turn limit.
    Stalling,
}

const CLASS: [(&str, Class); 6] = [
    ("Greedy", Class::Greedy),
    ("Search", Class::Search),
    ("Random", Class::Random),
    ("Dead", Class::Dead),
    ("Crashing", Class::Crashing),
    ("Stalling", Class::Stalling),
];

fn class_answer(
    kind: Class,
    game: &gridarena_engine::halma::Game,
    team: Team,
    seed: u64,
) -> (Answer, Option<u32>) {
    let tick = game.turn() + 1;
    match kind {
        Class::Greedy => (BuiltIn::Greedy.answer(game, team, seed), Some(1)),
        Class::Search => (BuiltIn::Search.answer(game, team, seed), Some(1)),
        Class::Random => {
            let moves = game.position().moves(team);
            let path = (!moves.is_empty())
                .then(|| moves[(seed % moves.len() as u64) as usize])
                .and_then(|mv| game.position().path(team, mv));
            let answer = path.map_or(Answer::NoMove(NoMove::Missing), Answer::Move);
            (answer, Some(1))
        }
        Class::Dead => (Answer::NoMove(NoMove::TimedOut { after_ms: 100 }), None),
        Class::Crashing => (
            Answer::NoMove(NoMove::Failed("HTTP 500 Internal Server Error".into())),
            Some(2),
        ),
        Class::Stalling if tick % 10 != 0 => (
            Answer::NoMove(NoMove::Failed("HTTP 503 Service Unavailable".into())),
            Some(2),
        ),
        Class::Stalling => (BuiltIn::Greedy.answer(game, team, seed), Some(1)),
    }
}

#[test]
fn with_the_default_settings_a_dead_a_crashing_and_a_stalling_entry_finish_below_every_entry_that_plays(
) {
    let players: Vec<(&str, String)> = CLASS
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (*name, format!("http://127.0.0.1:{}/", 9000 + i)))
        .collect();
    let players: Vec<(&str, &str)> = players.iter().map(|(n, p)| (*n, p.as_str())).collect();
    let settings = Settings {
        format: Format::Double,
        max_turns: Some(150),
        seed: 36,
        ..Settings::default()
    };
    assert_eq!(settings.preset, Preset::Arena);
    let mut t = Tournament::new(roster(&players), settings).unwrap();
    loop {
        let start = t.next_games();
        if start.is_empty() {
            break;
        }
        for fixture in start {
            let mut game = t.start(&fixture).unwrap();
            while game.ending().is_none() {
                for ask in game.begin(|_| true, 1000).unwrap() {
                    let kind = CLASS[fixture.entry(ask.team)].1;
                    let (answer, ms) = class_answer(kind, game.game(), ask.team, ask.seed);
                    assert!(game.deliver(ask.turn, ask.team, answer, ms));
                }
                game.finish(100).unwrap();
            }
            let played = game.report().unwrap();
            t.finish(GameReport { fixture, played }).unwrap();
        }
    }
    assert!(t.is_over());
    let standings = t.standings().unwrap();
    let rows = standings.ranked();
    let order: Vec<&str> = rows.iter().map(|r| CLASS[r.entry].0).collect();
    let points = |entry: usize| rows.iter().find(|r| r.entry == entry).unwrap().half_points;
    let plays = |c: Class| matches!(c, Class::Greedy | Class::Search | Class::Random);
    for (broken, (name, kind)) in CLASS.iter().enumerate().filter(|(_, c)| !plays(c.1)) {
        for (good, (other, _)) in CLASS.iter().enumerate().filter(|(_, c)| plays(c.1)) {
            assert!(
                points(broken) < points(good),
                "{name} ({kind:?}) has {} points, {other} {}: {order:?}",
                points(broken),
                points(good)
            );
        }
    }
    assert_eq!(
        order[..3]
            .iter()
            .filter(|n| ["Greedy", "Search", "Random"].contains(n))
            .count(),
        3,
        "{order:?}"
    );
    // The stalling entry never forfeits: each game it does not win ends at the turn limit against it.
    for r in t.finished() {
        let Some(team) = Team::ALL
            .into_iter()
            .find(|&team| CLASS[r.fixture.entry(team)].1 == Class::Stalling)
        else {
            continue;
        };
        let opponent = CLASS[r.fixture.entry(team.other())].1;
        if plays(opponent) {
            assert!(
                matches!(&r.played.ending, Ending::Stalled { team: t, .. } if *t == team),
                "{:?}",
                r.played.ending
            );
        }
    }
}

#[test]
fn the_grades_file_has_a_row_per_entry_with_its_milestones_errors_and_code() {
    use gridarena_engine::halma::code::{CodeFile, Format as CodeFormat, Lang, Source};
    use gridarena_engine::tournament::grades;
    use gridarena_engine::tournament::milestone::parse_list;
    let source = Source {
        lang: Lang::Python,
        format: CodeFormat::Function,
        main: "main.py".into(),
        files: vec![CodeFile::text("main.py", "def move(r):\n    return None\n")],
    };
    let mut entries = roster(&FOUR[..3]).entries;
    entries.push(Entry::code("Broken, Jr.", source.clone()));
    let with = Settings {
        milestones: parse_list("greedy:50").unwrap(),
        ..settings(Format::RoundRobin)
    };
    let mut t = Tournament::new(Roster { entries }, with).unwrap();
    run(&mut t, None);
    let csv = grades::to_csv(&t).unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines[0],
        "name,code_sha256,milestones_passed,greedy:50,games,wins,draws,losses,points,errors,error_kinds,median_ms,withdrawn"
    );
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(
        lines[2].starts_with("Bo,,1,pass (2 of 2),3,"),
        "{}",
        lines[2]
    );
    let broken = lines[4];
    assert!(
        broken.starts_with(&format!(
            "\"Broken, Jr.\",{},0,fail (0 of 2),3,0,0,3,0,",
            source.sha256()
        )),
        "{broken}"
    );
    assert!(broken.contains("failed "), "the errors by kind: {broken}");
    // A resumed tournament grades the same, answer times included.
    let resumed = Tournament::from_bundle(&t.to_bundle()).unwrap();
    assert_eq!(grades::to_csv(&resumed).unwrap(), csv);
}

#[test]
fn a_given_schedule_is_played_as_given_and_one_that_does_not_fit_is_refused() {
    use gridarena_engine::tournament::game::Fixture;
    let game = |number: usize, round: usize, red: usize, blue: usize| Fixture {
        number,
        round,
        red,
        blue,
        seed: 100 + number as u64,
    };
    // Rounds 0 and 2, none in round 1: each still has a bye slot, with no bye.
    let schedule = vec![game(0, 0, 1, 0), game(1, 0, 2, 3), game(2, 2, 0, 1)];
    let mut t = Tournament::with_fixtures(
        roster(&FOUR),
        settings(Format::RoundRobin),
        schedule.clone(),
    )
    .unwrap();
    assert_eq!(t.fixtures(), &schedule[..]);
    assert_eq!(t.byes(), &[None, None, None]);
    run(&mut t, None);
    assert_eq!(t.finished_count(), 3);
    assert!(t.is_over());

    let refused = |settings: Settings, schedule: Vec<Fixture>| {
        Tournament::with_fixtures(roster(&FOUR), settings, schedule).is_err()
    };
    let rr = || settings(Format::RoundRobin);
    // Numbered out of place, an entry out of the roster, an entry against itself, a round going back.
    assert!(refused(rr(), vec![game(1, 0, 0, 1)]));
    assert!(refused(rr(), vec![game(0, 0, 0, 4)]));
    assert!(refused(rr(), vec![game(0, 0, 2, 2)]));
    assert!(refused(rr(), vec![game(0, 1, 0, 1), game(1, 0, 2, 3)]));
    // A format that schedules games of its own, or milestones, would add to the schedule.
    assert!(refused(settings(Format::Swiss { rounds: 2 }), vec![]));
    let with_milestone = Settings {
        milestones: gridarena_engine::tournament::milestone::parse_list("greedy:50").unwrap(),
        ..rr()
    };
    assert!(refused(with_milestone, vec![]));
}
