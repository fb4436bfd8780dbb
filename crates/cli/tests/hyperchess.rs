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
