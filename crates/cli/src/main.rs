//! `gridarena`: GridArena's engine on the command line, for scripts, AI authors and regression checks.
//!
//! This file only parses the command line and turns results into exit codes; each game's commands live
//! in their own module so a new game is a new module and one line in [`Command`].

mod args;
mod bridge_cmd;
mod compare_cmd;
mod game_args;
mod go;
mod halma;
mod hyperchess;
mod hyperchess_view;
mod match_cmd;
mod match_from;
mod probe_cmd;
mod progress;
mod queue_cmd;
mod serve;
mod tournament_cmd;

use clap::{Parser, Subcommand};
// In the library, whose code-entry and program readers share its capped reader; commands use `crate::io`.
use gridarena_cli::io;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Exit status:
  0  success; for `halma check`, the move is legal
  1  `halma check` only: the move is illegal or unreadable (the reason is on stdout)
  2  unusable input or usage: not JSON, the wrong shape, an impossible position or state, a tick the
     referee refuses, an unknown option (the message is on stderr)
  3  the output could not be written, or an internal error (a bug: please report it)

Input is read from stdin, at most 16 MiB of UTF-8 JSON. Results go to stdout, messages to stderr.";

const EXAMPLES: &str = "\
Examples:
  gridarena halma new > state.json
  gridarena halma request --team red < state.json > red.json
  gridarena halma moves < red.json
  echo '{\"request\": '\"$(cat red.json)\"', \"move\": {\"from\":{\"x\":2,\"y\":14},\"to\":[{\"x\":3,\"y\":13}]}}' \\
    | gridarena halma check
  echo '{\"state\": '\"$(cat state.json)\"', \"red\": null, \"blue\": null}' | gridarena halma tick
  gridarena halma perft --preset classic --depth 3 --no-camp-rule";

#[derive(Debug, Parser)]
#[command(
    name = "gridarena",
    version,
    about = "GridArena's board-game engine on the command line",
    long_about = "GridArena's board-game engine on the command line.\n\n\
        Every command reads JSON on stdin and writes JSON or plain text on stdout, using the same rules code \
        as the browser app and the referee, so a move it calls legal is a move a match accepts.",
    after_help = EXIT_CODES,
    after_long_help = format!("{EXIT_CODES}\n\n{EXAMPLES}"),
    subcommand_required = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Halma: legal moves, move checking, perft, and the arena referee's ticks
    #[command(
        subcommand,
        long_about = "Halma: legal moves, move checking, perft, and the arena referee's ticks.\n\n\
            Presets: arena (18x18, 12 a side, simultaneous ticks with collisions; the default), classic \
            (16x16, 19 a side, alternating, camp rule) and mini (8x8, 10 a side, alternating, camp rule). \
            The rules are written out in docs/halma.md.",
        after_help = EXIT_CODES,
        subcommand_required = true,
        arg_required_else_help = true
    )]
    Halma(halma::Command),
    /// Go: a GTP version 2 engine with GridArena's rules and Monte-Carlo AI (docs/gtp.md)
    #[command(subcommand, subcommand_required = true, arg_required_else_help = true)]
    Go(go::Command),
    /// HyperChess: 3D chess on a graph of nodes, two people at one terminal (docs/hyperchess.md)
    #[command(long_about = hyperchess::ABOUT)]
    Hyperchess(hyperchess::Options),
    /// Online Go: the server with matchmaking, live games and records, and the app (docs/online.md)
    Serve(serve::Options),
}

fn main() -> ExitCode {
    // Usage errors exit 2 and --help exits 0, which is what EXIT_CODES promises.
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Halma(command) => halma::run(command, &mut out),
        Command::Go(command) => go::run(command, &mut out),
        Command::Hyperchess(options) => hyperchess::run(options, &mut out),
        Command::Serve(options) => serve::run(options, &mut out),
    };
    // Flushing here, not on drop, is what lets a full disk or closed pipe be reported.
    let result = result.and_then(|code| out.flush().map(|()| code).map_err(io::Failure::Output));
    result.unwrap_or_else(io::Failure::report)
}
