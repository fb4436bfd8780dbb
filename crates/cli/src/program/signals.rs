//! Ctrl-C, SIGTERM and a closed terminal (SIGHUP) stop gridarena, and its programs with it.
//!
//! Each program runs in a process group of its own, apart from the terminal's, so neither the
//! terminal's Ctrl-C nor its hang-up reaches it, and the default action of these signals would end
//! gridarena alone. A thread waits for them instead (through tokio, which the command already has,
//! so no handler of ours runs in signal context), ends everything [`super::live`] lists, runs what
//! was asked of it with [`before_exit_on_signal`], and exits with the shell's status for the signal,
//! 128 plus its number.

use super::live;
use std::io;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::thread;
use tokio::signal::unix::{signal, SignalKind};

/// Work for the end of a process stopped politely, given the signal's number.
type Hook = Box<dyn FnOnce(i32) + Send>;

static HOOKS: Mutex<Vec<Hook>> = Mutex::new(Vec::new());

/// Runs `hook` when a SIGINT, SIGTERM or SIGHUP stops this process (once [`super::supervise`] has
/// started the watcher): on the watcher's thread, after the programs ended and before the exit, in
/// the order hooks were added. A queue worker gives its game back there, so that a worker stopped as
/// Slurm preempts a job or as Ctrl-C does frees its game at once rather than when its lease runs
/// out. A hook must be quick and must not wait without a bound: the process exits only after it.
pub fn before_exit_on_signal(hook: impl FnOnce(i32) + Send + 'static) {
    HOOKS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Box::new(hook));
}

/// A signal's name, for messages: `SIGTERM` for 15.
pub fn signal_name(number: i32) -> String {
    match number {
        libc::SIGINT => "SIGINT".to_string(),
        libc::SIGTERM => "SIGTERM".to_string(),
        libc::SIGHUP => "SIGHUP".to_string(),
        other => format!("signal {other}"),
    }
}

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
            let hooks = std::mem::take(&mut *HOOKS.lock().unwrap_or_else(PoisonError::into_inner));
            for hook in hooks {
                hook(number);
            }
            std::process::exit(128 + number);
        })?;
    Ok(())
}
