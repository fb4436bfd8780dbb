//! The seed's visualizer, live: `gridarena hyperchess MAP --view` serves the HyperChess page on
//! 127.0.0.1 beside the terminal game, and `gridarena hyperchess view DIR` does the same for a game any
//! other program plays in DIR. The page follows the game's `currentstate` as it changes
//! (`gridarena_server::live`, docs/hyperchess.md).

use crate::io::Failure;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the viewer listens, and the app it serves.
#[derive(Debug, Args)]
pub struct ViewerOptions {
    /// The viewer's port on 127.0.0.1, 8090 if not given (0: any free one; the address is printed on start)
    #[arg(long)]
    port: Option<u16>,
    /// The built app to serve, `dist` if not given (`trunk build --release` writes it)
    #[arg(long, value_name = "DIR")]
    dist: Option<PathBuf>,
}

impl ViewerOptions {
    /// Whether either was given: without a viewer to start, that is a mistake worth saying.
    pub fn given(&self) -> bool {
        self.port.is_some() || self.dist.is_some()
    }

    fn port(&self) -> u16 {
        self.port.unwrap_or(8090)
    }

    fn dist(&self) -> PathBuf {
        self.dist.clone().unwrap_or_else(|| PathBuf::from("dist"))
    }
}

/// A viewer serving from a thread of its own, for as long as the process runs.
pub struct Viewer {
    _thread: std::thread::JoinHandle<()>,
    /// Whether the process should give the viewer a moment before it ends.
    linger: bool,
}

impl Drop for Viewer {
    /// The game is over: the viewer has a moment to push its last board before the process ends.
    fn drop(&mut self) {
        if self.linger {
            std::thread::sleep(3 * gridarena_server::live::POLL);
        }
    }
}

/// Starts the viewer of the game in `dir` and prints its address. The port is bound here, so a port in
/// use is an error before the game starts.
pub fn start(dir: &Path, options: &ViewerOptions, out: &mut impl Write) -> Result<Viewer, Failure> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", options.port()))
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| {
            Failure::Input(format!(
                "the viewer cannot listen on 127.0.0.1:{}: {e} (--port 0 takes any free port)",
                options.port()
            ))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::Internal(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Internal(format!("cannot start the viewer: {e}")))?;
    let dir_shown = dir.to_path_buf();
    let (dir, dist) = (dir.to_path_buf(), options.dist());
    if !dist.join("index.html").is_file() {
        writeln!(
            out,
            "The app is not built in {}: the viewer's page will say so. Build it with `trunk build \
             --release` (./scripts/serve.sh does it), or pass --dist.",
            dist.display()
        )?;
    }
    let thread = std::thread::spawn(move || {
        runtime.block_on(async move {
            match tokio::net::TcpListener::from_std(listener) {
                Ok(listener) => {
                    if let Err(e) = gridarena_server::live::serve(listener, dir, dist).await {
                        eprintln!("gridarena hyperchess: the viewer stopped: {e}");
                    }
                }
                Err(e) => eprintln!("gridarena hyperchess: the viewer cannot start: {e}"),
            }
        });
    });
    writeln!(
        out,
        "Watch the game at http://{addr}/#/hyperchess?live (it follows {})",
        dir_shown
            .join(gridarena_engine::hyperchess::live::STATE_FILE)
            .display()
    )?;
    out.flush()?;
    Ok(Viewer {
        _thread: thread,
        linger: true,
    })
}

/// `gridarena hyperchess view [DIR]`: the viewer alone, until Ctrl-C.
pub fn view(
    dir: Option<PathBuf>,
    options: &ViewerOptions,
    out: &mut impl Write,
) -> Result<ExitCode, Failure> {
    let dir = dir.unwrap_or_else(|| PathBuf::from("."));
    if !dir.is_dir() {
        return Err(Failure::Input(format!(
            "{} is not a directory: name the directory the game writes its currentstate in",
            dir.display()
        )));
    }
    let mut viewer = start(&dir, options, out)?;
    writeln!(out, "Press Ctrl-C to stop the viewer.")?;
    out.flush()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Internal(e.to_string()))?;
    runtime.block_on(crate::serve::stop_signal());
    // Stopped by hand: nothing more to wait for.
    viewer.linger = false;
    Ok(ExitCode::SUCCESS)
}
