//! The hostile-code suite on the command line: a student's code that tries every escape the sandbox
//! closes (tests/fixtures/hostile/escapes.py), played by `gridarena halma match` in both formats, and
//! the machine checked afterwards for what got through. Where this machine cannot confine code,
//! gridarena refuses to run it, and that refusal is what is checked. Needs `python3` on PATH.
#![cfg(target_os = "linux")]

#[path = "support/run.rs"]
mod run;

use run::run;
use std::net::{TcpListener, UdpSocket};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/hostile")
        .join(name)
}

/// A fresh folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridarena-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the code is to try to reach, all of it this test's.
struct Targets {
    dir: PathBuf,
    unix: UnixListener,
    abstract_socket: UnixListener,
    udp: UdpSocket,
    tcp: TcpListener,
    marker: String,
}

impl Targets {
    fn new(name: &str) -> Targets {
        let dir = scratch(&format!("{name}-targets"));
        std::fs::write(dir.join("secret.txt"), "the teacher's").unwrap();
        let unix = UnixListener::bind(dir.join("agent.sock")).unwrap();
        let abstract_name = format!("gridarena-hostile-{name}-{}", std::process::id());
        let abstract_socket =
            UnixListener::bind_addr(&SocketAddr::from_abstract_name(&abstract_name).unwrap())
                .unwrap();
        let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
        let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
        for nonblocking in [
            unix.set_nonblocking(true),
            abstract_socket.set_nonblocking(true),
            udp.set_nonblocking(true),
            tcp.set_nonblocking(true),
        ] {
            nonblocking.unwrap();
        }
        Targets {
            marker: format!("gridarena-left-behind-{name}-{}", std::process::id()),
            dir,
            unix,
            abstract_socket,
            udp,
            tcp,
        }
    }

    fn json(&self) -> String {
        serde_json::json!({
            "unix": self.dir.join("agent.sock"),
            "abstract": String::from_utf8_lossy(
                self.abstract_socket.local_addr().unwrap().as_abstract_name().unwrap()
            ),
            "udp": self.udp.local_addr().unwrap().port(),
            "tcp": self.tcp.local_addr().unwrap().port(),
            "pid": std::process::id(),
            "secret": self.dir.join("secret.txt"),
            "outside": self.dir.join("written.txt"),
            "marker": self.marker,
        })
        .to_string()
    }

    /// What reached this test's side, one line each.
    fn reached(&self) -> Vec<String> {
        let mut got = Vec::new();
        if self.unix.accept().is_ok() {
            got.push("the Unix socket".to_string());
        }
        if self.abstract_socket.accept().is_ok() {
            got.push("the abstract socket".to_string());
        }
        if self.udp.recv(&mut [0u8; 8]).is_ok() {
            got.push("the UDP port".to_string());
        }
        if self.tcp.accept().is_ok() {
            got.push("the TCP port".to_string());
        }
        if self.dir.join("written.txt").exists() {
            got.push("a file outside its folder".to_string());
        }
        // Killed with its game, a process left behind may take a moment to be gone from /proc.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut left = survivors(&self.marker);
        while !left.is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            left = survivors(&self.marker);
        }
        got.extend(
            left.iter()
                .map(|pid| format!("process {pid}, left behind, still running")),
        );
        got
    }
}

impl Drop for Targets {
    fn drop(&mut self) {
        for pid in survivors(&self.marker) {
            // SAFETY: kill has no memory preconditions; the pid runs this test's marker.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The processes whose command line holds `marker`.
fn survivors(marker: &str) -> Vec<i32> {
    let Ok(list) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    list.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .collect()
}

/// Plays `entry` (a code folder) as red for two turns, from `cwd`: its exit and the record's text.
fn play(entry: &Path, preset: &[&str], cwd: &Path) -> (run::Run, String) {
    let record = entry.with_extension("jsonl");
    let red = format!("code:{}", entry.display());
    let record_arg = record.display().to_string();
    let mut args = vec![
        "halma",
        "match",
        "--red",
        &red,
        "--blue",
        "builtin:greedy",
        "--tick-ms",
        "5000",
        "--max-turns",
        "2",
        "--seed",
        "3",
        "--record",
        &record_arg,
    ];
    args.extend_from_slice(preset);
    let done = run(&args, "", Some(cwd));
    let text = std::fs::read_to_string(&record).unwrap_or_default();
    (done, text)
}

#[test]
fn no_escape_gets_through_in_either_format() {
    for (name, main, preset) in [
        ("function", None, &["--preset", "mini"][..]),
        (
            "course",
            Some("course_main.py"),
            &["--preset", "classic", "--camp-rules", "course"][..],
        ),
    ] {
        let targets = Targets::new(name);
        let home = scratch(name);
        let entry = home.join("entry");
        std::fs::create_dir_all(&entry).unwrap();
        std::fs::copy(fixture("escapes.py"), entry.join("escapes.py")).unwrap();
        if let Some(main) = main {
            std::fs::copy(fixture(main), entry.join("main.py")).unwrap();
        }
        std::fs::write(entry.join("targets.json"), targets.json()).unwrap();
        // The teacher's current folder holds a json.py: the interpreter's check must not import it.
        std::fs::write(
            home.join("json.py"),
            "open(__file__ + '.ran', 'w').write('ran as the teacher')\n",
        )
        .unwrap();
        let (done, record) = play(&entry, preset, &home);
        if done.stderr.contains("cannot be confined here") {
            eprintln!("skipped {name}: {}", done.stderr);
            assert_eq!(done.code, 2, "{done:?}");
            let _ = std::fs::remove_dir_all(&home);
            continue;
        }
        assert_eq!(done.code, 0, "{name}: {done:?}");
        // Every move failed (a network try, or no output.txt), and the game went on.
        assert!(
            done.stdout.contains("errors: red ") && !done.stdout.contains("errors: red 0"),
            "{name}: {}",
            done.stdout
        );
        let reached = targets.reached();
        let ran_json = home.join("json.py.ran").exists();
        let _ = std::fs::remove_dir_all(&home);
        assert!(reached.is_empty(), "{name}: the code reached {reached:?}");
        assert!(
            !ran_json,
            "{name}: a json.py in the current folder ran as the teacher"
        );
        assert!(
            !record.contains("ESCAPED"),
            "{name}: an escape got through:\n{record}"
        );
        // What each attempt printed reaches the record in both formats: the function runner's printing
        // travels in its answer (web/runners/), the course script's stderr is read to its end.
        for what in [
            "unix socket by path",
            "abstract unix socket",
            "udp",
            "tcp",
            "signal to the host",
            "read outside",
            "write outside",
            "process list",
            "terminal",
        ] {
            assert!(
                record.contains(&format!("refused {what}")),
                "{name}: no word of {what}:\n{record}"
            );
        }
        assert!(record.contains("left a process behind"), "{name}: {record}");
    }
}

/// A JavaScript player reaches none of node's own modules or native code without an import: the
/// runner closes `process.getBuiltinModule`, `binding`, `_linkedBinding` and `dlopen` before the
/// player loads, as the resolve hook refuses `node:` imports (the page's worker has neither).
#[test]
fn a_javascript_player_reaches_no_node_module() {
    use gridarena_cli::code::function::FunctionPlayer;
    use gridarena_cli::code::interpreter;
    use gridarena_cli::code::sandbox::Isolation;
    use gridarena_engine::halma::code::{CodeFile, Format, HashedSource, Lang, Source};
    use gridarena_engine::halma::Team;
    use std::sync::Arc;

    if let Err(why) = Isolation::get().check(false) {
        eprintln!("skipped: code cannot be confined on this machine: {why}");
        return;
    }
    let Ok(node) = interpreter(Lang::JavaScript) else {
        eprintln!("skipped: no node here");
        return;
    };
    let main = r#"
const tries = {
  getBuiltinModule: () => process.getBuiltinModule('node:fs').readdirSync('/'),
  binding: () => process.binding('fs'),
  _linkedBinding: () => process._linkedBinding('fs'),
  dlopen: () => process.dlopen({ exports: {} }, '/nonexistent.node'),
  overwrite: () => { process.getBuiltinModule = () => 'mine'; return process.getBuiltinModule('fs'); },
};
export function move() {
  const reached = {};
  for (const [name, f] of Object.entries(tries)) {
    try { reached[name] = String(f()).slice(0, 40); } catch (e) { reached[name] = 'refused: ' + e.message; }
  }
  return reached;
}
"#;
    let source = Source {
        lang: Lang::JavaScript,
        format: Format::Function,
        main: "main.js".to_string(),
        files: vec![CodeFile::text("main.js", main)],
    };
    let player = FunctionPlayer::new(Arc::new(HashedSource::new(source)), node);
    let moved = player.ask_request("{}", Team::Red, 1, Duration::from_secs(20));
    player.end_game();
    let body = moved
        .body
        .unwrap_or_else(|| panic!("no answer: {:?}", moved.answer));
    let reached: serde_json::Value = serde_json::from_str(&body).expect("a JSON answer");
    for name in [
        "getBuiltinModule",
        "binding",
        "_linkedBinding",
        "dlopen",
        "overwrite",
    ] {
        let said = reached[name].as_str().unwrap_or_default();
        // Overwriting a closed one throws too (module code is strict).
        assert!(
            said.starts_with("refused: "),
            "{name} was not refused by the runner: {said}"
        );
    }
}
