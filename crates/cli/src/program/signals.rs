//! Ctrl-C, SIGTERM and a closed terminal (SIGHUP) stop gridarena, and its programs with it.
//!
//! Each program runs in a process group of its own, apart from the terminal's, so neither the
//! terminal's Ctrl-C nor its hang-up reaches it, and the default action of these signals would end
//! gridarena alone. A thread waits for them instead (through tokio, which the command already has,
//! so no handler of ours runs in signal context), ends everything [`super::live`] lists, and exits
//! with the shell's status for the signal, 128 plus its number.

use super::live;
use std::io;
use std::sync::OnceLock;
use std::thread;
use tokio::signal::unix::{signal, SignalKind};

/// Starts the watcher, once; the signals are caught from the moment this returns.
pub fn end_programs_on_signals() -> Result<(), String> {
    static STARTED: OnceLock<Result<(), String>> = OnceLock::new();
    STARTED
        .get_or_init(|| start().map_err(|e| format!("cannot watch for signals: {e}")))
        .clone()
}

fn start() -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (mut interrupt, mut terminate, mut hangup) = {
        let _in_runtime = runtime.enter();
        (
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
            signal(SignalKind::hangup())?,
        )
    };
    thread::Builder::new()
        .name("signal watcher".to_string())
        .spawn(move || {
            let number = runtime.block_on(async {
                tokio::select! {
                    _ = interrupt.recv() => libc::SIGINT,
                    _ = terminate.recv() => libc::SIGTERM,
                    _ = hangup.recv() => libc::SIGHUP,
                }
            });
            let _held = live::end_all();
            std::process::exit(128 + number);
        })?;
    Ok(())
}
