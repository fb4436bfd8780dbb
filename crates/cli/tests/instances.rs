//! Several `gridarena serve` processes on one PostgreSQL database, as docs/online.md's "Several
//! instances" describes: players on different instances are paired and play each other live, a result
//! is counted once, and when the instance running a game's clock is killed (SIGKILL) another takes the
//! clock over and the players go on there.

#[path = "support/online.rs"]
mod online;
#[path = "support/pg.rs"]
mod pg;

use online::{play, Client, Server, OPENING};
use serde_json::json;
use std::time::{Duration, Instant};

/// Two instances on a fresh database, with a short clock lease (and `more` options).
fn two_instances(more: &[&str]) -> (Server, Server) {
    let db = pg::database();
    let mut options = vec!["--clock-lease-ms", "1000"];
    options.extend_from_slice(more);
    (
        Server::start_with(&db, &options),
        Server::start_with(&db, &options),
    )
}

/// Ann waits on `first`; Bob seeks on `second`, which pairs them and so runs the game's clock. Returns
/// (Ann as Black, Bob as White, game, Ann's token, Bob's token).
fn pair_across(first: &Server, second: &Server) -> (Client, Client, i64, String, String) {
    let ta = first.register("Ann");
    let tb = second.register("Bob");
    let mut ann = first.hello(&ta);
    let mut bob = second.hello(&tb);
    ann.send(json!({"type": "seek", "size": 9, "color": "black"}));
    ann.expect("waiting");
    bob.send(json!({"type": "seek", "size": 9, "color": "any"}));
    let m = bob.expect("matched");
    assert_eq!(m["color"], "white");
    assert_eq!(m["opponent"], "Ann");
    let game = m["game"].as_i64().unwrap();
    bob.expect("snapshot");
    // Ann hears of it through the database.
    let m = ann.expect("matched");
    assert_eq!(
        (m["game"].as_i64(), m["opponent"].as_str()),
        (Some(game), Some("Bob"))
    );
    ann.expect("snapshot");
    (ann, bob, game, ta, tb)
}

fn play_alternately(black: &mut Client, white: &mut Client, game: i64, moves: &[&str]) {
    for (i, mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            play(black, white, game, mv);
        } else {
            play(white, black, game, mv);
        }
    }
}

#[test]
fn players_on_two_instances_play_one_game_and_it_counts_once() {
    let (a, b) = two_instances(&[]);
    let (mut ann, mut bob, game, _, _) = pair_across(&a, &b);
    // A spectator on the first instance follows the game too.
    let tc = a.register("Cat");
    let mut cat = a.hello(&tc);
    cat.send(json!({"type": "watch", "game": game}));
    assert_eq!(cat.expect("snapshot")["game"], game);
    play_alternately(&mut ann, &mut bob, game, &OPENING);
    for _ in OPENING {
        cat.expect("move");
    }
    play(&mut ann, &mut bob, game, "pass");
    play(&mut bob, &mut ann, game, "pass");
    let ended = ann.expect("ended");
    assert_eq!(bob.expect("ended"), ended);
    cat.expect("move");
    cat.expect("move");
    assert_eq!(cat.expect("ended"), ended);
    // An even position: White wins by the komi.
    assert_eq!(ended["result"], "W+0.5");
    for server in [&a, &b] {
        assert_eq!(server.record("Ann"), (0, 1));
        assert_eq!(server.record("Bob"), (1, 0));
    }
    // A move on the finished game is refused on either instance.
    ann.send(json!({"type": "move", "game": game, "move": "E5"}));
    assert!(ann.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("over"));
}

#[test]
fn when_the_clock_instance_dies_the_other_takes_the_clock_and_the_game_goes_on() {
    let (a, b) = two_instances(&["--move-seconds", "4"]);
    let (mut ann, mut bob, game, _, tb) = pair_across(&a, &b);
    play_alternately(&mut ann, &mut bob, game, &OPENING[..4]);
    // The second instance paired them, so it runs the clock; it dies without a word.
    drop(bob);
    b.kill();
    // Bob comes back on the first instance and finds the game as it was.
    let mut bob = a.hello(&tb);
    let snap = bob.expect("snapshot");
    assert_eq!(snap["game"], game);
    assert_eq!(snap["move_number"], 4);
    play_alternately(&mut ann, &mut bob, game, &OPENING[4..]);
    play(&mut ann, &mut bob, game, "E5");
    // Bob stops moving: the first instance, which took the clock over, ends the game on time.
    let started = Instant::now();
    let ended = ann.expect("ended");
    assert_eq!(ended["result"], "B+T");
    assert_eq!(bob.expect("ended"), ended);
    let waited = started.elapsed();
    assert!(
        waited > Duration::from_secs(2) && waited < Duration::from_secs(8),
        "{waited:?}"
    );
    assert_eq!(a.record("Ann"), (1, 0));
    assert_eq!(a.record("Bob"), (0, 1));
    a.kill();
}
