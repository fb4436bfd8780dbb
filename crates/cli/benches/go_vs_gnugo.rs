//! Win rate of `gridarena go gtp` against GNU Go 3.8 over GTP, and the time per move.
//!
//! Run it with `cargo bench -p gridarena-cli --bench go_vs_gnugo` (release build). Environment variables
//! set the match:
//! - `GAMES` (default 20) games, colours alternating, so each side plays Black in half of them;
//! - `LEVEL` (default 10, GNU Go's own default) GNU Go's level;
//! - `SIZE` (default 9) the board size;
//! - `SECONDS`: GridArena's time a move, sent as GTP `time_settings 0 SECONDS 1`, so the bench also
//!   checks that the engine keeps time; without it, `PLAYOUTS` (default: the engine's own) a move;
//! - `KOMI` (default 7.5, the usual area-scoring komi, so neither colour is favoured much; GridArena's
//!   own default is 0.5);
//! - `RESIGN` (default 0: never) GridArena's `--resign-below`;
//! - `JOBS` (default 1) games played at once: one core each for GridArena, so no more than the cores;
//! - `OURS`: another command line for GridArena's side, such as the wasm build under Node:
//!   `OURS="node crates/engine/benches/go_gtp_wasm.mjs target/wasm32-unknown-unknown/release/examples/go_gtp_wasm.wasm"`
//!   (`--seed` and `--resign-below` are added to it).
//!
//! GNU Go runs with GridArena's rules: `--chinese-rules --positional-superko --forbid-suicide`. A game
//! ends after two passes or a resignation; the winner is what GNU Go's `final_score` says, since it
//! judges dead stones that GridArena's count would keep on the board.

use std::time::{Duration, Instant};

#[path = "../tests/support/gtp_engine.rs"]
mod gtp_engine;

use gtp_engine::Engine;

/// An engine in the match, with the time it spent choosing its moves.
struct Player {
    engine: Engine,
    thinking: Duration,
    longest: Duration,
    moves: u32,
}

impl Player {
    fn new(engine: Engine) -> Player {
        Player {
            engine,
            thinking: Duration::ZERO,
            longest: Duration::ZERO,
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
        self.count(start.elapsed());
        mv
    }

    /// Counts a move that took `took`.
    fn count(&mut self, took: Duration) {
        self.thinking += took;
        self.longest = self.longest.max(took);
        self.moves += 1;
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The match's settings, from the environment.
struct Match {
    games: u32,
    level: u8,
    size: u8,
    seconds: Option<f64>,
    playouts: Option<u32>,
    komi: String,
    resign: f64,
    jobs: u32,
}

/// One finished game.
struct Game {
    ours_black: bool,
    plies: u32,
    result: String,
    ours_score: String,
    won: bool,
    won_our_rules: bool,
    ours: Player,
    gnu: Player,
}

fn play(m: &Match, game: u32) -> Game {
    let ours_black = game % 2 == 0;
    // OURS replaces the native engine with another command line (the wasm build under Node).
    let ours_command = std::env::var("OURS").unwrap_or_default();
    let mut words = ours_command.split_whitespace().map(str::to_string);
    let binary = words
        .next()
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_gridarena").to_string());
    let mut args: Vec<String> = words.collect();
    if args.is_empty() && ours_command.is_empty() {
        args = vec!["go".to_string(), "gtp".to_string()];
    }
    args.extend([
        "--seed".to_string(),
        game.to_string(),
        "--resign-below".to_string(),
        m.resign.to_string(),
    ]);
    if let Some(p) = m.playouts {
        args.extend(["--playouts".to_string(), p.to_string()]);
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut ours = Player::new(Engine::start("GridArena", &binary, &refs));
    let start = |e: &mut Engine| {
        e.ok(&format!("boardsize {}", m.size));
        e.ok("clear_board");
        e.ok(&format!("komi {}", m.komi));
    };
    let mut gnu = Player::new(Engine::gnugo(m.level));
    start(&mut ours.engine);
    start(&mut gnu.engine);
    let mut played: Vec<String> = Vec::new();
    let mut crashes = 0;
    if let Some(s) = m.seconds {
        ours.send(&format!("time_settings 0 {s} 1"));
    }
    let (mut color, mut passes, mut plies) = ("black", 0, 0);
    let mut resigned: Option<&str> = None;
    let max_plies = 4 * u32::from(m.size) * u32::from(m.size);
    while passes < 2 && plies < max_plies {
        let ours_to_move = (color == "black") == ours_black;
        let (mover, other) = if ours_to_move {
            (&mut ours, &mut gnu)
        } else {
            (&mut gnu, &mut ours)
        };
        let mv = if ours_to_move {
            mover.genmove(color)
        } else {
            // GNU Go crashes on some 19x19 positions: see `genmove_surviving_crashes`.
            let started = Instant::now();
            let mv = mover
                .engine
                .genmove_surviving_crashes(
                    &format!("genmove {color}"),
                    &played,
                    &mut crashes,
                    || {
                        let mut e = Engine::gnugo(m.level);
                        start(&mut e);
                        e
                    },
                )
                .to_ascii_uppercase();
            mover.count(started.elapsed());
            mv
        };
        if mv == "RESIGN" {
            resigned = Some(color);
            break;
        }
        let play = format!("play {color} {mv}");
        other.send(&play);
        played.push(play);
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
    // Under GridArena's own rules every stone left on the board counts (docs/go.md).
    let by_our_rules = if resigned.is_some() {
        &result
    } else {
        &ours_score
    };
    Game {
        ours_black,
        plies,
        won: result.starts_with(ours_color),
        won_our_rules: by_our_rules.starts_with(ours_color),
        result,
        ours_score,
        ours,
        gnu,
    }
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` runs this too, and then nothing is played.
    let testing = !std::env::args().any(|a| a == "--bench");
    let m = Match {
        games: env_or("GAMES", if testing { 0 } else { 20 }),
        level: env_or("LEVEL", 10),
        size: env_or("SIZE", 9),
        seconds: std::env::var("SECONDS").ok().and_then(|v| v.parse().ok()),
        playouts: std::env::var("PLAYOUTS").ok().and_then(|v| v.parse().ok()),
        komi: env_or("KOMI", "7.5".to_string()),
        resign: env_or("RESIGN", 0.0),
        jobs: env_or("JOBS", 1u32).max(1),
    };
    if m.games == 0 {
        println!("go_vs_gnugo: skipped outside `cargo bench` (set GAMES to play)");
        return;
    }
    let budget = match (m.seconds, m.playouts) {
        (Some(s), _) => format!("{s} s a move"),
        (None, Some(p)) => format!("{p} playouts a move"),
        (None, None) => "default playouts".to_string(),
    };
    println!(
        "GridArena ({budget}) vs GNU Go level {}, {size}x{size}, komi {}, {} games, {} at once",
        m.level,
        m.komi,
        m.games,
        m.jobs,
        size = m.size
    );
    let started = Instant::now();
    let mut games: Vec<(u32, Game)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..m.jobs)
            .map(|job| {
                let m = &m;
                scope.spawn(move || {
                    (job..m.games)
                        .step_by(m.jobs as usize)
                        .map(|i| {
                            let g = play(m, i);
                            println!(
                                "game {:>2}: GridArena {:<5} {:>3} plies  GNU Go's count {:<7} ours {:<7} {}",
                                i + 1,
                                if g.ours_black { "black" } else { "white" },
                                g.plies,
                                g.result,
                                g.ours_score,
                                if g.won { "win" } else { "loss" }
                            );
                            (i, g)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a game thread"))
            .collect()
    });
    games.sort_by_key(|(i, _)| *i);
    let count = |f: &dyn Fn(&Game) -> bool| games.iter().filter(|(_, g)| f(g)).count();
    let wins = count(&|g| g.won);
    let total = games.len();
    println!(
        "by GridArena's own count (no dead-stone removal) it won {} of {total}",
        count(&|g| g.won_our_rules)
    );
    println!(
        "GridArena won {wins} of {total} ({:.0}%; {} of {} as black, {} of {} as white), lost {}",
        100.0 * wins as f64 / total as f64,
        count(&|g| g.won && g.ours_black),
        count(&|g| g.ours_black),
        count(&|g| g.won && !g.ours_black),
        count(&|g| !g.ours_black),
        total - wins
    );
    let sum = |f: &dyn Fn(&Game) -> &Player| {
        games.iter().fold(
            (Duration::ZERO, 0u32, Duration::ZERO),
            |(t, n, l), (_, g)| {
                let p = f(g);
                (t + p.thinking, n + p.moves, l.max(p.longest))
            },
        )
    };
    let (ours_time, ours_moves, ours_longest) = sum(&|g| &g.ours);
    let (gnu_time, gnu_moves, _) = sum(&|g| &g.gnu);
    let per_move = |t: Duration, n: u32| t.as_secs_f64() / f64::from(n.max(1));
    println!(
        "seconds per move: GridArena {:.3} ({ours_moves} moves, longest {:.3}), GNU Go {:.3} ({gnu_moves} moves); {:.0} s in all",
        per_move(ours_time, ours_moves),
        ours_longest.as_secs_f64(),
        per_move(gnu_time, gnu_moves),
        started.elapsed().as_secs_f64()
    );
}
