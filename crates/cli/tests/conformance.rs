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
use gridarena_cli::code::interpreter;
use gridarena_cli::code::sandbox::Isolation;
use gridarena_engine::halma::code::{CodeFile, CodeMove, Format, HashedSource, Lang, Source};
use gridarena_engine::halma::{Answer, NoMove, Team};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn cases() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/conformance/cases.json");
    let text = std::fs::read_to_string(&path).expect("the conformance cases");
    serde_json::from_str(&text).expect("cases.json is JSON")
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
        format: Format::Function,
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
    if let Some(body) = want.get("body") {
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
