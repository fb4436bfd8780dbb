//! End-to-end tests of `gridarena hyperchess`: the real binary in a fresh working directory, driven through
//! stdin as a script or a person would, with its files and exit statuses checked.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "support/run.rs"]
mod run;

use run::{run, Run};

const MAPS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/hyperchess/");

/// A fresh, empty working directory, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "gridarena-hyperchess-{}-{n}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("a temporary directory");
        Dir(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.0.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    }

    fn has(&self, file: &str) -> bool {
        self.0.join(file).exists()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `gridarena hyperchess args...` in `dir` with `stdin`.
fn hyperchess(dir: &Dir, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    let args: Vec<&str> = ["hyperchess"].iter().chain(args).copied().collect();
    run(&args, stdin, Some(dir.path()))
}

/// The piece on `x y z` in a currentstate text.
fn piece_at(state: &str, xyz: &str) -> String {
    let want: Vec<&str> = xyz.split_whitespace().collect();
    state
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.get(..3) == Some(&want[..]))
        .and_then(|f| f.get(3).map(|p| p.to_string()))
        .unwrap_or_else(|| panic!("no node at {xyz} in {state}"))
}

fn small_map() -> String {
    format!("{MAPS}small.map")
}

/// On the small map: the White King steps into the middle, Black moves a Rook, the King takes the Black
/// King (one diagonal step up and out).
const WIN: &str = "1 2 0\n1 1 1\n2 0 2\n2 0 1\n1,1,1\n(1, 0, 2)\n";

#[test]
fn a_scripted_game_ends_with_a_king_capture_exit_0_and_an_endgame_file() {
    let dir = Dir::new("win");
    let run = hyperchess(&dir, &[&small_map()], WIN);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("White moves first"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("White: WKing (1 1 1) to (1 0 2), taking the BKing."),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Game over: White took the King and wins!"),
        "{}",
        run.stdout
    );
    let end = dir.read("endgame");
    assert_eq!(end.lines().count(), 27);
    assert_eq!(piece_at(&end, "1 0 2"), "WKing");
    assert_eq!(piece_at(&end, "2 0 1"), "BRook");
    assert_eq!(piece_at(&end, "1 2 0"), "null");
    assert!(!end.contains("BKing"));
    // The final save holds the finished game: continuing it only reports the result.
    let again = hyperchess(&dir, &[], "");
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout.contains("White took the King and wins!"));
}

#[test]
fn black_can_win_too_and_built_in_maps_need_no_file() {
    let dir = Dir::new("black");
    // White's King steps next to Black's, and Black's King takes it.
    let run = hyperchess(&dir, &["builtin:small"], "1 2 0\n1 1 1\n1 0 2\n1 1 1\n");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("Black took the King and wins!"));
    assert_eq!(piece_at(&dir.read("endgame"), "1 1 1"), "BKing");
}

#[test]
fn without_a_map_or_a_saved_game_it_exits_with_minus_1() {
    let dir = Dir::new("nothing");
    let run = hyperchess(&dir, &[], "1 2 0\n");
    assert_eq!(run.code, 255, "{run:?}");
    assert!(
        run.stderr
            .contains("no Map file was given and no saved game exists"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(!dir.has("currentstate"));
}

#[test]
fn currentstate_is_written_before_each_turn() {
    let dir = Dir::new("state");
    let run = hyperchess(&dir, &[&small_map()], "1 2 0\n1 1 1\n");
    assert_eq!(run.code, 0, "{run:?}");
    // Before Black's turn: White's King has moved.
    let state = dir.read("currentstate");
    assert_eq!(state.lines().count(), 27);
    assert!(state.starts_with("0\t0\t0\tnull\n"), "{state}");
    assert_eq!(piece_at(&state, "1 1 1"), "WKing");
    assert_eq!(piece_at(&state, "1 2 0"), "null");
    assert!(!dir.has("endgame"));
}

#[test]
fn bad_choices_are_explained_and_the_turn_starts_over() {
    let dir = Dir::new("bad");
    let script = [
        "1 0 2",   // Black's King, on White's turn
        "0 0 0",   // an empty node
        "7 7 7",   // no node there
        "one two", // not a location
        "0 2 0",   // White's Rook...
        "2 0 0",   // ...cannot reach it (not in a straight line)
        "0 2 0",   // the Rook again...
        "1 2 0",   // ...onto its own King
        "1 2 0",   // the King...
        "1 1 1",   // ...moves: the turn passes to Black
        "1 2 0",   // an empty node now
        "quit",
    ]
    .join("\n");
    let run = hyperchess(&dir, &[&small_map()], script);
    assert_eq!(run.code, 0, "{run:?}");
    let out = &run.stdout;
    for expected in [
        "Not possible: the BKing at (1 0 2) belongs to Black. It is White's turn.",
        "Not possible: there is no piece at (0 0 0).",
        "Not possible: there is no node at (7 7 7).",
        "Not possible: \"one two\" is not a location",
        "Not possible: the WRook at (0 2 0) cannot move to (2 0 0). Choose a location from the list.",
        "Not possible: the WRook at (0 2 0) cannot move to (1 2 0).",
        "White: WKing (1 2 0) to (1 1 1).",
        "Not possible: there is no piece at (1 2 0).",
        "Stopped. The game is saved in savedgame",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    // Each refusal starts the turn again: only White's one move was made.
    assert_eq!(out.matches("White: ").count(), 1);
    assert!(dir.read("savedgame").contains("turn Black"));
}

#[test]
fn unusable_lines_are_refused_not_fatal() {
    let dir = Dir::new("lines");
    let mut input = b"\xff\xfe 1 2\n".to_vec();
    input.extend(vec![b'1'; 5000]);
    input.extend_from_slice(b"\n\n   \n1 2 0\n1 1 1\n");
    let run = hyperchess(&dir, &["builtin:small"], input);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("the line is not UTF-8 text"));
    assert!(run.stdout.contains("the line is longer than 1000 bytes"));
    assert!(run.stdout.contains("White: WKing (1 2 0) to (1 1 1)."));
}

#[test]
fn save_then_continue_later_without_the_map() {
    let dir = Dir::new("save");
    let first = hyperchess(&dir, &[&small_map()], "1 2 0\n1 1 1\nsave\nquit\n");
    assert_eq!(first.code, 0, "{first:?}");
    assert!(first.stdout.contains("Saved in savedgame."));
    let saved = dir.read("savedgame");
    assert!(
        saved.starts_with("HyperChess save 1\nturn Black\ncaptured\n27\n"),
        "{saved}"
    );
    // Black's turn continues where it stopped, then White wins.
    let second = hyperchess(&dir, &[], "2 0 2\n2 0 1\n1 1 1\n1 0 2\n");
    assert_eq!(second.code, 0, "{second:?}");
    assert!(second.stdout.contains("Continuing the game saved in"));
    assert!(second.stdout.contains("Black: BRook (2 0 2) to (2 0 1)."));
    assert!(second.stdout.contains("White took the King and wins!"));
    assert!(dir.has("endgame"));
}

#[test]
fn the_game_is_saved_after_every_move_even_without_save() {
    let dir = Dir::new("autosave");
    let run = hyperchess(&dir, &["builtin:small"], "1 2 0\n1 1 1\n2 0 2\n2 0 1\n");
    assert_eq!(run.code, 0, "{run:?}");
    let saved = dir.read("savedgame");
    assert!(saved.contains("turn White"), "{saved}");
    // Continuing and taking the King.
    let next = hyperchess(&dir, &[], "1 1 1\n1 0 2\n");
    assert_eq!(next.code, 0, "{next:?}");
    assert!(next.stdout.contains("White took the King and wins!"));
}

#[test]
fn a_new_game_with_a_map_replaces_the_saved_one() {
    let dir = Dir::new("replace");
    hyperchess(&dir, &["builtin:small"], "1 2 0\n1 1 1\n");
    assert!(dir.read("savedgame").contains("turn Black"));
    let run = hyperchess(&dir, &["builtin:standard"], "quit\n");
    assert_eq!(run.code, 0, "{run:?}");
    let saved = dir.read("savedgame");
    assert!(saved.contains("turn White\ncaptured\n125\n"), "{saved}");
    assert_eq!(dir.read("currentstate").lines().count(), 125);
}

#[test]
fn the_end_of_input_is_said_clearly() {
    let dir = Dir::new("eof");
    let run = hyperchess(&dir, &[&format!("{MAPS}standard.map")], "2 3 0\n");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(
            "The input ended before White moved. The game is saved in savedgame: run `gridarena \
             hyperchess` (without a map) to continue it."
        ),
        "{}",
        run.stdout
    );
    // Nothing typed at all.
    let empty = hyperchess(&dir, &[], "");
    assert_eq!(empty.code, 0, "{empty:?}");
    assert!(empty.stdout.contains("The input ended before White moved."));
}

#[test]
fn the_shipped_map_with_holes_plays() {
    let dir = Dir::new("holes");
    // A White pawn steps diagonally past the missing centre column's edge.
    let run = hyperchess(&dir, &[&format!("{MAPS}holes.map")], "2 3 0\n1 2 0\n");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("(116 nodes)"));
    assert!(run.stdout.contains("White: WPawn (2 3 0) to (1 2 0)."));
    // A step into the hole is refused.
    let run = hyperchess(&dir, &[], "2 1 4\n2 2 4\n");
    assert!(
        run.stdout.contains("there is no node at (2 2 4)"),
        "{run:?}"
    );
}

#[test]
fn unusable_maps_and_saves_exit_2_with_the_reason() {
    let dir = Dir::new("maps");
    let write = |name: &str, text: &[u8]| fs::write(dir.path().join(name), text).unwrap();
    write(
        "oneway.map",
        b"2\n0 -1 1 -1 -1 -1 -1 WKing\n1 -1 -1 -1 -1 -1 -1 BKing\n",
    );
    write("binary.map", b"1\n0 -1 -1 -1 -1 -1 -1 \xff\n");
    write(
        "noking.map",
        b"2\n0 -1 1 -1 -1 -1 -1 WKing\n1 0 -1 -1 -1 -1 -1 BQueen\n",
    );
    let cases: [(&str, &str); 4] = [
        (
            "oneway.map",
            "oneway.map: line 2: node 0 has node 1 to its right, but node 1 has nothing to its left",
        ),
        ("binary.map", "binary.map: line 2: the text is not UTF-8"),
        ("noking.map", "noking.map: Black has no King"),
        ("missing.map", "cannot read the Map file missing.map"),
    ];
    for (file, message) in cases {
        let run = hyperchess(&dir, &[file], "quit\n");
        assert_eq!(run.code, 2, "{file}: {run:?}");
        assert!(run.stderr.contains(message), "{file}: {}", run.stderr);
        assert!(!dir.has("savedgame"), "{file}");
    }
    let run = hyperchess(&dir, &["builtin:huge"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("there is no built-in map \"huge\""));
    write("savedgame", b"HyperChess save 1\nturn Green\ncaptured\n");
    let run = hyperchess(&dir, &[], "quit\n");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("savedgame: line 2: \"turn Green\""),
        "{}",
        run.stderr
    );
}

/// The AI's move as the terminal prints it: the two `x y z` lines a person would type, then what it
/// played, as after a person's move.
fn ai_lines(played: &gridarena_engine::hyperchess::Played) -> String {
    let taking = played
        .captured
        .map_or(String::new(), |t| format!(", taking the {t}"));
    format!(
        "{} (the AI) is thinking...\n{}\n{}\n{}: {} ({}) to ({}){taking}.\n",
        played.piece.side,
        played.from,
        played.to,
        played.piece.side,
        played.piece,
        played.from,
        played.to
    )
}

#[test]
fn the_ai_plays_black_with_typed_lines_and_legal_moves_exactly_as_the_engine_chooses() {
    use gridarena_engine::hyperchess::{ai, maps, parse_map, Game, Side};
    use gridarena_engine::SplitMix64;
    // A person (random legal moves, seeded) plays White against `--ai black --ai-nodes 3000 --seed 9`;
    // the engine's AI with the same seed and budget says what the terminal's AI must answer.
    for game_seed in 0..3u64 {
        let mut game = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
        let mut rng = SplitMix64::new(game_seed);
        let mut script = String::new();
        let mut expected = Vec::new();
        while game.outcome().is_none() {
            if game.to_move() == Side::White {
                let moves = game.legal_moves();
                let (from, to) = moves[rng.below(moves.len() as u64) as usize];
                script.push_str(&format!("{from}\n{to}\n"));
                game.play(from, to).unwrap();
            } else {
                let choice = ai::choose(&game, 9, |p| p.nodes < 3_000).unwrap();
                game.check(choice.from, choice.to).unwrap();
                expected.push(ai_lines(&game.play(choice.from, choice.to).unwrap()));
            }
        }
        let dir = Dir::new("ai-black");
        let args = [
            "builtin:small",
            "--ai",
            "black",
            "--ai-nodes",
            "3000",
            "--seed",
            "9",
        ];
        let run = hyperchess(&dir, &args, script);
        assert_eq!(run.code, 0, "{run:?}");
        assert!(
            run.stdout
                .contains("The AI plays Black (3000 nodes a move, seed 9); you play White."),
            "{}",
            run.stdout
        );
        assert!(!expected.is_empty());
        for lines in &expected {
            assert!(
                run.stdout.contains(lines.as_str()),
                "game {game_seed}: missing {lines:?} in\n{}",
                run.stdout
            );
        }
        assert_eq!(
            run.stdout.matches("Black (the AI) is thinking").count(),
            expected.len()
        );
        assert!(!run.stdout.contains("Not possible"), "{}", run.stdout);
        let winner = game.winner().unwrap();
        assert!(
            run.stdout
                .contains(&format!("Game over: {winner} took the King and wins!")),
            "{}",
            run.stdout
        );
        assert_eq!(dir.read("endgame"), game.board().to_string());
    }
}

#[test]
fn the_ai_plays_white_on_a_clock_and_the_person_continues_after_it() {
    use gridarena_engine::hyperchess::{maps, parse_map, Coord, Game};
    let dir = Dir::new("ai-white");
    let run = hyperchess(
        &dir,
        &["builtin:standard", "--ai", "WHITE", "--ai-seconds", "0.05"],
        "",
    );
    assert_eq!(run.code, 0, "{run:?}");
    let out = &run.stdout;
    assert!(
        out.contains("The AI plays White (0.05 s a move, seed 1); you play Black."),
        "{out}"
    );
    // The AI's move: the two lines after "thinking", each a location as a person types it.
    let lines: Vec<&str> = out
        .lines()
        .skip_while(|l| *l != "White (the AI) is thinking...")
        .skip(1)
        .take(2)
        .collect();
    let [from, to] = lines[..] else {
        panic!("no move after the AI's thinking line in\n{out}")
    };
    let (from, to) = (Coord::parse(from).unwrap(), Coord::parse(to).unwrap());
    let mut game = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
    game.play(from, to).unwrap();
    assert!(out.contains("(White's AI: depth"), "{out}");
    // Then it is the person's turn; the input ended, and the game is saved with Black to move.
    assert!(out.contains("The input ended before Black moved."), "{out}");
    assert_eq!(dir.read("savedgame"), game.save());
    // Continuing without a map, the person moves and the AI answers at once.
    let black = game.legal_moves()[0];
    let run = hyperchess(
        &dir,
        &["--ai", "white", "--ai-nodes", "500"],
        format!("{}\n{}\n", black.0, black.1),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("Continuing the game saved in"));
    assert_eq!(run.stdout.matches("White (the AI) is thinking").count(), 1);
    assert!(run.stdout.contains("The input ended before Black moved."));
}

#[test]
fn bad_ai_options_are_usage_errors() {
    let dir = Dir::new("ai-usage");
    for (args, message) in [
        (
            &["builtin:small", "--ai", "green"][..],
            "invalid value 'green' for '--ai <SIDE>': \"green\" is not a side: white or black",
        ),
        (
            &["builtin:small", "--ai"][..],
            "a value is required for '--ai <SIDE>'",
        ),
        (
            &["builtin:small", "--ai", "black", "--ai-seconds", "0.01"][..],
            "0.01 seconds is outside 0.05 to 60",
        ),
        (
            &["builtin:small", "--ai", "black", "--ai-seconds", "soon"][..],
            "\"soon\" is not a number of seconds",
        ),
        (
            &[
                "builtin:small",
                "--ai",
                "black",
                "--ai-seconds",
                "1",
                "--ai-nodes",
                "9",
            ][..],
            "cannot be used with",
        ),
        (&["builtin:small", "--seed", "4"][..], "--ai <SIDE>"),
        (
            &["builtin:small", "--ai", "black", "--ai-nodes", "0"][..],
            "--ai-nodes",
        ),
        // A budget no turn would finish is refused before the game starts.
        (
            &["builtin:small", "--ai", "black", "--ai-nodes", "50000001"][..],
            "--ai-nodes",
        ),
    ] {
        let run = hyperchess(&dir, args, "quit\n");
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(!dir.has("savedgame"), "{args:?}");
    }
}

#[test]
fn viewer_options_without_a_viewer_are_usage_errors() {
    let dir = Dir::new("viewer-usage");
    for args in [
        &["builtin:small", "--port", "0"][..],
        &["builtin:small", "--dist", "elsewhere"][..],
    ] {
        let run = hyperchess(&dir, args, "quit\n");
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        let said = &run.stderr;
        assert!(said.contains("add --view"), "{args:?}: {said}");
        assert!(!dir.has("savedgame"), "{args:?}");
    }
}
