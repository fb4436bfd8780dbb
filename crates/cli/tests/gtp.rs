//! End-to-end tests of `gridarena go gtp`: scripted GTP sessions against the built binary, and whole
//! games against GNU Go over GTP, each engine checking every move of the other.
//!
//! GNU Go is Debian's `gnugo` package, installed by `scripts/setup.sh --browser`; without it the GNU Go
//! tests fail with a message saying so (a skipped test would hide a lost check).

#[path = "support/gtp_engine.rs"]
mod gtp_engine;
#[path = "support/run.rs"]
mod run;

use gtp_engine::Engine;
use run::run;

/// Runs `gridarena go gtp args...` on `input` and returns (exit status, stdout, stderr).
fn session(args: &[&str], input: impl Into<Vec<u8>>) -> (i32, String, String) {
    let args: Vec<&str> = ["go", "gtp"].iter().chain(args).copied().collect();
    let run = run(&args, input, None);
    (run.code, run.stdout, run.stderr)
}

/// The responses of a session, each without its terminating blank line.
fn responses(input: &str) -> Vec<String> {
    let (code, out, err) = session(&["--playouts", "50"], input);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("\n\n") || out.is_empty(), "{out:?}");
    out.split_terminator("\n\n").map(str::to_string).collect()
}

#[test]
fn required_commands_ids_and_framing() {
    let r = responses(
        "protocol_version\n1 name\n# comment only\n\n  \r\n2 version\r\n10 known_command genmove\n\
         known_command frobnicate\nlist_commands\nfrobnicate\n3 frobnicate now\nname # trailing\n\
         4\tname\n",
    );
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "=1 GridArena");
    assert_eq!(r[2], format!("=2 {version}"));
    assert_eq!(r[3], "=10 true");
    assert_eq!(r[4], "= false");
    let commands: Vec<&str> = r[5].trim_start_matches("= ").lines().collect();
    // Written out here on purpose, not taken from the binary's `go::COMMANDS`: `list_commands` prints
    // that list, so checking against it could never fail. These are the commands controllers need (the
    // GTP spec's required ones and those GNU Go, twogtp and Sabaki send).
    for required in [
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
        "loadsgf",
    ] {
        assert!(
            commands.contains(&required),
            "{required} missing from {commands:?}"
        );
    }
    assert_eq!(r[6], "? unknown command");
    assert_eq!(r[7], "?3 unknown command");
    assert_eq!(r[8], "= GridArena");
    assert_eq!(r[9], "=4 GridArena");
    assert_eq!(r.len(), 10);
}

#[test]
fn quit_answers_and_exits_zero_and_eof_also_ends() {
    let (code, out, _) = session(&[], "9 quit\nname\n");
    assert_eq!((code, out.as_str()), (0, "=9 \n\n"));
    let (code, out, _) = session(&[], "");
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn illegal_moves_occupied_suicide_ko_and_syntax_errors() {
    // A ko shape in the bottom-left corner, and two black stones around J1:
    //   3 . X O            . .
    //   2 X O . O          . X
    //   1 . X O          . X .
    let r = responses(
        "play b B3\nplay w C3\nplay b A2\nplay w B2\nplay b B1\nplay w C1\nplay w D2\nplay b H1\nplay b J2\n\
         play w B3\nplay w J1\nplay b C2\nplay w B2\nplay w A9\nplay b B2\n\
         play b Z1\nplay b A10\nplay red A1\nplay b\nplay b resign\nplay b A1 A2\nplay B pass\nplay WHITE a9\n",
    );
    assert!(r[..9].iter().all(|s| s == "= "), "{r:?}");
    assert_eq!(r[9], "? illegal move: B3 is occupied by a black stone");
    assert!(
        r[10].starts_with("? illegal move: J1 is suicide"),
        "{}",
        r[10]
    );
    assert_eq!(r[11], "= ", "black takes the ko");
    assert!(
        r[12].starts_with("? illegal move: B2 retakes the ko"),
        "{}",
        r[12]
    );
    assert_eq!(r[13], "= ", "a ko threat");
    assert_eq!(r[14], "= ", "black fills the ko");
    for syntax in &r[15..21] {
        assert!(syntax.starts_with("? syntax error"), "{syntax}");
    }
    assert_eq!(r[21], "= ");
    assert!(
        r[22].starts_with("? illegal move: A9 is occupied"),
        "{}",
        r[22]
    );
}

#[test]
fn showboard_undo_boardsize_komi_and_final_score() {
    let r = responses(
        "boardsize 5\nkomi 7.5\nplay b C3\nplay w A1\nshowboard\nfinal_score\nundo\nundo\nundo\n\
         final_score\nkomi 0\nfinal_score\nkomi 6.3\nkomi x\nboardsize 1\nboardsize 20\nboardsize x\n\
         play b E5\nplay b J9\nboardsize 19\nplay b T19\nclear_board\nfinal_score\n",
    );
    assert_eq!(&r[..4], ["= ", "= ", "= ", "= "]);
    let board =
        "= \n   A B C D E\n 5 . . . . . 5\n 4 . . . . . 4\n 3 . . X . . 3\n 2 . . . . . 2\n \
                 1 O . . . . 1\n   A B C D E\ncaptures: black 0, white 0; komi 7.5; black to move";
    assert_eq!(r[4], board);
    // Every stone counts alive: black 1 stone, white 1 stone, the rest reaches both.
    assert_eq!(r[5], "= W+7.5");
    assert_eq!(&r[6..8], ["= ", "= "]);
    assert_eq!(r[8], "? cannot undo: there is no move to undo");
    assert_eq!(r[9], "= W+7.5");
    assert_eq!(r[10], "= ");
    assert_eq!(r[11], "= 0", "komi 0 on an empty board is a draw");
    assert!(r[12].starts_with("? syntax error"), "{}", r[12]);
    assert!(r[13].starts_with("? syntax error"), "{}", r[13]);
    assert_eq!(r[14], "? unacceptable size");
    assert_eq!(r[15], "? unacceptable size");
    assert!(r[16].starts_with("? syntax error"), "{}", r[16]);
    assert_eq!(r[17], "= ", "E5 is on the 5x5 board");
    assert!(
        r[18].starts_with("? syntax error"),
        "J9 is off it: {}",
        r[18]
    );
    assert_eq!(
        &r[19..21],
        ["= ", "= "],
        "boardsize 19 clears and allows T19"
    );
    assert_eq!(r[21], "= ");
    assert_eq!(r[22], "= 0", "clear_board keeps the komi");
}

#[test]
fn genmove_plays_legal_moves_and_the_game_over_rules() {
    let r = responses(
        "boardsize 7\ngenmove b\ngenmove w\ngenmove white\nshowboard\nplay b pass\nplay w pass\n\
         final_score\ngenmove b\nplay b pass\nplay b D4\nundo\nundo\ngenmove x\n",
    );
    for mv in &r[1..4] {
        let v = mv.trim_start_matches("= ");
        assert!(mv.starts_with("= ") && v.len() >= 2 && v != "pass", "{mv}");
    }
    assert_eq!(r[4].matches('X').count(), 1, "{}", r[4]);
    assert_eq!(r[4].matches('O').count(), 2, "{}", r[4]);
    assert!(
        r[7].starts_with("= B+") || r[7].starts_with("= W+"),
        "{}",
        r[7]
    );
    assert_eq!(r[8], "= pass", "the game is over");
    assert_eq!(r[9], "= ", "a pass after the end changes nothing");
    assert!(
        r[10].starts_with("? illegal move: the game is over"),
        "{}",
        r[10]
    );
    assert_eq!(&r[11..13], ["= ", "= "], "undo reopens the game");
    assert!(r[13].starts_with("? syntax error"), "{}", r[13]);
}

#[test]
fn the_same_seed_replays_the_same_moves() {
    let input = "genmove b\ngenmove w\ngenmove b\n";
    let a = session(&["--playouts", "100", "--seed", "5"], input).1;
    let b = session(&["--playouts", "100", "--seed", "5"], input).1;
    assert_eq!(a, b);
}

#[test]
fn loadsgf_sets_up_the_record() {
    let dir = std::env::temp_dir().join(format!("gridarena-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    std::fs::write(&file, "(;GM[1]FF[4]SZ[7]KM[6.5];B[dd];W[cc];B[ee])").unwrap();
    let path = file.to_str().unwrap();
    let r = responses(&format!(
        "loadsgf {path}\nfinal_score\nshowboard\nloadsgf {path} 2\nshowboard\nloadsgf {path}.missing\n\
         loadsgf\n"
    ));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(r[0], "= ");
    assert_eq!(r[1], "= W+5.5", "2 black, 1 white, komi 6.5");
    assert!(
        r[2].contains(" 7 . . . . . . . 7") && r[2].contains("white to move"),
        "{}",
        r[2]
    );
    assert_eq!(r[3], "= ");
    assert_eq!(
        r[4].matches('X').count(),
        1,
        "only the first move: {}",
        r[4]
    );
    assert_eq!(r[4].matches('O').count(), 0, "{}", r[4]);
    assert!(r[5].starts_with("? cannot load file"), "{}", r[5]);
    assert!(r[6].starts_with("? syntax error"), "{}", r[6]);
}

#[test]
fn random_bytes_get_well_formed_answers_and_a_clean_exit() {
    let mut state = 0x1234_5678_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let words = [
        "play b ",
        "genmove w",
        "undo",
        "boardsize 3",
        "komi ",
        "showboard",
        "9 ",
        "pass",
    ];
    let mut input = Vec::new();
    let mut commands = 0;
    for _ in 0..300 {
        let len = next() % 12;
        if next() % 3 == 0 {
            input.extend_from_slice(words[(next() % words.len() as u64) as usize].as_bytes());
        }
        input.extend(
            (0..len)
                .map(|_| (next() % 256) as u8)
                .filter(|&b| b != b'\n'),
        );
        input.push(b'\n');
        commands += 1;
    }
    let (code, out, err) = session(&["--playouts", "10"], input);
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert!(answers.len() <= commands);
    for a in answers {
        assert!(a.starts_with('=') || a.starts_with('?'), "{a:?}");
    }
}

#[test]
fn help_describes_the_command() {
    let (code, text, _) = session(&["--help"], "");
    assert_eq!(code, 0);
    assert!(
        text.contains("--playouts") && text.contains("genmove answers \"pass\""),
        "{text}"
    );
}

// ----- games against GNU Go -----

/// The board and how long a game against GNU Go may go on.
#[derive(Clone, Copy)]
struct Board {
    size: u8,
    /// At most this many plies; `None`: to the end (two passes or a resignation), which is checked.
    max_plies: Option<usize>,
}

const NINE: Board = Board {
    size: 9,
    max_plies: None,
};

/// Plays one game between GridArena (`ours_black` says its colour) and GNU Go, each move checked by the
/// other engine (GNU Go refuses an illegal move, superko included, and the test fails), and checks the
/// scores of a finished game. `resign` allows GridArena to resign. Returns the plies played and whether
/// someone resigned.
fn play_game(
    board: Board,
    playouts: u32,
    seed: u64,
    ours_black: bool,
    komi: &str,
    resign: bool,
) -> (usize, bool) {
    let binary = env!("CARGO_BIN_EXE_gridarena");
    let playouts = playouts.to_string();
    let seed = seed.to_string();
    let resign_below = if resign { "0.05" } else { "0" };
    let mut ours = Engine::start(
        "GridArena",
        binary,
        &[
            "go",
            "gtp",
            "--playouts",
            &playouts,
            "--seed",
            &seed,
            "--resign-below",
            resign_below,
        ],
    );
    let start = |e: &mut Engine| {
        e.ok(&format!("boardsize {}", board.size));
        e.ok("clear_board");
        e.ok(&format!("komi {komi}"));
    };
    let mut gnu = Engine::gnugo(1);
    start(&mut ours);
    start(&mut gnu);
    let mut played: Vec<String> = Vec::new();
    let mut crashes = 0;
    let mut passes = 0;
    let mut plies = 0;
    let mut resigned = false;
    let mut color = "black";
    while passes < 2 && plies < board.max_plies.unwrap_or(400) {
        let ours_to_move = (color == "black") == ours_black;
        let genmove = format!("genmove {color}");
        let mv = if ours_to_move {
            ours.ok(&genmove)
        } else {
            gnu.genmove_surviving_crashes(&genmove, &played, &mut crashes, || {
                let mut e = Engine::gnugo(1);
                start(&mut e);
                e
            })
        }
        .to_ascii_uppercase();
        let other = if ours_to_move { &mut gnu } else { &mut ours };
        if mv == "RESIGN" {
            resigned = true;
            break;
        }
        let play = format!("play {color} {mv}");
        other.ok(&play);
        played.push(play);
        passes = if mv == "PASS" { passes + 1 } else { 0 };
        plies += 1;
        color = if color == "black" { "white" } else { "black" };
    }
    if board.max_plies.is_some() {
        return (plies, resigned);
    }
    assert!(
        resigned || passes == 2,
        "the game did not end in {plies} plies"
    );
    let score = ours.ok("final_score");
    let well_formed = score == "0"
        || ["B+", "W+"].iter().any(|w| {
            score
                .strip_prefix(w)
                .is_some_and(|n| n == "R" || n.parse::<f64>().is_ok())
        });
    assert!(well_formed, "final_score {score:?}");
    if !resigned {
        // GNU Go judges dead stones itself; where it sees none, both area counts must agree.
        let dead = gnu.ok("final_status_list dead");
        let theirs = gnu.ok("final_score");
        eprintln!("{plies} plies: ours {score}, GNU Go {theirs}, dead by GNU Go: {dead:?}");
        if dead.is_empty() {
            assert_eq!(
                score,
                theirs,
                "final scores differ\n{}",
                ours.ok("showboard")
            );
        }
    }
    (plies, resigned)
}

#[test]
fn complete_games_against_gnugo() {
    // Small budgets keep this quick; the strength figure is the bench's (benches/go_vs_gnugo.rs).
    // The first game is played to two passes (GridArena may not resign), so the scores are compared.
    let (_, resigned) = play_game(NINE, 300, 1, true, "7.5", false);
    assert!(!resigned, "GNU Go resigned");
    play_game(NINE, 300, 2, false, "0.5", true);
}

#[test]
fn moves_on_13x13_and_19x19_stay_legal_against_gnugo() {
    // GNU Go checks every move GridArena makes, and GridArena every one of GNU Go's. The 13x13 game
    // goes to the end; the 19x19 one stops after 150 plies to keep the test short.
    play_game(
        Board {
            size: 13,
            max_plies: None,
        },
        100,
        3,
        true,
        "7.5",
        false,
    );
    let (plies, _) = play_game(
        Board {
            size: 19,
            max_plies: Some(150),
        },
        100,
        4,
        false,
        "7.5",
        false,
    );
    assert_eq!(plies, 150);
}

#[test]
#[ignore = "about a minute: more and stronger games against GNU Go"]
fn more_games_against_gnugo() {
    for seed in 0..8 {
        play_game(NINE, 2000, seed, seed % 2 == 0, "7.5", seed % 4 < 2);
    }
}
