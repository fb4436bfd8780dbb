//! The Go AI as WebAssembly, for `benches/go_gtp_wasm.mjs`: the same search the page's Web Worker runs,
//! driven over GTP by Node, so the GNU Go bench can measure its strength and speed as wasm.
//!
//! A `cdylib` with plain C-ABI exports, no wasm-bindgen. It imports one function, `env.now()`, the
//! host's clock in milliseconds, which the search reads to stop on time (the engine itself has no
//! clock). One game at a time lives in the module.
//!
//! Exports (any argument is checked; nothing traps):
//! - `go_new(size, komi_half_points, seed)`: a new game; 0, or 1 for a size outside 2..=19.
//! - `go_komi(komi_half_points)`: the komi, the game going on.
//! - `go_play(color, x, y)`: 0 black, 1 white; `x < 0` passes; 0 played, 1 refused.
//! - `go_time_settings(main_s, byo_yomi_s, stones)`, `go_time_left(color, seconds, stones)`: GTP's.
//! - `go_genmove(color, resign_below)`: the AI's move, played: `y * 32 + x`, -1 a pass, -2 resign.
//! - `go_playouts()`: the simulations of the last genmove.
//! - `go_score_ptr()`, `go_score_len()`: the area count or the result ("B+3.5"), UTF-8.

use gridarena_engine::go::{
    mcts, BoardSize, Clock, Color, Game, Komi, Mcts, Memory, Move, Point, TimeControl,
};
use std::cell::RefCell;
use std::time::Duration;

extern "C" {
    /// Milliseconds from the host (Node's `performance.now()`).
    fn now() -> f64;
}

struct State {
    game: Game,
    memory: Memory,
    seed: u64,
    clocks: [Option<Clock>; 2],
    playouts: u32,
    score: String,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        game: Game::new(BoardSize::NINE),
        memory: Memory::default(),
        seed: 0,
        clocks: [None; 2],
        playouts: 0,
        score: String::new(),
    });
}

fn color(c: u32) -> Color {
    if c == 0 {
        Color::Black
    } else {
        Color::White
    }
}

fn host_ms() -> f64 {
    // SAFETY: `now` is a plain host function with no arguments and no memory access.
    unsafe { now() }
}

#[no_mangle]
pub extern "C" fn go_new(size: u32, komi_half_points: i32, seed: u64) -> u32 {
    let Ok(size) = BoardSize::new(size) else {
        return 1;
    };
    let komi = Komi::from_half_points(komi_half_points.clamp(-2000, 2000) as i16);
    STATE.with_borrow_mut(|s| {
        s.game = Game::with_komi(size, komi);
        s.memory.clear();
        s.seed = seed;
        s.clocks = [None; 2];
    });
    0
}

#[no_mangle]
pub extern "C" fn go_komi(komi_half_points: i32) {
    let komi = Komi::from_half_points(komi_half_points.clamp(-2000, 2000) as i16);
    STATE.with_borrow_mut(|s| s.game.set_komi(komi));
}

#[no_mangle]
pub extern "C" fn go_play(c: u32, x: i32, y: i32) -> u32 {
    STATE.with_borrow_mut(|s| {
        let mv = if x < 0 {
            Move::Pass
        } else {
            match (u8::try_from(x), u8::try_from(y)) {
                (Ok(x), Ok(y)) => match Point::new(x, y) {
                    Some(p) => Move::Play(p),
                    None => return 1,
                },
                _ => return 1,
            }
        };
        u32::from(s.game.play_as(color(c), mv).is_err())
    })
}

fn seconds(s: f64) -> Duration {
    Duration::from_secs_f64(if s.is_finite() {
        s.clamp(0.0, 1e7)
    } else {
        0.0
    })
}

#[no_mangle]
pub extern "C" fn go_time_settings(main: f64, byo_yomi: f64, stones: u32) {
    let control = TimeControl::new(seconds(main), seconds(byo_yomi), stones);
    STATE.with_borrow_mut(|s| s.clocks = [control.map(Clock::new); 2]);
}

#[no_mangle]
pub extern "C" fn go_time_left(c: u32, left: f64, stones: u32) {
    STATE.with_borrow_mut(|s| {
        if let Some(clock) = &mut s.clocks[usize::from(c != 0)] {
            clock.set_left(seconds(left), stones);
        }
    });
}

#[no_mangle]
pub extern "C" fn go_genmove(c: u32, resign_below: f64) -> i32 {
    STATE.with_borrow_mut(|s| {
        let color = color(c);
        let ai = Mcts::default().with_resign_below(Some(resign_below).filter(|&r| r > 0.0));
        let seed = mcts::move_seed(s.seed, &s.game);
        let started = host_ms();
        let d = ai.think_on_clock(
            &s.game,
            color,
            seed,
            &mut s.memory,
            s.clocks[usize::from(c != 0)].as_mut(),
            None,
            || seconds((host_ms() - started) / 1000.0),
        );
        s.playouts = d.playouts;
        if s.game.play_as(color, d.mv).is_err() {
            return -1;
        }
        match d.mv {
            Move::Play(p) => i32::from(p.y()) * 32 + i32::from(p.x()),
            Move::Pass => -1,
            Move::Resign => -2,
        }
    })
}

#[no_mangle]
pub extern "C" fn go_playouts() -> u32 {
    STATE.with_borrow(|s| s.playouts)
}

#[no_mangle]
pub extern "C" fn go_score_ptr() -> *const u8 {
    STATE.with_borrow_mut(|s| {
        s.score = match s.game.result() {
            Some(r) => r.to_string(),
            None => s.game.score().result().to_string(),
        };
        s.score.as_ptr()
    })
}

#[no_mangle]
pub extern "C" fn go_score_len() -> u32 {
    STATE.with_borrow(|s| s.score.len() as u32)
}
