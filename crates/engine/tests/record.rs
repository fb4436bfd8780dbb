//! Game records: whole games written by the `Recorder` and read back by `Record::parse`, every way a
//! record can be refused (each with its line), tampered records, and hostile input that must not panic.

mod common;

use common::path;
use gridarena_engine::halma::record::{
    Record, RecordError, Recorder, ENGINE_VERSION, MAX_LABEL_CHARS, MAX_RECORD_BYTES,
    MAX_RECORD_LINES, RECORD_FORMAT,
};
use gridarena_engine::halma::{
    Answer, Game, GameResult, GameState, Mode, NoMove, Preset, SetupError, Team, Teams, TickOutcome,
};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------------
// Playing and recording games

/// The move a simple player makes: the legal move that brings a piece closest to its nearest
/// destination, the first such move on a tie.
fn greedy(game: &Game, team: Team) -> Answer {
    let pos = game.position();
    let dist = |s: gridarena_engine::halma::Square| {
        pos.destinations(team)
            .iter()
            .map(|d| s.chebyshev(*d))
            .min()
            .unwrap_or(0)
    };
    let best = pos.moves(team).into_iter().max_by_key(|m| {
        (
            i16::from(dist(m.from)) - i16::from(dist(m.to)),
            std::cmp::Reverse(*m),
        )
    });
    match best.and_then(|m| pos.path(team, m)) {
        Some(p) => Answer::Move(p),
        None => Answer::NoMove(NoMove::Missing),
    }
}

/// The first legal move in the generator's order.
fn first_legal(game: &Game, team: Team) -> Answer {
    let pos = game.position();
    match pos.moves(team).first().and_then(|&m| pos.path(team, m)) {
        Some(p) => Answer::Move(p),
        None => Answer::NoMove(NoMove::Missing),
    }
}

/// A recorded game with everything the referee returned, to compare the parsed record against.
struct Played {
    text: String,
    states: Vec<GameState>,
    outcomes: Vec<TickOutcome>,
    result: Option<GameResult>,
}

/// Plays `game` to its end (or `max_ticks`), asking `choose` for each mover's answer, except that red
/// times out on turns 2, 7, 12, ... and blue sends an illegal move on turns 4, 11, 18, ..., so that the
/// record also holds ticks that enact nothing.
fn play(mut game: Game, seed: u64, max_ticks: usize, choose: fn(&Game, Team) -> Answer) -> Played {
    let players = Teams {
        red: "builtin:greedy".to_owned(),
        blue: "human".to_owned(),
    };
    let mut rec = Recorder::new(players, seed, &game);
    let mut states = vec![game.state()];
    let mut outcomes = Vec::new();
    while game.result().is_none() && outcomes.len() < max_ticks {
        let turn = game.turn();
        let movers = game.movers();
        let answer = |team: Team| {
            if !movers.contains(&team) {
                Answer::NoMove(NoMove::Missing)
            } else if team == Team::Red && turn % 5 == 2 {
                Answer::NoMove(NoMove::TimedOut { after_ms: 1000 })
            } else if team == Team::Blue && turn % 7 == 4 {
                // From a blue piece to the far corner: never a legal move.
                let from = game.position().pieces(Team::Blue)[0].square;
                Answer::Move(path((from.x().into(), from.y().into()), &[(0, 0)]))
            } else {
                choose(&game, team)
            }
        };
        let (red, blue) = (answer(Team::Red), answer(Team::Blue));
        let outcome = game.tick(red, blue).expect("the referee plays the tick");
        let line = rec.push(&outcome, &game).expect("the record is open");
        assert!(line.starts_with(r#"{"type":"tick","outcome":{"#));
        outcomes.push(outcome);
        states.push(game.state());
    }
    let last = rec.finish().map(str::to_owned);
    assert_eq!(last.is_some(), game.result().is_some());
    assert_eq!(rec.ticks(), outcomes.len());
    Played {
        text: rec.text(),
        states,
        outcomes,
        result: game.result(),
    }
}

fn arena_game() -> &'static Played {
    static GAME: OnceLock<Played> = OnceLock::new();
    GAME.get_or_init(|| {
        let mut rules = Preset::Arena.rules();
        rules.turn_limit = 40;
        play(Game::new(&rules, 7).unwrap(), 7, usize::MAX, greedy)
    })
}

fn mini_game() -> &'static Played {
    static GAME: OnceLock<Played> = OnceLock::new();
    GAME.get_or_init(|| {
        let mut rules = Preset::Mini.rules();
        rules.turn_limit = 300;
        play(Game::new(&rules, 3).unwrap(), 3, usize::MAX, greedy)
    })
}

/// A simultaneous 8x8 game where both teams can step onto (3,3): a collision on the first tick.
fn collision_game() -> Game {
    let state: GameState = serde_json::from_value(json!({
        "boardSize": 8, "mode": "simultaneous", "turnLimit": 12, "turn": 0,
        "red": {"pieces": [{"x": 2, "y": 3}, {"x": 0, "y": 7}], "destinations": [{"x": 7, "y": 0}]},
        "blue": {"pieces": [{"x": 4, "y": 3}, {"x": 7, "y": 7}], "destinations": [{"x": 0, "y": 0}]},
    }))
    .unwrap();
    Game::from_state(&state).unwrap()
}

fn collision_record() -> Played {
    fn answer(game: &Game, team: Team) -> Answer {
        if game.turn() == 0 {
            let from = if team == Team::Red { (2, 3) } else { (4, 3) };
            Answer::Move(path(from, &[(3, 3)]))
        } else {
            first_legal(game, team)
        }
    }
    play(collision_game(), 99, usize::MAX, answer)
}

fn assert_round_trip(played: &Played) -> Record {
    let record = Record::parse(&played.text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.ticks(), played.outcomes.len());
    for (k, state) in played.states.iter().enumerate() {
        assert_eq!(record.state(k), Some(state), "state {k}");
        assert_eq!(record.game(k).map(|g| g.state()).as_ref(), Some(state));
    }
    assert_eq!(record.state(played.states.len()), None);
    assert_eq!(record.outcome(0), None);
    for (i, outcome) in played.outcomes.iter().enumerate() {
        assert_eq!(record.outcome(i + 1), Some(outcome), "outcome {}", i + 1);
    }
    assert_eq!(record.outcome(played.outcomes.len() + 1), None);
    assert_eq!(record.result(), played.result);
    assert_eq!(record.header().state, played.states[0]);
    assert_eq!(record.header().engine, ENGINE_VERSION);
    record
}

// ---------------------------------------------------------------------------------------------------
// Editing records

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

fn join(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The record with line `n` (1-based) changed by `f` on its JSON.
fn edit(text: &str, n: usize, f: impl FnOnce(&mut Value)) -> String {
    let mut ls = lines(text);
    let mut v: Value = serde_json::from_str(&ls[n - 1]).unwrap();
    f(&mut v);
    ls[n - 1] = v.to_string();
    join(&ls)
}

/// The record with line `n` replaced by `text`.
fn replace(record: &str, n: usize, text: &str) -> String {
    let mut ls = lines(record);
    ls[n - 1] = text.to_owned();
    join(&ls)
}

fn without_result(played: &Played) -> Vec<String> {
    let mut ls = lines(&played.text);
    assert!(ls.last().unwrap().starts_with(r#"{"type":"result""#));
    ls.pop();
    ls
}

/// Parses and expects an error on `line`; returns it for closer checks.
fn refused(text: &str, line: usize) -> RecordError {
    let e = Record::parse(text).expect_err("the record must be refused");
    assert_eq!(e.line(), Some(line), "{e}");
    assert!(e.to_string().starts_with(&format!("line {line}: ")), "{e}");
    e
}

fn illegal(text: &str, line: usize, words: &str) {
    let e = refused(text, line);
    assert!(matches!(e, RecordError::Illegal { .. }), "{e:?}");
    assert!(e.to_string().contains(words), "{e}");
}

// ---------------------------------------------------------------------------------------------------
// Round trips

#[test]
fn an_arena_game_round_trips() {
    let played = arena_game();
    assert_eq!(played.result, Some(GameResult::TurnLimit));
    assert!(played.outcomes.iter().any(|o| o.moves.len() == 2));
    assert!(played.outcomes.iter().any(|o| o.moves.is_empty()));
    let record = assert_round_trip(played);
    let h = record.header();
    assert_eq!((h.preset, h.seed), (Some(Preset::Arena), 7));
    assert_eq!(h.players.red, "builtin:greedy");
    assert_eq!(h.players.blue, "human");
}

#[test]
fn a_mini_game_round_trips() {
    let played = mini_game();
    assert!(played.result.is_some());
    let record = assert_round_trip(played);
    assert_eq!(record.header().state.mode, Mode::Alternating);
    assert_eq!(record.header().preset, Some(Preset::Mini));
    println!(
        "mini greedy game: {} ticks, {:?}",
        record.ticks(),
        record.result()
    );
}

#[test]
fn a_custom_game_with_a_collision_round_trips() {
    let played = collision_record();
    assert_eq!(played.outcomes[0].collisions.len(), 1);
    assert_eq!(played.outcomes[0].damaged.len(), 2);
    assert!(played.outcomes[0].damaged.iter().all(|d| d.damage == 5));
    let record = assert_round_trip(&played);
    assert_eq!(record.header().preset, None);
    assert!(played.text.starts_with(
        r#"{"type":"header","format":"gridarena-halma-record","version":1,"engine":""#
    ));
    assert!(played.text.contains(r#""preset":null,"seed":99,"#));
}

#[test]
fn a_won_game_ends_with_its_result_line() {
    // Red is one step from its only destination; blue is far from its own.
    let state: GameState = serde_json::from_value(json!({
        "boardSize": 8, "mode": "alternating", "campRule": true, "turnLimit": 50, "turn": 0,
        "toMove": "red",
        "red": {"pieces": [{"x": 6, "y": 1}], "destinations": [{"x": 7, "y": 0}]},
        "blue": {"pieces": [{"x": 5, "y": 5}], "destinations": [{"x": 0, "y": 7}]},
    }))
    .unwrap();
    let played = play(Game::from_state(&state).unwrap(), 0, 10, greedy);
    assert_eq!(played.result, Some(GameResult::Win { winner: Team::Red }));
    assert_round_trip(&played);
    assert!(played.text.ends_with(
        "{\"type\":\"result\",\"result\":{\"kind\":\"win\",\"winner\":\"red\"},\"turn\":1}\n"
    ));
}

#[test]
fn the_lines_have_the_documented_shape() {
    let played = arena_game();
    let ls = lines(&played.text);
    assert!(played.text.ends_with('\n'));
    assert_eq!(ls.len(), played.outcomes.len() + 2);
    let header = format!(
        r#"{{"type":"header","format":"{RECORD_FORMAT}","version":1,"engine":"{ENGINE_VERSION}","preset":"arena","seed":7,"players":{{"red":"builtin:greedy","blue":"human"}},"state":{{"#
    );
    assert!(ls[0].starts_with(&header), "{}", ls[0]);
    // The state in a tick line is exactly what `gridarena halma tick` reads and writes.
    let tick: Value = serde_json::from_str(&ls[1]).unwrap();
    assert_eq!(
        serde_json::from_value::<GameState>(tick["state"].clone()).unwrap(),
        played.states[1]
    );
    assert_eq!(
        serde_json::from_value::<TickOutcome>(tick["outcome"].clone()).unwrap(),
        played.outcomes[0]
    );
    assert_eq!(
        ls.last().unwrap(),
        r#"{"type":"result","result":{"kind":"turnLimit"},"turn":40}"#
    );
}

#[test]
fn the_recorder_caps_labels_and_closes_once() {
    let mut game = collision_game();
    let players = Teams {
        red: "é".repeat(MAX_LABEL_CHARS + 50),
        blue: "<script>alert(1)</script>".to_owned(),
    };
    let mut rec = Recorder::new(players, 1, &game);
    assert_eq!(rec.finish(), None, "no result: no result line");
    let outcome = game
        .tick(
            Answer::NoMove(NoMove::Missing),
            Answer::NoMove(NoMove::Missing),
        )
        .unwrap();
    assert_eq!(rec.push(&outcome, &game), None, "closed");
    assert_eq!(rec.lines().len(), 1);
    let record = Record::parse(&rec.text()).unwrap();
    assert_eq!(record.header().players.red.chars().count(), MAX_LABEL_CHARS);
    // Labels are kept as given: escaping them is the renderer's job.
    assert_eq!(record.header().players.blue, "<script>alert(1)</script>");
    assert_eq!(record.ticks(), 0);
}

#[test]
fn a_game_cut_short_and_odd_text_still_load() {
    let played = arena_game();
    // Without the result line, and cut after 10 ticks.
    let ls = without_result(played);
    let cut = join(&ls[..11]);
    let record = Record::parse(&cut).unwrap();
    assert_eq!(record.ticks(), 10);
    assert_eq!(record.result(), None);
    // A byte-order mark, Windows line ends, blank lines and no final newline.
    let odd = format!("\u{feff}\r\n{}\r\n\r\n  \t\n", ls[..11].join("\r\n\n"));
    assert_eq!(Record::parse(&odd).unwrap(), record);
    assert_eq!(Record::parse_bytes(odd.as_bytes()).unwrap(), record);
    assert_eq!(Record::parse(cut.trim_end()).unwrap(), record);
}

#[test]
fn a_game_that_ended_before_recording_has_only_a_header_and_a_result() {
    let played = mini_game();
    let last = played.states.last().unwrap();
    let game = Game::from_state(last).unwrap();
    let mut rec = Recorder::new(Teams::default(), 0, &game);
    assert!(rec.finish().is_some());
    let record = Record::parse(&rec.text()).unwrap();
    assert_eq!((record.ticks(), record.result()), (0, played.result));
}

#[test]
fn piece_order_in_a_state_does_not_matter() {
    let played = arena_game();
    let text = edit(&played.text, 4, |v| {
        v["state"]["red"]["pieces"]
            .as_array_mut()
            .unwrap()
            .reverse();
        v["state"]["blue"]["destinations"]
            .as_array_mut()
            .unwrap()
            .reverse();
    });
    assert_eq!(Record::parse(&text).unwrap().ticks(), played.outcomes.len());
}

// ---------------------------------------------------------------------------------------------------
// Every refusal, with its line

#[test]
fn too_large_and_empty() {
    let big = " ".repeat(MAX_RECORD_BYTES + 1);
    let e = Record::parse(&big).unwrap_err();
    assert_eq!(
        e,
        RecordError::TooLarge {
            bytes: MAX_RECORD_BYTES + 1
        }
    );
    assert_eq!(e.line(), None);
    assert!(e.to_string().contains("bytes"));
    assert!(matches!(
        Record::parse_bytes(big.as_bytes()),
        Err(RecordError::TooLarge { .. })
    ));
    for text in ["", "\n", " \r\n\t\n", "\u{feff}"] {
        assert_eq!(Record::parse(text), Err(RecordError::Empty));
    }
    assert!(RecordError::Empty.to_string().contains("empty"));
}

#[test]
fn too_many_lines() {
    let header = lines(&arena_game().text)[0].clone();
    let text = format!("{header}{}", "\n".repeat(MAX_RECORD_LINES + 5));
    let e = refused(&text, MAX_RECORD_LINES + 1);
    assert!(matches!(e, RecordError::TooManyLines { .. }));
}

#[test]
fn not_utf8() {
    let mut bytes = lines(&arena_game().text)[0].clone().into_bytes();
    bytes.extend_from_slice(b"\n\n{\"type\":\"tick\xff\"}\n");
    let e = Record::parse_bytes(&bytes).unwrap_err();
    assert_eq!(e, RecordError::NotUtf8 { line: 3 });
    assert!(e.to_string().starts_with("line 3: not UTF-8"));
}

#[test]
fn not_json() {
    let text = replace(&arena_game().text, 3, r#"{"type":"tick","outcome":"#);
    let e = refused(&text, 3);
    assert!(matches!(e, RecordError::NotJson { .. }), "{e}");
    refused("not json at all", 1);
}

#[test]
fn malformed_lines() {
    let played = arena_game();
    // Not an object.
    let e = refused(&replace(&played.text, 2, "[1,2,3]"), 2);
    assert!(e.to_string().contains("an array"), "{e}");
    // A tick without its state.
    let e = refused(
        &edit(&played.text, 5, |v| {
            v.as_object_mut().unwrap().remove("state");
        }),
        5,
    );
    assert!(
        matches!(e, RecordError::Malformed { what: "tick", .. }) && e.to_string().contains("state"),
        "{e}"
    );
    // A header whose seed is not a number.
    let e = refused(&edit(&played.text, 1, |v| v["seed"] = json!("seven")), 1);
    assert!(
        matches!(e, RecordError::Malformed { what: "header", .. }),
        "{e}"
    );
    // A header whose preset contradicts its state.
    let e = refused(&edit(&played.text, 1, |v| v["preset"] = json!("mini")), 1);
    assert!(e.to_string().contains("preset"), "{e}");
    // A result line whose result is not one.
    let last = played.outcomes.len() + 2;
    let e = refused(
        &edit(&played.text, last, |v| {
            v["result"] = json!({"kind": "resign"})
        }),
        last,
    );
    assert!(
        matches!(e, RecordError::Malformed { what: "result", .. }),
        "{e}"
    );
}

#[test]
fn unknown_types() {
    let played = arena_game();
    let e = refused(
        &replace(&played.text, 4, r#"{"type":"chat","text":"hi"}"#),
        4,
    );
    assert!(matches!(e, RecordError::UnknownType { .. }));
    assert!(e.to_string().contains(r#""chat""#), "{e}");
    let e = refused(&edit(&played.text, 6, |v| v["type"] = json!(3)), 6);
    assert!(e.to_string().contains("\"type\" is 3"), "{e}");
    let e = refused(
        &edit(&played.text, 2, |v| {
            v.as_object_mut().unwrap().remove("type");
        }),
        2,
    );
    assert!(e.to_string().contains("missing"), "{e}");
    // A huge type is quoted only in part.
    let long = "x".repeat(100_000);
    let e = refused(&edit(&played.text, 2, |v| v["type"] = json!(long)), 2);
    assert!(e.to_string().len() < 300, "{e}");
}

#[test]
fn the_header_must_come_first_and_once() {
    let played = arena_game();
    let ls = lines(&played.text);
    // Starts with a tick, after two blank lines.
    let text = format!("\n\n{}", join(&ls[1..]));
    let e = refused(&text, 3);
    assert_eq!(
        e,
        RecordError::MissingHeader {
            line: 3,
            found: "tick"
        }
    );
    // Starts with the result.
    let e = refused(&join(&ls[ls.len() - 1..]), 1);
    assert_eq!(
        e,
        RecordError::MissingHeader {
            line: 1,
            found: "result"
        }
    );
    // A second header.
    let mut twice = ls.clone();
    twice.insert(3, ls[0].clone());
    let e = refused(&join(&twice), 4);
    assert_eq!(e, RecordError::HeaderNotFirst { line: 4, first: 1 });
}

#[test]
fn unsupported_format_and_version() {
    let played = arena_game();
    let e = refused(
        &edit(&played.text, 1, |v| v["format"] = json!("chess-pgn")),
        1,
    );
    assert!(
        matches!(e, RecordError::UnsupportedFormat { .. }) && e.to_string().contains("chess-pgn")
    );
    let e = refused(
        &edit(&played.text, 1, |v| {
            v.as_object_mut().unwrap().remove("format");
        }),
        1,
    );
    assert!(matches!(e, RecordError::UnsupportedFormat { .. }), "{e}");
    for version in [json!(2), json!("1"), json!(1.5), Value::Null] {
        let e = refused(
            &edit(&played.text, 1, |v| v["version"] = version.clone()),
            1,
        );
        assert!(matches!(e, RecordError::UnsupportedVersion { .. }), "{e}");
    }
    let e = refused(&edit(&played.text, 1, |v| v["version"] = json!(2)), 1);
    assert!(
        e.to_string().contains("record version 2 is not supported"),
        "{e}"
    );
}

#[test]
fn overlong_labels() {
    let played = arena_game();
    let long = "a".repeat(MAX_LABEL_CHARS + 1);
    let e = refused(
        &edit(&played.text, 1, |v| v["players"]["blue"] = json!(long)),
        1,
    );
    assert_eq!(
        e,
        RecordError::TextTooLong {
            line: 1,
            field: "players.blue",
            chars: MAX_LABEL_CHARS + 1
        }
    );
    let e = refused(&edit(&played.text, 1, |v| v["engine"] = json!(long)), 1);
    assert!(matches!(
        e,
        RecordError::TextTooLong {
            field: "engine",
            ..
        }
    ));
    // Exactly at the cap is fine.
    let ok = "a".repeat(MAX_LABEL_CHARS);
    assert!(Record::parse(&edit(&played.text, 1, |v| v["players"]["red"] = json!(ok))).is_ok());
}

#[test]
fn states_that_are_not_games() {
    let played = arena_game();
    let e = refused(
        &edit(&played.text, 1, |v| v["state"]["boardSize"] = json!(99)),
        1,
    );
    assert_eq!(
        e,
        RecordError::InvalidState {
            line: 1,
            error: SetupError::BoardSize(99)
        }
    );
    // Two red pieces on one square in tick 6's state.
    let e = refused(
        &edit(&played.text, 7, |v| {
            let pieces = &mut v["state"]["red"]["pieces"];
            pieces[1] = pieces[0].clone();
        }),
        7,
    );
    assert!(
        matches!(
            e,
            RecordError::InvalidState {
                line: 7,
                error: SetupError::Stacked { .. }
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("not a playable game"), "{e}");
}

#[test]
fn turns_must_go_up_by_one() {
    let played = arena_game();
    let e = refused(
        &edit(&played.text, 4, |v| v["outcome"]["turn"] = json!(7)),
        4,
    );
    assert_eq!(
        e,
        RecordError::TurnOutOfSequence {
            line: 4,
            field: "outcome.turn",
            expected: 3,
            found: 7
        }
    );
    let e = refused(&edit(&played.text, 4, |v| v["state"]["turn"] = json!(2)), 4);
    assert_eq!(
        e,
        RecordError::TurnOutOfSequence {
            line: 4,
            field: "state.turn",
            expected: 3,
            found: 2
        }
    );
    // A tick line missing from the middle.
    let mut ls = lines(&played.text);
    ls.remove(5);
    let e = refused(&join(&ls), 6);
    assert!(
        matches!(
            e,
            RecordError::TurnOutOfSequence {
                expected: 5,
                found: 6,
                ..
            }
        ),
        "{e}"
    );
    // The same tick twice.
    let mut ls = lines(&played.text);
    ls.insert(5, ls[4].clone());
    let e = refused(&join(&ls), 6);
    assert!(matches!(e, RecordError::TurnOutOfSequence { .. }), "{e}");
}

#[test]
fn nothing_after_the_result() {
    let played = mini_game();
    let ls = lines(&played.text);
    let n = ls.len();
    let mut after = ls.clone();
    after.push(ls[n - 2].clone());
    assert_eq!(
        refused(&join(&after), n + 1),
        RecordError::AfterResult {
            line: n + 1,
            result_line: n
        }
    );
    let mut twice = ls.clone();
    twice.push(String::new());
    twice.push(ls[n - 1].clone());
    assert_eq!(
        refused(&join(&twice), n + 2),
        RecordError::AfterResult {
            line: n + 2,
            result_line: n
        }
    );
    // Blank lines after it are fine.
    assert!(Record::parse(&format!("{}\n\n \n", played.text)).is_ok());
}

#[test]
fn a_tick_after_the_game_ended() {
    let played = mini_game();
    let mut ls = without_result(played);
    let n = ls.len();
    // The last tick again, renumbered: the game had already ended.
    let mut extra: Value = serde_json::from_str(&ls[n - 1]).unwrap();
    let turn = extra["state"]["turn"].as_u64().unwrap() + 1;
    extra["state"]["turn"] = json!(turn);
    extra["outcome"]["turn"] = json!(turn);
    ls.push(extra.to_string());
    illegal(&join(&ls), n + 1, "already ended");
}

#[test]
fn result_lines_that_contradict_the_last_state() {
    let played = mini_game();
    let n = played.outcomes.len() + 2;
    let other = match played.result {
        Some(GameResult::Win { winner }) => json!({"kind": "win", "winner": winner.other()}),
        _ => json!({"kind": "win", "winner": "red"}),
    };
    let e = refused(&edit(&played.text, n, |v| v["result"] = other), n);
    assert!(matches!(e, RecordError::ResultMismatch { .. }), "{e}");
    let e = refused(&edit(&played.text, n, |v| v["turn"] = json!(1)), n);
    assert!(e.to_string().contains("at turn 1"), "{e}");
    // A result line for a game that goes on.
    let arena = arena_game();
    let ls = lines(&arena.text);
    let text = join(&[ls[0].clone(), ls[1].clone(), ls[ls.len() - 1].clone()]);
    let e = refused(&text, 3);
    assert!(e.to_string().contains("the game goes on"), "{e}");
}

// ---------------------------------------------------------------------------------------------------
// Records that disagree with the rules

/// The first tick line (1-based line number) whose outcome satisfies `f`.
fn tick_line(played: &Played, f: impl Fn(&TickOutcome) -> bool) -> usize {
    played.outcomes.iter().position(f).expect("such a tick") + 2
}

#[test]
fn a_piece_moved_by_hand_is_refused_at_that_line() {
    let played = arena_game();
    // Tick 5: one red piece carried to an empty square far from everything.
    let state = &played.states[5];
    let taken: Vec<(i64, i64)> = state
        .red
        .pieces
        .iter()
        .chain(&state.blue.pieces)
        .map(|p| (p.x, p.y))
        .collect();
    assert!(!taken.contains(&(9, 9)));
    let (x, y) = (state.red.pieces[0].x, state.red.pieces[0].y);
    let text = edit(&played.text, 6, |v| {
        v["state"]["red"]["pieces"][0] = json!({"x": 9, "y": 9, "damage": 0});
    });
    illegal(
        &text,
        6,
        "red's pieces: the record has (9,9) where the rules give",
    );
    let e = Record::parse(&text).unwrap_err().to_string();
    assert!(e.contains(&format!("({x},{y})")), "{e}");
    // The same edit in every later state too: still refused at the first one.
    let mut ls = lines(&text);
    for l in ls.iter_mut().skip(6).take(3) {
        let mut v: Value = serde_json::from_str(l).unwrap();
        v["state"]["red"]["pieces"][0] = json!({"x": 9, "y": 9, "damage": 0});
        *l = v.to_string();
    }
    illegal(&join(&ls), 6, "red's pieces");
}

#[test]
fn tampered_states_in_other_ways() {
    let played = mini_game();
    // Whose move it is.
    let line = 4;
    let text = edit(&played.text, line, |v| {
        let t = v["state"]["toMove"].as_str().unwrap();
        v["state"]["toMove"] = json!(if t == "red" { "blue" } else { "red" });
    });
    illegal(&text, line, "\"toMove\"");
    // A damage that came from nowhere.
    let text = edit(&played.text, 5, |v| {
        v["state"]["blue"]["pieces"][0]["damage"] = json!(3)
    });
    illegal(&text, 5, "damage 3");
    // The turn limit raised mid-game.
    let text = edit(&played.text, 5, |v| v["state"]["turnLimit"] = json!(5000));
    illegal(&text, 5, "settings");
}

#[test]
fn tampered_outcomes() {
    let played = arena_game();
    let enacted = tick_line(played, |o| o.moves.len() == 2);
    let idle = tick_line(played, |o| o.moves.is_empty());

    // An enacted move replaced by an illegal jump.
    let text = edit(&played.text, enacted, |v| {
        let m = &mut v["outcome"]["moves"][0];
        let (x, y) = (
            m["from"]["x"].as_i64().unwrap(),
            m["from"]["y"].as_i64().unwrap(),
        );
        m["to"] = json!([{"x": x, "y": y - 4}]);
    });
    illegal(&text, enacted, "cannot be played");
    // Only one team's move, in a simultaneous game.
    let text = edit(&played.text, enacted, |v| {
        v["outcome"]["moves"].as_array_mut().unwrap().pop();
    });
    illegal(&text, enacted, "no move was submitted");
    // The same team twice.
    let text = edit(&played.text, enacted, |v| {
        let first = v["outcome"]["moves"][0].clone();
        v["outcome"]["moves"][1] = first;
    });
    illegal(&text, enacted, "two moves for red");
    // A collision that did not happen.
    let text = edit(&played.text, enacted, |v| {
        v["outcome"]["collisions"] = json!([{"x": 5, "y": 5}]);
    });
    illegal(&text, enacted, "collisions at (5,5)");
    // A damaged piece that is not.
    let text = edit(&played.text, enacted, |v| {
        v["outcome"]["damaged"] = json!([{"team": "red", "x": 0, "y": 17, "damage": 2}]);
    });
    illegal(&text, enacted, "damaged");
    // A result that is not.
    let text = edit(&played.text, enacted, |v| {
        v["outcome"]["result"] = json!({"kind": "bothFinished"});
    });
    illegal(&text, enacted, "result");
    // Movers that were not asked.
    let text = edit(&played.text, enacted, |v| {
        v["outcome"]["movers"] = json!(["red"])
    });
    illegal(
        &text,
        enacted,
        "says red moved but the rules ask red and blue",
    );
    // Moves enacted alongside an error.
    let text = edit(&played.text, enacted, |v| {
        v["outcome"]["errors"] =
            json!([{"team": "blue", "kind": "noMove", "code": "timed_out", "message": "late"}]);
    });
    illegal(&text, enacted, "although blue has an error");
    // Nothing enacted and nothing to explain it.
    let text = edit(&played.text, idle, |v| v["outcome"]["errors"] = json!([]));
    illegal(&text, idle, "no team has an error");
    // The same team's error twice.
    let text = edit(&played.text, idle, |v| {
        let e = v["outcome"]["errors"][0].clone();
        v["outcome"]["errors"] = json!([e.clone(), e]);
    });
    illegal(&text, idle, "two errors");
    // A legal move called invalid.
    let before = played.states[idle - 2].clone();
    let legal = {
        let g = Game::from_state(&before).unwrap();
        let mv = g.position().moves(Team::Red)[0];
        g.position().path(Team::Red, mv).unwrap()
    };
    let text = edit(&played.text, idle, |v| {
        v["outcome"]["errors"] = json!([{"team": "red", "kind": "invalidMove", "code": "x",
            "message": "y", "submitted": legal}]);
    });
    illegal(&text, idle, "called invalid, but it is legal");
    // An invalid-move error without the move, and a no-move error with one.
    let text = edit(&played.text, idle, |v| {
        v["outcome"]["errors"] =
            json!([{"team": "red", "kind": "invalidMove", "code": "x", "message": "y"}]);
    });
    illegal(&text, idle, "does not say which move");
    let text = edit(&played.text, idle, |v| {
        v["outcome"]["errors"] = json!([{"team": "red", "kind": "noMove", "code": "x",
            "message": "y", "submitted": legal}]);
    });
    illegal(&text, idle, "yet a move is listed");
}

#[test]
fn moves_out_of_turn_in_an_alternating_game() {
    let played = mini_game();
    let line = tick_line(played, |o| !o.moves.is_empty());
    let o = &played.outcomes[line - 2];
    let mover = o.movers[0];
    let text = edit(&played.text, line, |v| {
        v["outcome"]["moves"][0]["team"] = json!(mover.other());
    });
    illegal(&text, line, &format!("not {}'s turn", mover.other()));
    // An error for the team that was not asked.
    let idle = tick_line(played, |o| o.moves.is_empty());
    let asked = played.outcomes[idle - 2].movers[0];
    let text = edit(&played.text, idle, |v| {
        v["outcome"]["errors"][0]["team"] = json!(asked.other())
    });
    let e = refused(&text, idle);
    assert!(
        e.to_string().contains("was not asked") || e.to_string().contains("says"),
        "{e}"
    );
}

#[test]
fn errors_display_their_line_and_cause() {
    let e = RecordError::Illegal {
        line: 12,
        detail: "x".into(),
    };
    assert_eq!(
        e.to_string(),
        "line 12: the tick disagrees with the rules: x"
    );
    let e = RecordError::AfterResult {
        line: 9,
        result_line: 8,
    };
    assert_eq!(
        e.to_string(),
        "line 9: nothing may follow the result line (line 8)"
    );
}

// ---------------------------------------------------------------------------------------------------
// Hostile input

fn check_error(e: &RecordError, text: &str) -> Result<(), TestCaseError> {
    let msg = e.to_string();
    prop_assert!(!msg.is_empty());
    prop_assert!(msg.len() < 2000, "a message of {} bytes", msg.len());
    if let Some(line) = e.line() {
        prop_assert!(line >= 1 && line <= text.lines().count().max(1) + 1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = Record::parse_bytes(&bytes);
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = Record::parse(&text) {
            check_error(&e, &text)?;
        }
    }

    #[test]
    fn json_like_text_never_panics(parts in proptest::collection::vec(prop_oneof![
        Just("{"), Just("}"), Just("["), Just("]"), Just(","), Just(":"), Just("\n"),
        Just("\"type\""), Just("\"header\""), Just("\"tick\""), Just("\"result\""),
        Just("\"format\":\"gridarena-halma-record\""), Just("\"version\":1"), Just("\"state\""),
        Just("\"outcome\""), Just("null"), Just("0"), Just("-1"), Just("1e999"), Just("18446744073709551616"),
        Just("\"\\ud800\""), Just("\u{feff}"), Just("\r"),
    ], 0..80)) {
        let text: String = parts.concat();
        if let Err(e) = Record::parse(&text) {
            check_error(&e, &text)?;
        }
    }

    /// A real record with one digit changed: JSON still, but coordinates, turns and damage move, which
    /// reaches the state and replay checks rather than the JSON parser.
    #[test]
    fn records_with_a_changed_digit_never_panic(which in any::<proptest::sample::Index>(), digit in 0u8..10, mini in any::<bool>()) {
        let text = if mini { &mini_game().text } else { &arena_game().text };
        let digits: Vec<usize> = text.bytes().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
        let at = digits[which.index(digits.len())];
        let mut bytes = text.clone().into_bytes();
        bytes[at] = b'0' + digit;
        match Record::parse_bytes(&bytes) {
            Ok(r) => prop_assert!(r.state(0).is_some()),
            Err(e) => check_error(&e, text)?,
        }
    }

    /// A real record with lines dropped, repeated or swapped, or cut at any byte.
    #[test]
    fn records_with_lines_shuffled_never_panic(ops in proptest::collection::vec((0u8..4, any::<proptest::sample::Index>(), any::<proptest::sample::Index>()), 1..4), cut in any::<proptest::sample::Index>()) {
        let mut ls = lines(&mini_game().text);
        for (op, a, b) in ops {
            let (i, j) = (a.index(ls.len()), b.index(ls.len()));
            match op {
                0 => { ls.remove(i); }
                1 => { let l = ls[i].clone(); ls.insert(j, l); }
                2 => ls.swap(i, j),
                _ => { let n = cut.index(ls[i].len() + 1); ls[i].truncate(n); }
            }
            if ls.is_empty() { break; }
        }
        let text = join(&ls);
        if let Err(e) = Record::parse(&text) {
            check_error(&e, &text)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Exchanges with web AIs, for the inspector

fn wire_game() -> (String, String) {
    use gridarena_engine::halma::game_loop::game_request_body;
    use gridarena_engine::halma::{ContentType, Wire};
    let mut game = Game::new(&Preset::Arena.rules(), 3).expect("a preset");
    let players = Teams {
        red: "http://127.0.0.1:9/".to_string(),
        blue: "builtin:greedy".to_string(),
    };
    let mut recorder = Recorder::new(players, 3, &game);
    let sent = game_request_body(&game, Team::Red, 750, 3);
    let big = "x".repeat(10_000);
    let wire = Wire {
        status: Some(500),
        ms: Some(4),
        ..Wire::sent(ContentType::Json, 750)
    }
    .with_body(big.as_bytes());
    let outcome = game
        .tick(
            Answer::NoMove(NoMove::Failed("HTTP 500".into())),
            greedy(&game, Team::Blue),
        )
        .expect("playable");
    let wires = Teams {
        red: Some(wire),
        blue: None,
    };
    recorder.push_with_wires(&outcome, &game, Some(&wires));
    recorder.push(
        &game
            .tick(greedy(&game, Team::Red), greedy(&game, Team::Blue))
            .expect("playable"),
        &game,
    );
    (recorder.text(), sent)
}

#[test]
fn a_record_keeps_each_exchange_and_rebuilds_its_request() {
    use gridarena_engine::halma::exchange::MAX_RECORDED_BODY_CHARS;
    use gridarena_engine::halma::ContentType;
    let (text, sent) = wire_game();
    let record = Record::parse(&text).expect("loads");
    let wire = record.wire(1, Team::Red).expect("kept");
    assert_eq!(wire.status, Some(500));
    assert_eq!(wire.content_type, ContentType::Json);
    assert_eq!(
        wire.body.as_ref().map(|b| b.len()),
        Some(MAX_RECORDED_BODY_CHARS)
    );
    assert!(wire.truncated);
    assert_eq!(record.request(1, Team::Red), Some(sent));
    assert_eq!(record.wire(1, Team::Blue), None);
    assert_eq!(record.wire(2, Team::Red), None, "a tick without wires");
    assert_eq!(record.request(2, Team::Red), None);
    assert_eq!(record.wire(0, Team::Red), None);
    assert_eq!(record.wire(9, Team::Red), None);
    // The line without the member is a record made before the inspector: it still loads.
    let old = edit(&text, 2, |v| {
        v.as_object_mut().expect("an object").remove("wires");
    });
    assert_eq!(Record::parse(&old).expect("loads").wire(1, Team::Red), None);
}

#[test]
fn exchanges_that_could_not_have_happened_are_refused() {
    let (text, _) = wire_game();
    let huge = edit(&text, 2, |v| {
        v["wires"]["red"]["body"] = json!("y".repeat(70_000));
    });
    assert!(refused(&huge, 2).to_string().contains("70000 bytes"));
    let not_asked = edit(&text, 2, |v| {
        v["outcome"]["movers"] = json!(["blue"]);
    });
    assert!(Record::parse(&not_asked).is_err());
    let bad_status = edit(&text, 2, |v| {
        v["wires"]["red"]["status"] = json!("two hundred");
    });
    assert_eq!(refused(&bad_status, 2).line(), Some(2));
}
