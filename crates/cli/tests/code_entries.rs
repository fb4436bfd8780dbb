//! Code entries on the command line: a class's Python and JavaScript run natively by `gridarena halma
//! tournament` and `gridarena halma match`, sandboxed (docs/code-players.md, "Code entries on the
//! command line"). Needs `python3` and `node` on PATH, as the starters' tests do.

#[path = "support/tournament_files.rs"]
mod files;
#[path = "support/run.rs"]
mod run;

use files::{bundle, gridarena, roster_file, tournament_args};
use gridarena_engine::halma::play::Ending;
use gridarena_engine::tournament::event::Tournament;
use run::run;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn starter(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    files::temp_dir("code", name)
}

/// A roster entry that is code: one file, `main`.
fn code(name: &str, language: &str, format: &str, main: &str, text: &str) -> serde_json::Value {
    serde_json::json!({"name": name, "code": {
        "language": language, "format": format, "main": main, "files": {main: text}
    }})
}

fn tournament(roster: &Path, options: &str, out: &Path) -> run::Run {
    gridarena(&tournament_args(roster, options, out))
}

/// A Python function entry that raises at the top level on line 3.
const SYNTAX: &str = "def move(request):\n    return None\nif True\n    pass\n";
/// A Python function entry that tries the network on every move, catching the error, then passes.
const NET: &str = "import socket\ndef move(request):\n    try:\n        socket.create_connection(('127.0.0.1', 9), timeout=1)\n    except OSError:\n        pass\n    return None\n";
/// A Python function entry whose move never ends.
const LOOP: &str = "def move(request):\n    while True:\n        pass\n";

#[test]
fn a_class_of_function_entries_plays_a_tournament_beside_a_house_bot() {
    let dir = temp_dir("class");
    let entries = [
        code(
            "PyFn",
            "python",
            "function",
            "main.py",
            &starter("ai/page/halma_function.py"),
        ),
        code(
            "JsFn",
            "javascript",
            "function",
            "main.js",
            &starter("ai/page/halma_function.js"),
        ),
        code("Syntax", "python", "function", "main.py", SYNTAX),
        code("Loop", "python", "function", "main.py", LOOP),
        code("Net", "python", "function", "main.py", NET),
        serde_json::json!({"name": "Greedy", "player": "builtin:greedy"}),
    ];
    let roster = roster_file(&dir, &entries);
    let out = dir.join("out");
    let options =
        "--preset mini --tick-ms 300 --max-turns 40 --policy strict:2 --concurrency 4 --seed 3";
    let done = tournament(&roster, options, &out);
    assert_eq!(done.code, 0, "{done:?}");
    assert!(
        done.stderr.contains("code entries: 4 Python with python3")
            && done.stderr.contains("1 JavaScript with node"),
        "{}",
        done.stderr
    );
    assert!(
        done.stderr
            .contains("roll call: Syntax (code:python:function:")
            && done.stderr.contains("syntax error: main.py line 3"),
        "the roll call names the line: {}",
        done.stderr
    );
    let t = bundle(&out);
    assert!(t.is_over());
    assert_eq!(t.finished_count(), 15);
    let names = t.names();
    let id = |n: &str| names.iter().position(|x| x == n).unwrap();
    let broken = [id("Loop"), id("Syntax"), id("Net")];
    for r in t.finished() {
        let sides = [r.fixture.red, r.fixture.blue];
        let against_broken = sides.iter().any(|s| broken.contains(s));
        match &r.played.ending {
            // An entry that never answers is withdrawn after a few games, one that errs forfeits.
            Ending::Forfeit { team, cause } | Ending::Withdrawn { team, cause } => {
                let loser = r.fixture.entry(*team);
                assert!(broken.contains(&loser), "{}: {cause}", names[loser]);
                if names[loser] == "Net" {
                    assert!(cause.contains("tried to reach the network"), "{cause}");
                }
                if names[loser] == "Loop" {
                    assert!(
                        cause.contains("timed out after 300 ms")
                            && cause.contains("starts a fresh one"),
                        "{cause}"
                    );
                }
            }
            Ending::DoubleForfeit { .. } => {
                assert!(sides.iter().all(|s| broken.contains(s)));
            }
            other => assert!(!against_broken, "a broken entry's game ended {other:?}"),
        }
    }
    // The table has the shape of any tournament's: a header and one row per entry; those that play
    // finish above those that cannot.
    let csv = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(
        rows[0].starts_with("rank,name,played,wins,draws,losses,points"),
        "{csv}"
    );
    assert_eq!(rows.len(), 7, "{csv}");
    let rank = |n: &str| {
        rows.iter()
            .position(|r| r.split(',').nth(1) == Some(n))
            .unwrap()
    };
    for good in ["PyFn", "JsFn", "Greedy"] {
        for bad in ["Syntax", "Loop", "Net"] {
            assert!(rank(good) < rank(bad), "{good} below {bad}: {csv}");
        }
    }
    // The bundle carries every entry's code: a resume reads nothing else.
    let text = std::fs::read_to_string(out.join("bundle.json")).unwrap();
    assert!(text.contains("if True") && text.contains("while True"));
    let again = tournament(&roster, options, &out);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again
            .stderr
            .contains("resuming: 15 of 15 games already played"),
        "{}",
        again.stderr
    );
}

#[test]
fn course_entries_play_the_classic_game_and_an_interrupted_run_resumes() {
    let dir = temp_dir("course");
    let homework = starter("ai/course/halma_course.py");
    let entries = [
        code("Ada", "python", "course", "homework.py", &homework),
        code(
            "Bo",
            "python",
            "course",
            "homework.py",
            &format!("{homework}\n# Bo's copy\n"),
        ),
        serde_json::json!({"name": "Greedy", "player": "builtin:greedy"}),
    ];
    let roster = roster_file(&dir, &entries);
    let out = dir.join("out");
    let options = "--preset classic --camp-rules course --first blue --max-turns 24 --concurrency 1 --seed 4 --format double";
    let args: Vec<String> = ["halma", "tournament", &roster.display().to_string()]
        .into_iter()
        .map(String::from)
        .chain(options.split_whitespace().map(String::from))
        .chain(["--out".to_string(), out.display().to_string()])
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridarena"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let played = || {
        std::fs::read_to_string(out.join("bundle.json"))
            .ok()
            .and_then(|b| Tournament::from_bundle(&b).ok())
            .map_or(0, |t| t.finished_count())
    };
    while played() < 1 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = played();
    assert!((1..6).contains(&kept), "killed after {kept} of 6 games");
    let resumed = tournament(&roster, options, &out);
    assert_eq!(resumed.code, 0, "{resumed:?}");
    assert!(
        resumed
            .stderr
            .contains(&format!("resuming: {kept} of 6 games already played")),
        "{}",
        resumed.stderr
    );
    assert!(
        resumed
            .stderr
            .contains("roll call: Ada (code:python:course:"),
        "{}",
        resumed.stderr
    );
    let t = bundle(&out);
    assert_eq!(t.finished_count(), 6);
    for r in t.finished() {
        assert!(
            !matches!(
                r.played.ending,
                Ending::Forfeit { .. } | Ending::DoubleForfeit { .. }
            ),
            "{:?}",
            r.played.ending
        );
        assert_eq!(
            r.played.ticks, 24,
            "every game runs to the turn limit: {:?}",
            r.played.ending
        );
    }
    // No game's folder is left behind.
    let leftover = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("gridarena-game-{}-", child.id()))
        })
        .count();
    assert_eq!(leftover, 0);
}

/// A listener on loopback that counts the connections it accepts.
fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    thread::spawn(move || {
        for _ in listener.incoming().flatten() {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    });
    (port, count)
}

#[test]
fn code_reaches_no_network_and_writes_only_in_its_folder() {
    let dir = temp_dir("sandbox");
    let (port, connections) = counting_listener();
    let tag = format!("{}-{}", std::process::id(), port);
    let escape = std::env::temp_dir().join(format!("escape-{tag}.txt"));
    let _ = std::fs::remove_file(&escape);
    // A function entry that tries the network and a write outside its folder, catching both, then plays.
    let greedy = starter("ai/page/halma_function.py");
    let sneaky = format!(
        "import urllib.request\n\
         try:\n    open('../escape-{tag}.txt', 'w').write('out')\nexcept OSError as e:\n    print('write refused:', e)\n\
         _move = None\n{greedy}\n_move = move\n\
         def move(request):\n    try:\n        urllib.request.urlopen('http://127.0.0.1:{port}/', timeout=2)\n    except Exception as e:\n        print('network refused:', e)\n    return _move(request)\n"
    );
    let net_dir = dir.join("net");
    std::fs::create_dir_all(&net_dir).unwrap();
    std::fs::write(net_dir.join("main.py"), sneaky).unwrap();
    let net_arg = format!("code:{}", net_dir.display());
    let record = dir.join("net.jsonl");
    let record_arg = record.display().to_string();
    let done = run(
        &[
            "halma",
            "match",
            "--red",
            &net_arg,
            "--blue",
            "builtin:greedy",
            "--preset",
            "mini",
            "--tick-ms",
            "3000",
            "--max-turns",
            "4",
            "--seed",
            "1",
            "--verbose",
            "--record",
            &record_arg,
        ],
        "",
        None,
    );
    assert_eq!(done.code, 0, "{done:?}");
    assert!(
        done.stderr.contains("the code tried to reach the network"),
        "{}",
        done.stderr
    );
    assert!(
        done.stdout.contains("errors: red 2, blue 0"),
        "{}",
        done.stdout
    );
    assert_eq!(
        connections.load(Ordering::SeqCst),
        0,
        "a connection got through"
    );
    assert!(
        !escape.exists(),
        "a write outside the game's folder got through"
    );
    // What the code printed is kept in the record, as a program's stderr is.
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.contains("network refused"), "{text}");

    // A course entry writing beside its folder: refused, and it still plays every move.
    let homework = starter("ai/course/halma_course.py");
    let course = dir.join("course.py");
    std::fs::write(
        &course,
        format!(
            "try:\n    open('../escape-{tag}.txt', 'w').write('out')\nexcept OSError:\n    pass\n{homework}"
        ),
    )
    .unwrap();
    let course_arg = format!("code:{}", course.display());
    let done = run(
        &[
            "halma",
            "match",
            "--red",
            &course_arg,
            "--blue",
            "builtin:greedy",
            "--preset",
            "classic",
            "--camp-rules",
            "course",
            "--max-turns",
            "6",
            "--seed",
            "2",
        ],
        "",
        None,
    );
    assert_eq!(done.code, 0, "{done:?}");
    assert!(
        done.stdout.contains("errors: red 0, blue 0"),
        "{}",
        done.stdout
    );
    assert!(!escape.exists(), "a course script wrote outside its folder");
}

#[test]
fn the_match_command_takes_a_code_path_and_names_a_bad_one() {
    let js = format!("code:{}", repo("ai/page/halma_function.js").display());
    let done = run(
        &[
            "halma",
            "match",
            "--red",
            &js,
            "--blue",
            "builtin:greedy",
            "--preset",
            "arena",
            "--tick-ms",
            "1000",
            "--max-turns",
            "20",
            "--seed",
            "5",
        ],
        "",
        None,
    );
    assert_eq!(done.code, 0, "{done:?}");
    assert!(
        done.stdout.contains("errors: red 0, blue 0"),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout.contains("code:javascript:function:"),
        "{}",
        done.stdout
    );

    let missing = run(
        &[
            "halma",
            "match",
            "--red",
            "code:/no/such/ai.py",
            "--blue",
            "builtin:greedy",
        ],
        "",
        None,
    );
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(
        missing.stderr.contains("/no/such/ai.py"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_missing_interpreter_is_named_before_any_game() {
    let dir = temp_dir("nopython");
    let entries = [
        code(
            "Ada",
            "python",
            "function",
            "main.py",
            "def move(r):\n    return None\n",
        ),
        code(
            "Bo",
            "python",
            "function",
            "main.py",
            "def move(r):\n    return None\n",
        ),
        serde_json::json!({"name": "Greedy", "player": "builtin:greedy"}),
    ];
    let roster = roster_file(&dir, &entries);
    let empty = dir.join("bin");
    std::fs::create_dir_all(&empty).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gridarena"))
        .args(["halma", "tournament"])
        .arg(&roster)
        .args(["--preset", "mini", "--out"])
        .arg(dir.join("out"))
        .env("PATH", &empty)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("2 code entries (Ada, Bo) need python3")
            && stderr.contains("Nothing was played"),
        "{stderr}"
    );
    assert!(!dir.join("out").join("bundle.json").exists());
}

#[test]
fn code_only_refuses_a_web_entry_and_takes_code_with_built_ins() {
    let dir = temp_dir("codeonly");
    let py = "def move(r):\n    return None\n";
    let entries = [
        code("Ada", "python", "function", "main.py", py),
        serde_json::json!({"name": "Web", "player": "http://127.0.0.1:9/"}),
    ];
    let roster = roster_file(&dir, &entries);
    let refused = tournament(&roster, "--preset mini --code-only", &dir.join("out"));
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(refused.stderr.contains("Web"), "{}", refused.stderr);
    assert!(!dir.join("out").join("bundle.json").exists());

    let entries = [
        code("Ada", "python", "function", "main.py", py),
        serde_json::json!({"name": "Greedy", "player": "builtin:greedy"}),
    ];
    let roster = roster_file(&dir, &entries);
    let done = tournament(
        &roster,
        "--preset mini --code-only --max-turns 6 --tick-ms 500 --seed 1",
        &dir.join("ok"),
    );
    assert_eq!(done.code, 0, "{done:?}");
    assert!(done.stdout.contains("1 games; files in"), "{}", done.stdout);
}
