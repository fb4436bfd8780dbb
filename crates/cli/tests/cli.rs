//! End-to-end tests of the `gridarena` binary: real processes, real stdin and exit codes.
//!
//! These check the contract scripts depend on (output shapes, exit statuses, messages on the right
//! stream), not the rules themselves: those are the engine's tests.

use serde_json::{json, Value};

#[path = "support/run.rs"]
mod run;

use run::{run, Run};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/halma/");

fn fixture(name: &str) -> String {
    let path = format!("{FIXTURES}{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Runs `gridarena args...` with `stdin` in the test's working directory.
fn gridarena(args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    run(args, stdin, None)
}

/// Runs a command expected to succeed and returns its stdout.
fn ok(args: &[&str], stdin: impl Into<Vec<u8>>) -> String {
    let run = gridarena(args, stdin);
    assert_eq!(run.code, 0, "gridarena {args:?} failed: {run:?}");
    run.stdout
}

/// Runs a command expected to refuse its input with exit 2 and returns its stderr.
fn refused(args: &[&str], stdin: impl Into<Vec<u8>>) -> String {
    let run = gridarena(args, stdin);
    assert_eq!(run.code, 2, "gridarena {args:?} should exit 2: {run:?}");
    assert!(
        run.stdout.is_empty(),
        "a refusal prints nothing on stdout: {run:?}"
    );
    assert!(!run.stderr.trim().is_empty(), "a refusal says why: {run:?}");
    run.stderr
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn lines(text: &str) -> Vec<Value> {
    text.lines().map(parse).collect()
}

fn new_game(args: &[&str]) -> Value {
    let mut all = vec!["halma", "new"];
    all.extend_from_slice(args);
    parse(&ok(&all, ""))
}

fn request(state: &Value, team: &str) -> Value {
    parse(&ok(
        &["halma", "request", "--team", team],
        state.to_string(),
    ))
}

fn moves(request: &Value, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["halma", "moves"];
    all.extend_from_slice(args);
    lines(&ok(&all, request.to_string()))
}

fn tick(state: &Value, red: Value, blue: Value) -> (Value, Value) {
    let doc = json!({"state": state, "red": red, "blue": blue});
    let out = parse(&ok(&["halma", "tick"], doc.to_string()));
    (out["outcome"].clone(), out["state"].clone())
}

fn check(request: &Value, mv: &Value) -> Run {
    gridarena(
        &["halma", "check"],
        json!({"request": request, "move": mv}).to_string(),
    )
}

fn step(from: (i64, i64), to: (i64, i64)) -> Value {
    json!({"from": {"x": from.0, "y": from.1}, "to": [{"x": to.0, "y": to.1}]})
}

fn xy(v: &Value) -> (i64, i64) {
    (
        v["x"].as_i64().expect("x is an integer"),
        v["y"].as_i64().expect("y is an integer"),
    )
}

fn piece<'a>(state: &'a Value, team: &str, at: (i64, i64)) -> Option<&'a Value> {
    state[team]["pieces"]
        .as_array()
        .expect("pieces is an array")
        .iter()
        .find(|p| xy(p) == at)
}

// ---------------------------------------------------------------------------------------------------------
// help and usage

#[test]
fn every_command_has_help_and_the_top_level_documents_the_exit_codes() {
    let top = ok(&["--help"], "");
    for code in ["0  success", "1  `halma check`", "2  unusable input", "3  "] {
        assert!(top.contains(code), "top-level help lacks {code:?}:\n{top}");
    }
    for command in ["moves", "check", "perft", "tick", "new", "request"] {
        let help = ok(&["halma", command, "--help"], "");
        assert!(help.contains("Usage: gridarena halma"), "{command}: {help}");
    }
    assert!(ok(&["halma", "--help"], "").contains("Exit status"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["chess"],
        &["halma"],
        &["halma", "fly"],
        &["halma", "perft"],
        &["halma", "perft", "--depth", "-1"],
        &["halma", "perft", "--depth", "21"],
        &["halma", "perft", "--depth", "2", "--preset", "chinese"],
        &["halma", "moves", "--preset", "Arena"],
        &["halma", "request"],
        &["halma", "request", "--team", "green"],
        &["halma", "new", "--turn-limit", "0"],
        &["halma", "new", "--board-size", "3"],
        &["halma", "new", "--board-size", "33"],
    ] {
        let run = gridarena(args, "");
        assert_eq!(run.code, 2, "gridarena {args:?}: {run:?}");
        assert!(!run.stderr.is_empty(), "gridarena {args:?} says nothing");
    }
}

// ---------------------------------------------------------------------------------------------------------
// moves

#[test]
fn moves_lists_33_distinct_moves_on_the_seed_shaped_arena_start_request() {
    let out = ok(&["halma", "moves"], fixture("arena-start-request.json"));
    let listed = lines(&out);
    assert_eq!(listed.len(), 33, "{out}");
    let mut pairs = std::collections::BTreeSet::new();
    for mv in &listed {
        let to = mv["to"].as_array().expect("to is an array");
        assert!(!to.is_empty(), "{mv}");
        assert_eq!(
            mv.as_object().map(|o| o.len()),
            Some(2),
            "only from and to: {mv}"
        );
        pairs.insert((xy(&mv["from"]), xy(to.last().expect("not empty"))));
    }
    assert_eq!(pairs.len(), 33, "one line per (from, final square)");
}

#[test]
fn every_listed_move_passes_check() {
    let request = parse(&fixture("arena-start-request.json"));
    let listed = moves(&request, &[]);
    assert!(
        listed
            .iter()
            .any(|m| m["to"].as_array().map(Vec::len) > Some(1)),
        "the start position has jump chains, so this checks more than single hops"
    );
    for mv in &listed {
        let run = check(&request, mv);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (0, "ok\n"),
            "{mv}: {run:?}"
        );
    }
}

#[test]
fn moves_are_listed_for_the_team_the_request_names() {
    let state = new_game(&[]);
    let blue = moves(&request(&state, "blue"), &[]);
    assert_eq!(blue.len(), 33);
    assert!(
        blue.iter().all(|m| xy(&m["from"]).0 >= 15),
        "blue's pieces only"
    );
}

#[test]
fn damaged_pieces_only_step() {
    let (_, state) = tick(
        &parse(&fixture("collision-state.json")),
        step((2, 4), (3, 4)),
        step((4, 4), (3, 4)),
    );
    let listed = moves(&request(&state, "red"), &[]);
    let from_collided: Vec<&Value> = listed.iter().filter(|m| xy(&m["from"]) == (3, 4)).collect();
    assert!(!from_collided.is_empty());
    for mv in from_collided {
        let to = mv["to"].as_array().expect("to is an array");
        let (x, y) = xy(&to[0]);
        assert_eq!(to.len(), 1, "{mv}");
        assert!((x - 3).abs() <= 1 && (y - 4).abs() <= 1, "a step: {mv}");
    }
    // The undamaged piece below it may jump over the shared square.
    assert!(listed
        .iter()
        .any(|m| xy(&m["from"]) == (3, 5) && m["to"] == json!([{"x": 3, "y": 3}])));
}

#[test]
fn the_camp_rule_follows_the_request_then_the_flag_then_the_requests_preset() {
    // Red stands on one of its destinations, (7,0); (6,0) is another, (6,1) and (7,1) are not.
    let mut request = json!({
        "boardSize": 8,
        "pieces": [{"x": 7, "y": 0, "damage": 0}],
        "destinations": [{"x": 7, "y": 0}, {"x": 6, "y": 0}],
        "enemy": [{"x": 0, "y": 7, "damage": 0}],
        "enemydestinations": [{"x": 0, "y": 0}]
    });
    let count = |request: &Value, args: &[&str]| moves(request, args).len();
    assert_eq!(count(&request, &[]), 3, "arena by default: no camp rule");
    assert_eq!(count(&request, &["--preset", "classic"]), 1);
    assert_eq!(count(&request, &["--preset", "mini"]), 1);
    request["preset"] = json!("mini");
    assert_eq!(count(&request, &[]), 1, "the request's preset");
    assert_eq!(count(&request, &["--preset", "arena"]), 3, "the flag wins");
    request["campRule"] = json!(true);
    assert_eq!(count(&request, &["--preset", "arena"]), 1, "campRule wins");
    request["campRule"] = json!(false);
    assert_eq!(count(&request, &["--preset", "classic"]), 3);

    request["campRule"] = json!(true);
    let run = check(&request, &step((7, 0), (7, 1)));
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("may not leave"), "{run:?}");
}

#[test]
fn moves_refuses_malformed_input_with_exit_2() {
    let start = parse(&fixture("arena-start-request.json"));
    let with = |key: &str, value: Value| {
        let mut r = start.clone();
        r[key] = value;
        r.to_string()
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", vec![], "empty"),
        ("whitespace", b" \n\t ".to_vec(), "empty"),
        ("not JSON", b"boardSize=18".to_vec(), "not valid JSON"),
        (
            "truncated",
            br#"{"boardSize":18,"pieces":["#.to_vec(),
            "not valid JSON",
        ),
        ("not UTF-8", b"{\"boardSize\":\xff}".to_vec(), "not UTF-8"),
        ("an array", b"[18,[],[],[],[]]".to_vec(), "is an array"),
        ("a number", b"18".to_vec(), "is a number"),
        (
            "missing field",
            br#"{"boardSize":18}"#.to_vec(),
            "missing field `pieces`",
        ),
        (
            "trailing",
            format!("{start} {start}").into_bytes(),
            "not valid JSON",
        ),
        (
            "wrong type",
            with("pieces", json!("all")).into_bytes(),
            "invalid type",
        ),
        (
            "fractional size",
            with("boardSize", json!(18.5)).into_bytes(),
            "invalid type",
        ),
        (
            "huge size",
            with("boardSize", json!(1u64 << 40)).into_bytes(),
            "not supported",
        ),
        (
            "small size",
            with("boardSize", json!(2)).into_bytes(),
            "not supported",
        ),
        (
            "off board",
            with("enemy", json!([{"x": 18, "y": 0}])).into_bytes(),
            "off the 18x18 board",
        ),
        (
            "negative",
            with("pieces", json!([{"x": -1, "y": 0}])).into_bytes(),
            "off the 18x18 board",
        ),
        (
            "stacked",
            with("pieces", json!([{"x": 1, "y": 1}, {"x": 1, "y": 1}])).into_bytes(),
            "two red pieces",
        ),
        (
            "bad damage",
            with("pieces", json!([{"x": 1, "y": 1, "damage": 9}])).into_bytes(),
            "damage 9",
        ),
        (
            "no pieces",
            with("pieces", json!([])).into_bytes(),
            "no pieces",
        ),
        (
            "deep nesting",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes(),
            "",
        ),
    ];
    for (name, input, says) in cases {
        let stderr = refused(&["halma", "moves"], input);
        assert!(stderr.contains(says), "{name}: {stderr}");
    }
}

#[test]
fn stdin_over_16_mib_is_refused() {
    let mut input = fixture("arena-start-request.json").into_bytes();
    input.resize(16 * 1024 * 1024 + 1, b' ');
    let stderr = refused(&["halma", "moves"], input);
    assert!(stderr.contains("larger than 16 MiB"), "{stderr}");
}

#[test]
fn stdin_just_under_the_cap_is_read() {
    let mut input = fixture("arena-start-request.json").into_bytes();
    input.resize(16 * 1024 * 1024, b' ');
    assert_eq!(ok(&["halma", "moves"], input).lines().count(), 33);
}

// ---------------------------------------------------------------------------------------------------------
// check

#[test]
fn check_names_the_reason_for_an_illegal_or_unreadable_move_and_exits_1() {
    let request = parse(&fixture("arena-start-request.json"));
    let jump = |from: (i64, i64), to: &[(i64, i64)]| {
        json!({"from": {"x": from.0, "y": from.1},
               "to": to.iter().map(|&(x, y)| json!({"x": x, "y": y})).collect::<Vec<_>>()})
    };
    let cases = [
        (step((2, 14), (2, 15)), "landing square (2,15) is occupied"),
        (step((5, 5), (5, 6)), "red has no piece at (5,5)"),
        (step((2, 14), (18, 13)), "off the 18x18 board"),
        (jump((2, 14), &[]), "\"to\" is empty"),
        (jump((2, 14), &[(2, 12)]), "over the empty square (2,13)"),
        (jump((2, 14), &[(5, 14)]), "neither a step"),
        (jump((1, 15), &[(1, 13), (2, 12)]), "a step inside a chain"),
        (step((15, 14), (14, 13)), "red has no piece at (15,14)"),
        (json!([step((2, 14), (3, 13))]), "JSON array"),
        (json!(null), "the answer is null"),
        (json!({"from": {"x": 2, "y": 14}}), "no \"to\""),
        (
            json!({"from": {"x": 2.5, "y": 14}, "to": []}),
            "whole numbers",
        ),
        (
            json!({"from": {"x": "2", "y": 14}, "to": []}),
            "must be an integer",
        ),
    ];
    for (mv, reason) in cases {
        let run = check(&request, &mv);
        assert_eq!(run.code, 1, "{mv}: {run:?}");
        assert!(run.stdout.contains(reason), "{mv}: {run:?}");
        assert!(run.stderr.is_empty(), "{mv}: {run:?}");
    }
}

#[test]
fn check_accepts_what_old_ais_send() {
    let request = parse(&fixture("arena-start-request.json"));
    // The original engine wanted the damage echoed in "from", and some languages print 3.0 for 3.
    let mv =
        json!({"from": {"x": 2, "y": 14, "damage": 0}, "to": [{"x": 3.0, "y": 13}], "note": "hi"});
    let run = check(&request, &mv);
    assert_eq!((run.code, run.stdout.as_str()), (0, "ok\n"), "{run:?}");
}

#[test]
fn check_refuses_an_answer_over_the_referees_64_kib_limit() {
    let request = parse(&fixture("arena-start-request.json"));
    let mut mv = step((2, 14), (3, 13));
    mv["padding"] = json!("x".repeat(70 * 1024));
    let run = check(&request, &mv);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("at most 65536"), "{run:?}");
}

#[test]
fn check_refuses_malformed_documents_with_exit_2() {
    let request = parse(&fixture("arena-start-request.json"));
    let mv = step((2, 14), (3, 13));
    let mut off_board = request.clone();
    off_board["pieces"][0] = json!({"x": 0, "y": 18});
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty"),
        ("ok".into(), "not valid JSON"),
        (json!([request, mv]).to_string(), "expected a JSON object"),
        (json!({"move": mv}).to_string(), "no \"request\""),
        (json!({"request": request}).to_string(), "no \"move\""),
        (
            json!({"request": request, "move": mv, "mvoe": 1}).to_string(),
            "unknown member \"mvoe\"",
        ),
        (
            json!({"request": [], "move": mv}).to_string(),
            "\"request\" is an array",
        ),
        (
            json!({"request": {"boardSize": 18}, "move": mv}).to_string(),
            "missing field",
        ),
        (
            json!({"request": off_board, "move": mv}).to_string(),
            "(0,18) is off the 18x18 board",
        ),
    ];
    for (input, says) in cases {
        let stderr = refused(&["halma", "check"], input.clone());
        assert!(stderr.contains(says), "{input}: {stderr}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// perft

#[test]
fn perft_reproduces_the_published_figures() {
    let perft = |args: &[&str]| {
        let mut all = vec!["halma", "perft"];
        all.extend_from_slice(args);
        ok(&all, "")
    };
    assert_eq!(
        perft(&["--preset", "classic", "--depth", "3", "--no-camp-rule"]),
        "85440\n"
    );
    assert_eq!(perft(&["--preset", "classic", "--depth", "3"]), "85440\n");
    assert_eq!(perft(&["--depth", "2"]), "1089\n", "arena is the default");
    assert_eq!(
        perft(&["--preset", "mini", "--depth", "3", "--no-camp-rule"]),
        "20050\n"
    );
    assert_eq!(perft(&["--preset", "mini", "--depth", "0"]), "1\n");
}

#[test]
fn perft_divide_lists_each_first_move_and_the_total() {
    let out = ok(&["halma", "perft", "--depth", "2", "--divide"], "");
    let (moves, total) = out
        .trim_end()
        .rsplit_once("\n\n")
        .expect("a blank line before the total");
    assert_eq!(total, "1089");
    let counts: Vec<u64> = moves
        .lines()
        .map(|l| {
            let (mv, n) = l.rsplit_once(": ").expect("move: count");
            assert!(mv.contains("->"), "{l}");
            n.parse().expect("a count")
        })
        .collect();
    assert_eq!(counts.len(), 33);
    assert_eq!(counts.iter().sum::<u64>(), 1089);
}

// ---------------------------------------------------------------------------------------------------------
// new and request

#[test]
fn new_prints_a_state_for_each_preset() {
    let arena = new_game(&[]);
    assert_eq!(arena["boardSize"], 18);
    assert_eq!(arena["mode"], "simultaneous");
    assert_eq!(arena["turn"], 0);
    assert_eq!(arena["toMove"], Value::Null);
    assert_eq!(arena["red"]["pieces"].as_array().map(Vec::len), Some(12));

    let classic = new_game(&["--preset", "classic", "--seed", "7", "--turn-limit", "50"]);
    assert_eq!(classic["boardSize"], 16);
    assert_eq!(classic["turnLimit"], 50);
    assert!(classic["toMove"] == "red" || classic["toMove"] == "blue");
    let firsts: std::collections::BTreeSet<String> = (0..16)
        .map(|seed| {
            new_game(&["--preset", "mini", "--seed", &seed.to_string()])["toMove"].to_string()
        })
        .collect();
    assert_eq!(
        firsts.len(),
        2,
        "the seed draws the first mover: {firsts:?}"
    );

    let small = new_game(&["--board-size", "10"]);
    assert_eq!(small["boardSize"], 10);
    assert_eq!(
        moves(&request(&small, "red"), &[]).len(),
        33,
        "the same block, further apart"
    );

    assert!(ok(&["halma", "new", "--pretty"], "").lines().count() > 10);
}

#[test]
fn new_draws_a_seed_unless_given_one_and_says_which() {
    let draw = || {
        let run = gridarena(&["halma", "new", "--preset", "mini"], "");
        assert_eq!(run.code, 0, "{run:?}");
        let seed = run
            .stderr
            .strip_prefix("gridarena: random seed ")
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no seed on stderr: {run:?}"));
        (seed, parse(&run.stdout))
    };
    let seeds: std::collections::BTreeSet<u64> = (0..4).map(|_| draw().0).collect();
    assert_eq!(seeds.len(), 4, "every run draws its own seed: {seeds:?}");

    // The seed printed makes the same game again, and a given seed is told nothing about.
    let (seed, state) = draw();
    let seed = seed.to_string();
    for _ in 0..2 {
        let run = gridarena(&["halma", "new", "--preset", "mini", "--seed", &seed], "");
        assert_eq!(run.code, 0, "{run:?}");
        assert!(run.stderr.is_empty(), "{run:?}");
        assert_eq!(parse(&run.stdout), state);
    }
    // Stdout is still a state `tick` plays from.
    let tick = json!({"state": state, "red": null, "blue": null});
    let out = parse(&ok(&["halma", "tick"], tick.to_string()));
    assert_eq!(out["state"]["turn"], 1, "{out}");
}

#[test]
fn new_refuses_settings_it_cannot_play() {
    let stderr = refused(
        &["halma", "new", "--preset", "classic", "--board-size", "18"],
        "",
    );
    assert!(stderr.contains("arena preset only"), "{stderr}");
    let stderr = refused(&["halma", "new", "--board-size", "5"], "");
    assert!(stderr.contains("5x5"), "{stderr}");
}

#[test]
fn request_gives_each_team_its_own_view() {
    let state = new_game(&["--preset", "mini"]);
    let red = request(&state, "red");
    let blue = request(&state, "blue");
    assert_eq!(red["pieces"], blue["enemy"]);
    assert_eq!(red["destinations"], blue["enemydestinations"]);
    assert_eq!(red["pieces"], state["red"]["pieces"]);
    assert_eq!(blue["pieces"], state["blue"]["pieces"]);
    assert_eq!(
        (red["team"].clone(), blue["team"].clone()),
        (json!("red"), json!("blue"))
    );
    assert_eq!(red["boardSize"], 8);
    assert_eq!(red["campRule"], true);
}

#[test]
fn request_refuses_a_state_that_is_not_a_game() {
    let state = new_game(&[]);
    let mut stacked = state.clone();
    stacked["red"]["pieces"][1] = stacked["red"]["pieces"][0].clone();
    let mut over_limit = state.clone();
    over_limit["turn"] = json!(1000);
    let mut simultaneous_with_mover = state.clone();
    simultaneous_with_mover["toMove"] = json!("red");
    let mut future = state.clone();
    future["version"] = json!(99);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty"),
        ("{".into(), "not valid JSON"),
        ("[]".into(), "is an array"),
        (json!({"boardSize": 18}).to_string(), "missing field"),
        (stacked.to_string(), "two red pieces"),
        (over_limit.to_string(), "turn limit"),
        (simultaneous_with_mover.to_string(), "toMove"),
        (future.to_string(), "version 99"),
    ];
    for (input, says) in cases {
        let stderr = refused(&["halma", "request", "--team", "red"], input.clone());
        assert!(stderr.contains(says), "{input}: {stderr}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// tick

#[test]
fn new_request_moves_tick_round_trips_and_the_turn_advances() {
    let mut state = new_game(&[]);
    for turn in 1..=3 {
        let red = moves(&request(&state, "red"), &[]).remove(0);
        let blue = moves(&request(&state, "blue"), &[])
            .pop()
            .expect("blue has moves");
        let (outcome, next) = tick(&state, red.clone(), blue.clone());
        assert_eq!(outcome["turn"], turn);
        assert_eq!(next["turn"], turn);
        assert_eq!(outcome["errors"], json!([]), "{outcome}");
        assert_eq!(outcome["result"], Value::Null);
        let enacted = outcome["moves"].as_array().expect("moves is an array");
        assert_eq!(enacted.len(), 2, "{outcome}");
        for (team, mv) in [("red", &red), ("blue", &blue)] {
            let done = enacted
                .iter()
                .find(|m| m["team"] == team)
                .expect("each team moved");
            assert_eq!((&done["from"], &done["to"]), (&mv["from"], &mv["to"]));
            let to = mv["to"]
                .as_array()
                .and_then(|t| t.last())
                .expect("a landing");
            assert!(
                piece(&next, team, xy(&mv["from"])).is_none(),
                "{team} left {}",
                mv["from"]
            );
            assert!(
                piece(&next, team, xy(to)).is_some(),
                "{team} arrived on {to}"
            );
        }
        state = next;
    }
}

#[test]
fn a_collision_damages_both_pieces_and_the_damage_counts_down_over_the_next_tick() {
    let start = parse(&fixture("collision-state.json"));
    let (outcome, collided) = tick(&start, step((2, 4), (3, 4)), step((4, 4), (3, 4)));
    assert_eq!(
        outcome["collisions"],
        json!([{"x": 3, "y": 4}]),
        "{outcome}"
    );
    assert_eq!(
        outcome["damaged"],
        json!([
            {"team": "red", "x": 3, "y": 4, "damage": 5},
            {"team": "blue", "x": 3, "y": 4, "damage": 5}
        ])
    );
    assert_eq!(
        piece(&collided, "red", (3, 4)).map(|p| &p["damage"]),
        Some(&json!(5))
    );
    assert_eq!(
        piece(&collided, "blue", (3, 4)).map(|p| &p["damage"]),
        Some(&json!(5))
    );

    // A damaged piece may not jump: neither move is enacted, nothing heals, the turn still counts.
    let jump = json!({"from": {"x": 3, "y": 4}, "to": [{"x": 3, "y": 6}]});
    let (refused_tick, unchanged) = tick(&collided, jump, step((7, 7), (6, 6)));
    assert_eq!(refused_tick["turn"], 2);
    assert_eq!(refused_tick["moves"], json!([]));
    let errors = refused_tick["errors"]
        .as_array()
        .expect("errors is an array");
    assert_eq!(errors.len(), 1, "{refused_tick}");
    assert_eq!(
        (&errors[0]["team"], &errors[0]["code"]),
        (&json!("red"), &json!("damaged_jump"))
    );
    assert_eq!(unchanged["red"], collided["red"]);
    assert_eq!(unchanged["blue"], collided["blue"]);

    // Two legal steps: both collided pieces heal by one, wherever they are.
    let (outcome, healed) = tick(&collided, step((3, 4), (3, 3)), step((7, 7), (6, 6)));
    assert_eq!(outcome["collisions"], json!([]));
    assert_eq!(
        piece(&healed, "red", (3, 3)).map(|p| &p["damage"]),
        Some(&json!(4))
    );
    assert_eq!(
        piece(&healed, "blue", (3, 4)).map(|p| &p["damage"]),
        Some(&json!(4))
    );
}

#[test]
fn missing_and_unreadable_answers_are_reported_in_the_outcome_not_as_errors() {
    let state = new_game(&[]);
    let cases = [
        (
            json!({"state": state, "red": null, "blue": null}),
            "missing",
            "missing",
        ),
        (json!({"state": state}), "missing", "missing"),
        (
            json!({"state": state, "red": [], "blue": "e2e4"}),
            "list_of_moves",
            "not_an_object",
        ),
        (
            json!({"state": state, "red": {"from": {"x": 0, "y": 14}}, "blue": {"to": []}}),
            "missing_field",
            "missing_field",
        ),
    ];
    for (doc, red_code, blue_code) in cases {
        let out = parse(&ok(&["halma", "tick"], doc.to_string()));
        let outcome = &out["outcome"];
        assert_eq!(outcome["turn"], 1);
        assert_eq!(outcome["moves"], json!([]));
        let codes: Vec<(&Value, &Value)> = outcome["errors"]
            .as_array()
            .expect("errors is an array")
            .iter()
            .map(|e| (&e["team"], &e["code"]))
            .collect();
        assert_eq!(
            codes,
            [
                (&json!("red"), &json!(red_code)),
                (&json!("blue"), &json!(blue_code))
            ],
            "{doc}"
        );
        assert_eq!(out["state"]["turn"], 1);
        assert_eq!(out["state"]["red"], state["red"]);
    }
}

#[test]
fn alternating_ticks_take_only_the_mover_and_hand_over_the_turn() {
    let state = new_game(&["--preset", "mini", "--seed", "3"]);
    let mover = state["toMove"]
        .as_str()
        .expect("an alternating game has a mover")
        .to_owned();
    let other = if mover == "red" { "blue" } else { "red" };
    let mv = moves(&request(&state, &mover), &[]).remove(0);
    let doc = json!({"state": state, (mover.as_str()): mv, (other): null});
    let out = parse(&ok(&["halma", "tick"], doc.to_string()));
    assert_eq!(out["outcome"]["movers"], json!([mover]));
    assert_eq!(out["outcome"]["moves"].as_array().map(Vec::len), Some(1));
    assert_eq!(out["state"]["toMove"], other);

    // The team not to move may not answer.
    let theirs = moves(&request(&state, other), &[]).remove(0);
    let doc = json!({"state": state, (mover.as_str()): mv, (other): theirs});
    let stderr = refused(&["halma", "tick"], doc.to_string());
    assert!(stderr.contains(&format!("not {other}'s turn")), "{stderr}");
}

#[test]
fn a_finished_game_takes_no_more_ticks() {
    let state = new_game(&["--turn-limit", "1"]);
    let (outcome, over) = tick(&state, Value::Null, Value::Null);
    assert_eq!(outcome["result"], json!({"kind": "turnLimit"}));
    let stderr = refused(
        &["halma", "tick"],
        json!({"state": over, "red": null, "blue": null}).to_string(),
    );
    assert!(stderr.contains("game is over"), "{stderr}");
}

#[test]
fn tick_refuses_malformed_documents_with_exit_2() {
    let state = new_game(&[]);
    let mut bad_mode = state.clone();
    bad_mode["mode"] = json!("sometimes");
    let mut off_board = state.clone();
    off_board["blue"]["pieces"][0] = json!({"x": 40, "y": 0});
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (vec![], "empty"),
        (b"\xfe\xff".to_vec(), "not UTF-8"),
        (b"{\"state\":".to_vec(), "not valid JSON"),
        (b"null".to_vec(), "expected a JSON object"),
        (
            json!({"red": null, "blue": null}).to_string().into_bytes(),
            "no \"state\"",
        ),
        (
            json!({"state": state, "Red": null})
                .to_string()
                .into_bytes(),
            "unknown member \"Red\"",
        ),
        (
            json!({"state": "new"}).to_string().into_bytes(),
            "\"state\" is a string",
        ),
        (
            json!({"state": bad_mode}).to_string().into_bytes(),
            "unknown variant",
        ),
        (
            json!({"state": off_board}).to_string().into_bytes(),
            "off the 18x18 board",
        ),
    ];
    for (input, says) in cases {
        let stderr = refused(&["halma", "tick"], input);
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
}

#[test]
fn tick_pretty_prints_the_same_document() {
    let state = new_game(&[]);
    let doc = json!({"state": state, "red": null, "blue": null}).to_string();
    let compact = ok(&["halma", "tick"], doc.clone());
    let pretty = ok(&["halma", "tick", "--pretty"], doc);
    assert_eq!(compact.lines().count(), 1);
    assert!(pretty.lines().count() > 1);
    assert_eq!(parse(&compact), parse(&pretty));
}
