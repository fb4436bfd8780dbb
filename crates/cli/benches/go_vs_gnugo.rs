//! Win rate of `gridarena go gtp` against GNU Go 3.8 at level 1 on 9x9, over GTP, and the time per move.
//!
//! Run it with `cargo bench -p gridarena-cli --bench go_vs_gnugo` (release build). The environment
//! variables GAMES (default 20), PLAYOUTS (default: the engine's own default) and KOMI (default 7.5, the
//! usual 9x9 komi under area scoring, so neither colour is favoured much; GridArena's own default is 0.5)
//! change the match. Colours alternate, so each side plays Black in half the games. GNU Go runs with
//! GridArena's rules: `--chinese-rules --positional-superko --forbid-suicide`. A game ends after two
//! passes or a resignation (GridArena resigns below a 5% win rate); the winner is what GNU Go's
//! `final_score` says, since it judges dead stones that GridArena's count would keep on the board.

use std::time::{Duration, Instant};

#[path = "../tests/support/gtp_engine.rs"]
mod gtp_engine;

use gtp_engine::Engine;

/// An engine in the match, with the time it spent choosing its moves.
struct Player {
    engine: Engine,
    thinking: Duration,
    moves: u32,
}

impl Player {
    fn new(engine: Engine) -> Player {
        Player {
            engine,
            thinking: Duration::ZERO,
            moves: 0,
        }
    }

    /// Sends a command that must succeed (a refusal stops the bench) and returns its text.
    fn send(&mut self, command: &str) -> String {
        self.engine.ok(command)
    }

    fn genmove(&mut self, color: &str) -> String {
        let start = Instant::now();
        let mv = self.send(&format!("genmove {color}")).to_ascii_uppercase();
        self.thinking += start.elapsed();
        self.moves += 1;
        mv
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` runs this too, and then one game is enough.
    let testing = !std::env::args().any(|a| a == "--bench");
    let games: u32 = env_or("GAMES", if testing { 0 } else { 20 });
    let playouts: Option<u32> = std::env::var("PLAYOUTS").ok().and_then(|v| v.parse().ok());
    let komi: String = env_or("KOMI", "7.5".to_string());
    if games == 0 {
        println!("go_vs_gnugo: skipped outside `cargo bench` (set GAMES to play)");
        return;
    }
    let binary = env!("CARGO_BIN_EXE_gridarena");
    let mut args = vec!["go".to_string(), "gtp".to_string()];
    if let Some(p) = playouts {
        args.extend(["--playouts".to_string(), p.to_string()]);
    }
    println!(
        "GridArena (playouts {}) vs GNU Go level 1, 9x9, komi {komi}, {games} games",
        playouts.map_or("default".to_string(), |p| p.to_string())
    );
    let (mut wins, mut ours_time, mut ours_moves, mut gnu_time, mut gnu_moves) =
        (0, Duration::ZERO, 0, Duration::ZERO, 0);
    let mut as_black = [0u32; 2];
    let mut wins_our_rules = 0;
    for game in 0..games {
        let ours_black = game % 2 == 0;
        let mut game_args = args.clone();
        game_args.extend(["--seed".to_string(), game.to_string()]);
        let refs: Vec<&str> = game_args.iter().map(String::as_str).collect();
        let mut ours = Player::new(Engine::start("GridArena", binary, &refs));
        let mut gnu = Player::new(Engine::gnugo(1));
        for e in [&mut ours, &mut gnu] {
            e.send("boardsize 9");
            e.send("clear_board");
            e.send(&format!("komi {komi}"));
        }
        let (mut color, mut passes, mut plies) = ("black", 0, 0);
        let mut resigned: Option<&str> = None;
        while passes < 2 && plies < 400 {
            let ours_to_move = (color == "black") == ours_black;
            let (mover, other) = if ours_to_move {
                (&mut ours, &mut gnu)
            } else {
                (&mut gnu, &mut ours)
            };
            let mv = mover.genmove(color);
            if mv == "RESIGN" {
                resigned = Some(color);
                break;
            }
            other.send(&format!("play {color} {mv}"));
            passes = if mv == "PASS" { passes + 1 } else { 0 };
            plies += 1;
            color = if color == "black" { "white" } else { "black" };
        }
        let result = match resigned {
            Some("black") => "W+R".to_string(),
            Some(_) => "B+R".to_string(),
            None => gnu.send("final_score"),
        };
        let ours_score = if resigned.is_some() {
            "-".to_string()
        } else {
            ours.send("final_score")
        };
        let ours_color = if ours_black { "B" } else { "W" };
        let won = result.starts_with(ours_color);
        wins += u32::from(won);
        // Under GridArena's own rules every stone left on the board counts (docs/go.md).
        let by_our_rules = if resigned.is_some() {
            &result
        } else {
            &ours_score
        };
        wins_our_rules += u32::from(by_our_rules.starts_with(ours_color));
        as_black[usize::from(!ours_black)] += u32::from(won);
        println!(
            "game {:>2}: GridArena {:<5} {plies:>3} plies  GNU Go's count {result:<7} ours {ours_score:<7} {}",
            game + 1,
            if ours_black { "black" } else { "white" },
            if won { "win" } else { "loss" }
        );
        ours_time += ours.thinking;
        ours_moves += ours.moves;
        gnu_time += gnu.thinking;
        gnu_moves += gnu.moves;
    }
    println!("by GridArena's own count (no dead-stone removal) it won {wins_our_rules} of {games}");
    let per_move = |t: Duration, n: u32| t.as_secs_f64() / f64::from(n.max(1));
    println!(
        "GridArena won {wins} of {games} ({:.0}%; {} of {} as black, {} of {} as white), lost {}",
        100.0 * f64::from(wins) / f64::from(games),
        as_black[0],
        games.div_ceil(2),
        as_black[1],
        games / 2,
        games - wins
    );
    println!(
        "seconds per move: GridArena {:.3} ({ours_moves} moves), GNU Go {:.3} ({gnu_moves} moves)",
        per_move(ours_time, ours_moves),
        per_move(gnu_time, gnu_moves)
    );
}
