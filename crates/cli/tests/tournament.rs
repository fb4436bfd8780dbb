//! `gridarena halma tournament` end to end: real web AIs (the Python and PHP starters), built-ins, an
//! endpoint that answers HTTP 500 and one that never answers; and a run killed half-way and resumed.

#[path = "support/canned.rs"]
mod canned;
#[path = "support/tournament_files.rs"]
mod files;
#[path = "support/run.rs"]
mod run;
#[path = "support/starter.rs"]
mod starter;

use files::{gridarena, tournament_args};
use gridarena_engine::halma::play::Ending;
use gridarena_engine::halma::record::Record;
use gridarena_engine::tournament::event::Tournament;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    files::temp_dir("tournament", name)
}

/// An endpoint that reads each request and answers HTTP 500, with CORS, as a crashing AI server does.
fn http_500() -> u16 {
    canned::canned("HTTP/1.1 500 Internal Server Error\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 21\r\n\r\nTraceback: KeyError!")
}

/// An endpoint that accepts connections and never says a word.
fn silent() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    port
}

fn roster_file(dir: &Path, entries: &[(&str, String)]) -> PathBuf {
    let entries: Vec<serde_json::Value> = entries
        .iter()
        .map(|(name, player)| serde_json::json!({"name": name, "player": player}))
        .collect();
    files::roster_file(dir, &entries)
}

/// The first seven columns of standings.csv: what must not depend on timing.
fn table(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("standings.csv"))
        .unwrap()
        .lines()
        .map(|l| l.split(',').take(7).collect::<Vec<_>>().join(","))
        .collect()
}

#[test]
fn six_entries_in_a_double_round_robin_with_a_dead_one_withdrawn() {
    let starters = starter::start_all();
    let dir = temp_dir("six");
    let mut entries = vec![
        ("Greedy", "builtin:greedy".to_string()),
        ("Search", "builtin:search".to_string()),
        ("Crash", format!("http://127.0.0.1:{}/", http_500())),
        ("Dead", format!("http://127.0.0.1:{}/", silent())),
    ];
    for s in &starters {
        let name = match s.kind {
            starter::Kind::Python => "Python",
            starter::Kind::Php => "PHP",
        };
        entries.push((name, format!("http://127.0.0.1:{}/", s.port)));
    }
    let n = entries.len();
    let roster = roster_file(&dir, &entries);
    let out = dir.join("out");
    let args = tournament_args(
        &roster,
        "--format double --preset mini --tick-ms 400 --max-turns 60 --policy strict:3 \
         --withdraw-after 2 --concurrency 4 --seed 5",
        &out,
    );
    let done = gridarena(&args);
    assert_eq!(done.code, 0, "{done:?}");
    let games = n * (n - 1);
    assert!(
        done.stdout.contains(&format!("{games} games; files in")),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout
            .contains("withdrawn: Dead: no answer in 2 games in a row (last:")
            && done.stdout.contains("timed out after 400 ms"),
        "{}",
        done.stdout
    );

    let bundle = std::fs::read_to_string(out.join("bundle.json")).unwrap();
    let t = Tournament::from_bundle(&bundle).unwrap();
    assert!(t.is_over());
    assert_eq!(t.finished_count(), games);
    let mut met = std::collections::BTreeSet::new();
    for r in t.finished() {
        assert!(
            met.insert((r.fixture.red, r.fixture.blue)),
            "each ordered pair once"
        );
        // Both games of a pair share a seed: the same start, only the seats differ.
        let other = t
            .finished()
            .find(|o| o.fixture.red == r.fixture.blue && o.fixture.blue == r.fixture.red);
        assert_eq!(other.map(|o| o.fixture.seed), Some(r.fixture.seed));
        let crash = t.names().iter().position(|x| x == "Crash").unwrap();
        let dead = t.names().iter().position(|x| x == "Dead").unwrap();
        let sides = [r.fixture.red, r.fixture.blue];
        if r.played.ending.was_played() && sides.contains(&crash) && !sides.contains(&dead) {
            let Ending::Forfeit { team, cause } = &r.played.ending else {
                panic!(
                    "the crashing entry forfeits every game under strict:3: {:?}",
                    r.played.ending
                )
            };
            assert_eq!(r.fixture.entry(*team), crash);
            assert!(cause.contains("HTTP 500"), "{cause}");
        }
        let record =
            std::fs::read_to_string(out.join(format!("games/game-{}.jsonl", r.fixture.number + 1)));
        if r.played.ending.was_played() {
            let record = Record::parse(&record.unwrap()).unwrap();
            assert_eq!(record.ticks(), r.played.ticks as usize);
        }
    }
    let dead = t.names().iter().position(|x| x == "Dead").unwrap();
    assert!(t.withdrawn(dead).is_some());
    assert!(
        t.withdrawn(t.names().iter().position(|x| x == "Crash").unwrap())
            .is_none(),
        "an entry that answers (badly) is not withdrawn"
    );
    let csv = table(&out);
    assert_eq!(csv[0], "rank,name,played,wins,draws,losses,points");
    assert_eq!(csv.len(), n + 1);
    // Dead loses every game but those against Crash, which may forfeit first (both err every tick).
    let dead_row: Vec<&str> = csv
        .iter()
        .find(|l| l.contains(",Dead,"))
        .unwrap()
        .split(',')
        .collect();
    let games_each = (2 * (n - 1)).to_string();
    assert_eq!(dead_row[2], games_each, "{dead_row:?}");
    let wins: usize = dead_row[3].parse().unwrap();
    assert!(wins <= 2 && dead_row[4] == "0", "{dead_row:?}");
}

#[test]
fn with_the_default_policy_a_crashing_and_a_closed_entry_rank_below_the_built_ins() {
    let dir = temp_dir("default-policy");
    let closed = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap();
    let entries = vec![
        ("Greedy", "builtin:greedy".to_string()),
        ("Search", "builtin:search".to_string()),
        ("Crash", format!("http://127.0.0.1:{}/", http_500())),
        ("Closed", format!("http://127.0.0.1:{closed}/")),
    ];
    let roster = roster_file(&dir, &entries);
    let out = dir.join("out");
    let started = Instant::now();
    let args = tournament_args(
        &roster,
        "--format double --tick-ms 200 --max-turns 60 --seed 36",
        &out,
    );
    let done = gridarena(&args);
    assert_eq!(done.code, 0, "{done:?}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "a broken entry's game ends in 10 ticks: {:?}",
        started.elapsed()
    );
    let t = Tournament::from_bundle(&std::fs::read_to_string(out.join("bundle.json")).unwrap())
        .unwrap();
    assert_eq!(t.settings().policy.to_string(), "consecutive:10");
    let crash = 2;
    for r in t.finished() {
        let sides = [r.fixture.red, r.fixture.blue];
        if sides.contains(&crash) && !sides.contains(&3) {
            let Ending::Forfeit { team, cause } = &r.played.ending else {
                panic!(
                    "the crashing entry forfeits to a built-in: {:?}",
                    r.played.ending
                )
            };
            assert_eq!(r.fixture.entry(*team), crash);
            assert_eq!(r.played.ticks, 10, "{cause}");
            assert!(
                cause.starts_with("10 errors in a row; the last: ") && cause.contains("HTTP 500"),
                "{cause}"
            );
        }
    }
    let csv = table(&out);
    let rows: Vec<Vec<&str>> = csv[1..].iter().map(|l| l.split(',').collect()).collect();
    let names: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    assert!(
        names[..2].contains(&"Greedy") && names[..2].contains(&"Search"),
        "{csv:?}"
    );
    let points = |name: &str| -> f64 {
        rows.iter().find(|r| r[1] == name).unwrap()[6]
            .parse()
            .unwrap()
    };
    for broken in ["Crash", "Closed"] {
        for built_in in ["Greedy", "Search"] {
            assert!(points(broken) < points(built_in), "{csv:?}");
        }
    }
    assert!(
        done.stdout
            .contains("withdrawn: Closed: no answer in 3 games in a row"),
        "{}",
        done.stdout
    );
}

#[test]
fn an_interrupted_tournament_resumes_to_the_same_table() {
    let dir = temp_dir("resume");
    let entries: Vec<(&str, String)> = ["Ada", "Bo", "Cy", "Di"]
        .iter()
        .zip([
            "builtin:greedy",
            "builtin:search",
            "builtin:greedy",
            "builtin:search",
        ])
        .map(|(n, p)| (*n, p.to_string()))
        .collect();
    let roster = roster_file(&dir, &entries);
    let args = |out: &Path| {
        tournament_args(
            &roster,
            "--format double --preset arena --concurrency 1 --seed 9",
            out,
        )
    };
    let whole = dir.join("whole");
    assert_eq!(gridarena(&args(&whole)).code, 0);

    // The same tournament, killed once two games are in its bundle.
    let cut = dir.join("cut");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridarena"))
        .args(args(&cut))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let played = |dir: &Path| {
        std::fs::read_to_string(dir.join("bundle.json"))
            .ok()
            .and_then(|b| Tournament::from_bundle(&b).ok())
            .map_or(0, |t| t.finished_count())
    };
    while played(&cut) < 2 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = played(&cut);
    assert!((2..12).contains(&kept), "killed after {kept} of 12 games");
    let resumed = gridarena(&args(&cut));
    assert_eq!(resumed.code, 0, "{resumed:?}");
    assert!(
        resumed
            .stderr
            .contains(&format!("resuming: {kept} of 12 games already played")),
        "{}",
        resumed.stderr
    );
    assert_eq!(table(&cut), table(&whole));
}

#[test]
fn another_roster_in_the_same_folder_is_refused() {
    let dir = temp_dir("other");
    let out = dir.join("out");
    let first = roster_file(
        &dir,
        &[
            ("Ada", "builtin:greedy".into()),
            ("Bo", "builtin:greedy".into()),
        ],
    );
    let go = |roster: &Path| gridarena(&tournament_args(roster, "--preset mini --seed 1", &out));
    assert_eq!(go(&first).code, 0);
    let second = roster_file(
        &dir,
        &[
            ("Ada", "builtin:greedy".into()),
            ("Cy", "builtin:greedy".into()),
        ],
    );
    let refused = go(&second);
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("holds a tournament of another roster"),
        "{}",
        refused.stderr
    );
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"entries": [{"name": "Ada", "player": "greedy"}]}"#,
    )
    .unwrap();
    let refused = gridarena(&tournament_args(&bad, "", &out));
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("Entry 1 (Ada): unknown player \"greedy\""),
        "{}",
        refused.stderr
    );
    // A roster of 1 GiB (sparse: it takes no disk) is refused by its size, unread.
    let huge = dir.join("huge.json");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let refused = gridarena(&tournament_args(&huge, "", &out));
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("larger than 256 MiB"),
        "{}",
        refused.stderr
    );
}

#[test]
fn a_tournament_exported_by_the_page_resumes_when_given_as_the_roster() {
    let dir = temp_dir("exported");
    let roster = roster_file(
        &dir,
        &[
            ("Ada", "builtin:greedy".into()),
            ("Bo", "builtin:search-lite".into()),
            ("Cy", "builtin:greedy".into()),
        ],
    );
    let whole = dir.join("whole");
    let options = "--preset mini --seed 9 --format double --tick-ms 200";
    assert_eq!(
        gridarena(&tournament_args(&roster, options, &whole)).code,
        0
    );
    // The page's export is the engine's bundle: here the whole run's, cut back to its first two games
    // (a tournament stopped half-way), written where the teacher saved it.
    let mut bundle: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(whole.join("bundle.json")).unwrap()).unwrap();
    bundle["games"].as_array_mut().unwrap().truncate(2);
    let exported = dir.join("tournament.json");
    std::fs::write(&exported, bundle.to_string()).unwrap();
    // Other options are the bundle's: a resumed tournament keeps the settings it started with.
    let out = dir.join("resumed");
    let resumed = gridarena(&tournament_args(&exported, "--preset arena", &out));
    assert_eq!(resumed.code, 0, "{resumed:?}");
    assert!(
        resumed
            .stderr
            .contains("resuming: 2 of 6 games already played (")
            && resumed.stderr.contains("tournament.json)")
            && resumed.stderr.contains("with the settings it started with"),
        "{}",
        resumed.stderr
    );
    assert_eq!(table(&out), table(&whole));
    // Run again: the bundle in --out, now finished, is the one resumed.
    let again = gridarena(&tournament_args(&exported, "", &out));
    assert!(
        again
            .stderr
            .contains("resuming: 6 of 6 games already played ("),
        "{}",
        again.stderr
    );
    // A bundle that is not a tournament's says what is wrong with it.
    bundle["version"] = serde_json::json!(99);
    std::fs::write(&exported, bundle.to_string()).unwrap();
    let refused = gridarena(&tournament_args(&exported, "", &dir.join("never")));
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("newer than this build"),
        "{}",
        refused.stderr
    );
}

#[test]
fn the_clock_is_kept_in_the_bundle_and_a_resumed_tournament_plays_it() {
    let dir = temp_dir("clock");
    let roster = roster_file(
        &dir,
        &[
            ("Ada", "builtin:greedy".into()),
            ("Bo", "builtin:search-lite".into()),
        ],
    );
    let out = dir.join("out");
    let options = "--preset mini --seed 3 --tick-ms 50 --max-turns 4";
    let first = gridarena(&tournament_args(
        &roster,
        &format!("{options} --clock 42.5 --grace 1.25"),
        &out,
    ));
    assert_eq!(first.code, 0, "{first:?}");
    let clock = files::bundle(&out).settings().clock;
    assert_eq!(
        (clock.total, clock.grace),
        (Duration::from_millis(42_500), Duration::from_millis(1_250))
    );
    // Another --clock on resuming: the bundle's clock stands, and the note says which it is.
    let again = gridarena(&tournament_args(
        &roster,
        &format!("{options} --clock 60"),
        &out,
    ));
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again
            .stderr
            .contains("clock 42.5 s, grace 1.25 s), not the options given"),
        "{}",
        again.stderr
    );
    assert_eq!(files::bundle(&out).settings().clock, clock);
}

/// An endpoint that notes each request's Content-Type header and answers HTTP 500.
fn noting_content_types() -> (u16, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::{Read, Write};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let noted = std::sync::Arc::clone(&seen);
    thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 8192];
            let n = stream.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]).to_ascii_lowercase();
            if let Some(line) = head.lines().find(|l| l.starts_with("content-type:")) {
                noted
                    .lock()
                    .unwrap()
                    .push(line["content-type:".len()..].trim().to_string());
            }
            let _ = stream.write_all(
                b"HTTP/1.1 500 Internal Server Error\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno",
            );
        }
    });
    (port, seen)
}

#[test]
fn a_web_entry_is_sent_the_content_type_its_roster_entry_names() {
    let dir = temp_dir("content-type");
    let (port, seen) = noting_content_types();
    let entries = vec![
        serde_json::json!({"name": "Json", "player": format!("http://127.0.0.1:{port}/"), "contentType": "json"}),
        serde_json::json!({"name": "Greedy", "player": "builtin:greedy"}),
    ];
    let roster = files::roster_file(&dir, &entries);
    let out = dir.join("out");
    let args = tournament_args(&roster, "--tick-ms 300 --max-turns 6 --seed 3", &out);
    let done = gridarena(&args);
    assert_eq!(done.code, 0, "{done:?}");
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "the web entry was asked");
    // The roll call asks it too, as the page's does, with the same label (the engine's plan decides).
    assert!(
        done.stderr
            .contains(&format!("roll call: Json (http://127.0.0.1:{port}/): "))
            && done.stderr.contains("HTTP 500"),
        "{}",
        done.stderr
    );
    assert!(
        done.stderr
            .contains("roll call: Greedy (builtin:greedy): a built-in AI, always ready"),
        "{}",
        done.stderr
    );
    assert!(
        seen.iter().all(|t| t == "application/json"),
        "every request labelled as the roster says: {seen:?}"
    );
    // The roster is written back with its label, so a resumed or exported tournament keeps it.
    let bundle = std::fs::read_to_string(out.join("bundle.json")).unwrap();
    assert!(bundle.contains(r#""contentType":"json""#), "{bundle}");
}

/// A course-format code entry: `prelude`, then the course's starter agent (which reads `input.txt` and
/// writes `output.txt` when run).
fn course_entry(name: &str, prelude: &str) -> serde_json::Value {
    let starter = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ai/course/halma_course.py");
    let homework = std::fs::read_to_string(starter).unwrap();
    serde_json::json!({"name": name, "code": {
        "language": "python", "format": "course", "main": "homework.py",
        "files": {"homework.py": format!("{prelude}\n{homework}")}
    }})
}

#[test]
fn a_course_entry_is_asked_single_at_the_roll_call_and_plays_on_its_clock_not_the_tick() {
    // The engine's plan (tournament::plan), which the page obeys too: a course entry's roll call is one
    // SINGLE move on a whole clock, and its game moves are cut at its clock, never at the tick.
    let dir = temp_dir("course-plan");
    let entries = vec![
        // Answers only when input.txt says SINGLE: any other roll call finds no output.
        course_entry(
            "Single",
            "import sys\nwith open('input.txt') as f:\n    if f.readline().strip() != 'SINGLE':\n        sys.exit(0)",
        ),
        // Thinks 0.6 s a move, three ticks of 200 ms, well inside its 300 s clock.
        course_entry("Slow", "import time\ntime.sleep(0.6)"),
    ];
    let roster = files::roster_file(&dir, &entries);
    let out = dir.join("out");
    let args = tournament_args(
        &roster,
        "--preset classic --camp-rules course --first blue --tick-ms 200 --max-turns 6 \
         --policy lenient --seed 8",
        &out,
    );
    let done = gridarena(&args);
    assert_eq!(done.code, 0, "{done:?}");
    let ready = |name: &str| {
        done.stderr.lines().any(|l| {
            l.starts_with(&format!("roll call: {name} (code:python:course:"))
                && l.ends_with(": ready")
        })
    };
    assert!(ready("Single"), "asked SINGLE: {}", done.stderr);
    assert!(ready("Slow"), "not cut at 3 ticks: {}", done.stderr);
    let t = files::bundle(&out);
    assert_eq!(t.finished_count(), 1);
    let slow = t.names().iter().position(|n| n == "Slow").unwrap();
    for r in t.finished() {
        assert_eq!(r.played.ticks, 6, "{:?}", r.played.ending);
        let team = gridarena_engine::halma::Team::ALL
            .into_iter()
            .find(|&team| r.fixture.entry(team) == slow)
            .unwrap();
        let side = &r.played.sides[team];
        assert!(side.asked >= 3, "{side:?}");
        assert_eq!(
            (side.answered, side.errors),
            (side.asked, 0),
            "every 0.6 s move of a 200 ms tick counted: {side:?}"
        );
    }
}
