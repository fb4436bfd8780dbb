//! Program players on a shared machine: what another user prepared in the temporary folder, and what a
//! program leaves in its own folder or writes on stderr, must neither reach into a game nor fool or hang
//! the referee or the terminal.
#![cfg(unix)]

#[path = "support/canned.rs"]
mod canned;
#[path = "support/timed.rs"]
mod timed;

use serde_json::Value;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/programs")
}

/// A fresh folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridarena-safety-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A classic match of `turns` plies with red `red` and blue the greedy built-in, with `TMPDIR` at
/// `tmp`: its stdout, stderr and trace lines; `None` when it did not end in 30 s.
fn classic(
    red: &str,
    turns: &str,
    extra: &[&str],
    tmp: &Path,
) -> Option<(String, String, Vec<Value>)> {
    let trace = tmp.join("trace.jsonl");
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
        turns,
        "--trace",
        &trace_arg,
    ];
    args.extend_from_slice(extra);
    let tmp_arg = tmp.display().to_string();
    let out = timed::run(&args, &[("TMPDIR", &tmp_arg)], Duration::from_secs(30))?;
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines = fs::read_to_string(&trace)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a trace line is JSON"))
        .collect();
    Some((out.stdout, out.stderr, lines))
}

/// Red's (code, message, stderr) of each of its moves in the trace.
fn red(trace: &[Value]) -> Vec<(String, String, String)> {
    trace
        .iter()
        .filter(|l| l["team"] == "red")
        .map(|l| {
            let text = |k: &str| l[k].as_str().unwrap_or_default().to_string();
            (text("code"), text("message"), text("stderr"))
        })
        .collect()
}

#[test]
fn games_run_in_private_folders_whatever_another_user_prepared() {
    let tmp = scratch("hostile");
    // What another user could have made first: the old shared parent, open to everyone, with a game's
    // predictable name in it leading elsewhere.
    let shared = tmp.join("gridarena-games");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o777)).unwrap();
    fs::create_dir(tmp.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink(tmp.join("elsewhere"), shared.join("0-0-red-course")).unwrap();
    // An agent whose files anyone may read, one of them executable, in a subfolder too.
    let agent = tmp.join("agent");
    fs::create_dir_all(agent.join("sub")).unwrap();
    fs::write(
        agent.join("agent.sh"),
        "echo \"at $(pwd -P) $(stat -c %a .) $(stat -c %a agent.sh) $(stat -c %a tool) $(stat -c %a sub) $(stat -c %a sub/w.txt)\" >&2\nexit 1\n",
    )
    .unwrap();
    fs::write(agent.join("tool"), "#!/bin/sh\n").unwrap();
    fs::write(agent.join("sub/w.txt"), "0.5").unwrap();
    fs::set_permissions(agent.join("tool"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(agent.join("sub/w.txt"), fs::Permissions::from_mode(0o666)).unwrap();

    let label = format!("course:{}:sh agent.sh", agent.display());
    let (_, _, trace) = classic(&label, "2", &[], &tmp).expect("the match ends");
    let (_, _, stderr) = &red(&trace)[0];
    let words: Vec<&str> = stderr.split_whitespace().collect();
    let [_, folder, dir_mode, file_mode, exec_mode, sub_mode, deep_mode] = words[..] else {
        panic!("the agent did not report: {stderr:?} in {trace:?}");
    };
    let folder = Path::new(folder);
    assert_eq!(
        folder.parent(),
        Some(tmp.canonicalize().unwrap().as_path()),
        "made right in the temporary folder, under no shared parent: {folder:?}"
    );
    let name = folder.file_name().unwrap().to_string_lossy();
    assert!(name.starts_with("gridarena-game-"), "{name}");
    assert_eq!(
        [dir_mode, file_mode, exec_mode, sub_mode, deep_mode],
        ["700", "600", "700", "700", "600"],
        "nobody else may read or enter the game's folder"
    );
    assert_eq!(
        fs::read_dir(&shared).unwrap().count(),
        1,
        "nothing was put under the shared parent"
    );
    assert_eq!(fs::read_dir(tmp.join("elsewhere")).unwrap().count(), 0);
    let left: Vec<_> = fs::read_dir(&tmp)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("gridarena-game-")
        })
        .collect();
    assert!(left.is_empty(), "the game's folder went with it: {left:?}");
    let _ = fs::remove_dir_all(&tmp);
}

#[test]
fn an_output_txt_that_is_a_fifo_or_a_link_is_refused_by_name() {
    let tmp = scratch("output");
    for (script, says) in [
        (
            "fifo.sh",
            "output.txt could not be read: it is not a regular file (a FIFO)",
        ),
        (
            "symlink.sh",
            "output.txt could not be read: it is not a regular file (a symbolic link)",
        ),
    ] {
        let label = format!("course:{}:sh {script}", fixtures().display());
        let (_, _, trace) = classic(&label, "2", &["--out-of-time", "no-move"], &tmp)
            .unwrap_or_else(|| panic!("{script}: the referee hung"));
        let (code, message, _) = &red(&trace)[0];
        assert_eq!(code, "malformed_output", "{script}: {message}");
        assert!(message.contains(says), "{script}: {message}");
    }
    // An input.txt left as a FIFO does not hang the next move's writing of it.
    let label = format!("course:{}:sh fifo_input.sh", fixtures().display());
    let (_, _, trace) = classic(&label, "4", &["--out-of-time", "no-move"], &tmp)
        .expect("the referee did not hang on input.txt");
    assert_eq!(red(&trace).len(), 2, "{trace:?}");
    let _ = fs::remove_dir_all(&tmp);
}

#[test]
fn a_program_that_detaches_its_work_still_runs_out_of_time() {
    // Each move takes 0.4 s of wall time in a child nobody waits for, and almost no CPU time: the
    // game's wall time is capped too, at three times the clock.
    let tmp = scratch("detach");
    let label = format!("course:{}:sh detach.sh", fixtures().display());
    let (stdout, _, trace) =
        classic(&label, "12", &["--clock", "0.3"], &tmp).expect("the match ends");
    assert!(
        stdout.contains("blue wins: red forfeited (red: out of time: "),
        "{stdout}\n{trace:?}"
    );
    let _ = fs::remove_dir_all(&tmp);
}

#[test]
fn control_characters_from_a_program_never_reach_the_terminal() {
    let tmp = scratch("escape");
    let label = format!("course:{}:sh escape.sh", fixtures().display());
    let (stdout, stderr, trace) = classic(
        &label,
        "2",
        &["--verbose", "--out-of-time", "no-move"],
        &tmp,
    )
    .expect("the match ends");
    // The trace is JSON: it keeps the bytes as they were, escaped by JSON itself.
    assert!(red(&trace)[0].2.contains('\u{1b}'), "{trace:?}");
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\r']),
            "{name} carries the program's control characters: {text:?}"
        );
    }
    assert!(stdout.contains("boom\\u{1b}[2J"), "{stdout}");
    assert!(stderr.contains("boom\\u{1b}[2J"), "{stderr}");
    let _ = fs::remove_dir_all(&tmp);
}

/// A web AI that answers every request with HTTP 502 and an `error` full of escape codes.
fn hostile_web_ai() -> u16 {
    canned::canned(concat!(
        "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/json\r\nContent-Length: 46\r\n\r\n",
        r#"{"error": "boom\u001b[2J\u001b]0;pwned\u0007"}"#
    ))
}

#[test]
fn control_characters_from_a_web_ais_error_never_reach_the_terminal() {
    let tmp = scratch("web-escape");
    let url = format!("http://127.0.0.1:{}/", hostile_web_ai());
    let (stdout, stderr, _) = classic(&url, "2", &["--verbose"], &tmp).expect("the match ends");
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(
            !text.contains(['\u{1b}', '\u{7}']),
            "{name} carries the web AI's control characters: {text:?}"
        );
        assert!(text.contains("boom\\u{1b}[2J"), "{name}: {text}");
    }
    let _ = fs::remove_dir_all(&tmp);
}
