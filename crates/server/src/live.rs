//! The HyperChess live view (`gridarena hyperchess --view`, `gridarena hyperchess view DIR`): the built
//! app, and at [`LIVE_PATH`] a stream of Server-Sent Events, one [`LiveUpdate`] each time the game's
//! `currentstate` in the watched directory changes. The page (`#/hyperchess?live`) draws each one.
//!
//! The file is looked at every [`POLL`], and read when its size or time changed (or once a second),
//! rather than watched through the operating system: a program that writes it by renaming a temporary
//! file (as the terminal game does), one that rewrites it in place, and a directory on a network share
//! all look the same to a poll. What to make of each reading is the engine's [`Follower`].

use crate::headers;
use crate::http::app_files;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{middleware, Router};
use gridarena_engine::hyperchess::live::{Follower, LiveUpdate, LIVE_PATH, SAVE_FILE, STATE_FILE};
use std::convert::Infallible;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How often the files are read.
pub const POLL: Duration = Duration::from_millis(100);

/// The most of a HyperChess file read (a Map, a save, a currentstate): a 100,000-node board (the
/// engine's cap) is about 5 MB of Map with six-digit ids; the cap keeps a wrong path (a disk image,
/// /dev/zero) from filling memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The live view of the game in `dir`, with the app from `dist`, as a router (with the security
/// headers). The files are read from a task of the current tokio runtime.
pub fn router(dir: PathBuf, dist: &Path) -> Router {
    let (tx, rx) = watch::channel(Arc::new(LiveUpdate::default().to_json()));
    tokio::spawn(follow(dir, tx));
    Router::new()
        .route(LIVE_PATH, get(events))
        .with_state(rx)
        .merge(app_files(dist))
        .layer(middleware::from_fn(headers::security_headers))
}

/// The page's stream: the update as it stands, then each new one. A client that falls behind gets the
/// latest, never a queue of old boards.
async fn events(State(rx): State<watch::Receiver<Arc<String>>>) -> impl IntoResponse {
    let stream = futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let json = Arc::clone(&rx.borrow_and_update());
        let event = Event::default().event("state").data(json.as_str());
        Some((Ok::<_, Infallible>(event), (rx, false)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Reads the files every [`POLL`] and publishes each change, until nobody can listen any more.
async fn follow(dir: PathBuf, tx: watch::Sender<Arc<String>>) {
    let mut follower = Follower::new();
    let mut tick = tokio::time::interval(POLL);
    let mut last_stamp = None;
    let mut polls = 0u32;
    loop {
        tick.tick().await;
        polls = polls.wrapping_add(1);
        // A file whose size and time are unchanged is not read again (a board of megabytes is not
        // read ten times a second while nobody moves), except once every [`REREAD_EVERY`] polls, for
        // file systems whose times are coarse.
        let force = polls % REREAD_EVERY == 0;
        let dir2 = dir.clone();
        let Ok(read) = tokio::task::spawn_blocking(move || {
            let stamp = stamp(&dir2);
            let same = last_stamp == Some(stamp) && stamp[0].is_some();
            (force || !same).then(|| (stamp, read_files(&dir2)))
        })
        .await
        else {
            continue;
        };
        let Some((stamp, (state, save))) = read else {
            continue;
        };
        last_stamp = Some(stamp);
        let state = state.as_deref().map_err(String::clone);
        if let Some(update) = follower.see(state, save.as_deref()) {
            if tx.send(Arc::new(update.to_json())).is_err() {
                return;
            }
        }
    }
}

/// How often the files are read even when their sizes and times say they did not change: once a second.
const REREAD_EVERY: u32 = 10;

/// The size and modification time of the currentstate and the save, `None` for one that cannot be
/// looked at (a missing currentstate is read, and its error said, at every poll).
type Stamp = [Option<(u64, std::time::SystemTime)>; 2];

fn stamp(dir: &Path) -> Stamp {
    let of = |name: &str| {
        let m = std::fs::metadata(dir.join(name)).ok()?;
        Some((m.len(), m.modified().ok()?))
    };
    [of(STATE_FILE), of(SAVE_FILE)]
}

/// What the directory holds now: the currentstate's bytes or why they cannot be read, and the save's
/// bytes if it can be read.
fn read_files(dir: &Path) -> (Result<Vec<u8>, String>, Option<Vec<u8>>) {
    let state_path = dir.join(STATE_FILE);
    let state = read_capped(&state_path).map_err(|e| match e.kind() {
        ErrorKind::NotFound => format!(
            "there is no {STATE_FILE} in {} yet: the game writes it before each turn",
            dir.display()
        ),
        _ => format!("cannot read {}: {e}", state_path.display()),
    });
    let save = read_capped(&dir.join(SAVE_FILE)).ok();
    (state, save)
}

/// A HyperChess file's bytes, refused past [`MAX_FILE_BYTES`]: the terminal game's Map and save, and
/// the viewer's currentstate.
pub fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_FILE_BYTES / 1024 / 1024),
        ));
    }
    Ok(bytes)
}

/// Serves the live view of `dir` on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    dir: PathBuf,
    dist: PathBuf,
) -> std::io::Result<()> {
    axum::serve(listener, router(dir, &dist)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::{maps, parse_map, Game};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    /// The next `data:` line of the event stream, as an update.
    async fn next_update(lines: &mut (impl AsyncBufReadExt + Unpin)) -> LiveUpdate {
        loop {
            let mut line = String::new();
            let read = tokio::time::timeout(Duration::from_secs(10), lines.read_line(&mut line))
                .await
                .expect("an event within 10 s")
                .unwrap();
            assert!(read > 0, "the stream ended");
            if let Some(json) = line.trim_end().strip_prefix("data: ") {
                return LiveUpdate::parse(json).unwrap();
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_stream_follows_the_file_and_keeps_the_last_good_board() {
        let dir = tempfile::tempdir().unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let dist = dir.path().join("no-dist");
        tokio::spawn(serve(listener, dir.path().to_path_buf(), dist));
        let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
        socket
            .write_all(b"GET /api/hyperchess/live HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut lines = BufReader::new(socket);
        let first = next_update(&mut lines).await;
        assert_eq!(first.seq, 0);
        let missing = next_update(&mut lines).await;
        assert!(missing.error.unwrap().contains("no currentstate"));
        let mut game = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
        std::fs::write(dir.path().join(STATE_FILE), game.board().to_string()).unwrap();
        let shown = next_update(&mut lines).await;
        assert_eq!((shown.seq, shown.error), (1, None));
        let (from, to) = game.legal_moves()[0];
        game.play(from, to).unwrap();
        std::fs::write(dir.path().join(STATE_FILE), game.board().to_string()).unwrap();
        let moved = next_update(&mut lines).await;
        assert_eq!(moved.seq, 2);
        assert_eq!(moved.last_move.unwrap().coords(), (from, to));
        std::fs::write(dir.path().join(STATE_FILE), "1 2 oops\n").unwrap();
        let broken = next_update(&mut lines).await;
        assert_eq!(
            broken.state,
            game.board().to_string(),
            "the last good board stays"
        );
        assert!(broken.error.unwrap().contains("line 1"));
    }
}
