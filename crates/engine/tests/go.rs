//! The Go engine (issue 5) against two references:
//!
//! - a naive reference written for clarity, not speed (flood fills and a list of every earlier board), in
//!   property tests over random games: legality and its reason, captures, conservation of stones,
//!   liberties, and undo;
//! - GNU Go 3.8 (`/usr/games/gnugo`, Debian package `gnugo`) over GTP: at every ply of random games our
//!   legal plays must equal its `all_legal`, and on finished games our area count must equal its
//!   `final_score`. What is compared, and why that is exact, is written at `differential_games`.

use gridarena_engine::go::{
    Board, BoardSize, Color, Game, GameResult, Komi, Move, MoveError, Point,
};
use gridarena_engine::SplitMix64;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

// ---------------------------------------------------------------------------------------------------
// The naive reference
// ---------------------------------------------------------------------------------------------------

/// A board as a plain grid, row-major from A1.
type Grid = Vec<Option<Color>>;

/// Why the reference refuses a stone: the same classes as [`MoveError`], with simple ko and superko as
/// one ("the position repeats").
#[derive(Debug, PartialEq, Eq)]
enum RefError {
    Occupied,
    Suicide,
    Repeats,
}

/// The rules written as directly as possible: place, remove opponent chains without liberties, refuse
/// if the own chain has none, refuse if the board equals any earlier board.
struct Reference {
    n: usize,
    grid: Grid,
    history: Vec<Grid>,
}

impl Reference {
    fn new(n: usize) -> Reference {
        let grid = vec![None; n * n];
        Reference {
            n,
            history: vec![grid.clone()],
            grid,
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y, n) = (i % self.n, i / self.n, self.n);
        let mut out = Vec::new();
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < n {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - n);
        }
        if y + 1 < n {
            out.push(i + n);
        }
        out
    }

    /// The chain on `i` and whether it has a liberty.
    fn chain(&self, grid: &Grid, i: usize) -> (Vec<usize>, bool) {
        let colour = grid[i];
        let mut seen = vec![false; grid.len()];
        let mut stack = vec![i];
        let mut chain = Vec::new();
        let mut free = false;
        seen[i] = true;
        while let Some(s) = stack.pop() {
            chain.push(s);
            for q in self.neighbours(s) {
                if grid[q].is_none() {
                    free = true;
                } else if grid[q] == colour && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        (chain, free)
    }

    /// The board after `c` plays `i`, or why not; and the number of stones captured.
    fn after(&self, i: usize, c: Color) -> Result<(Grid, usize), RefError> {
        if self.grid[i].is_some() {
            return Err(RefError::Occupied);
        }
        let mut grid = self.grid.clone();
        grid[i] = Some(c);
        let mut taken = 0;
        for q in self.neighbours(i) {
            if grid[q] == Some(c.other()) {
                let (chain, free) = self.chain(&grid, q);
                if !free {
                    taken += chain.len();
                    for s in chain {
                        grid[s] = None;
                    }
                }
            }
        }
        if !self.chain(&grid, i).1 {
            return Err(RefError::Suicide);
        }
        if self.history.contains(&grid) {
            return Err(RefError::Repeats);
        }
        Ok((grid, taken))
    }

    fn play(&mut self, i: usize, c: Color) -> usize {
        let (grid, taken) = self.after(i, c).expect("the reference accepts the move");
        self.grid = grid;
        self.history.push(self.grid.clone());
        taken
    }
}

fn index(p: Point, n: usize) -> usize {
    p.y() as usize * n + p.x() as usize
}

fn grid_of(board: &Board) -> Grid {
    board.size().points().map(|p| board.get(p)).collect()
}

fn same_reason(ours: &MoveError, theirs: &RefError) -> bool {
    matches!(
        (ours, theirs),
        (MoveError::Occupied { .. }, RefError::Occupied)
            | (MoveError::Suicide { .. }, RefError::Suicide)
            | (
                MoveError::Ko { .. } | MoveError::Superko { .. },
                RefError::Repeats
            )
    )
}

/// The fields undo must restore, for a readable failure message.
fn state(g: &Game) -> (u64, u32, u32, Color, u8, Option<GameResult>, usize) {
    (
        g.board().hash(),
        g.captures(Color::Black),
        g.captures(Color::White),
        g.to_move(),
        g.consecutive_passes(),
        g.result(),
        g.moves().len(),
    )
}

/// Plays a random game of at most `plies` moves, checking every property at every ply.
fn check_random_game(size: u32, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let size = BoardSize::new(size).unwrap();
    let n = size.get() as usize;
    let mut game = Game::new(size);
    let mut reference = Reference::new(n);
    let mut rng = SplitMix64::new(seed);
    let mut placed = [0u32; 2];
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let c = game.to_move();
        let legal = game.legal_moves();
        prop_assert_eq!(legal.last(), Some(&Move::Pass));
        let plays: BTreeSet<Point> = legal.iter().filter_map(|m| m.point()).collect();

        // Every point: legal for us exactly when legal for the reference, and refused for the same reason.
        for p in size.points() {
            let ours = game.check(Move::Play(p));
            let theirs = reference.after(index(p, n), c);
            prop_assert_eq!(ours.is_ok(), plays.contains(&p), "{} {} listed", c, p);
            match (&ours, &theirs) {
                (Ok(()), Ok(_)) => {}
                (Err(e), Err(r)) => {
                    prop_assert!(same_reason(e, r), "{} {}: {:?} vs {:?}", c, p, e, r)
                }
                _ => prop_assert!(
                    false,
                    "{} {}: ours {:?}, reference {:?}\n{}",
                    c,
                    p,
                    ours,
                    theirs,
                    game.board()
                ),
            }
        }
        // Every listed move is accepted by play; every other point is refused with a reason and changes
        // nothing.
        for &mv in &legal {
            let mut copy = game.clone();
            prop_assert!(copy.play(mv).is_ok(), "{} {} is listed but refused", c, mv);
        }
        let off_board = Point::new(18, 18).filter(|&p| !size.contains(p));
        for p in size
            .points()
            .filter(|p| !plays.contains(p))
            .chain(off_board)
        {
            let mut copy = game.clone();
            let err = copy.play(Move::Play(p));
            prop_assert!(err.is_err(), "{} {} is not listed but accepted", c, p);
            prop_assert_eq!(&copy, &game, "a refused move changed the game");
            prop_assert!(!err.unwrap_err().to_string().is_empty());
        }

        // Mostly stones, sometimes a pass, rarely a resignation.
        let roll = rng.below(100);
        let mv = if roll == 0 {
            Move::Resign
        } else if roll < 6 || plays.is_empty() {
            Move::Pass
        } else {
            let v: Vec<Point> = plays.iter().copied().collect();
            Move::Play(v[rng.below(v.len() as u64) as usize])
        };
        let before = game.clone();
        let captured_before = game.captures(c);
        game.play(mv)
            .map_err(|e| TestCaseError::fail(format!("{c} {mv}: {e}")))?;
        if let Move::Play(p) = mv {
            placed[c as usize] += 1;
            let taken = reference.play(index(p, n), c);
            prop_assert_eq!((game.captures(c) - captured_before) as usize, taken);
        }
        prop_assert_eq!(grid_of(game.board()), reference.grid.clone());

        // Stones are conserved, and no chain is left without a liberty.
        for colour in Color::ALL {
            prop_assert_eq!(
                placed[colour as usize] - game.captures(colour.other()),
                game.board().stones(colour) as u32
            );
        }
        for p in size.points() {
            if game.board().get(p).is_some() {
                prop_assert!(game.board().liberties(p) > 0, "{} has no liberty", p);
            }
        }

        // Undo restores the exact previous state.
        let mut undone = game.clone();
        prop_assert_eq!(undone.undo(), Ok((c, mv)));
        prop_assert_eq!(state(&undone), state(&before));
        prop_assert_eq!(&undone, &before);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_follow_the_reference(
        size in prop_oneof![2 => 2u32..=6, 1 => Just(7u32), 1 => Just(9u32)],
        seed in any::<u64>(),
        plies in 1usize..120,
    ) {
        check_random_game(size, seed, plies)?;
    }
}

/// Long games on tiny boards, where captures, kos and repetitions are dense.
#[test]
fn tiny_boards_with_many_repetitions() {
    for seed in 0..12 {
        for size in [2, 3, 4] {
            check_random_game(size, seed, 200).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// GNU Go
// ---------------------------------------------------------------------------------------------------

const GNUGO: &str = "/usr/games/gnugo";

/// GNU Go in GTP mode with the rules of docs/go.md: Chinese (area) counting, positional superko, no
/// suicide; level 0 keeps `final_score` quick.
struct GnuGo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GnuGo {
    fn start() -> GnuGo {
        if !std::path::Path::new(GNUGO).exists() {
            panic!(
                "GNU Go is not installed ({GNUGO} is missing): the Go rules are tested against it. \
                 Run scripts/setup.sh --browser (it installs the Debian package gnugo)."
            );
        }
        let mut child = Command::new(GNUGO)
            .args([
                "--mode",
                "gtp",
                "--chinese-rules",
                "--positional-superko",
                "--forbid-suicide",
                "--level",
                "0",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {GNUGO}: {e}; run scripts/setup.sh --browser")
            });
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        GnuGo {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command and returns the answer's text, or the failure message.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").expect("GNU Go's stdin");
        self.stdin.flush().expect("GNU Go's stdin");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("GNU Go's stdout");
            assert!(n > 0, "GNU Go exited during {command:?}");
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(&line);
        }
        let text = answer[1..].trim().to_string();
        match answer.as_bytes()[0] {
            b'=' => Ok(text),
            _ => Err(text),
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("GNU Go refused {command:?}: {e}"))
    }

    fn vertices(&mut self, command: &str, size: BoardSize) -> BTreeSet<Point> {
        self.ok(command)
            .split_whitespace()
            .map(|v| Point::from_gtp(v, size).unwrap_or_else(|e| panic!("GNU Go's vertex: {e}")))
            .collect()
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// What a batch of differential games covered.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    scored: usize,
    /// Points refused for simple ko and for longer repetitions, summed over every ply.
    ko: usize,
    superko: usize,
}

/// Plays `games` random games of `size` in our engine and in GNU Go side by side.
///
/// At every ply our legal plays for the side to move must equal GNU Go's `all_legal` (it applies
/// occupancy, suicide and positional superko, `engine/board.c: is_allowed_move`). Moves are drawn
/// uniformly from the legal plays that fill no own eye ([`Board::is_eye`]); a side with none passes, so a
/// game ends when neither side has a move left but its own eyes, and every ten plies and at the end the
/// stones and capture counts must agree.
///
/// Then the area count is compared with GNU Go's `final_score`. That command judges dead stones itself,
/// which area counting here does not do; but in a finished game every empty point is a single-point eye
/// (any other point is still playable for someone), and when every chain also has at least two
/// liberties, each chain has two eyes the opponent cannot fill: every stone is alive, GNU Go removes
/// nothing, and both counts are exactly stones plus eyes. A game that ends with a chain in atari (its
/// capture refused by superko) is counted but not scored.
fn differential_games(size: BoardSize, games: usize, seed: u64, max_plies: usize) -> Tally {
    let mut gnugo = GnuGo::start();
    let mut rng = SplitMix64::new(seed);
    let mut tally = Tally::default();
    for g in 0..games {
        gnugo.ok(&format!("boardsize {}", size.get()));
        gnugo.ok("clear_board");
        gnugo.ok("komi 0.5");
        let mut game = Game::new(size);
        while !game.is_over() && game.moves().len() < max_plies {
            let c = game.to_move();
            let ours: BTreeSet<Point> = game
                .legal_moves()
                .iter()
                .filter_map(|m| m.point())
                .collect();
            let theirs = gnugo.vertices(&format!("all_legal {c}"), size);
            assert_eq!(
                ours,
                theirs,
                "game {g} ply {}: {c}'s legal plays differ (ours minus GNU Go's: {:?}; GNU Go's minus ours: \
                 {:?})\n{}",
                game.moves().len(),
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>(),
                game.board()
            );
            for p in size.points() {
                match game.check(Move::Play(p)) {
                    Err(MoveError::Ko { .. }) => tally.ko += 1,
                    Err(MoveError::Superko { .. }) => tally.superko += 1,
                    _ => {}
                }
            }
            let candidates: Vec<Point> = ours
                .iter()
                .copied()
                .filter(|&p| !game.board().is_eye(p, c))
                .collect();
            let mv = if candidates.is_empty() {
                Move::Pass
            } else {
                Move::Play(candidates[rng.below(candidates.len() as u64) as usize])
            };
            game.play(mv).unwrap();
            gnugo.ok(&format!("play {c} {mv}"));
            tally.plies += 1;
            if game.moves().len() % 10 == 0 || game.is_over() {
                for colour in Color::ALL {
                    let stones = gnugo.vertices(&format!("list_stones {colour}"), size);
                    let mine: BTreeSet<Point> = size
                        .points()
                        .filter(|&p| game.board().get(p) == Some(colour))
                        .collect();
                    assert_eq!(
                        mine,
                        stones,
                        "game {g}: {colour}'s stones differ\n{}",
                        game.board()
                    );
                    let captures: u32 = gnugo.ok(&format!("captures {colour}")).parse().unwrap();
                    assert_eq!(
                        game.captures(colour),
                        captures,
                        "game {g}: {colour}'s captures"
                    );
                }
            }
        }
        tally.games += 1;
        let Some(result) = game.result() else {
            continue;
        };
        let settled = size
            .points()
            .all(|p| game.board().get(p).is_none() || game.board().liberties(p) >= 2);
        if settled {
            assert_eq!(
                result.to_string(),
                gnugo.ok("final_score"),
                "game {g}: final score ({})\n{}",
                game.score(),
                game.board()
            );
            tally.scored += 1;
        }
    }
    tally
}

fn report(size: BoardSize, tally: &Tally, start: Instant) {
    eprintln!(
        "{size}: {} games, {} plies, {} scored; refusals seen: {} simple ko, {} superko; {:.1} s",
        tally.games,
        tally.plies,
        tally.scored,
        tally.ko,
        tally.superko,
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn legality_and_score_match_gnu_go() {
    for (size, games, max_plies) in [
        (BoardSize::NINE, 200, 600),
        (BoardSize::new(5).unwrap(), 200, 400),
        (BoardSize::THIRTEEN, 6, 1000),
        (BoardSize::NINETEEN, 2, 1000),
    ] {
        let start = Instant::now();
        let tally = differential_games(size, games, 2024, max_plies);
        report(size, &tally, start);
        if size == BoardSize::NINE {
            assert!(
                tally.scored * 10 >= games * 8,
                "too few 9x9 games were scored: {tally:?}"
            );
        }
    }
}

/// The same comparison at a larger scale: `cargo test -p gridarena-engine --test go -- --ignored`.
#[test]
#[ignore]
fn legality_and_score_match_gnu_go_at_scale() {
    for (size, games, max_plies) in [
        (BoardSize::NINE, 1000, 600),
        (BoardSize::new(5).unwrap(), 1000, 400),
        (BoardSize::THIRTEEN, 30, 1000),
        (BoardSize::NINETEEN, 20, 1000),
    ] {
        let start = Instant::now();
        let tally = differential_games(size, games, 7, max_plies);
        report(size, &tally, start);
    }
}

#[test]
fn gtp_vertices_round_trip_on_every_size() {
    for n in 2..=19 {
        let size = BoardSize::new(n).unwrap();
        for p in size.points() {
            let text = p.to_gtp();
            assert!(!text.contains('I'));
            assert_eq!(Point::from_gtp(&text, size), Ok(p));
            assert_eq!(Point::from_gtp(&text.to_lowercase(), size), Ok(p));
            assert_eq!(Move::from_gtp(&text, size), Ok(Move::Play(p)));
        }
        let beyond = Point::new(n as u8 % 19, 18).filter(|p| !size.contains(*p));
        if let Some(p) = beyond {
            assert!(Point::from_gtp(&p.to_gtp(), size).is_err());
        }
    }
    let a1 = Point::from_gtp("A1", BoardSize::NINETEEN).unwrap();
    assert_eq!((a1.x(), a1.y()), (0, 0), "A1 is bottom-left");
    assert_eq!(
        Point::from_gtp("J1", BoardSize::NINETEEN).unwrap().x(),
        8,
        "no I column"
    );
}

#[test]
fn komi_changes_the_winner() {
    // Black owns 41 of 81 points (stones and the A1, A9 eyes), white 40.
    let board = Board::from_diagram(
        ". X X X X O O O .
         X X X X X O O O O
         X X X X X O O O O
         X X X X X O O O O
         X X X X O O O O O
         X X X X O O O O O
         X X X X O O O O O
         X X X X O O O O O
         . X X X X O O O .",
    )
    .unwrap();
    let score = board.score(Komi::DEFAULT);
    assert_eq!((score.black, score.white), (41, 40));
    assert_eq!(score.result().to_string(), "B+0.5");
    assert_eq!(
        board.score("1.5".parse().unwrap()).result().to_string(),
        "W+0.5"
    );
    assert_eq!(board.score("1".parse().unwrap()).result().to_string(), "0");
}
