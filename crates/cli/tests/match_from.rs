//! `gridarena halma match --from`: games played on from a record's tick, a state file or a web AI's
//! request, with other players; the record written starts at that position and replays; the turn counter
//! goes on from it; bad files and options are usage errors (exit 2) that say what is wrong.

#[path = "support/tournament_files.rs"]
mod files;
#[path = "support/run.rs"]
mod run;

use gridarena_engine::halma::record::Record;
use gridarena_engine::halma::{GameState, Team};
use run::run;
use std::path::{Path, PathBuf};

/// A folder of its own under the system's temporary folder, emptied first.
fn temp_dir(name: &str) -> PathBuf {
    files::temp_dir("match-from", name)
}

fn path_arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// `gridarena halma match ARGS...`.
fn matchup(args: &[&str]) -> run::Run {
    let mut all = vec!["halma", "match"];
    all.extend_from_slice(args);
    run(&all, "", None)
}

/// `gridarena halma match --from FROM [MORE...] --red RED --blue BLUE --seed SEED [--record RECORD]`.
fn play_on(
    from: &Path,
    more: &[&str],
    (red, blue): (&str, &str),
    seed: &str,
    record: Option<&Path>,
) -> run::Run {
    let (from, record) = (path_arg(from), record.map(path_arg));
    let mut args = vec!["--from", from.as_str()];
    args.extend_from_slice(more);
    args.extend(["--red", red, "--blue", blue, "--seed", seed]);
    if let Some(record) = &record {
        args.extend(["--record", record.as_str()]);
    }
    matchup(&args)
}

fn load(path: &Path) -> Record {
    let text = std::fs::read_to_string(path).unwrap();
    Record::parse(&text).unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

/// A whole mini game, greedy (red) against search-lite (blue), seed 3, recorded in `dir`.
fn original(dir: &Path) -> (PathBuf, Record) {
    let path = dir.join("original.jsonl");
    let r = matchup(&[
        "--preset",
        "mini",
        "--red",
        "builtin:greedy",
        "--blue",
        "builtin:search-lite",
        "--seed",
        "3",
        "--record",
        &path_arg(&path),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let record = load(&path);
    assert!(record.ticks() >= 10, "a game long enough to cut");
    assert!(record.result().is_some());
    (path, record)
}

/// The "game K/N: ..." lines.
fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("game ")).collect()
}

#[test]
fn a_game_goes_on_from_a_records_tick_with_other_players_and_its_turns_count_on() {
    let dir = temp_dir("tick");
    let (from, orig) = original(&dir);
    let n = orig.ticks() / 2;
    let out = dir.join("continued.jsonl");
    let r = play_on(
        &from,
        &["--turn", &n.to_string()],
        ("builtin:search-lite", "builtin:greedy"),
        "11",
        Some(&out),
    );
    assert_eq!(r.code, 0, "{r:?}");
    let cont = load(&out);
    // The first position is the record's at tick n, turn counter and all.
    assert_eq!(cont.state(0), orig.state(n));
    assert_eq!(cont.game(0), orig.game(n));
    assert_eq!(cont.header().players.red, "builtin:search-lite");
    assert_eq!(cont.header().players.blue, "builtin:greedy");
    assert_eq!(cont.header().seed, 11);
    let turn = u32::try_from(n).unwrap();
    assert_eq!(cont.outcome(1).unwrap().turn, turn + 1);
    let ticks = u32::try_from(cont.ticks()).unwrap();
    let last = cont.game(cont.ticks()).unwrap();
    assert_eq!(last.turn(), turn + ticks);
    // The turn limit counts from the start of the original game.
    assert_eq!(last.turn_limit(), orig.game(0).unwrap().turn_limit());
    assert!(last.turn() <= last.turn_limit());
    assert!(cont.result().is_some());
    let lines = game_lines(&r.stdout);
    assert_eq!(lines.len(), 1, "{r:?}");
    assert!(
        lines[0].contains(&format!(
            "after {ticks} ticks (turns {} to {})",
            turn + 1,
            turn + ticks
        )),
        "{r:?}"
    );
    assert!(
        r.stdout.contains(&format!(
            "1 game (mini from tick {n} of {}",
            path_arg(&from)
        )),
        "{r:?}"
    );
}

#[test]
fn the_same_players_and_seed_play_the_rest_of_the_original_game() {
    let dir = temp_dir("same");
    let (from, orig) = original(&dir);
    let n = orig.ticks() / 3;
    let out = dir.join("rest.jsonl");
    let r = play_on(
        &from,
        &["--turn", &n.to_string()],
        ("builtin:greedy", "builtin:search-lite"),
        "3",
        Some(&out),
    );
    assert_eq!(r.code, 0, "{r:?}");
    let rest = load(&out);
    assert_eq!(rest.ticks(), orig.ticks() - n);
    for k in 0..=rest.ticks() {
        assert_eq!(rest.state(k), orig.state(n + k), "tick {k}");
    }
    assert_eq!(rest.result(), orig.result());
}

#[test]
fn every_game_starts_from_the_same_position_and_turn_defaults_to_the_last_tick() {
    let dir = temp_dir("games");
    let (from, orig) = original(&dir);
    // A record cut short, as a game stopped midway leaves it: no result line.
    let n = orig.ticks() - 4;
    let text = std::fs::read_to_string(&from).unwrap();
    let cut: Vec<&str> = text.lines().take(1 + n).collect();
    let cut_path = dir.join("cut.jsonl");
    std::fs::write(&cut_path, cut.join("\n") + "\n").unwrap();
    let out = dir.join("g.jsonl");
    let r = play_on(
        &cut_path,
        &["--games", "2"],
        ("builtin:greedy", "builtin:greedy"),
        "5",
        Some(&out),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(game_lines(&r.stdout).len(), 2, "{r:?}");
    for k in 1..=2u64 {
        let game = load(&dir.join(format!("g-{k}.jsonl")));
        assert_eq!(game.state(0), orig.state(n), "game {k}");
        assert_eq!(game.header().seed, 4 + k);
    }
    // The whole record's last tick is the end of the game: nothing to play on.
    let r = matchup(&[
        "--from",
        &path_arg(&from),
        "--red",
        "builtin:greedy",
        "--blue",
        "builtin:greedy",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(&format!("tick {} of", orig.ticks()))
            && r.stderr.contains("is over")
            && r.stderr.contains("pick an earlier --turn"),
        "{r:?}"
    );
}

#[test]
fn a_state_file_and_a_web_ais_request_are_positions_too() {
    let dir = temp_dir("state");
    let (_, orig) = original(&dir);
    let n = orig.ticks() / 2;
    let state_path = dir.join("state.json");
    std::fs::write(
        &state_path,
        serde_json::to_string_pretty(orig.state(n).unwrap()).unwrap(),
    )
    .unwrap();
    let out = dir.join("from-state.jsonl");
    let r = play_on(
        &state_path,
        &[],
        ("builtin:search-lite", "builtin:greedy"),
        "1",
        Some(&out),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(load(&out).state(0), orig.state(n));
    assert!(r.stdout.contains("(mini from "), "{r:?}");

    // The request the side to move was sent: that side moves next, the preset's turn limit.
    let game = orig.game(n).unwrap();
    let mover = game.to_move().unwrap_or(Team::Red);
    let request_path = dir.join("request.json");
    std::fs::write(
        &request_path,
        serde_json::to_string(&game.request(mover)).unwrap(),
    )
    .unwrap();
    let out = dir.join("from-request.jsonl");
    let r = play_on(
        &request_path,
        &[],
        ("builtin:greedy", "builtin:greedy"),
        "1",
        Some(&out),
    );
    assert_eq!(r.code, 0, "{r:?}");
    let start = load(&out).game(0).unwrap();
    assert_eq!(start.position(), game.position());
    assert_eq!((start.turn(), start.to_move()), (game.turn(), Some(mover)));
    assert_eq!(start.turn_limit(), game.turn_limit());

    // --max-turns sets another limit, still counted from the original start.
    let r = play_on(
        &state_path,
        &["--max-turns", &(n + 2).to_string()],
        ("builtin:greedy", "builtin:greedy"),
        "1",
        None,
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("after 2 ticks"), "{r:?}");
}

#[test]
fn bad_files_and_options_exit_2_and_say_what_is_wrong() {
    let dir = temp_dir("errors");
    let (from, orig) = original(&dir);
    let from = path_arg(&from);
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        path_arg(&p)
    };
    let state: GameState = orig.state(2).unwrap().clone();
    let mut newer = serde_json::to_value(&state).unwrap();
    newer["version"] = 2.into();
    newer["board"] = "a shape this build does not know".into();
    let newer = write("newer.json", &newer.to_string());
    let mut stacked = state.clone();
    stacked.red.pieces[1] = stacked.red.pieces[0];
    let stacked = write("stacked.json", &serde_json::to_string(&stacked).unwrap());
    let state = write("state.json", &serde_json::to_string(&state).unwrap());
    let malformed = write(
        "malformed.jsonl",
        &format!(
            "{}\n{{\"type\":\"tick\",\"outcome\":3}}\n",
            std::fs::read_to_string(&from)
                .unwrap()
                .lines()
                .next()
                .unwrap()
        ),
    );
    let array = write("array.json", "[1, 2]");
    // One object of 2 MiB: no position is that large, and it is not read into a generic JSON value.
    let padded = write(
        "padded.json",
        &format!("{{\"pad\": \"{}\"}}", "x".repeat(2 << 20)),
    );
    let missing = path_arg(&dir.join("no-such-file.jsonl"));
    let ticks = orig.ticks().to_string();
    let past = (orig.ticks() + 1).to_string();
    let (from, state, newer, stacked) = (
        from.as_str(),
        state.as_str(),
        newer.as_str(),
        stacked.as_str(),
    );
    let (malformed, array, missing) = (malformed.as_str(), array.as_str(), missing.as_str());
    let padded = padded.as_str();
    let (ticks, past) = (ticks.as_str(), past.as_str());
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["--from", missing],
            vec!["no-such-file.jsonl", "cannot read it"],
        ),
        (
            vec!["--from", malformed],
            vec!["is not a record this build reads", "line 2"],
        ),
        (vec!["--from", array], vec!["is an array"]),
        (
            vec!["--from", padded],
            vec!["a game state or a request is at most 1024 KiB"],
        ),
        (vec!["--turn", "3"], vec!["--from"]),
        (
            vec!["--from", state, "--turn", "3"],
            vec!["--turn 3", "state", "leave it out"],
        ),
        (
            vec!["--from", newer],
            vec!["state version 2 is not supported", "reads version 1"],
        ),
        (vec!["--from", stacked], vec!["is not a playable game"]),
        (
            vec!["--from", from, "--turn", past],
            vec![past, ticks, "ticks"],
        ),
        (
            vec!["--from", from, "--turn", "4", "--max-turns", "4"],
            vec!["--max-turns 4", "turn 4"],
        ),
        (
            vec!["--from", from, "--turn", "1", "--preset", "classic"],
            vec!["--preset"],
        ),
        (
            vec!["--from", from, "--turn", "1", "--first", "red"],
            vec!["--first"],
        ),
    ];
    for (args, says) in &cases {
        let mut all = vec!["--red", "builtin:greedy", "--blue", "builtin:greedy"];
        all.extend_from_slice(args);
        let r = matchup(&all);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stdout.is_empty(), "{args:?}: {r:?}");
        for s in says {
            assert!(r.stderr.contains(s), "{args:?}: expected {s:?}: {r:?}");
        }
    }
}

#[test]
fn help_documents_continuing_from_a_position() {
    let r = run(&["halma", "match", "--help"], "", None);
    assert_eq!(r.code, 0, "{r:?}");
    for s in ["--from <FILE>", "--turn <N>", "Continue from a position"] {
        assert!(r.stdout.contains(s), "expected {s:?}: {r:?}");
    }
}
