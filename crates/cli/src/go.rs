//! `gridarena go gtp`: the Go engine and its built-in Monte-Carlo AI as a GTP version 2 engine, for
//! GNU Go, gogui-twogtp, Sabaki and any other controller (docs/gtp.md).
//!
//! The protocol is split from the I/O: [`Engine::execute`] turns one line into at most one response and
//! never panics, so tests can drive it with any bytes; [`run`] only moves lines between stdin and stdout.

use crate::io::Failure;
use clap::{Args, Subcommand};
use gridarena_engine::go::clock::{parse_seconds, parse_stones};
use gridarena_engine::go::mcts;
use gridarena_engine::go::sgf::{self, MAX_SGF_BYTES};
use gridarena_engine::go::{
    BoardSize, Clock, Color, Game, Komi, Mcts, Memory, Move, Point, TimeControl, MAX_BOARD_SIZE,
    MIN_BOARD_SIZE,
};
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The longest command line read. A real GTP command is a few dozen bytes (loadsgf with a long path a
/// few hundred); the cap keeps a runaway controller from exhausting memory.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// Every command this engine knows, in the order `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "loadsgf",
    "time_settings",
    "time_left",
];

const GTP_ABOUT: &str = "\
Play Go over GTP version 2 on stdin and stdout, with GridArena's rules (docs/go.md) and its Monte-Carlo
tree search AI.

Supported commands: protocol_version, name, version, known_command, list_commands, quit, boardsize,
clear_board, komi, play, genmove, undo, showboard, final_score, final_status_list, loadsgf,
time_settings and time_left.

How long genmove thinks: with a clock (time_settings from the controller, main time then Canadian
byo-yomi, kept up to date by time_left or else by the engine itself), a share of the time left: about a
second a move after `time_settings 0 1 1`; --seconds caps that, or sets the time alone when there is no
clock; with neither, --playouts simulations, which replays a game exactly for a seed.

After two passes (or a resignation) the game is over: genmove answers \"pass\", play accepts a pass and
refuses a stone with \"illegal move\"; undo, clear_board, boardsize and loadsgf start play again.
Positional superko, no suicide, area scoring with every stone counted alive (GNU Go's
--chinese-rules --positional-superko --forbid-suicide).

Example, against GNU Go with gogui-twogtp:
  gogui-twogtp -black 'gridarena go gtp' -white 'gnugo --mode gtp --chinese-rules \\
    --positional-superko --forbid-suicide --level 1' -size 9 -komi 7.5 -games 10 -auto -sgffile game";

const GTP_AFTER: &str = "\
Exit status: 0 after quit or the end of stdin; 2 for an unusable option; 3 when stdout cannot be
written. Protocol errors are GTP failure responses (\"? ...\"), never an exit.";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play Go as a GTP version 2 engine on stdin and stdout.
    #[command(long_about = GTP_ABOUT, after_help = GTP_AFTER)]
    Gtp(GtpArgs),
}

#[derive(Debug, Args)]
pub struct GtpArgs {
    /// Monte-Carlo simulations per genmove when no clock and no --seconds limit it (about 15,000 a
    /// second on 9x9 in a release build)
    #[arg(long, default_value_t = gridarena_engine::go::mcts::DEFAULT_PLAYOUTS,
        value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    playouts: u32,
    /// Think this many seconds a move (at most: a clock from the controller may allow less)
    #[arg(long, value_parser = parse_think_time)]
    seconds: Option<Duration>,
    /// Seed of the AI's random playouts; each genmove mixes in the move number, so a game replays exactly
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Resign when the best move wins fewer than this share of its simulations (0 never resigns)
    #[arg(long, default_value_t = mcts::RESIGN_BELOW)]
    resign_below: f64,
    /// Board size until the controller sends boardsize
    #[arg(long, default_value_t = 9,
        value_parser = clap::value_parser!(u8).range(i64::from(MIN_BOARD_SIZE)..=i64::from(MAX_BOARD_SIZE)))]
    size: u8,
    /// Komi until the controller sends komi (GridArena's default is 0.5)
    #[arg(long, default_value = "0.5", value_parser = parse_komi)]
    komi: Komi,
    /// Write each genmove's win rate and simulations to stderr
    #[arg(long)]
    verbose: bool,
}

fn parse_think_time(s: &str) -> Result<Duration, String> {
    parse_seconds(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{s:?} is not a time in seconds above 0, such as 1 or 0.5"))
}

fn parse_komi(s: &str) -> Result<Komi, String> {
    s.parse::<Komi>()
        .map_err(|_| format!("{s:?} is not a komi: a whole or half number such as 7.5"))
}

/// Runs one `go` subcommand.
pub fn run(command: Command, out: &mut impl Write) -> Result<ExitCode, Failure> {
    match command {
        Command::Gtp(args) => {
            let ai = Mcts::new(args.playouts)
                .with_resign_below(Some(args.resign_below).filter(|&t| t > 0.0 && t.is_finite()));
            let size = BoardSize::new(u32::from(args.size))
                .map_err(|e| Failure::Input(format!("--size: {e}")))?;
            let mut engine = Engine::new(size, args.komi, ai, args.seed);
            engine.verbose = args.verbose;
            engine.seconds = args.seconds;
            serve(&mut engine, std::io::stdin().lock(), out)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Answers commands from `input` until `quit` or the end of the input, flushing after each response
/// (a controller waits for it).
pub fn serve(
    engine: &mut Engine,
    mut input: impl BufRead,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let too_long = read_line(&mut input, &mut line)?;
        if line.is_empty() && !too_long {
            return Ok(()); // end of input
        }
        let response = if too_long {
            Some(Response::failure(
                None,
                "syntax error: the line is too long",
            ))
        } else {
            engine.execute(&String::from_utf8_lossy(&line))
        };
        if let Some(response) = response {
            out.write_all(response.to_string().as_bytes())?;
            out.flush()?;
            if response.quit {
                return Ok(());
            }
        }
    }
}

/// Reads one line (with its newline, if any) into `line`, at most [`MAX_LINE_BYTES`]; the rest of a
/// longer line is read and dropped, and `true` says so.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> Result<bool, Failure> {
    let read = |e: std::io::Error| Failure::Input(format!("could not read stdin: {e}"));
    input
        .by_ref()
        .take(MAX_LINE_BYTES as u64)
        .read_until(b'\n', line)
        .map_err(read)?;
    if line.len() < MAX_LINE_BYTES || line.ends_with(b"\n") {
        return Ok(false);
    }
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let n = input
            .by_ref()
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut rest)
            .map_err(read)?;
        if n == 0 || rest.ends_with(b"\n") {
            return Ok(true);
        }
    }
}

/// One GTP response: `=` or `?`, the command's id if it had one, the text, and a blank line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub id: Option<u64>,
    pub ok: bool,
    pub text: String,
    /// The engine stops after sending this one.
    pub quit: bool,
}

impl Response {
    fn success(id: Option<u64>, text: impl Into<String>) -> Response {
        Response {
            id,
            ok: true,
            text: text.into(),
            quit: false,
        }
    }

    fn failure(id: Option<u64>, text: impl Into<String>) -> Response {
        Response {
            id,
            ok: false,
            text: text.into(),
            quit: false,
        }
    }
}

impl std::fmt::Display for Response {
    /// `=id text\n\n`. Text of several lines starts on a line of its own, and any empty line inside it is
    /// given a space, since an empty line ends a response.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.ok { "=" } else { "?" })?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        f.write_str(" ")?;
        let text = self.text.trim_end_matches('\n');
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(if line.is_empty() && i > 0 { " " } else { line })?;
        }
        f.write_str("\n\n")
    }
}

/// GTP's preprocessing of a line: control characters other than tab and newline removed, tabs made
/// spaces, everything from `#` dropped, and surrounding whitespace trimmed.
pub fn clean_line(line: &str) -> String {
    let text = line.split('#').next().unwrap_or("");
    text.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Why a command cannot be done, worded as GTP's specification and common engines word it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum GtpError {
    Unknown,
    Syntax(String),
    IllegalMove(String),
    UnacceptableSize,
    CannotUndo(String),
    Other(String),
}

impl std::fmt::Display for GtpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GtpError::Unknown => f.write_str("unknown command"),
            GtpError::Syntax(why) => write!(f, "syntax error: {why}"),
            GtpError::IllegalMove(why) => write!(f, "illegal move: {why}"),
            GtpError::UnacceptableSize => f.write_str("unacceptable size"),
            GtpError::CannotUndo(why) => write!(f, "cannot undo: {why}"),
            GtpError::Other(why) => f.write_str(why),
        }
    }
}

fn syntax(why: impl Into<String>) -> GtpError {
    GtpError::Syntax(why.into())
}

/// The engine's state between commands: the game, its settings, the AI and its clocks.
#[derive(Clone, Debug)]
pub struct Engine {
    game: Game,
    ai: Mcts,
    /// The AI's tree, kept from one genmove to the next.
    memory: Memory,
    seed: u64,
    /// The controller's time control (`time_settings`), and each colour's clock under it.
    control: Option<TimeControl>,
    clocks: [Option<Clock>; 2],
    /// The longest think a move, whatever the clock allows.
    pub seconds: Option<Duration>,
    /// Write genmove statistics to stderr.
    pub verbose: bool,
}

impl Engine {
    /// An engine with an empty board of `size`, `komi`, and `ai` playing genmove with `seed`.
    pub fn new(size: BoardSize, komi: Komi, ai: Mcts, seed: u64) -> Engine {
        Engine {
            game: Game::with_komi(size, komi),
            ai,
            memory: Memory::default(),
            seed,
            control: None,
            clocks: [None; 2],
            seconds: None,
            verbose: false,
        }
    }

    /// Starts `game` (a new board, a loaded record): the clocks start again, the tree is forgotten.
    fn start(&mut self, game: Game) {
        self.game = game;
        self.memory.clear();
        self.clocks = [self.control.map(Clock::new); 2];
    }

    /// How long `color` may think now (`clock::think_time`, as genmove reckons it).
    #[cfg(test)]
    fn think_time(&self, color: Color) -> Option<Duration> {
        let empty = self.game.board().empty_points().count() as u16;
        let clock = self.clocks[seat(color)].as_ref();
        gridarena_engine::go::clock::think_time(clock, self.seconds, empty)
    }

    /// Executes one line of input; `None` for a line with nothing to do (empty or a comment).
    pub fn execute(&mut self, line: &str) -> Option<Response> {
        let line = clean_line(line);
        let mut words = line.split_whitespace().peekable();
        let first = *words.peek()?;
        let id = if first.bytes().all(|b| b.is_ascii_digit()) {
            words.next();
            match first.parse::<u64>() {
                Ok(id) => Some(id),
                Err(_) => {
                    return Some(Response::failure(None, "syntax error: the id is too large"))
                }
            }
        } else {
            None
        };
        let Some(name) = words.next() else {
            return Some(Response::failure(
                id,
                "syntax error: no command after the id",
            ));
        };
        let args: Vec<&str> = words.collect();
        let mut response = match self.command(name, &args) {
            Ok(text) => Response::success(id, text),
            Err(e) => Response::failure(id, e.to_string()),
        };
        response.quit = name == "quit";
        Some(response)
    }

    fn command(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("GridArena".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                let [command] = args else {
                    return Err(syntax("known_command takes one command name"));
                };
                Ok(COMMANDS.contains(command).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.start(Game::with_komi(self.game.size(), self.game.komi()));
                Ok(String::new())
            }
            "komi" => {
                let [value] = args else {
                    return Err(syntax("komi takes one number"));
                };
                let komi = value
                    .parse::<Komi>()
                    .map_err(|_| syntax("komi must be a whole or half number, such as 7.5"))?;
                self.game.set_komi(komi);
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => {
                if !args.is_empty() {
                    return Err(syntax("undo takes no arguments"));
                }
                self.game
                    .undo()
                    .map(|_| String::new())
                    .map_err(|e| GtpError::CannotUndo(e.to_string()))
            }
            "showboard" => Ok(self.showboard()),
            "final_score" => Ok(match self.game.result() {
                Some(result) => result.to_string(),
                None => self.game.score().result().to_string(),
            }),
            "final_status_list" => self.final_status_list(args),
            "loadsgf" => self.loadsgf(args),
            "time_settings" => {
                let [main, byo_yomi, stones] = args else {
                    return Err(syntax(
                        "time_settings takes main time, byo-yomi time and stones",
                    ));
                };
                let control = TimeControl::from_gtp(main, byo_yomi, stones)
                    .map_err(|e| syntax(e.to_string()))?;
                self.control = control;
                self.clocks = [control.map(Clock::new); 2];
                Ok(String::new())
            }
            "time_left" => {
                let [color, time, stones] = args else {
                    return Err(syntax("time_left takes a colour, a time and stones"));
                };
                let color = parse_color(color)?;
                let time = parse_seconds(time).map_err(|e| syntax(e.to_string()))?;
                let stones = parse_stones(stones).map_err(|e| syntax(e.to_string()))?;
                // Without time_settings, what is left is taken as the whole control.
                let control = self.control.unwrap_or(TimeControl {
                    main: if stones == 0 { time } else { Duration::ZERO },
                    byo_yomi: if stones == 0 { Duration::ZERO } else { time },
                    stones,
                });
                self.clocks[seat(color)]
                    .get_or_insert_with(|| Clock::new(control))
                    .set_left(time, stones);
                Ok(String::new())
            }
            _ => Err(GtpError::Unknown),
        }
    }

    fn boardsize(&mut self, args: &[&str]) -> Result<String, GtpError> {
        let [n] = args else {
            return Err(syntax("boardsize takes one number"));
        };
        let n: u32 = n
            .parse()
            .map_err(|_| syntax("the board size is not a number"))?;
        let size = BoardSize::new(n).map_err(|_| GtpError::UnacceptableSize)?;
        self.start(Game::with_komi(size, self.game.komi()));
        Ok(String::new())
    }

    fn play(&mut self, args: &[&str]) -> Result<String, GtpError> {
        let [color, vertex] = args else {
            return Err(syntax("play takes a colour and a vertex"));
        };
        let color = parse_color(color)?;
        let mv = parse_vertex(vertex, self.game.size())?;
        if mv == Move::Pass && self.game.is_over() {
            // Controllers may pass again after the end; a pass changes nothing, so it is no error.
            return Ok(String::new());
        }
        self.game
            .play_as(color, mv)
            .map(|()| String::new())
            .map_err(|e| GtpError::IllegalMove(e.to_string()))
    }

    fn genmove(&mut self, args: &[&str]) -> Result<String, GtpError> {
        let [color] = args else {
            return Err(syntax("genmove takes a colour"));
        };
        let color = parse_color(color)?;
        if self.game.is_over() {
            return Ok("pass".into());
        }
        let seed = mcts::move_seed(self.seed, &self.game);
        let started = Instant::now();
        let decision = self.ai.think_on_clock(
            &self.game,
            color,
            seed,
            &mut self.memory,
            self.clocks[seat(color)].as_mut(),
            self.seconds,
            || started.elapsed(),
        );
        if self.verbose {
            let rate = decision
                .win_rate
                .map_or("-".to_string(), |w| format!("{:.1}%", 100.0 * w));
            let _ = writeln!(
                std::io::stderr(),
                "gridarena: {color} {} ({:?}, win rate {rate}, {} playouts, {} visits, {:.2} s)",
                decision.mv,
                decision.reason,
                decision.playouts,
                decision.visits,
                started.elapsed().as_secs_f64()
            );
        }
        self.game.play_as(color, decision.mv).map_err(|e| {
            GtpError::Other(format!("internal error: the AI chose {}: {e}", decision.mv))
        })?;
        Ok(decision.mv.to_gtp())
    }

    /// The board with coordinates on all four sides, the captures and who is to move.
    fn showboard(&self) -> String {
        let size = self.game.size().get();
        let letters: String = (0..size)
            .filter_map(|x| Point::new(x, 0))
            .map(|p| format!(" {}", &p.to_gtp()[..1]))
            .collect();
        // The board starts on a line of its own, so its columns line up under the response's "= ".
        let mut text = format!("\n  {letters}\n");
        let board = self.game.board().to_string();
        for (i, row) in board.lines().enumerate() {
            let y = usize::from(size) - i;
            text.push_str(&format!("{y:>2} {row} {y}\n"));
        }
        text.push_str(&format!("  {letters}\n"));
        text.push_str(&format!(
            "captures: black {}, white {}; komi {}; {} to move",
            self.game.captures(Color::Black),
            self.game.captures(Color::White),
            self.game.komi(),
            self.game.to_move()
        ));
        if let Some(result) = self.game.result() {
            text.push_str(&format!("; game over ({result})"));
        }
        text
    }

    /// GridArena removes no dead stones (docs/go.md), so every stone is alive and none dead or in seki.
    fn final_status_list(&self, args: &[&str]) -> Result<String, GtpError> {
        let [status] = args else {
            return Err(syntax("final_status_list takes alive, dead or seki"));
        };
        match *status {
            "dead" | "seki" => Ok(String::new()),
            "alive" => {
                let board = self.game.board();
                let stones: Vec<String> = self
                    .game
                    .size()
                    .points()
                    .filter(|&p| board.get(p).is_some())
                    .map(Point::to_gtp)
                    .collect();
                Ok(stones.join(" "))
            }
            _ => Err(syntax("final_status_list takes alive, dead or seki")),
        }
    }

    /// `loadsgf FILE [MOVE]`: the position before move number MOVE (1-based), or after the whole record.
    fn loadsgf(&mut self, args: &[&str]) -> Result<String, GtpError> {
        let (path, upto) = match args {
            [path] => (*path, None),
            [path, n] => (
                *path,
                Some(
                    n.parse::<usize>()
                        .map_err(|_| syntax("the move number is not a number"))?,
                ),
            ),
            _ => {
                return Err(syntax(
                    "loadsgf takes a file name and an optional move number",
                ))
            }
        };
        let file = std::fs::File::open(path)
            .map_err(|e| GtpError::Other(format!("cannot load file: {e}")))?;
        let mut bytes = Vec::new();
        file.take(MAX_SGF_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| GtpError::Other(format!("cannot load file: {e}")))?;
        let (mut game, _info) = sgf::from_sgf_bytes(&bytes)
            .map_err(|e| GtpError::Other(format!("cannot load file: {e}")))?;
        if let Some(n) = upto {
            while game.moves().len() + 1 > n.max(1) {
                if game.undo().is_err() {
                    break;
                }
            }
        }
        self.start(game);
        Ok(String::new())
    }
}

/// `color`'s index in [`Engine`]'s clocks: black first, as GTP names the colours.
fn seat(color: Color) -> usize {
    usize::from(color == Color::White)
}

fn parse_color(text: &str) -> Result<Color, GtpError> {
    text.parse::<Color>()
        .map_err(|_| syntax(format!("{text:?} is not a colour (black, white, b or w)")))
}

/// A vertex or `pass`; `resign` is an answer of genmove, not a move to play.
fn parse_vertex(text: &str, size: BoardSize) -> Result<Move, GtpError> {
    match Move::from_gtp(text, size) {
        Ok(Move::Resign) | Err(_) => Err(syntax(format!(
            "{text:?} is not a vertex on the {size} board"
        ))),
        Ok(mv) => Ok(mv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(BoardSize::NINE, Komi::DEFAULT, Mcts::new(50), 1)
    }

    fn run_lines(engine: &mut Engine, input: &[u8]) -> String {
        let mut out = Vec::new();
        serve(engine, input, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn time_settings_set_both_clocks_and_time_left_one() {
        let mut e = engine();
        assert_eq!(
            e.think_time(Color::Black),
            None,
            "no clock: playouts decide"
        );
        assert_eq!(run_lines(&mut e, b"time_settings 0 1 1\n"), "= \n\n");
        let one = e.think_time(Color::White).unwrap();
        assert!(one > Duration::from_millis(800) && one < Duration::from_secs(1));
        assert_eq!(run_lines(&mut e, b"time_left white 0.5 1\n"), "= \n\n");
        assert!(e.think_time(Color::White).unwrap() < Duration::from_millis(500));
        assert_eq!(e.think_time(Color::Black), Some(one));
        // --seconds caps the clock's share.
        e.seconds = Some(Duration::from_millis(100));
        assert_eq!(e.think_time(Color::Black), Some(Duration::from_millis(100)));
        // A new game starts the clocks again; "no time limit" takes them away.
        e.seconds = None;
        run_lines(&mut e, b"clear_board\n");
        assert_eq!(e.think_time(Color::White), Some(one));
        run_lines(&mut e, b"time_settings 0 5 0\n");
        assert_eq!(e.think_time(Color::White), None);
    }

    #[test]
    fn a_genmove_on_the_clock_spends_it() {
        let mut e = engine();
        run_lines(&mut e, b"time_settings 10 0 0\n");
        let out = run_lines(&mut e, b"genmove b\n");
        assert!(out.starts_with("= "), "{out:?}");
        let (left, stones) = e.clocks[0].unwrap().left();
        assert!(
            left < Duration::from_secs(10) && left > Duration::from_secs(9),
            "{left:?}"
        );
        assert_eq!(stones, 0);
        assert_eq!(e.clocks[1].unwrap().left().0, Duration::from_secs(10));
    }

    #[test]
    fn bad_time_commands_are_syntax_errors() {
        let mut e = engine();
        for (line, error) in [
            (
                "time_settings 1 2\n",
                "time_settings takes main time, byo-yomi time and stones",
            ),
            (
                "time_settings -1 0 0\n",
                "\"-1\" is not a time in seconds from 0 to a year",
            ),
            (
                "time_settings 1 1 x\n",
                "\"x\" is not a number of stones from 0 to 1000000",
            ),
            (
                "time_left b inf 0\n",
                "\"inf\" is not a time in seconds from 0 to a year",
            ),
            (
                "time_left purple 1 0\n",
                "\"purple\" is not a colour (black, white, b or w)",
            ),
            (
                "time_left b 1\n",
                "time_left takes a colour, a time and stones",
            ),
        ] {
            assert_eq!(
                run_lines(&mut e, line.as_bytes()),
                format!("? syntax error: {error}\n\n"),
                "{line}"
            );
        }
        assert_eq!(e.clocks, [None, None], "a refused command changes nothing");
        // time_left alone is taken as the whole control.
        assert_eq!(run_lines(&mut e, b"time_left w 30 5\n"), "= \n\n");
        assert_eq!(e.clocks[1].unwrap().left(), (Duration::from_secs(30), 5));
    }

    #[test]
    fn framing_ids_comments_and_control_characters() {
        let mut e = engine();
        let out = run_lines(
            &mut e,
            b"# a comment\n\n  \r\n7 name\r\nprotocol_version # trailing\n3\tversion\nfoo\n12 foo\n1\x012 name\n",
        );
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            out,
            format!(
                "=7 GridArena\n\n= 2\n\n=3 {version}\n\n? unknown command\n\n?12 unknown command\n\n=12 GridArena\n\n"
            )
        );
    }

    #[test]
    fn a_too_long_line_is_one_error_and_the_next_line_is_read() {
        let mut e = engine();
        let mut input = vec![b'x'; MAX_LINE_BYTES * 2 + 5];
        input.extend_from_slice(b"\nname\n");
        let out = run_lines(&mut e, &input);
        assert_eq!(
            out,
            "? syntax error: the line is too long\n\n= GridArena\n\n"
        );
    }

    #[test]
    fn quit_stops_reading() {
        let mut e = engine();
        assert_eq!(run_lines(&mut e, b"quit\nname\n"), "= \n\n");
    }

    #[test]
    fn multi_line_responses_have_no_blank_line_inside() {
        let r = Response::success(Some(4), "a\n\nb\n");
        assert_eq!(r.to_string(), "=4 a\n \nb\n\n");
        assert_eq!(Response::failure(None, "x").to_string(), "? x\n\n");
    }

    #[test]
    fn random_bytes_never_panic_and_every_command_gets_one_response() {
        let mut rng = gridarena_engine::SplitMix64::new(42);
        let words: &[&[u8]] = &[
            b"play",
            b"genmove",
            b"b",
            b"w",
            b"A1",
            b"j9",
            b"pass",
            b"resign",
            b"boardsize",
            b"19",
            b"0",
            b"1",
            b"undo",
            b"komi",
            b"-7.5",
            b"1e99",
            b"final_score",
            b"showboard",
            b"#",
            b"\t",
            b"\r",
            b"\xff\xfe",
            b"99999999999999999999999",
            b"loadsgf",
            b"/nonexistent",
            b"clear_board",
            b"known_command",
            b"time_left",
            b"list_commands",
            b"Z25",
            b" ",
        ];
        let mut e = Engine::new(BoardSize::new(5).unwrap(), Komi::DEFAULT, Mcts::new(5), 1);
        for _ in 0..2000 {
            let mut line = Vec::new();
            for _ in 0..rng.below(6) {
                if rng.below(4) == 0 {
                    line.push(rng.below(256) as u8);
                } else {
                    line.extend_from_slice(words[rng.below(words.len() as u64) as usize]);
                    line.push(b' ');
                }
            }
            let text = String::from_utf8_lossy(&line).replace('\n', " ");
            if let Some(r) = e.execute(&text) {
                let s = r.to_string();
                assert!(s.starts_with('=') || s.starts_with('?'), "{s:?}");
                assert!(
                    s.ends_with("\n\n") && !s[..s.len() - 2].contains("\n\n"),
                    "{s:?}"
                );
            }
        }
    }
}
