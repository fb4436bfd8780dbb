//! The conformance suite, command-line side: each case of tests/fixtures/conformance/cases.json played by
//! the command line's function runner (the runners of web/runners/, in python3 and node inside the
//! sandbox). web/test/conformance.test.mjs plays the same cases in the page's runtime: one case, both
//! hosts, the same moves, failure names and printed text, as the server's store tests run one case on
//! every backend.
//!
//! Where the two hosts differ by design, the case says so once here: the command line shows what the
//! import printed with the game's first move (the page reports it when the worker is ready), and a start
//! that fails is reported by the first move.

use gridarena_cli::code::function::FunctionPlayer;
use gridarena_cli::code::sandbox::Isolation;
use gridarena_cli::code::{interpreter, CodePlayer};
use gridarena_cli::program::{Ask, Clock};
use gridarena_engine::halma::code::{CodeFile, CodeMove, Format, HashedSource, Lang, Source};
use gridarena_engine::halma::course::{input_txt, Occasion};
use gridarena_engine::halma::{Answer, CampRules, Game, NoMove, Preset, Team};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/conformance")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn cases() -> Vec<Value> {
    serde_json::from_str(&fixture("cases.json")).expect("cases.json is JSON")
}

/// The game a course case's move is asked in: the classic start, course rules, red asked first with
/// the full clock; its input.txt is the fixture the page's side is given.
fn classic() -> Game {
    let mut rules = Preset::Classic.rules();
    rules.camp_rules = CampRules::Course;
    let game = Game::new(&rules, 1).expect("the classic start");
    let input = input_txt(&game, Team::Red, 300.0, Occasion::FirstMove).expect("16x16");
    assert_eq!(
        input,
        fixture("classic_input.txt"),
        "the page's side is given this input.txt"
    );
    game
}

fn source(case: &Value) -> Source {
    let lang = match case["lang"].as_str() {
        Some("python") => Lang::Python,
        _ => Lang::JavaScript,
    };
    let mut files: Vec<CodeFile> = case["files"]
        .as_object()
        .expect("files")
        .iter()
        .map(|(path, text)| CodeFile::text(path, text.as_str().unwrap_or_default()))
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Source {
        lang,
        format: match case["format"].as_str() {
            Some("course") => Format::Course,
            _ => Format::Function,
        },
        main: case["main"].as_str().expect("main").to_string(),
        files,
    }
}

/// The failure's name and words, or None for a move.
fn failure(moved: &CodeMove) -> Option<(String, String)> {
    if moved.body.is_some() {
        return None;
    }
    match &moved.answer {
        Answer::NoMove(NoMove::Missing) | Answer::Move(_) => None,
        Answer::NoMove(no_move) => {
            let words = match no_move {
                NoMove::Code(f) => f.to_string(),
                NoMove::Program(p) => p.to_string(),
                other => format!("{other:?}"),
            };
            Some((no_move.code().to_string(), words))
        }
    }
}

/// Checks `moved` against what the case expects of it (`want`); `printed_before` is what the host
/// showed earlier with it (the import's printing, at a first move).
fn check(where_: &str, moved: &CodeMove, want: &Value, printed_before: &str) {
    if let Some(printed) = want.get("printed") {
        let want_printed = format!("{printed_before}{}", printed.as_str().unwrap_or_default());
        assert_eq!(
            moved.printed.as_deref().unwrap_or_default(),
            want_printed,
            "{where_}: printed text"
        );
    }
    for part in want["printed_contains"].as_array().into_iter().flatten() {
        let part = part.as_str().unwrap_or_default();
        let printed = moved.printed.as_deref().unwrap_or_default();
        assert!(
            printed.contains(part),
            "{where_}: {part:?} not printed in {printed:?}"
        );
    }
    if let Some(code) = want.get("code").and_then(Value::as_str) {
        let (named, words) = failure(moved)
            .unwrap_or_else(|| panic!("{where_}: should fail {code}, answered {moved:?}"));
        assert_eq!(named, code, "{where_}: {words}");
        for part in want["message"].as_array().into_iter().flatten() {
            let part = part.as_str().unwrap_or_default();
            assert!(words.contains(part), "{where_}: {part:?} not in {words:?}");
        }
        for part in want["absent"].as_array().into_iter().flatten() {
            let part = part.as_str().unwrap_or_default();
            assert!(!words.contains(part), "{where_}: {part:?} in {words:?}");
        }
        return;
    }
    // The runner answered: the referee may still read the answer as no move (these cases answer
    // whatever shows the runner's behaviour, not Halma moves), which is the engine's, not the host's.
    let body_text = moved
        .body
        .as_deref()
        .unwrap_or_else(|| panic!("{where_}: no answer: {moved:?}"));
    if let Some(Value::String(output)) = want.get("body") {
        assert_eq!(body_text, output, "{where_}: output.txt");
    } else if let Some(body) = want.get("body") {
        let said: Value = serde_json::from_str(body_text).expect("a JSON answer");
        assert_eq!(&said, body, "{where_}: the answer");
    }
}

#[test]
fn every_case_plays_on_the_command_line_as_in_the_page() {
    if let Err(why) = Isolation::get().check(false) {
        eprintln!("skipped: code cannot be confined on this machine: {why}");
        return;
    }
    let mut played = 0;
    for case in cases() {
        let name = case["name"].as_str().unwrap_or_default().to_string();
        let source = source(&case);
        let Ok(interpreter) = interpreter(source.lang) else {
            eprintln!("skipped {name}: no {} here", source.lang);
            continue;
        };
        let seed: u64 = case["seed"].as_str().unwrap_or("0").parse().unwrap_or(0);
        if source.format == Format::Course {
            play_course(&name, source, &case["moves"][0]);
            played += 1;
            continue;
        }
        let player = FunctionPlayer::new(Arc::new(HashedSource::new(source)), interpreter);
        let start = &case["start"];
        let limit = Duration::from_secs(20);
        let moves = case["moves"].as_array().cloned().unwrap_or_default();
        if start.get("code").is_some() {
            let moved = player.ask_request("{}", Team::Red, seed, limit);
            check(&format!("{name}: start"), &moved, start, "");
            player.end_game();
            played += 1;
            continue;
        }
        let mut before = start["printed"].as_str().unwrap_or_default().to_string();
        for (i, want) in moves.iter().enumerate() {
            let request = want["request"].to_string();
            let moved = player.ask_request(&request, Team::Red, seed, limit);
            check(&format!("{name}: move {}", i + 1), &moved, want, &before);
            before.clear();
        }
        player.end_game();
        played += 1;
    }
    assert!(played > 0, "no case could be played");
}

/// A course case: one move, the script run as a process in its game's folder, as the command line runs
/// a course entry; its answer is output.txt's text and its printed text the process's.
fn play_course(name: &str, source: Source, want: &Value) {
    let player = CodePlayer::new(Arc::new(HashedSource::new(source)), Clock::default())
        .expect("a course player");
    let CodePlayer::Course(program) = &player else {
        panic!("{name}: a course entry is played as a program")
    };
    let game = classic();
    let reply = program.ask(&Ask {
        game: &game,
        team: Team::Red,
        seed: 1,
        single: false,
        limit: None,
        request: None,
    });
    let moved = CodeMove {
        answer: reply.answer,
        body: reply.output,
        printed: reply.stderr,
        ms: reply.latency.map(|l| l.as_secs_f64() * 1000.0),
    };
    check(&format!("{name}: move 1"), &moved, want, "");
    player.end_game();
}

/// A request written over several lines is still one request: the runner reads one line a move, so a
/// pretty-printed request must not reach it as several (the page hands its runtime any JSON text).
#[test]
fn a_request_over_several_lines_is_one_move() {
    if let Err(why) = Isolation::get().check(false) {
        eprintln!("skipped: code cannot be confined on this machine: {why}");
        return;
    }
    let case = cases()
        .into_iter()
        .find(|c| c["lang"] == "python" && c["format"] == "function" && c["moves"][1].is_object())
        .expect("a Python function case of two moves");
    let source = source(&case);
    let Ok(interpreter) = interpreter(source.lang) else {
        eprintln!("skipped: no python here");
        return;
    };
    let name = case["name"].as_str().unwrap_or_default();
    let seed: u64 = case["seed"].as_str().unwrap_or("0").parse().unwrap_or(0);
    let player = FunctionPlayer::new(Arc::new(HashedSource::new(source)), interpreter);
    let mut before = case["start"]["printed"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    for (i, want) in case["moves"].as_array().into_iter().flatten().enumerate() {
        let request = serde_json::to_string_pretty(&want["request"]).expect("JSON");
        assert!(request.contains('\n'), "{request}");
        let moved = player.ask_request(&request, Team::Red, seed, Duration::from_secs(20));
        check(
            &format!("{name}: move {} over lines", i + 1),
            &moved,
            want,
            &before,
        );
        before.clear();
    }
    player.end_game();
}
