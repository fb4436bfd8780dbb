//! What a program player costs per move, and how fast two programs play a game.
//!
//! - **per move, spawn to parsed move**: wall time of [`ProgramPlayer::ask`] on the classic start for the
//!   Python starters in both formats (`ai/course`, `ai/lines`), and for a shell one-liner that writes a
//!   fixed answer at once (the referee's own overhead: the folder, `input.txt`, the spawn, the wait, the
//!   read and the parse). The line format's first move includes starting the interpreter.
//! - **a course code entry's move**, sandboxed: the course starter and a script that only writes its
//!   answer, as a process per move (`python3 MAIN`, as before the warm interpreter) and as forks of the
//!   game's warm interpreter (what a course entry plays as), beside the starter run again by one plain
//!   interpreter with `runpy` (the floor the warm move is measured against: no start, no sandbox, no
//!   referee) and, lower still, that interpreter running the starter's code compiled once (no compile
//!   either, as the warm interpreter's moves do while the script is unchanged).
//! - **games per second**: two trivial course programs (`sh` writing a fixed move, refused after the
//!   first) through [`play_game`], 40 plies a game.
//!
//! `cargo bench -p gridarena-cli --bench programs`; without `--bench` it asks a few moves as a smoke test.

use gridarena_cli::program::{Ask, Clock, ProgramPlayer};
use gridarena_cli::runner::{match_game, play_game, Player};
use gridarena_engine::halma::play::Policy;
use gridarena_engine::halma::ContentType;
use gridarena_engine::halma::{Answer, Game, Preset, Program, ProgramFormat, Team, Teams};
use gridarena_engine::tournament::settings::Settings;
use std::path::Path;
use std::time::{Duration, Instant};

fn root() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .display()
        .to_string()
}

fn program(format: ProgramFormat, dir: &str, command: &str) -> ProgramPlayer {
    let program = Program::new(format, dir, command).expect("a program");
    ProgramPlayer::new(program, Clock::default())
}

/// Asks `moves` moves of one game; returns each move's wall time.
fn moves(player: &ProgramPlayer, game: &Game, moves: usize) -> Vec<Duration> {
    let team = game.movers()[0];
    let times = (0..moves)
        .map(|_| {
            let start = Instant::now();
            let reply = player.ask(&Ask {
                game,
                team,
                seed: 1,
                single: false,
                limit: None,
                request: None,
            });
            let took = start.elapsed();
            assert!(
                matches!(reply.answer, Answer::Move(_)),
                "{}: {:?}",
                player.program(),
                reply.answer
            );
            took
        })
        .collect();
    player.end_game();
    times
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A code entry's move in each format, in the sandbox. The course format: the course starter and a
/// script that only writes its answer, each a fresh game's moves, as forks of the game's warm
/// interpreter (what a course entry plays as) and as a process per move (`python3 MAIN` each move, as
/// before the warm interpreter), beside one plain interpreter running the starter again with `runpy`
/// (no sandbox, no referee: the floor). Then the function starter.
fn code_moves(root: &str, game: &Game, n: usize) {
    use gridarena_cli::code::{interpreter, read_path, CodePlayer};
    use gridarena_engine::halma::code::{CodeFile, Format, HashedSource, Lang, Source};
    use std::sync::Arc;
    let entry = |path: &str| {
        let source = read_path(Path::new(&format!("{root}/{path}"))).expect("a starter");
        CodePlayer::new(Arc::new(HashedSource::new(source)), Clock::default()).expect("python3")
    };
    let python = interpreter(Lang::Python).expect("python3");
    let fixed = Source {
        lang: Lang::Python,
        format: Format::Course,
        main: "main.py".to_string(),
        files: vec![CodeFile::text(
            "main.py",
            "with open('output.txt', 'w') as f:\n    f.write('E 4,0 5,0\\n')\n",
        )],
    };
    let mut warm_starter = Duration::ZERO;
    for (what, source) in [
        (
            "course starter",
            read_path(Path::new(&format!("{root}/ai/course/halma_course.py"))).expect("a starter"),
        ),
        ("a script writing a fixed move", fixed),
    ] {
        let source = Arc::new(HashedSource::new(source));
        let CodePlayer::Course(warm) =
            CodePlayer::new(Arc::clone(&source), Clock::default()).expect("python3")
        else {
            panic!("a course entry");
        };
        let per_move = ProgramPlayer::of_code(
            warm.program().clone(),
            Clock::default(),
            Arc::clone(&source),
            Arc::clone(&python.sandbox),
        );
        let before = median(moves(&per_move, game, n));
        let after = median(moves(&warm, game, n));
        if what == "course starter" {
            warm_starter = after;
        }
        println!(
            "  code entry, course, {what}, sandboxed: {:8.2} ms a process per move, {:8.2} ms warm ({:.1}x)",
            ms(before),
            ms(after),
            before.as_secs_f64() / after.as_secs_f64()
        );
    }
    if let Some((runpy, exec)) = runpy_move(root, &python.exe, game, n) {
        println!(
            "  course starter run again by one interpreter with runpy (no sandbox, no referee): {:8.2} ms \
             (the warm move is {:.2}x that)",
            ms(runpy),
            ms(warm_starter) / ms(runpy)
        );
        println!(
            "  course starter's code compiled once, run again by one interpreter (no compile either): {:8.2} ms",
            ms(exec)
        );
    }
    let CodePlayer::Function(function) = entry("ai/page/halma_function.py") else {
        panic!("the function starter is a function entry");
    };
    let team = game.movers()[0];
    let mut times: Vec<Duration> = (0..=n)
        .map(|_| {
            let start = Instant::now();
            let (asked, _) = function.ask(game, team, 1, Duration::from_secs(20));
            let took = start.elapsed();
            assert!(
                matches!(asked.answer, Answer::Move(_)),
                "{:?}",
                asked.answer
            );
            took
        })
        .collect();
    function.end_game();
    let first = times.remove(0);
    println!(
        "  code entry, function starter, sandboxed: {:8.2} ms a move after the first ({:.2} ms with the runner's start)",
        ms(median(times)),
        ms(first)
    );
}

/// The median times of one plain interpreter running the course starter again in its folder, `n` times
/// each, on the classic start's input.txt: with `runpy` (what a move costs with no start at all), and
/// as its code compiled once (no compile either).
fn runpy_move(root: &str, exe: &Path, game: &Game, n: usize) -> Option<(Duration, Duration)> {
    use gridarena_engine::halma::course::{input_txt, Occasion};
    let dir = std::env::temp_dir().join(format!("gridarena-bench-runpy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::copy(
        format!("{root}/ai/course/halma_course.py"),
        dir.join("main.py"),
    )
    .ok()?;
    let team = game.movers()[0];
    let input = input_txt(game, team, 300.0, Occasion::FirstMove).ok()?;
    std::fs::write(dir.join("input.txt"), input).ok()?;
    let script = format!(
        "import runpy, sys, time, contextlib, io\n\
         def median(run):\n\
         \x20   times = []\n\
         \x20   for _ in range({n}):\n\
         \x20       t = time.perf_counter()\n\
         \x20       with contextlib.redirect_stdout(io.StringIO()):\n\
         \x20           try:\n\
         \x20               run()\n\
         \x20           except SystemExit:\n\
         \x20               pass\n\
         \x20       times.append(time.perf_counter() - t)\n\
         \x20   return sorted(times)[len(times) // 2]\n\
         code = compile(open('main.py', 'rb').read(), 'main.py', 'exec', dont_inherit=True)\n\
         print(median(lambda: runpy.run_path('main.py', run_name='__main__')),\n\
         \x20     median(lambda: exec(code, {{'__name__': '__main__', '__file__': 'main.py'}})))\n"
    );
    let out = std::process::Command::new(exe)
        .args(["-c", &script])
        .current_dir(&dir)
        .output()
        .ok();
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut secs = text.split_whitespace().map(|s| s.parse::<f64>().ok());
    let (runpy, exec) = (secs.next()??, secs.next()??);
    Some((
        Duration::from_secs_f64(runpy),
        Duration::from_secs_f64(exec),
    ))
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let n = if bench { 30 } else { 2 };
    let game = Game::new(&Preset::Classic.rules(), 1).expect("classic");
    let root = root();
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let mover = if game.movers()[0] == Team::Red {
        "E 4,0 5,0"
    } else {
        "E 11,15 10,15"
    };
    let trivial = format!("echo '{mover}' > output.txt");
    let empty = std::env::temp_dir().join(format!("gridarena-bench-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("a folder");
    let empty = empty.display().to_string();
    let shell = program(ProgramFormat::Course, &empty, &trivial);
    let fixed = moves(&shell, &game, n);
    println!("program players, {n} moves each on the classic start (median wall time, spawn to parsed move):");
    println!(
        "  course, sh writing a fixed move:   {:8.2} ms",
        ms(median(fixed))
    );
    if python {
        let course = program(
            ProgramFormat::Course,
            &format!("{root}/ai/course"),
            "python3 halma_course.py",
        );
        let times = moves(&course, &game, n);
        println!(
            "  course, ai/course (Python):        {:8.2} ms",
            ms(median(times))
        );
        let lines = program(
            ProgramFormat::Lines,
            &format!("{root}/ai"),
            "python3 lines/halma_lines.py",
        );
        let times = moves(&lines, &game, n);
        let first = times[0];
        println!(
            "  lines, ai/lines (Python):          {:8.2} ms a move after the first ({:.2} ms with the interpreter's start)",
            ms(median(times[1..].to_vec())),
            ms(first)
        );
        code_moves(&root, &game, n);
    } else {
        println!("  (python3 is not installed: the starters are not measured)");
    }

    let games = if bench { 10 } else { 1 };
    let settings = Settings {
        preset: Preset::Classic,
        max_turns: Some(40),
        policy: Policy::Lenient,
        ..Settings::default()
    };
    let players = Teams {
        red: Player::Program(program(
            ProgramFormat::Course,
            &empty,
            "echo 'E 4,0 5,0' > output.txt",
        )),
        blue: Player::Program(program(
            ProgramFormat::Course,
            &empty,
            "echo 'E 11,15 10,15' > output.txt",
        )),
    };
    let start = Instant::now();
    let mut plies = 0;
    for seed in 0..games {
        let seats = Teams::from_fn(|t| players[t].kind().seat(ContentType::default()));
        let game = match_game(&settings, seed, seats).expect("classic");
        let played = play_game(game, &players, 60_000, &mut ()).expect("plays");
        plies += played.report.ticks;
    }
    let took = start.elapsed().as_secs_f64();
    println!(
        "two trivial course programs: {games} games of {} plies in {took:.2} s: {:.2} games/s, {:.0} plies/s",
        plies / u32::try_from(games).unwrap_or(1),
        f64::from(u32::try_from(games).unwrap_or(1)) / took,
        f64::from(plies) / took
    );
    let _ = std::fs::remove_dir_all(&empty);
}
