//! SGF export and import (crates/engine/src/go/sgf.rs): round trips of random games, records written by
//! GNU Go 3.8, setup stones, passes, results, and malformed or hostile input that must be refused with a
//! specific error and never panic.

use gridarena_engine::go::sgf::{
    from_sgf, from_sgf_bytes, to_sgf, GameInfo, SgfError, MAX_NODES, MAX_SGF_BYTES,
};
use gridarena_engine::go::{Board, BoardSize, Color, Game, Komi, Move, MoveError};
use gridarena_engine::SplitMix64;
use proptest::prelude::*;

fn read(text: &str) -> (Game, GameInfo) {
    match from_sgf(text) {
        Ok(g) => g,
        Err(e) => panic!("{e}\n{text}"),
    }
}

fn gtp(s: &str, size: BoardSize) -> Move {
    Move::from_gtp(s, size).unwrap()
}

/// A random game: optional setup stones, random legal moves (passes now and then, sometimes out of
/// turn), and sometimes a resignation or a loss on time at the end.
fn random_game(seed: u64) -> Game {
    let mut rng = SplitMix64::new(seed);
    let size = BoardSize::new(2 + rng.below(18) as u32).unwrap();
    let komi = Komi::from_half_points(rng.below(30) as i16 - 10);
    let mut game = Game::with_komi(size, komi);
    if rng.below(3) == 0 {
        let mut stones = Vec::new();
        for p in size.points() {
            if rng.below(8) == 0 {
                let c = if rng.below(2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                stones.push((p, c));
            }
        }
        if let Ok(board) = Board::from_stones(size, &stones) {
            let first = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            game = Game::from_position(board, first, komi);
        }
    }
    let length = rng.below(80);
    for _ in 0..length {
        if game.is_over() {
            break;
        }
        let color = if rng.below(10) == 0 {
            game.to_move().other()
        } else {
            game.to_move()
        };
        let legal = game.legal_moves_for(color);
        let mv = if rng.below(12) == 0 {
            Move::Pass
        } else {
            legal[rng.below(legal.len() as u64) as usize]
        };
        game.play_as(color, mv).unwrap();
    }
    if !game.is_over() {
        match rng.below(6) {
            0 => game.play(Move::Resign).unwrap(),
            1 if game.position_hashes()[0] == Board::new(size).hash() => {
                game.time_out(game.to_move()).unwrap()
            }
            _ => {}
        }
    }
    game
}

fn assert_same_game(a: &Game, b: &Game) {
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.board(), b.board());
    assert_eq!(a.komi(), b.komi());
    assert_eq!(a.result(), b.result());
    assert_eq!(a.to_move(), b.to_move());
    assert_eq!(a.position_hashes(), b.position_hashes());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_round_trip(seed in any::<u64>(), name in "[a-z\\]\\\\ :é]{0,12}") {
        let game = random_game(seed);
        let info = GameInfo {
            black: Some(name.clone()),
            white: Some(format!("w {name}")),
            date: Some("2026-11-22".into()),
            ..GameInfo::default()
        };
        let text = to_sgf(&game, &info);
        let (back, back_info) = read(&text);
        assert_same_game(&game, &back);
        prop_assert_eq!(&back_info.black, &info.black);
        prop_assert_eq!(&back_info.white, &info.white);
        prop_assert_eq!(&back_info.date, &info.date);
        prop_assert_eq!(&back_info.result, &game.result().map(|r| r.to_string()));
        prop_assert_eq!(back_info.application.as_deref(), Some(concat!("GridArena:", env!("CARGO_PKG_VERSION"))));
        // Writing the read game again gives the same text.
        prop_assert_eq!(to_sgf(&back, &back_info), text);
    }

    /// Random bytes and random edits of a real record: any answer is fine, a panic is not.
    #[test]
    fn hostile_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = from_sgf_bytes(&bytes);
        let mut text = b"(;".to_vec();
        text.extend_from_slice(&bytes);
        let _ = from_sgf_bytes(&text);
    }

    #[test]
    fn mutated_records_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6)) {
        let mut bytes = GNUGO_GAME.as_bytes().to_vec();
        for (at, byte, kind) in edits {
            let at = at % (bytes.len() + 1);
            match kind {
                0 => bytes.insert(at, byte),
                1 if at < bytes.len() => { bytes.remove(at); }
                _ if at < bytes.len() => bytes[at] = byte,
                _ => {}
            }
        }
        let _ = from_sgf_bytes(&bytes);
    }
}

/// `gnugo --mode ascii --boardsize 9 --komi 5.5 --level 0 --chinese-rules -o game.sgf`, a person playing
/// black (with one pass) against GNU Go 3.8.
const GNUGO_GAME: &str = "(;GM[1]FF[4]
SZ[9]
GN[GNU Go 3.8 Random Seed 1795334797 level 0]
DT[2026-11-22]
KM[5.5]HA[0]RU[Chinese]AP[GNU Go:3.8]
;B[ee];W[cg];B[gc];W[cd];B[];W[fg];B[dc];W[cc])
";

#[test]
fn reads_a_gnugo_game() {
    let (game, info) = read(GNUGO_GAME);
    let nine = BoardSize::NINE;
    assert_eq!(game.size(), nine);
    assert_eq!(game.komi(), "5.5".parse().unwrap());
    let expected: Vec<(Color, Move)> = ["E5", "C3", "G7", "C6", "pass", "F3", "D7", "C7"]
        .iter()
        .enumerate()
        .map(|(i, m)| {
            (
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                gtp(m, nine),
            )
        })
        .collect();
    assert_eq!(game.moves(), &expected[..]);
    assert_eq!(info.application.as_deref(), Some("GNU Go:3.8"));
    assert_eq!(info.date.as_deref(), Some("2026-11-22"));
    assert_eq!(info.result, None);
    assert!(!game.is_over());
}

/// `gnugo ... --boardsize 9 --handicap 3 -o game.sgf`: handicap stones as AB, White first, passes.
#[test]
fn reads_a_gnugo_handicap_game() {
    let text = "(;GM[1]FF[4]
SZ[9]
GN[GNU Go 3.8 Random Seed 1795334797 level 0]
DT[2026-11-22]
KM[0.0]HA[3]RU[Chinese]AP[GNU Go:3.8]AB[cc][gc][cg]
;W[df];B[gg];W[ec];B[];W[ee];B[];W[cd])
";
    let (game, _) = read(text);
    let nine = BoardSize::NINE;
    assert_eq!(game.komi(), Komi::ZERO);
    assert_eq!(game.moves()[0], (Color::White, gtp("D4", nine)));
    assert_eq!(game.board().stones(Color::Black), 4);
    assert_eq!(game.board().stones(Color::White), 4);
    for p in ["C7", "G7", "C3", "G3"] {
        assert_eq!(
            game.board().get(gtp(p, nine).point().unwrap()),
            Some(Color::Black)
        );
    }
    assert_eq!(game.to_move(), Color::Black);
    // Written back, the handicap stones are setup again and the file replays to the same game.
    let again = read(&to_sgf(&game, &GameInfo::default())).0;
    assert_same_game(&game, &again);
}

/// A 5x5 game GNU Go finished with two passes and counted itself: the engine's count agrees.
#[test]
fn reads_a_finished_gnugo_game_and_agrees_on_the_result() {
    let text = "(;GM[1]FF[4]
SZ[5]
GN[GNU Go 3.8 Random Seed 1795334801 level 0]
DT[2026-11-22]
KM[0.5]HA[0]RU[Chinese]AP[GNU Go:3.8]RE[W+25.5]
;B[];W[cc];B[];W[cd];B[];W[])
";
    let (game, info) = read(text);
    assert_eq!(
        game.result().map(|r| r.to_string()).as_deref(),
        Some("W+25.5")
    );
    assert_eq!(info.result.as_deref(), Some("W+25.5"));
}

/// GNU Go's `printsgf` writes a position as setup stones with PL, and no moves.
#[test]
fn reads_a_gnugo_printsgf_position() {
    let text = "(;GM[1]FF[4]
SZ[9]
GN[GNU Go 3.8 load and print]
DT[2026-11-22]
KM[5.5]HA[0]RU[Chinese]AP[GNU Go:3.8]AW[cd][fd][cg]
AB[ee][fe][eg]
PL[W]
)
";
    let (game, _) = read(text);
    assert!(game.moves().is_empty());
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.board().stones(Color::Black), 3);
    assert_eq!(game.board().stones(Color::White), 3);
}

/// A live check when GNU Go is installed (scripts/setup.sh installs it; go.rs requires it): GNU Go plays
/// both sides of a 9x9 game, and replaying its record gives GNU Go's own stones.
#[test]
fn reads_what_gnugo_writes_now() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let gnugo = "/usr/games/gnugo";
    if !std::path::Path::new(gnugo).exists() {
        eprintln!("GNU Go is not installed: skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gridarena-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    let mut child = Command::new(gnugo)
        .args([
            "--mode",
            "ascii",
            "--boardsize",
            "9",
            "--komi",
            "6.5",
            "--level",
            "0",
        ])
        .args(["--chinese-rules", "--seed", "7", "-o"])
        .arg(&file)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The person's moves (black); GNU Go answers each.
    let moves = "e5\nc3\ng7\nc7\ng3\nd5\nf5\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(moves.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read(&file).unwrap();
    let (game, info) = from_sgf_bytes(&text).unwrap();
    assert_eq!(info.application.as_deref(), Some("GNU Go:3.8"));
    assert!(
        game.moves().len() >= 10,
        "{}",
        String::from_utf8_lossy(&text)
    );
    // GNU Go loads its own record; its stones must be ours.
    let gtp_commands = format!(
        "loadsgf {}\nlist_stones black\nlist_stones white\nquit\n",
        file.display()
    );
    let mut child = Command::new(gnugo)
        .args(["--mode", "gtp", "--chinese-rules"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(gtp_commands.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split("\n\n")
        .map(|a| a.trim().trim_start_matches('=').trim().to_string())
        .collect();
    for (i, c) in Color::ALL.into_iter().enumerate() {
        let mut theirs: Vec<String> = answers[i + 1]
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut ours: Vec<String> = game
            .size()
            .points()
            .filter(|&p| game.board().get(p) == Some(c))
            .map(|p| p.to_gtp())
            .collect();
        theirs.sort();
        ours.sort();
        assert_eq!(
            ours,
            theirs,
            "{c} stones\n{}",
            String::from_utf8_lossy(&text)
        );
    }
}

#[test]
fn writes_the_root_and_moves() {
    let nine = BoardSize::NINE;
    let mut game = Game::with_komi(nine, "6.5".parse().unwrap());
    for m in ["D4", "pass", "E5"] {
        game.play(gtp(m, nine)).unwrap();
    }
    game.play(Move::Resign).unwrap();
    let info = GameInfo {
        black: Some("Ann ] \\".into()),
        application: Some("Test:1".into()),
        ..GameInfo::default()
    };
    assert_eq!(
        to_sgf(&game, &info),
        "(;FF[4]GM[1]CA[UTF-8]AP[Test:1]SZ[9]KM[6.5]RU[Chinese]PB[Ann \\] \\\\]RE[B+R]\n;B[df];W[];B[ee])\n"
    );
    let (back, back_info) = read(&to_sgf(&game, &info));
    assert_same_game(&game, &back);
    assert_eq!(back_info.black.as_deref(), Some("Ann ] \\"));
    // A result override replaces the game's own.
    let over = GameInfo {
        result: Some("W+T".into()),
        ..GameInfo::default()
    };
    assert!(to_sgf(&game, &over).contains("RE[W+T]"));
}

#[test]
fn passes_results_and_time() {
    let (game, _) = read("(;SZ[9];B[tt];W[])");
    assert_eq!(
        game.moves(),
        &[(Color::Black, Move::Pass), (Color::White, Move::Pass)]
    );
    // No KM: no komi, so an empty board is a draw.
    assert_eq!(game.result().map(|r| r.to_string()).as_deref(), Some("0"));
    let (game, _) = read("(;SZ[9]RE[B+Resign];B[ee])");
    assert_eq!(game.result().map(|r| r.to_string()).as_deref(), Some("B+R"));
    assert_eq!(game.moves().last(), Some(&(Color::White, Move::Resign)));
    let (game, _) = read("(;SZ[9]RE[W+T];B[ee])");
    assert_eq!(game.result().map(|r| r.to_string()).as_deref(), Some("W+T"));
    let (game, info) = read("(;SZ[9]RE[B+3.5];B[ee])");
    assert!(!game.is_over(), "a count in RE is not the engine's");
    assert_eq!(info.result.as_deref(), Some("B+3.5"));
}

#[test]
fn variations_unknown_properties_and_old_identifiers() {
    let (game, info) = read(
        "junk before (;FF[3]SZ[5]PlayerBlack[Old]XX[whatever][more]C[a \\] comment]\
         ;B[cc](;W[bb]C[main];B[dd])(;W[dd]))(;SZ[9];B[aa])",
    );
    let five = BoardSize::new(5).unwrap();
    assert_eq!(
        game.moves(),
        &[
            (Color::Black, gtp("C3", five)),
            (Color::White, gtp("B4", five)),
            (Color::Black, gtp("D2", five)),
        ]
    );
    assert_eq!(info.black.as_deref(), Some("Old"));
    // AB with a compressed rectangle, AE removing one, PL.
    let (game, _) = read("(;SZ[5]AB[aa:bb]AE[aa]AW[ee]PL[W])");
    assert_eq!(game.board().stones(Color::Black), 3);
    assert_eq!(game.board().stones(Color::White), 1);
    assert_eq!(game.to_move(), Color::White);
}

#[test]
fn non_utf8_input() {
    let mut bytes = b"(;CA[ISO-8859-1]SZ[9]PB[Ren".to_vec();
    bytes.push(0xE9); // é in Latin-1
    bytes.extend_from_slice(b"];B[ee])");
    let (game, info) = from_sgf_bytes(&bytes).unwrap();
    assert_eq!(info.black.as_deref(), Some("René"));
    assert_eq!(game.moves().len(), 1);
    // Undeclared: replaced, the game still read.
    let mut bytes = b"(;SZ[9]PB[x".to_vec();
    bytes.extend_from_slice(&[0xFF, 0xFE]);
    bytes.extend_from_slice(b"];B[ee])");
    let (_, info) = from_sgf_bytes(&bytes).unwrap();
    assert_eq!(info.black.as_deref(), Some("x\u{FFFD}\u{FFFD}"));
}

fn error(text: &str) -> SgfError {
    match from_sgf(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

#[test]
fn malformed_input_gives_specific_errors() {
    let cases: &[(&str, &str)] = &[
        ("", "no SGF game tree: the text has no '('"),
        ("(;SZ[9]", "the SGF text ends inside the game tree: a ')' is missing"),
        ("(;SZ[9", "line 1, column 5: the value opened here has no closing ']'"),
        ("(;SZ[9]\n;B[ee]!)", "line 2, column 7: unexpected '!': expected '(', ')', ';' or a property such as B[dd]"),
        ("()", "line 1, column 2: a game tree must start with a node ';'"),
        ("(B[aa])", "line 1, column 2: property B comes before the first node ';'"),
        ("(;b[aa])", "line 1, column 3: \"b\" is not a property identifier: it needs capital letters"),
        ("(;B;W[aa])", "line 1, column 3: property B has no [value]"),
        ("(;GM[2])", "line 1, column 3: GM[2] is not a Go record (GM[1])"),
        ("(;SZ[25])", "line 1, column 3: SZ[25] is not supported: boards are square, 2x2 to 19x19"),
        ("(;SZ[19:13])", "line 1, column 3: SZ[19:13] is not supported: boards are square, 2x2 to 19x19"),
        ("(;KM[6.3])", "line 1, column 3: KM[6.3] is not a komi: expected a multiple of 0.5 between -1000 and 1000"),
        ("(;PL[X])", "line 1, column 3: PL[X] is not a player: expected B or W"),
        ("(;SZ[9];B[jj])", "line 1, column 9: B[jj] is not a point of the 9x9 board"),
        ("(;SZ[9]AB[zz])", "line 1, column 8: AB[zz] is not a point of the 9x9 board"),
        ("(;SZ[9];B[aa]W[bb])", "line 1, column 8: one node has both a B and a W move"),
        ("(;SZ[9];B[aa];AB[bb])", "line 1, column 15: setup property AB after the first move is not supported"),
        ("(;SZ[3]AB[aa]AW[ba][ab])", "line 1, column 2: the setup stones are not a position: the chain at A3 has no liberty: it would have been captured"),
        (
            "(;SZ[9]\n;B[ee];W[dd]\n;B[ee])",
            "line 3, column 2: move 3 (B E5) is illegal: E5 is occupied by a black stone",
        ),
        ("(;SZ[9];B[];W[];B[ee])", "line 1, column 17: move 3 (B E5) is illegal: the game is over (0)"),
    ];
    for (text, message) in cases {
        assert_eq!(error(text).to_string(), *message, "{text:?}");
    }
    assert!(matches!(
        error("(;SZ[3]AB[ab][cb]AW[ac][bb][cc][ba];B[aa])"),
        SgfError::IllegalMove {
            number: 1,
            reason: MoveError::Suicide { .. },
            ..
        }
    ));
}

#[test]
fn hostile_sizes_and_nesting() {
    let big = "(".repeat(MAX_SGF_BYTES + 1);
    assert!(matches!(from_sgf(&big), Err(SgfError::TooLarge { .. })));
    assert!(matches!(
        from_sgf_bytes(big.as_bytes()),
        Err(SgfError::TooLarge { .. })
    ));
    // A million-deep nesting is one counter, not a million stack frames.
    let deep = format!("{}{}", "(;".repeat(400_000), ")".repeat(10));
    assert!(matches!(
        from_sgf(&deep),
        Err(SgfError::TooManyNodes { .. })
    ));
    let deep = format!("(;{}", "(".repeat(900_000));
    assert!(matches!(from_sgf(&deep), Err(SgfError::EmptyTree { .. })));
    let nodes = format!("(;{})", ";".repeat(MAX_NODES));
    assert!(matches!(
        from_sgf(&nodes),
        Err(SgfError::TooManyNodes { .. })
    ));
    let nodes = format!("(;{})", ";".repeat(MAX_NODES - 1));
    assert!(from_sgf(&nodes).is_ok());
    let values = format!("(;C{})", "[]".repeat(400_000));
    assert!(from_sgf(&values).is_ok());
}
