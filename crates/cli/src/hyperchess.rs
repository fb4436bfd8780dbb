//! `gridarena hyperchess [MAP]`: HyperChess for two people at one terminal, the seed's `main`
//! (docs/hyperchess.md).
//!
//! With a Map file it starts a new game, White to move; without one it continues the game saved in
//! `savedgame` in the working directory, or says that there is neither and exits with -1 (status 255), as
//! the seed asks. Before each turn it writes `currentstate`; after every move it saves, so the game can be
//! continued later; taking a King writes `endgame` and exits 0.
//!
//! With `--ai white|black` the engine's AI ([`gridarena_engine::hyperchess::ai`]) plays that side: on its
//! turn it thinks for `--ai-seconds` (timed here, the engine has no clock) or `--ai-nodes`, prints its move
//! as the two `x y z` lines a person would type, and the game goes on as after a person's move.
//!
//! The game loop reads lines from any [`BufRead`] and writes to any [`Write`] in any directory, so tests
//! drive it exactly as a person or a script does; [`run`] only binds it to stdin, stdout and `.`.

use crate::hyperchess_view::ViewerOptions;
use crate::io::Failure;
use clap::Args;
use gridarena_engine::hyperchess::{
    ai, maps, parse_map_bytes, Board, Coord, Game, Kind, MoveError, Outcome, Piece, Played, Side,
};
use gridarena_server::live::read_capped;
use std::fs;
use std::io::{BufRead, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The saved game and the board before each turn (the seed's "currentstate"), in the working directory.
pub use gridarena_engine::hyperchess::live::{SAVE_FILE, STATE_FILE};
/// The board when the game ended.
pub const END_FILE: &str = "endgame";

/// Exit status when there is no Map and no saved game: the seed's -1.
pub const EXIT_NO_GAME: u8 = 255;

/// The longest input line read; the rest of a longer line is dropped and the line refused.
const MAX_LINE_BYTES: usize = 1_000;

/// The largest board drawn on the terminal, in columns and rows of text; larger ones are left to the
/// currentstate file.
const MAX_DRAW_COLUMNS: i64 = 160;
const MAX_DRAW_ROWS: i64 = 60;

pub const ABOUT: &str = "\
HyperChess: 3D chess on a graph of nodes, for two people at one terminal (docs/hyperchess.md).

With MAP, a new game on that Map file, White to move (it replaces any saved game). Without MAP, the game
saved in ./savedgame continues. MAP may also name a built-in map: builtin:standard (5x5x5),
builtin:holes (5x5x5 with holes) or builtin:small (3x3x3).

With --ai white or --ai black the built-in AI plays that side and you the other: on its turn it thinks
for --ai-seconds (1 by default), then prints its move as the two `x y z` lines you would type and what it
played. --seed N varies its choice between equal moves; --ai-nodes N (instead of a time) makes its games
replay exactly for a seed.

On your turn type the location of one of your pieces, `x y z` or `x,y,z`, then the location it should
go to. `save` saves the game, `quit` stops (the game is saved after every move and can be continued with
`gridarena hyperchess`), `help` explains. Before each turn the board is written to ./currentstate (one
`X Y Z Piece` line per node); taking a King wins and writes the final board to ./endgame.";

const AFTER: &str = "\
Exit status:
  0    a King was taken or no move was left (the game is over), or quit, or the end of stdin
  2    MAP or ./savedgame cannot be read or is not a valid map or save (the reason is on stderr)
  3    ./currentstate, ./savedgame or ./endgame could not be written
  255  no MAP was given and there is no saved game (the seed's exit code -1)";

#[derive(Debug, Args)]
#[command(after_help = AFTER, args_conflicts_with_subcommands = true)]
pub struct Options {
    #[command(subcommand)]
    action: Option<Action>,
    /// A Map file (or builtin:standard, builtin:holes, builtin:small); without it the saved game continues
    map: Option<PathBuf>,
    /// Let the built-in AI play this side: white or black (you play the other)
    #[arg(long, value_name = "SIDE")]
    ai: Option<Side>,
    /// The AI's thinking time a move, in seconds: 0.05 to 60
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1.0,
        value_parser = crate::args::think_seconds,
        requires = "ai"
    )]
    ai_seconds: f64,
    /// Instead of a time, the nodes the AI searches a move, 1 to 50,000,000 (about a minute, as the
    /// longest --ai-seconds): the same seed and N replay the same game
    #[arg(
        long,
        value_name = "N",
        requires = "ai",
        conflicts_with = "ai_seconds",
        value_parser = clap::value_parser!(u64).range(1..=50_000_000)
    )]
    ai_nodes: Option<u64>,
    /// The AI's seed: it chooses between equally good moves with it
    #[arg(long, value_name = "N", default_value_t = 1, requires = "ai")]
    seed: u64,
    /// Also serve the live viewer on 127.0.0.1: a browser page that follows the game as it is played
    #[arg(long)]
    view: bool,
    #[command(flatten)]
    viewer: ViewerOptions,
}

/// The AI player: its side, its budget a move and its seed.
#[derive(Clone, Copy, Debug)]
pub struct Ai {
    pub side: Side,
    pub budget: Budget,
    pub seed: u64,
}

/// How long the AI thinks a move.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// A time, on this machine's clock.
    Time(Duration),
    /// A number of search nodes: the same on every machine.
    Nodes(u64),
}

impl Options {
    fn ai(&self) -> Option<Ai> {
        let side = self.ai?;
        let budget = match self.ai_nodes {
            Some(n) => Budget::Nodes(n),
            None => Budget::Time(Duration::from_secs_f64(self.ai_seconds)),
        };
        Some(Ai {
            side,
            budget,
            seed: self.seed,
        })
    }
}

/// What `gridarena hyperchess` does besides playing.
#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Serve the live viewer of a game another program plays: the page follows DIR/currentstate (a map
    /// file named `view` is `./view`)
    View {
        /// The directory the game writes currentstate in (default: the working directory)
        dir: Option<PathBuf>,
        #[command(flatten)]
        viewer: ViewerOptions,
    },
}

/// Runs the game on stdin and stdout in the working directory, or the viewer alone.
pub fn run(options: Options, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let ai = options.ai();
    if let Some(Action::View { dir, viewer }) = options.action {
        return crate::hyperchess_view::view(dir, &viewer, out);
    }
    if !options.view && options.viewer.given() {
        return Err(Failure::Input(
            "--port and --dist set up the live viewer: add --view to serve it beside the game, or run \
             `gridarena hyperchess view` to watch a game another program plays"
                .to_string(),
        ));
    }
    let here = Path::new(".");
    let _viewer = if options.view {
        Some(crate::hyperchess_view::start(here, &options.viewer, out)?)
    } else {
        None
    };
    let stdin = std::io::stdin();
    play(options.map.as_deref(), here, ai, stdin.lock(), out)
}

/// The whole command: starts or loads a game in `dir`, then plays it with `input` and `out` (and the AI
/// on its side, if there is one).
pub fn play(
    map: Option<&Path>,
    dir: &Path,
    ai: Option<Ai>,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<ExitCode, Failure> {
    let save_path = dir.join(SAVE_FILE);
    let game = match map {
        Some(path) => {
            let game = Game::new(read_map(path)?)
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
            // A new game replaces the old save at once, so quitting before the first move and running
            // `gridarena hyperchess` again continues this game, not an older one.
            write_file(&save_path, &game.save())?;
            writeln!(
                out,
                "A new game on {} ({} nodes). White moves first.",
                path.display(),
                game.board().len()
            )?;
            game
        }
        None => match read_capped(&save_path) {
            Ok(bytes) => {
                let game = Game::load_bytes(&bytes)
                    .map_err(|e| Failure::Input(format!("{}: {e}", save_path.display())))?;
                writeln!(
                    out,
                    "Continuing the game saved in {} ({} nodes).",
                    save_path.display(),
                    game.board().len()
                )?;
                game
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let _ = writeln!(
                    std::io::stderr(),
                    "gridarena hyperchess: no Map file was given and no saved game exists ({} not \
                     found); start a game with `gridarena hyperchess MAP`",
                    save_path.display()
                );
                return Ok(ExitCode::from(EXIT_NO_GAME));
            }
            Err(e) => {
                return Err(Failure::Input(format!(
                    "cannot read the saved game {}: {e}",
                    save_path.display()
                )))
            }
        },
    };
    if let Some(ai) = ai {
        let budget = match ai.budget {
            Budget::Time(t) => format!("{} s a move", t.as_secs_f64()),
            Budget::Nodes(n) => format!("{n} nodes a move"),
        };
        writeln!(
            out,
            "The AI plays {} ({budget}, seed {}); you play {}.",
            ai.side,
            ai.seed,
            ai.side.other()
        )?;
    }
    Turns {
        game,
        dir,
        ai: ai.map(|ai| (ai, ai::Searcher::new(ai.seed))),
        input,
        out,
    }
    .run()
}

/// Reads a Map file, or a built-in map named `builtin:NAME`.
fn read_map(path: &Path) -> Result<Board, Failure> {
    let shown = path.display();
    let builtin = path
        .to_str()
        .and_then(|p| p.strip_prefix("builtin:"))
        .map(|name| match name {
            "standard" => Ok(maps::STANDARD),
            "holes" => Ok(maps::HOLES),
            "small" => Ok(maps::SMALL),
            _ => Err(Failure::Input(format!(
                "{shown}: there is no built-in map {name:?}: builtin:standard, builtin:holes or \
                 builtin:small"
            ))),
        })
        .transpose()?;
    let bytes = match builtin {
        Some(text) => text.as_bytes().to_vec(),
        None => read_capped(path)
            .map_err(|e| Failure::Input(format!("cannot read the Map file {shown}: {e}")))?,
    };
    parse_map_bytes(&bytes).map_err(|e| Failure::Input(format!("{shown}: {e}")))
}

/// Writes a whole file through a temporary one and a rename, so that a viewer polling it, or a crash
/// mid-write, never sees half a board.
fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let fail = |e: std::io::Error| {
        Failure::Output(std::io::Error::new(
            e.kind(),
            format!("{}: {e}", path.display()),
        ))
    };
    fs::write(&tmp, text).map_err(fail)?;
    fs::rename(&tmp, path).map_err(fail)
}

/// One line of input.
enum Line {
    /// The input ended.
    End,
    /// A line that cannot be used (too long, not UTF-8): what was wrong.
    Bad(String),
    /// The line, trimmed.
    Text(String),
}

/// What a player typed, in the words the loop acts on.
enum Typed {
    Save,
    Quit,
    Help,
    At(Coord),
    Nothing,
}

/// How the loop ends a turn's step.
enum Next<T> {
    Go(T),
    /// Start the turn over (after an explanation).
    Again,
    /// Leave with this exit status.
    Exit(ExitCode),
}

struct Turns<'a, R, W> {
    game: Game,
    dir: &'a Path,
    /// The AI and its search, kept between its moves.
    ai: Option<(Ai, ai::Searcher)>,
    input: R,
    out: &'a mut W,
}

impl<R: BufRead, W: Write> Turns<'_, R, W> {
    fn run(mut self) -> Result<ExitCode, Failure> {
        // A refused choice starts the turn over without drawing the board again.
        let mut new_turn = true;
        loop {
            if let Some(outcome) = self.game.outcome() {
                return self.finish(outcome);
            }
            if new_turn {
                write_file(&self.dir.join(STATE_FILE), &self.game.board().to_string())?;
                self.show_board()?;
                new_turn = false;
            }
            if self
                .ai
                .as_ref()
                .is_some_and(|(ai, _)| ai.side == self.game.to_move())
            {
                self.ai_turn()?;
                new_turn = true;
                continue;
            }
            let from = match self.ask_location("your piece")? {
                Next::Go(c) => c,
                Next::Again => continue,
                Next::Exit(code) => return Ok(code),
            };
            let targets = match self.game.targets(from) {
                Ok(t) => t,
                Err(e) => {
                    self.explain(&e)?;
                    continue;
                }
            };
            let piece = self.game.board().piece_at(from);
            let name = piece.map_or_else(|| "piece".to_string(), |p| p.to_string());
            if targets.is_empty() {
                writeln!(
                    self.out,
                    "The {name} at ({from}) has no legal move. Choose another piece."
                )?;
                continue;
            }
            let list: Vec<String> = targets.iter().map(|t| format!("({t})")).collect();
            writeln!(
                self.out,
                "The {name} at ({from}) can move to: {}",
                list.join(" ")
            )?;
            let to = match self.ask_location("its destination")? {
                Next::Go(c) => c,
                Next::Again => continue,
                Next::Exit(code) => return Ok(code),
            };
            match self.game.play(from, to) {
                Ok(played) => {
                    self.report(&played)?;
                    self.save()?;
                    new_turn = true;
                }
                Err(e) => self.explain(&e)?,
            }
        }
    }

    /// Says what was played: "White: WKing (1 2 0) to (1 1 1)." or "..., taking the BRook."
    fn report(&mut self, played: &Played) -> Result<(), Failure> {
        let mover = played.piece.side;
        match played.captured {
            Some(taken) => writeln!(
                self.out,
                "{mover}: {} ({}) to ({}), taking the {taken}.",
                played.piece, played.from, played.to
            )?,
            None => writeln!(
                self.out,
                "{mover}: {} ({}) to ({}).",
                played.piece, played.from, played.to
            )?,
        }
        Ok(())
    }

    /// The AI's turn: it thinks, prints its move as the two `x y z` lines a person would type, plays it
    /// and says what it played, and the game is saved as after any move.
    fn ai_turn(&mut self) -> Result<(), Failure> {
        let Some((ai, searcher)) = self.ai.as_mut() else {
            return Ok(());
        };
        let side = ai.side;
        writeln!(self.out, "{side} (the AI) is thinking...")?;
        self.out.flush()?;
        let start = Instant::now();
        let choice = match ai.budget {
            Budget::Time(limit) => searcher.think(&self.game, |_| start.elapsed() < limit),
            Budget::Nodes(n) => searcher.think(&self.game, |p| p.nodes < n),
        };
        let took = start.elapsed();
        let Some(choice) = choice else {
            return Err(Failure::Internal(format!(
                "the AI found no move for {side} in a game that goes on"
            )));
        };
        writeln!(self.out, "{}\n{}", choice.from, choice.to)?;
        let played = self
            .game
            .play(choice.from, choice.to)
            .map_err(|e| Failure::Internal(format!("the AI chose a move the rules refuse: {e}")))?;
        self.report(&played)?;
        writeln!(
            self.out,
            "({side}'s AI: {choice}, {:.2} s.)",
            took.as_secs_f64()
        )?;
        self.save()
    }

    /// Explains a refused choice; the turn then starts over.
    fn explain(&mut self, e: &MoveError) -> Result<(), Failure> {
        let hint = match e {
            MoveError::NotYours { .. } => format!(" It is {}'s turn.", self.game.to_move()),
            MoveError::Illegal { .. } => " Choose a location from the list.".to_string(),
            _ => String::new(),
        };
        writeln!(
            self.out,
            "Not possible: {e}.{hint} Start the turn again: choose a piece."
        )?;
        Ok(())
    }

    /// Asks for a location, handling `save`, `quit`, `help`, blank lines and the end of the input.
    fn ask_location(&mut self, what: &str) -> Result<Next<Coord>, Failure> {
        loop {
            write!(
                self.out,
                "{} to move: {what} (x y z), or save, quit, help> ",
                self.game.to_move()
            )?;
            self.out.flush()?;
            let text = match self.read_line()? {
                Line::End => {
                    writeln!(
                        self.out,
                        "\nThe input ended before {} moved. The game is saved in {SAVE_FILE}: run \
                         `gridarena hyperchess` (without a map) to continue it.",
                        self.game.to_move()
                    )?;
                    return Ok(Next::Exit(ExitCode::SUCCESS));
                }
                Line::Bad(why) => {
                    writeln!(
                        self.out,
                        "Not possible: {why}. Start the turn again: choose a piece."
                    )?;
                    return Ok(Next::Again);
                }
                Line::Text(t) => t,
            };
            match typed(&text) {
                Err(why) => {
                    writeln!(
                        self.out,
                        "Not possible: {why}. Start the turn again: choose a piece."
                    )?;
                    return Ok(Next::Again);
                }
                Ok(Typed::Nothing) => continue,
                Ok(Typed::Help) => self.help()?,
                Ok(Typed::Save) => {
                    self.save()?;
                    writeln!(self.out, "Saved in {SAVE_FILE}.")?;
                    return Ok(Next::Again);
                }
                Ok(Typed::Quit) => {
                    writeln!(
                        self.out,
                        "Stopped. The game is saved in {SAVE_FILE}: run `gridarena hyperchess` (without \
                         a map) to continue it."
                    )?;
                    return Ok(Next::Exit(ExitCode::SUCCESS));
                }
                Ok(Typed::At(c)) => return Ok(Next::Go(c)),
            }
        }
    }

    fn help(&mut self) -> Result<(), Failure> {
        writeln!(
            self.out,
            "Type the location of one of your pieces as x y z (or x,y,z), then the location it should move \
             to. x grows to the right, y downwards, z outwards; the board drawn before each turn shows one z level per \
             block (upper case White, lower case Black: King Queen Rook Bishop kNight Pawn; . an empty \
             node, blank no node). `save` saves the game in {SAVE_FILE} (it is also saved after every \
             move), `quit` stops. Rules: docs/hyperchess.md."
        )?;
        Ok(())
    }

    fn save(&mut self) -> Result<(), Failure> {
        write_file(&self.dir.join(SAVE_FILE), &self.game.save())
    }

    /// The game is over: the final board goes to `endgame` (and `currentstate`, for a viewer watching it).
    fn finish(&mut self, outcome: Outcome) -> Result<ExitCode, Failure> {
        let board = self.game.board().to_string();
        write_file(&self.dir.join(STATE_FILE), &board)?;
        write_file(&self.dir.join(END_FILE), &board)?;
        self.show_board()?;
        let taken: Vec<String> = self.game.captured().iter().map(Piece::to_string).collect();
        if !taken.is_empty() {
            writeln!(self.out, "Taken: {}", taken.join(" "))?;
        }
        let text = match outcome {
            Outcome::KingTaken { winner } => format!("{winner} took the King and wins!"),
            Outcome::NoMoves { side } => format!("{side} cannot move: the game is a draw."),
        };
        writeln!(
            self.out,
            "Game over: {text} The final board is in {END_FILE}."
        )?;
        Ok(ExitCode::SUCCESS)
    }

    fn show_board(&mut self) -> Result<(), Failure> {
        let text = draw(self.game.board()).unwrap_or_else(|| {
            format!("(The board is too large to draw here; {STATE_FILE} lists every node.)\n")
        });
        self.out.write_all(text.as_bytes())?;
        let taken: Vec<String> = self.game.captured().iter().map(Piece::to_string).collect();
        if !taken.is_empty() && self.game.outcome().is_none() {
            writeln!(self.out, "Taken so far: {}", taken.join(" "))?;
        }
        Ok(())
    }

    /// Reads one line of at most [`MAX_LINE_BYTES`]; the rest of a longer line is read and dropped.
    fn read_line(&mut self) -> Result<Line, Failure> {
        let fail = |e: std::io::Error| Failure::Input(format!("could not read stdin: {e}"));
        let mut line = Vec::new();
        let mut too_long = false;
        let mut any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(fail(e)),
            };
            if buf.is_empty() {
                break;
            }
            any = true;
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (buf.get(..i).unwrap_or_default(), i + 1, true),
                None => (buf, buf.len(), false),
            };
            if line.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
            } else {
                line.extend_from_slice(chunk);
            }
            self.input.consume(used);
            if done {
                break;
            }
        }
        if !any {
            return Ok(Line::End);
        }
        if too_long {
            return Ok(Line::Bad(format!(
                "the line is longer than {MAX_LINE_BYTES} bytes"
            )));
        }
        match String::from_utf8(line) {
            Ok(text) => Ok(Line::Text(text.trim().to_string())),
            Err(_) => Ok(Line::Bad("the line is not UTF-8 text".to_string())),
        }
    }
}

/// What a trimmed line asks for.
fn typed(text: &str) -> Result<Typed, String> {
    Ok(match text.to_ascii_lowercase().as_str() {
        "" => Typed::Nothing,
        "save" => Typed::Save,
        "quit" | "exit" => Typed::Quit,
        "help" | "?" => Typed::Help,
        // The game writes locations as (x y z); typing them back with the brackets works too.
        _ => Typed::At(Coord::parse(
            text.trim_start_matches('(').trim_end_matches(')'),
        )?),
    })
}

/// The board as text, one block per z level side by side; `None` when it would not fit a terminal.
///
/// ```text
///   z=0         z=1
///   0 1 2       0 1 2
/// 0 . . .     0 . p .
/// ```
fn draw(board: &Board) -> Option<String> {
    let (lo, hi) = board.bounds();
    let span = |a: i32, b: i32| i64::from(b) - i64::from(a) + 1;
    let (w, h, d) = (span(lo.x, hi.x), span(lo.y, hi.y), span(lo.z, hi.z));
    // Row labels as wide as the widest y, column labels as wide as the widest x.
    let width = |a: i32, b: i32| a.to_string().len().max(b.to_string().len());
    let (yw, xw) = (width(lo.y, hi.y), width(lo.x, hi.x));
    let block = i64::try_from(yw + 1).ok()? + w * i64::try_from(xw + 1).ok()? + 3;
    if block * d > MAX_DRAW_COLUMNS || h + 2 > MAX_DRAW_ROWS {
        return None;
    }
    let block = usize::try_from(block).ok()?;
    let mut rows: Vec<String> = vec![String::new(); usize::try_from(h + 2).ok()?];
    for z in lo.z..=hi.z {
        let mut cells = Vec::with_capacity(rows.len());
        cells.push(format!("{:yw$} z={z}", ""));
        let mut head = format!("{:yw$}", "");
        for x in lo.x..=hi.x {
            head.push_str(&format!(" {x:>xw$}"));
        }
        cells.push(head);
        for y in lo.y..=hi.y {
            let mut row = format!("{y:>yw$}");
            for x in lo.x..=hi.x {
                let c = Coord::new(x, y, z);
                let mark = match board.index_of(c) {
                    None => ' ',
                    Some(_) => board.piece_at(c).map_or('.', letter),
                };
                row.push_str(&format!(" {mark:>xw$}"));
            }
            cells.push(row);
        }
        for (row, cell) in rows.iter_mut().zip(cells) {
            row.push_str(&format!("{cell:<block$}"));
        }
    }
    let mut out = String::new();
    for row in rows {
        out.push_str(row.trim_end());
        out.push('\n');
    }
    Some(out)
}

/// A piece as one letter: upper case White, lower case Black, N for the Knight.
fn letter(p: Piece) -> char {
    let c = match p.kind {
        Kind::King => 'K',
        Kind::Queen => 'Q',
        Kind::Rook => 'R',
        Kind::Bishop => 'B',
        Kind::Knight => 'N',
        Kind::Pawn => 'P',
    };
    match p.side {
        Side::White => c,
        Side::Black => c.to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_board_draws_as_three_levels() {
        let board = gridarena_engine::hyperchess::parse_map(maps::SMALL).unwrap();
        let text = draw(&board).unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(text.starts_with("  z=0"), "{text}");
        assert!(text.contains("2 R K N"), "{text}");
    }

    #[test]
    fn a_long_thin_board_is_not_drawn() {
        let n = 200;
        let mut map = format!("{n}\n");
        for i in 0..n {
            let left = if i == 0 { -1 } else { i - 1 };
            let right = if i == n - 1 { -1 } else { i + 1 };
            map.push_str(&format!("{i} {left} {right} -1 -1 -1 -1\n"));
        }
        let board = gridarena_engine::hyperchess::parse_map(&map).unwrap();
        assert_eq!(draw(&board), None);
    }
}
