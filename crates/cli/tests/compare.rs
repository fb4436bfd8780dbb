//! `gridarena halma compare` end to end: a stronger built-in is found early, with its interval; a seed
//! plays the same games at any concurrency; seats alternate and pairs share a seed; `--out` writes
//! records the page replays and a summary; bad options are usage errors.

#[path = "support/run.rs"]
mod run;

use gridarena_engine::halma::record::Record;
use run::run;
use std::path::PathBuf;

/// A folder of its own under the system's temporary folder, emptied first.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridarena-compare-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `search-lite` against `greedy` on the mini board, seed 1, at most 40 games, and more.
fn search_lite_vs_greedy(more: &[&str]) -> run::Run {
    let mut args = vec![
        "halma",
        "compare",
        "builtin:search-lite",
        "builtin:greedy",
        "--games",
        "40",
        "--seed",
        "1",
        "--preset",
        "mini",
    ];
    args.extend_from_slice(more);
    let r = run(&args, "", None);
    assert_eq!(r.code, 0, "{r:?}");
    r
}

/// The per-game lines: "game K: A SEAT, seed S: RESULT (ENDING), T ticks".
fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("game ")).collect()
}

#[test]
fn a_stronger_player_is_found_early_and_a_seed_repeats_the_games() {
    let first = search_lite_vs_greedy(&[]);
    let out = &first.stdout;
    assert!(out.contains("verdict: A is stronger"), "{out}");
    assert!(out.contains("stopped early after"), "{out}");
    assert!(out.contains("95% interval"), "{out}");
    assert!(out.contains("(the 99% interval, "), "{out}");
    let games = game_lines(out);
    assert!(
        (10..40).contains(&games.len()) && games.len() % 2 == 0,
        "it stops after a whole pair, not before 10 games: {out}"
    );
    // Seats alternate, A red first; a pair shares its seed.
    let mut seeds = Vec::new();
    for (k, line) in games.iter().enumerate() {
        let seat = if k % 2 == 0 { "red" } else { "blue" };
        assert!(
            line.starts_with(&format!("game {}: A {seat}, seed ", k + 1)),
            "{line}"
        );
        let seed = line
            .split("seed ")
            .nth(1)
            .unwrap()
            .split(':')
            .next()
            .unwrap();
        seeds.push(seed.to_string());
    }
    for pair in seeds.chunks(2) {
        assert_eq!(pair[0], pair[1], "{seeds:?}");
    }
    assert_ne!(seeds[0], seeds[2]);
    // The same seed, one game at a time or three: the same games, the same stop.
    for concurrency in ["1", "3"] {
        let again = search_lite_vs_greedy(&["--concurrency", concurrency]);
        assert_eq!(
            game_lines(&again.stdout),
            games,
            "--concurrency {concurrency}"
        );
        let tally = |s: &str| {
            s.lines()
                .filter(|l| l.starts_with("A vs B:") || l.starts_with("verdict:"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(tally(&again.stdout), tally(out));
    }
}

#[test]
fn out_writes_each_games_record_and_a_summary() {
    let dir = temp_dir("out");
    let r = run(
        &[
            "halma",
            "compare",
            "builtin:greedy",
            "builtin:greedy",
            "--games",
            "4",
            "--seed",
            "5",
            "--preset",
            "mini",
            "--first",
            "blue",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
        None,
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("played to the end"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("verdict: no difference shown after 4 games"),
        "{}",
        r.stdout
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["gamesPlayed"], 4);
    assert_eq!(summary["stoppedEarly"], false);
    assert_eq!(summary["verdict"], "noDifference");
    let games = summary["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    for (k, game) in games.iter().enumerate() {
        assert_eq!(game["number"], k + 1);
        assert_eq!(game["aSeat"], if k % 2 == 0 { "red" } else { "blue" });
        let text =
            std::fs::read_to_string(dir.join(format!("games/game-{}.jsonl", k + 1))).unwrap();
        let record = Record::parse(&text).unwrap();
        assert_eq!(record.ticks() as u64, game["ticks"].as_u64().unwrap());
        assert_eq!(record.header().seed, game["seed"].as_u64().unwrap());
        let a = if k % 2 == 0 { "red" } else { "blue" };
        let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(header["players"][a], "A (builtin:greedy)");
    }
    let wins = summary["wins"].as_u64().unwrap();
    let draws = summary["draws"].as_u64().unwrap();
    let losses = summary["losses"].as_u64().unwrap();
    assert_eq!(wins + draws + losses, 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_usage_errors() {
    let greedy = "builtin:greedy";
    for (args, says) in [
        (vec![greedy], "<B>"),
        (vec!["builtin:nope", greedy], "builtin:search-lite"),
        (vec![greedy, "greedy"], "builtin:"),
        (vec![greedy, greedy, "--games", "0"], "--games"),
        (vec![greedy, greedy, "--concurrency", "0"], "--concurrency"),
        (vec![greedy, greedy, "--tick-ms", "0"], "--tick-ms"),
        (vec![greedy, greedy, "--preset", "huge"], "--preset"),
        (vec![greedy, greedy, "--seed", "x"], "--seed"),
        (vec![greedy, greedy, "--policy", "strict:x"], "error policy"),
        (vec![greedy, greedy, "--camp-rules", "course"], "classic"),
        (vec![greedy, greedy, "--first", "red"], "alternating"),
        (
            vec![greedy, "course:.:true", "--preset", "mini"],
            "course format",
        ),
    ] {
        let mut all = vec!["halma", "compare"];
        all.extend(args.iter().copied());
        let r = run(&all, "", None);
        assert_eq!(r.code, 2, "{all:?}: {r:?}");
        assert!(r.stderr.contains(says), "{all:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{all:?}: {}", r.stdout);
    }
}
