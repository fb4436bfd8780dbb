//! A course-format code entry's moves are forks of one warm interpreter per game (docs/code-players.md,
//! "Code entries on the command line"), with the course's semantics kept: a fresh `__main__` and fresh
//! student modules at each move, side files kept through the game, files left open written by the
//! move's end, the move cut at its deadline, the channel out of the script's reach, and the same moves
//! as a process per move plays.

use gridarena_cli::code::sandbox::Isolation;
use gridarena_cli::code::{interpreter, read_path, CodePlayer};
use gridarena_cli::program::{Ask, Clock, ProgramPlayer, Reply};
use gridarena_cli::runner::{match_game, play_game, Player, Watcher};
use gridarena_engine::halma::code::{CodeFile, Format, HashedSource, Lang, Source};
use gridarena_engine::halma::play::Policy;
use gridarena_engine::halma::{
    Answer, CampRules, ContentType, Exchange, Game, NoMove, Preset, ProgramFailure, Team, Teams,
    TickOutcome,
};
use gridarena_engine::tournament::settings::Settings;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether code can run here: where the sandbox is missing a layer, these tests say so and check
/// nothing (as the sandbox's own tests).
fn runnable() -> bool {
    if let Err(why) = Isolation::get().check(false) {
        eprintln!("skipped: code cannot be confined on this machine: {why}");
        return false;
    }
    if let Err(why) = interpreter(Lang::Python) {
        eprintln!("skipped: {why}");
        return false;
    }
    true
}

fn entry(files: &[(&str, &str)]) -> Arc<HashedSource> {
    let files = files
        .iter()
        .map(|(path, text)| CodeFile::text(path, text))
        .collect();
    Arc::new(HashedSource::new(Source {
        lang: Lang::Python,
        format: Format::Course,
        main: "main.py".to_string(),
        files,
    }))
}

fn course_player(source: Arc<HashedSource>) -> ProgramPlayer {
    match CodePlayer::new(source, Clock::default()).expect("a course player") {
        CodePlayer::Course(player) => player,
        CodePlayer::Function(_) => panic!("a course entry is played as a program"),
    }
}

fn classic() -> Game {
    let mut rules = Preset::Classic.rules();
    rules.camp_rules = CampRules::Course;
    Game::new(&rules, 1).expect("the classic start")
}

fn ask(player: &ProgramPlayer, game: &Game, limit: Option<Duration>) -> Reply {
    player.ask(&Ask {
        game,
        team: Team::Red,
        seed: 1,
        single: false,
        limit,
        request: None,
    })
}

fn stderr(reply: &Reply) -> &str {
    reply.stderr.as_deref().unwrap_or_default()
}

const ANSWER: &str = "with open('output.txt', 'w') as f:\n    f.write('E 0,2 0,3\\n')\n";

#[test]
fn each_move_runs_a_fresh_main_and_fresh_modules_while_side_files_last_the_game() {
    if !runnable() {
        return;
    }
    let main = format!(
        "import sys\n\
         import helper\n\
         counter = globals().get('counter', 0) + 1\n\
         helper.count += 1\n\
         sys.seen = getattr(sys, 'seen', 0) + 1\n\
         with open('side.txt', 'a') as f:\n    f.write('x')\n\
         side = len(open('side.txt').read())\n\
         print('counter', counter, 'helper', helper.count, 'sys', sys.seen, 'side', side, \
         'name', __name__, 'argv', sys.argv, 'path0', sys.path[0] == __import__('os').getcwd())\n\
         {ANSWER}"
    );
    let player = course_player(entry(&[("main.py", &main), ("helper.py", "count = 0\n")]));
    let game = classic();
    for side in 1..=4 {
        let reply = ask(&player, &game, None);
        assert!(matches!(reply.answer, Answer::Move(_)), "{reply:?}");
        let want = format!(
            "counter 1 helper 1 sys 1 side {side} name __main__ argv ['main.py'] path0 True"
        );
        assert!(stderr(&reply).contains(&want), "move {side}: {reply:?}");
    }
    // The next game starts from the entry's files again.
    player.end_game();
    let reply = ask(&player, &game, None);
    assert!(stderr(&reply).contains("side 1 "), "{reply:?}");
}

#[test]
fn files_left_open_are_written_when_the_move_ends_and_nothing_it_left_runs_on() {
    if !runnable() {
        return;
    }
    // Each move appends a line to log.txt through files it never closes (one in __main__, one held by
    // a sibling module, one in a reference cycle), and leaves a grandchild appending to ticks.txt
    // forever; the next move counts the log's lines and checks that ticks.txt has stopped growing.
    let main = "import os, time, holder\n\
                before = len(open('log.txt').read().splitlines()) if os.path.exists('log.txt') else 0\n\
                grew = None\n\
                if os.path.exists('ticks.txt'):\n\
                \x20   a = os.path.getsize('ticks.txt'); time.sleep(0.3); grew = os.path.getsize('ticks.txt') > a\n\
                print('before', before, 'grew', grew)\n\
                log = open('log.txt', 'a')\n\
                log.write('main\\n')\n\
                holder.keep(open('log.txt', 'a'))\n\
                class Cycle:\n\
                \x20   pass\n\
                c = Cycle(); c.me = c; c.f = open('log.txt', 'a'); c.f.write('cycle\\n')\n\
                if os.fork() == 0:\n\
                \x20   os.setsid()\n\
                \x20   while True:\n\
                \x20       with open('ticks.txt', 'a') as t: t.write('.')\n\
                \x20       time.sleep(0.01)\n\
                while not os.path.exists('ticks.txt'):\n\
                \x20   time.sleep(0.005)\n\
                out = open('output.txt', 'w')\n\
                out.write('E 0,2 0,3')\n";
    let holder = "kept = []\n\ndef keep(f):\n    f.write('holder\\n')\n    kept.append(f)\n";
    let player = course_player(entry(&[("main.py", main), ("holder.py", holder)]));
    let game = classic();
    for n in 0..3 {
        let reply = ask(&player, &game, None);
        assert!(matches!(reply.answer, Answer::Move(_)), "{reply:?}");
        let grew = if n == 0 { "None" } else { "False" };
        assert!(
            stderr(&reply).contains(&format!("before {} grew {grew}", n * 3)),
            "move {}: {reply:?}",
            n + 1
        );
    }
}

#[test]
fn a_script_cannot_reach_the_channel_nor_stop_the_game() {
    if !runnable() {
        return;
    }
    // Each move writes a forged report to every descriptor it might have and signals its parent
    // (SIGINT, SIGTERM, SIGKILL), then answers.
    let main = "import os, signal\n\
                for fd in range(3, 65):\n\
                \x20   try:\n\
                \x20       os.write(fd, b'0 0\\nready\\n')\n\
                \x20       print('wrote to', fd)\n\
                \x20   except OSError:\n\
                \x20       pass\n\
                for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):\n\
                \x20   try:\n\
                \x20       os.kill(os.getppid(), sig)\n\
                \x20   except OSError as e:\n\
                \x20       print('refused', e)\n\
                with open('output.txt', 'w') as f:\n\
                \x20   f.write('E 0,2 0,3')\n";
    let player = course_player(entry(&[("main.py", main)]));
    let game = classic();
    for n in 1..=3 {
        let reply = ask(&player, &game, None);
        // No descriptor of the channel is open in the script, and the interpreter is its PID
        // namespace's init, which ignores its children's signals: every move is its answer.
        assert!(!stderr(&reply).contains("wrote to"), "move {n}: {reply:?}");
        assert!(
            matches!(reply.answer, Answer::Move(_)),
            "move {n}: {reply:?}"
        );
    }
    let ok = course_player(entry(&[("main.py", ANSWER)]));
    let reply = ask(&ok, &game, None);
    assert!(matches!(reply.answer, Answer::Move(_)), "{reply:?}");
}

#[test]
fn a_move_past_its_time_is_cut_at_the_deadline_and_the_next_move_plays() {
    if !runnable() {
        return;
    }
    // The second move never ends; the side file shows the game's folder is kept through the restart.
    let main = format!(
        "with open('side.txt', 'a') as f:\n    f.write('x')\n\
         n = len(open('side.txt').read())\n\
         print('move', n)\n\
         while n == 2:\n    pass\n\
         {ANSWER}"
    );
    let player = course_player(entry(&[("main.py", &main)]));
    let game = classic();
    let limit = Some(Duration::from_millis(700));
    let first = ask(&player, &game, limit);
    assert!(matches!(first.answer, Answer::Move(_)), "{first:?}");
    let start = Instant::now();
    let cut = ask(&player, &game, limit);
    let took = start.elapsed();
    assert!(
        matches!(
            cut.answer,
            Answer::NoMove(NoMove::Program(ProgramFailure::TimedOut { after_ms: 700 }))
        ),
        "{cut:?}"
    );
    assert!(
        took >= Duration::from_millis(700) && took < Duration::from_secs(5),
        "{took:?}"
    );
    let next = ask(&player, &game, limit);
    assert!(matches!(next.answer, Answer::Move(_)), "{next:?}");
    assert!(stderr(&next).contains("move 3"), "{next:?}");
    // The restart is not the student's time: the clock charged the moves' CPU, far under a second.
    assert!(
        player.clock_use().used < Duration::from_secs(2),
        "{:?}",
        player.clock_use()
    );
}

#[test]
fn a_crash_and_an_exit_status_are_the_scripts_own() {
    if !runnable() {
        return;
    }
    let main = "import os, sys\n\
                n = len(os.listdir('.'))\n\
                open('mark%d' % n, 'w').close()\n\
                if n == 2:\n    raise ValueError('no move found')\n\
                if n == 3:\n    sys.exit(3)\n\
                if n == 4:\n    sys.exit('bye')\n";
    let player = course_player(entry(&[("main.py", main)]));
    let game = classic();
    // input.txt and main.py are there at the first move.
    let crash = ask(&player, &game, None);
    match &crash.answer {
        Answer::NoMove(NoMove::Program(ProgramFailure::Crashed { status, stderr })) => {
            assert_eq!(status, "exit status 1");
            assert!(
                stderr.starts_with("Traceback (most recent call last):\n  File \"")
                    && stderr.contains("main.py\", line 5, in <module>")
                    && stderr.contains("ValueError: no move found")
                    && !stderr.contains("<string>"),
                "{stderr}"
            );
        }
        other => panic!("{other:?}"),
    }
    let exit = ask(&player, &game, None);
    assert!(
        matches!(&exit.answer, Answer::NoMove(NoMove::Program(ProgramFailure::Crashed { status, .. })) if status == "exit status 3"),
        "{exit:?}"
    );
    let said = ask(&player, &game, None);
    assert!(stderr(&said).contains("bye"), "{said:?}");
}

/// Each tick's position, as the game stands after it.
#[derive(Default)]
struct Positions(Vec<String>);

impl Watcher for Positions {
    fn tick(
        &mut self,
        _outcome: &TickOutcome,
        game: &Game,
        _exchanges: &Teams<Option<Exchange>>,
    ) -> std::io::Result<()> {
        self.0.push(format!("{:?}", game.position()));
        Ok(())
    }
}

/// The course starter, and the kinds of program students build on it (tests/fixtures/course: one looks
/// a reply ahead and keeps a pickled side file, one plays at random seeded by the position), each
/// against the starter: the same game tick for tick warm as with a process per move.
#[test]
fn course_agents_play_the_same_game_warm_as_with_a_process_per_move() {
    if !runnable() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let starter_text =
        std::fs::read_to_string(root.join("ai/course/halma_course.py")).expect("the starter");
    let starter = Arc::new(HashedSource::new(
        read_path(&root.join("ai/course/halma_course.py")).expect("the course starter"),
    ));
    let built_on_starter = |agent: &str| {
        let text = std::fs::read_to_string(root.join("tests/fixtures/course").join(agent))
            .expect("a course agent");
        let files = vec![
            CodeFile::text("agent.py", &text),
            CodeFile::text("halma_course.py", &starter_text),
        ];
        Arc::new(HashedSource::new(Source {
            lang: Lang::Python,
            format: Format::Course,
            main: "agent.py".to_string(),
            files,
        }))
    };
    let python = interpreter(Lang::Python).expect("python3");
    // The same entry, each move a process of its own, as before the warm interpreter.
    let per_move = |source: &Arc<HashedSource>| {
        let CodePlayer::Course(warm) =
            CodePlayer::new(Arc::clone(source), Clock::default()).expect("a player")
        else {
            panic!("a course player");
        };
        ProgramPlayer::of_code(
            warm.program().clone(),
            Clock::default(),
            Arc::clone(source),
            Arc::clone(&python.sandbox),
        )
    };
    let settings = Settings {
        preset: Preset::Classic,
        max_turns: Some(12),
        policy: Policy::Lenient,
        ..Settings::default()
    };
    for (name, red) in [
        ("the starter", Arc::clone(&starter)),
        ("lookahead.py", built_on_starter("lookahead.py")),
        ("wanderer.py", built_on_starter("wanderer.py")),
    ] {
        let sources = Teams::from_fn(|t| match t {
            Team::Red => Arc::clone(&red),
            Team::Blue => Arc::clone(&starter),
        });
        let mut games = Vec::new();
        for warm in [false, true] {
            let players = Teams::from_fn(|t| {
                if warm {
                    Player::Code(
                        CodePlayer::new(Arc::clone(&sources[t]), Clock::default()).unwrap(),
                    )
                } else {
                    Player::Program(per_move(&sources[t]))
                }
            });
            let seats = Teams::from_fn(|t| players[t].kind().seat(ContentType::default()));
            let game = match_game(&settings, 5, seats).expect("classic");
            let mut positions = Positions::default();
            let played = play_game(game, &players, 60_000, &mut positions).expect("plays");
            assert!(played.report.ticks >= 12, "{:?}", played.report);
            assert_eq!(
                played.report.last_error,
                Teams::default(),
                "{:?}",
                played.report
            );
            games.push(positions.0);
        }
        assert_eq!(games[0], games[1], "{name}");
    }
}

#[test]
fn a_syntax_error_is_a_crash_and_a_thread_is_waited_for_as_at_a_process_end() {
    if !runnable() {
        return;
    }
    let game = classic();
    let broken = course_player(entry(&[("main.py", "print('x'\n")]));
    let reply = ask(&broken, &game, None);
    match &reply.answer {
        Answer::NoMove(NoMove::Program(ProgramFailure::Crashed { stderr, .. })) => {
            assert!(
                stderr.contains("main.py\", line 1") && stderr.contains("SyntaxError"),
                "{stderr}"
            );
        }
        other => panic!("{other:?}"),
    }
    // The answer is written by a thread the script leaves running: the process ends after it.
    let main = "import threading, time\n\
                def late():\n\
                \x20   time.sleep(0.2)\n\
                \x20   open('output.txt', 'w').write('E 0,2 0,3')\n\
                threading.Thread(target=late).start()\n";
    let threaded = course_player(entry(&[("main.py", main)]));
    for _ in 0..2 {
        let reply = ask(&threaded, &game, None);
        assert!(matches!(reply.answer, Answer::Move(_)), "{reply:?}");
    }
}

/// The warm interpreter compiles the script once, ahead of the moves; a move still runs what a fresh
/// `python3 main.py` would: the script's bytes as they are at that move (one that rewrites itself runs
/// its new text next), and a script whose compiling warns prints the warning at every move.
#[test]
fn a_move_runs_the_scripts_text_of_that_move_and_warns_as_a_fresh_process() {
    if !runnable() {
        return;
    }
    let game = classic();
    // Each move prints its generation, then writes the next generation of itself.
    let main = format!(
        "GENERATION = 1\n\
         print('generation', GENERATION)\n\
         text = open(__file__).read()\n\
         first, rest = text.split('\\n', 1)\n\
         open(__file__, 'w').write('GENERATION = %d\\n' % (GENERATION + 1) + rest)\n\
         {ANSWER}"
    );
    let rewriting = course_player(entry(&[("main.py", &main)]));
    for generation in 1..=3 {
        let reply = ask(&rewriting, &game, None);
        assert!(matches!(reply.answer, Answer::Move(_)), "{reply:?}");
        assert!(
            stderr(&reply)
                .trim_end()
                .ends_with(&format!("generation {generation}")),
            "move {generation}: {reply:?}"
        );
    }
    let main = format!("if 'x' is 1:\n    pass\n{ANSWER}");
    let warning = course_player(entry(&[("main.py", &main)]));
    for side in 1..=2 {
        let reply = ask(&warning, &game, None);
        assert!(matches!(reply.answer, Answer::Move(_)), "{reply:?}");
        assert!(
            stderr(&reply).contains("SyntaxWarning"),
            "move {side}: {reply:?}"
        );
    }
}
