//! Program players end to end: `gridarena halma match` and `tournament` with programs in the course's
//! file format and the line format, well-behaved (the starters in `ai/`) and hostile
//! (`tests/fixtures/programs`). Every failure must be named, the game must go on or end as the policy
//! says, and nothing may be left running.

#[path = "support/run.rs"]
mod run;

use run::run;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixtures() -> String {
    root().join("tests/fixtures/programs").display().to_string()
}

fn has_python() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A classic match of four plies: red is `red`, blue the greedy built-in. Returns stdout and the trace.
fn classic(red: &str, extra: &[&str]) -> (String, Vec<Value>) {
    let dir = tempdir("trace");
    let trace = dir.join("trace.jsonl");
    let trace_arg = trace.display().to_string();
    let mut args = vec![
        "halma",
        "match",
        "--preset",
        "classic",
        "--red",
        red,
        "--blue",
        "builtin:greedy",
        "--seed",
        "1",
        "--max-turns",
        "4",
        "--trace",
        &trace_arg,
    ];
    args.extend_from_slice(extra);
    let out = run(&args, "", None);
    assert_eq!(out.code, 0, "{out:?}");
    let lines = std::fs::read_to_string(&trace)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a trace line is JSON"))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (out.stdout, lines)
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gridarena-programs-{name}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    dir
}

/// Red's refused verdicts in the trace, as (code, message, stderr).
fn red_refusals(trace: &[Value]) -> Vec<(String, String, String)> {
    trace
        .iter()
        .filter(|l| l["team"] == "red" && l["verdict"] == "refused")
        .map(|l| {
            let text = |k: &str| l[k].as_str().unwrap_or_default().to_string();
            (text("code"), text("message"), text("stderr"))
        })
        .collect()
}

#[test]
fn each_hostile_course_program_is_named_and_the_game_goes_on() {
    let cases: &[(&str, &str, &str)] = &[
        ("sh crash.sh", "crashed", "exit status 1"),
        ("sh segv.sh", "crashed", "killed by signal 11 (SIGSEGV"),
        (
            "sh garbage.sh",
            "malformed_output",
            "output.txt line 1 \"move the piece",
        ),
        ("sh huge.sh", "output_too_large", "10000000 read"),
        ("sh silent.sh", "no_output", "thinking..."),
        (
            "sh wrong_colour.sh",
            "no_piece",
            "red has no piece at (11,15)",
        ),
        ("no-such-agent-xyz", "could_not_start", "not found"),
    ];
    for (command, code, says) in cases {
        let label = format!("course:{}:{command}", fixtures());
        let (stdout, trace) = classic(&label, &["--out-of-time", "no-move"]);
        assert!(stdout.contains("game 1/1"), "{command}: {stdout}");
        let refusals = red_refusals(&trace);
        assert_eq!(
            refusals.len(),
            2,
            "{command}: red is asked twice: {trace:?}"
        );
        for (c, message, _) in &refusals {
            assert_eq!(c, code, "{command}: {message}");
            assert!(message.contains(says), "{command}: {message}");
        }
        // Blue played on: every blue line was enacted.
        assert!(
            trace.iter().all(|l| l["team"] != "blue"),
            "built-in AIs have no trace lines"
        );
        assert!(
            stdout.contains(code),
            "{command}: the summary names it: {stdout}"
        );
    }
}

#[test]
fn a_crash_keeps_the_end_of_stderr_in_the_trace() {
    let label = format!("course:{}:sh crash.sh", fixtures());
    let (_, trace) = classic(&label, &[]);
    let (_, message, stderr) = &red_refusals(&trace)[0];
    assert!(
        stderr.contains("NameError: name 'best_move' is not defined"),
        "{stderr}"
    );
    assert!(message.contains("NameError"), "{message}");
    // The trace shows what the agent was given: input.txt, BLACK to move.
    let request = trace[0]["request"].as_str().unwrap_or_default();
    assert!(request.starts_with("GAME\nBLACK\n300\nBBBBB"), "{request}");
}

#[test]
fn side_files_persist_through_a_game_and_not_into_the_next() {
    let label = format!("course:{}:sh count.sh", fixtures());
    let (_, trace) = classic(&label, &["--games", "2"]);
    let stderrs: Vec<String> = red_refusals(&trace).into_iter().map(|r| r.2).collect();
    assert_eq!(
        stderrs,
        [
            "moves before this one: 0",
            "moves before this one: 1",
            "moves before this one: 0",
            "moves before this one: 1"
        ]
    );
    assert!(
        !Path::new(&fixtures()).join("playdata.txt").exists(),
        "the agent's folder is untouched"
    );
}

#[test]
fn a_move_past_the_clock_is_killed_and_the_course_policy_loses_the_game() {
    let label = format!("course:{}:sh hang.sh", fixtures());
    let started = std::time::Instant::now();
    let (stdout, trace) = classic(&label, &["--clock", "0.3", "--grace", "0.2"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "killed, not waited for"
    );
    let refusals = red_refusals(&trace);
    assert_eq!(refusals[0].0, "timed_out", "{refusals:?}");
    assert!(refusals[0].1.contains("500 ms"), "{refusals:?}");
    assert!(
        stdout.contains("blue wins: red forfeited (red: out of time: "),
        "{stdout}"
    );
    // Under the arena's policy the game goes on with no move, and at the turn limit red's error ticks
    // lose it.
    let (stdout, trace) = classic(
        &label,
        &[
            "--clock",
            "0.3",
            "--grace",
            "0.2",
            "--out-of-time",
            "no-move",
        ],
    );
    let codes: Vec<String> = red_refusals(&trace).into_iter().map(|r| r.0).collect();
    assert_eq!(codes, ["timed_out", "out_of_time"]);
    assert!(
        stdout.contains("blue wins at the turn limit: red lost (its errors stalled the game: "),
        "{stdout}"
    );
}

#[test]
fn nothing_an_agent_starts_outlives_its_move() {
    let label = format!("course:{}:sh orphan.sh", fixtures());
    let (_, trace) = classic(&label, &[]);
    assert_eq!(trace[0]["verdict"], "enacted", "{:?}", trace[0]);
    // Every process's command line, from /proc (pgrep is not on every machine).
    let left: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc lists the processes")
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.trim_end() == "sleep 297")
        .collect();
    assert!(left.is_empty(), "a sleep 297 is still running: {left:?}");
}

#[test]
fn each_hostile_line_program_is_named() {
    let cases: &[(&str, &str, &str)] = &[
        ("sh lines_garbage.sh", "invalid_json", "I would move"),
        (
            "sh lines_huge.sh",
            "output_too_large",
            "more than 65536 bytes",
        ),
        ("sh lines_exit.sh", "crashed", "giving up after one request"),
    ];
    for (command, code, says) in cases {
        let label = format!("lines:{}:{command}", fixtures());
        let (_, trace) = classic(&label, &["--out-of-time", "no-move"]);
        let refusals = red_refusals(&trace);
        assert_eq!(refusals.len(), 2, "{command}: {trace:?}");
        let (c, message, stderr) = &refusals[0];
        assert_eq!(c, code, "{command}: {message}");
        assert!(
            message.contains(says) || trace[0]["body"].as_str().unwrap_or("").contains(says),
            "{command}: {message} / {stderr}"
        );
        // The request is the web protocol's JSON, with the game's id.
        let request: Value =
            serde_json::from_str(trace[0]["request"].as_str().unwrap_or("")).expect("JSON");
        assert_eq!(request["gameId"], "0000000000000001");
        assert_eq!(request["team"], "red");
    }
}

#[test]
fn a_line_bot_that_never_reads_or_closes_stdin_neither_hangs_nor_floods_the_referee() {
    let started = std::time::Instant::now();
    // Lines without end, stdin never read: each move takes one line of the flood and judges it.
    let label = format!("lines:{}:sh lines_spam.sh", fixtures());
    let (_, trace) = classic(&label, &["--out-of-time", "no-move"]);
    let codes: Vec<String> = red_refusals(&trace).into_iter().map(|r| r.0).collect();
    assert_eq!(codes, ["missing_field", "missing_field"]);
    // Stdin closed after one answer, the process alive and silent: the next request cannot be written,
    // and that is told at once, not at the end of a 300 s clock.
    let label = format!("lines:{}:sh lines_closed.sh", fixtures());
    let (_, trace) = classic(&label, &["--out-of-time", "no-move"]);
    let codes: Vec<String> = red_refusals(&trace).into_iter().map(|r| r.0).collect();
    assert_eq!(codes, ["missing_field", "no_output"]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_course_program_refuses_a_board_the_format_cannot_write() {
    let label = format!("course:{}:sh crash.sh", fixtures());
    let out = run(
        &[
            "halma",
            "match",
            "--preset",
            "arena",
            "--red",
            &label,
            "--blue",
            "builtin:greedy",
        ],
        "",
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("the course format (input.txt/output.txt)"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_starters_play_whole_games_in_both_formats() {
    if !has_python() {
        eprintln!("python3 is not installed: skipped");
        return;
    }
    let ai = root().join("ai").display().to_string();
    let course = format!("course:{ai}/course:python3 halma_course.py");
    let lines = format!("lines:{ai}:python3 lines/halma_lines.py");
    let out = run(
        &[
            "halma",
            "match",
            "--preset",
            "classic",
            "--red",
            &course,
            "--blue",
            &lines,
            "--seed",
            "3",
            "--max-turns",
            "60",
        ],
        "",
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("errors: red 0, blue 0"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("red clock") && out.stdout.contains("CPU time"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_course_starter_keeps_the_course_rules_against_the_search_ai() {
    if !has_python() {
        eprintln!("python3 is not installed: skipped");
        return;
    }
    let course = format!(
        "course:{}/ai/course:python3 halma_course.py",
        root().display()
    );
    let out = run(
        &[
            "halma",
            "match",
            "--preset",
            "classic",
            "--camp-rules",
            "course",
            "--first",
            "blue",
            "--red",
            &course,
            "--blue",
            "builtin:search",
            "--seed",
            "2",
            "--max-turns",
            "40",
        ],
        "",
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("errors: red 0, blue 0"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_rosters_programs_run_only_with_the_teachers_consent() {
    let dir = tempdir("consent");
    let marker = dir.join("ran");
    // What a hostile roster would run: it leaves a mark if it ever runs.
    let command = format!("touch '{}' ; exit 1", marker.display());
    let roster = serde_json::json!({"entries": [
        {"name": "Mallory", "program": {"command": command, "dir": dir.display().to_string(), "format": "course"}},
        {"name": "Greedy", "player": "builtin:greedy"},
    ]});
    let roster_path = dir.join("roster.json");
    std::fs::write(&roster_path, roster.to_string()).expect("the roster is written");
    let (roster_arg, out_arg) = (
        roster_path.display().to_string(),
        dir.join("out").display().to_string(),
    );
    let args = [
        "halma",
        "tournament",
        &roster_arg,
        "--preset",
        "classic",
        "--out",
        &out_arg,
    ];
    let refused = run(&args, "", None);
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(
        refused.stderr.contains("--allow-programs")
            && refused.stderr.contains("entry 1 (Mallory)")
            && refused.stderr.contains(&command),
        "the refusal lists the exact command: {}",
        refused.stderr
    );
    assert!(!marker.exists(), "nothing ran without consent");
    assert!(!dir.join("out").exists(), "nothing was written");
    // With the flag, the same roster's program runs (here, only to fail its roll call).
    let mut allowed: Vec<&str> = args.to_vec();
    allowed.push("--allow-programs");
    allowed.extend(["--max-turns", "4"]);
    let out = run(&allowed, "", None);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(marker.exists(), "the program ran once consented to");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tournament_of_four_with_two_program_entries() {
    if !has_python() {
        eprintln!("python3 is not installed: skipped");
        return;
    }
    let dir = tempdir("tournament");
    let ai = root().join("ai").display().to_string();
    let roster = serde_json::json!({"entries": [
        {"name": "Ada", "program": {"command": "python3 halma_course.py", "dir": format!("{ai}/course"), "format": "course"}},
        {"name": "Bo", "program": {"command": "python3 lines/halma_lines.py", "dir": ai, "format": "lines"}},
        {"name": "Greedy", "player": "builtin:greedy"},
        {"name": "Search", "player": "builtin:search"},
    ]});
    let roster_path = dir.join("roster.json");
    std::fs::write(&roster_path, roster.to_string()).expect("the roster is written");
    let (roster_arg, out_arg) = (
        roster_path.display().to_string(),
        dir.join("out").display().to_string(),
    );
    let out = run(
        &[
            "halma",
            "tournament",
            &roster_arg,
            "--allow-programs",
            "--preset",
            "classic",
            "--max-turns",
            "24",
            "--seed",
            "4",
            "--out",
            &out_arg,
        ],
        "",
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("6 games"), "{}", out.stdout);
    for name in ["Ada", "Bo"] {
        assert!(
            out.stderr.contains(&format!("roll call: {name} (")) && out.stderr.contains("ready"),
            "{}",
            out.stderr
        );
        // Both starters play legal moves all tournament: no errors in their table row.
        let row = out
            .stdout
            .lines()
            .find(|l| l.contains(name))
            .expect("a row");
        assert!(row.trim_end().ends_with(" 0"), "{row}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
