//! The sandbox against a confined shell and a confined Python that try what a student should not.
//! Each escape runs through the real start of a code process ([`Running::start_in`]) and reports, in a
//! file of its game's folder, what it got.

use super::*;
use crate::code::interpreter;
use crate::program::process::{Running, Wiring};
use gridarena_engine::halma::code::Lang;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::UnixListener;
use std::time::Duration;

/// A fresh folder for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("gridarena-sandbox-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `script` with the sandboxed `python3` in `dir` until it exits (at most 20 s), and returns
/// what it wrote to `report.txt` there.
fn confined_python(dir: &Path, script: &str) -> String {
    let python = interpreter(Lang::Python).expect("python3 is installed");
    std::fs::write(dir.join("probe.py"), script).unwrap();
    let command = format!(
        "{} probe.py",
        crate::code::quote(&python.exe.to_string_lossy())
    );
    let started = Running::start_in(&command, dir, Wiring::Files, Some(&python.sandbox))
        .expect("python3 starts");
    let mut running = started.running;
    let exit = running.wait_for(Duration::from_secs(20));
    let stderr = String::from_utf8_lossy(&running.stderr_since(0)).into_owned();
    running.kill();
    assert!(exit.is_some(), "the probe did not end: {stderr}");
    std::fs::read_to_string(dir.join("report.txt"))
        .unwrap_or_else(|e| panic!("no report ({e}); stderr: {stderr}"))
}

/// Whether this machine confines code at all: where it does not, gridarena refuses to run code, and
/// these tests say so and check nothing.
fn confined() -> bool {
    let gaps = Isolation::get().shortfall();
    if !gaps.is_empty() {
        eprintln!("skipped: this machine cannot confine code: {gaps:?}");
    }
    gaps.is_empty()
}

#[test]
fn a_confined_shell_writes_in_its_folder_only() {
    if !confined() {
        return;
    }
    let dir = Scratch::new("write");
    let outside = Scratch::new("write-outside");
    let mut command = Command::new("/bin/sh");
    command
        .arg("-c")
        .arg(format!(
            "echo in > inside.txt; echo out > {}/escaped.txt; echo $HOME",
            outside.0.display()
        ))
        .current_dir(&dir.0);
    Sandbox::new(Vec::new(), Vec::new(), MEMORY_LIMIT)
        .confine(&mut command, &dir.0)
        .expect("a sandbox");
    let output = command.output().expect("sh runs");
    assert_eq!(
        std::fs::read_to_string(dir.0.join("inside.txt"))
            .ok()
            .as_deref(),
        Some("in\n")
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        dir.0.display().to_string()
    );
    assert!(
        !outside.0.join("escaped.txt").exists(),
        "a write outside the game's folder went through"
    );
}

#[test]
fn no_socket_reaches_out_whatever_its_family() {
    if !confined() {
        return;
    }
    let dir = Scratch::new("sockets");
    let outside = Scratch::new("sockets-outside");
    // The teacher's sockets: one reached by a path (as the session bus or an SSH agent), one abstract
    // (as X11's), and a UDP port on loopback.
    let path = outside.0.join("agent.sock");
    let by_path = UnixListener::bind(&path).unwrap();
    let name = format!("gridarena-test-{}", std::process::id());
    let abstract_addr =
        std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let by_name = UnixListener::bind_addr(&abstract_addr).unwrap();
    by_path.set_nonblocking(true).unwrap();
    by_name.set_nonblocking(true).unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let port = udp.local_addr().unwrap().port();
    let report = confined_python(
        &dir.0,
        &format!(
            "import socket\n\
             out = []\n\
             def attempt(what, family, kind, address, send=False):\n\
             \x20   try:\n\
             \x20       s = socket.socket(family, kind)\n\
             \x20       if send:\n\
             \x20           s.sendto(b'x', address)\n\
             \x20       else:\n\
             \x20           s.connect(address)\n\
             \x20       out.append(what + ' reached')\n\
             \x20   except OSError as e:\n\
             \x20       out.append(what + ' refused: ' + str(e))\n\
             attempt('path', socket.AF_UNIX, socket.SOCK_STREAM, {path:?})\n\
             attempt('abstract', socket.AF_UNIX, socket.SOCK_STREAM, '\\0{name}')\n\
             attempt('udp', socket.AF_INET, socket.SOCK_DGRAM, ('127.0.0.1', {port}), True)\n\
             attempt('tcp', socket.AF_INET, socket.SOCK_STREAM, ('127.0.0.1', {port}))\n\
             attempt('netlink', socket.AF_NETLINK, socket.SOCK_RAW, (0, 0))\n\
             a, b = socket.socketpair()\n\
             a.send(b'ok')\n\
             out.append('socketpair ' + b.recv(2).decode())\n\
             open('report.txt', 'w').write('\\n'.join(out))\n",
            path = path.display().to_string(),
        ),
    );
    assert!(by_path.accept().is_err(), "a path socket was reached");
    assert!(by_name.accept().is_err(), "an abstract socket was reached");
    let mut buf = [0u8; 8];
    assert!(udp.recv(&mut buf).is_err(), "a datagram got out");
    for what in ["path", "abstract", "udp", "tcp", "netlink"] {
        assert!(
            report.contains(&format!("{what} refused")),
            "{what}: {report}"
        );
    }
    assert!(report.contains("socketpair ok"), "{report}");
}

#[test]
fn a_process_left_behind_dies_with_its_leader() {
    if !confined() {
        return;
    }
    let dir = Scratch::new("orphan");
    // A successor in a session of its own, double-forked, writing a line every 20 ms; the leader
    // exits at once.
    let report = confined_python(
        &dir.0,
        "import os, time\n\
         if os.fork() == 0:\n\
         \x20   os.setsid()\n\
         \x20   if os.fork() == 0:\n\
         \x20       while True:\n\
         \x20           with open('alive.txt', 'a') as f:\n\
         \x20               f.write('x')\n\
         \x20           time.sleep(0.02)\n\
         \x20   os._exit(0)\n\
         time.sleep(0.3)\n\
         open('report.txt', 'w').write('left one behind')\n",
    );
    assert_eq!(report, "left one behind");
    let size = || std::fs::metadata(dir.0.join("alive.txt")).map_or(0, |m| m.len());
    let before = size();
    assert!(before > 0, "the successor never ran");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(size(), before, "a process outlived its leader's exit");
}

#[test]
fn no_process_outside_the_sandbox_can_be_seen_or_signalled() {
    if !confined() {
        return;
    }
    let dir = Scratch::new("signals");
    let me = std::process::id();
    let report = confined_python(
        &dir.0,
        &format!(
            "import os\n\
             out = []\n\
             try:\n\
             \x20   os.kill({me}, 0)\n\
             \x20   out.append('signal reached')\n\
             except OSError as e:\n\
             \x20   out.append('signal refused: ' + str(e))\n\
             for path in ['/proc/{me}/cmdline', '/proc/1/cmdline', '/dev/shm', '/dev/tty', '/run']:\n\
             \x20   try:\n\
             \x20       os.listdir(path) if not path.endswith('cmdline') and path != '/dev/tty' else open(path, 'rb').read()\n\
             \x20       out.append(path + ' read')\n\
             \x20   except OSError as e:\n\
             \x20       out.append(path + ' refused: ' + str(e))\n\
             open('report.txt', 'w').write('\\n'.join(out))\n"
        ),
    );
    assert!(report.contains("signal refused"), "{report}");
    assert!(!report.contains(" read"), "{report}");
}

#[test]
fn a_fork_bomb_stops_at_the_process_limit() {
    if !confined() {
        return;
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("skipped: Linux applies no process limit to root");
        return;
    }
    let dir = Scratch::new("forks");
    let report = confined_python(
        &dir.0,
        "import os, time\n\
         n = 0\n\
         try:\n\
         \x20   while n < 1000:\n\
         \x20       if os.fork() == 0:\n\
         \x20           time.sleep(5)\n\
         \x20           os._exit(0)\n\
         \x20       n += 1\n\
         except OSError:\n\
         \x20   pass\n\
         open('report.txt', 'w').write(str(n))\n",
    );
    let made: u64 = report.trim().parse().unwrap();
    assert!(made < PROCESS_LIMIT, "{made} processes were made");
}

#[test]
fn a_game_folder_that_outgrows_its_quota_ends_its_process() {
    if !confined() {
        return;
    }
    let dir = Scratch::new("quota");
    let python = interpreter(Lang::Python).expect("python3 is installed");
    // Files under the per-file limit, one after another, past the folder's quota.
    std::fs::write(
        dir.0.join("fill.py"),
        "import time\n\
         block = b'x' * (1 << 20)\n\
         for i in range(400):\n\
         \x20   with open('fill%d.bin' % (i // 60), 'ab') as f:\n\
         \x20       f.write(block)\n\
         time.sleep(10)\n",
    )
    .unwrap();
    let command = format!(
        "{} fill.py",
        crate::code::quote(&python.exe.to_string_lossy())
    );
    let mut running = Running::start_in(&command, &dir.0, Wiring::Files, Some(&python.sandbox))
        .expect("python3 starts")
        .running;
    let exit = running.wait_for(Duration::from_secs(20));
    running.kill();
    let exit = exit.expect("the process was ended before its sleep was out");
    assert!(
        exit.describe().contains("folder grew past"),
        "{}",
        exit.describe()
    );
}
