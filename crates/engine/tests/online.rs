//! The online Go protocol against its specification, docs/online.md: every documented message is read
//! and written back byte for byte, and every message survives a round trip.

use gridarena_engine::go::online::{
    ApiError, ClientMsg, ColorPref, NewPlayer, PerColor, PlayerRecord, Registered, ServerMsg,
    Snapshot, WinLoss,
};
use std::collections::BTreeMap;

const SPEC: &str = include_str!("../../../docs/online.md");

/// The `{"type":...}` examples in the first column of the tables under `heading`, up to the next
/// heading, with the documentation's shorthand (`"black"|"white"|"any"`, `…` in a list) made plain JSON.
fn examples(heading: &str) -> Vec<String> {
    let start = SPEC.find(heading).expect("the heading is in the spec");
    let rest = &SPEC[start + heading.len()..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    rest[..end]
        .lines()
        .filter_map(|line| line.strip_prefix("| `{\"type\""))
        .filter_map(|line| {
            line.split_once("` |")
                .map(|(json, _)| format!("{{\"type\"{json}"))
        })
        .map(|json| {
            json.replace(r#""black"\|"white"\|"any""#, r#""any""#)
                .replace(",…]", "]")
        })
        .collect()
}

/// Reads each example under `heading` with `parse` and checks that `write` gives it back exactly.
fn read_and_write_back<T, E: std::fmt::Display>(
    heading: &str,
    count: usize,
    parse: impl Fn(&str) -> Result<T, E>,
    write: impl Fn(&T) -> String,
) {
    let docs = examples(heading);
    assert_eq!(docs.len(), count, "{docs:?}");
    for json in docs {
        let msg = parse(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(write(&msg), json);
    }
}

#[test]
fn every_documented_message_is_read_and_written_back_exactly() {
    read_and_write_back("Client to server:", 8, ClientMsg::parse, ClientMsg::to_json);
    read_and_write_back("Server to client:", 9, ServerMsg::parse, ServerMsg::to_json);
}

fn snapshot() -> Snapshot {
    Snapshot {
        game: 12,
        size: 9,
        komi: 0.5,
        black: "Ada".into(),
        white: "Bob".into(),
        moves: vec!["D4".into(), "pass".into()],
        move_number: 2,
        to_move: "black".into(),
        captures: PerColor { black: 1, white: 0 },
        clock_ms: Some(298_000),
        result: None,
    }
}

#[test]
fn every_message_survives_a_round_trip() {
    let client = [
        ClientMsg::Hello { token: "ab".into() },
        ClientMsg::Seek {
            size: 19,
            color: ColorPref::Black,
        },
        ClientMsg::Seek {
            size: 9,
            color: ColorPref::White,
        },
        ClientMsg::Cancel,
        ClientMsg::House {
            size: 13,
            color: ColorPref::Any,
        },
        ClientMsg::Watch { game: 3 },
        ClientMsg::Unwatch { game: 3 },
        ClientMsg::Move {
            game: 3,
            mv: "pass".into(),
        },
        ClientMsg::Resign { game: u64::MAX },
    ];
    for msg in client {
        assert_eq!(ClientMsg::parse(&msg.to_json()).unwrap(), msg);
    }
    let mut over = snapshot();
    over.result = Some("W+R".into());
    over.clock_ms = Some(0);
    let server = [
        ServerMsg::Welcome {
            name: "Ada".into(),
            wins: 3,
            losses: 0,
            house: Some("House".into()),
        },
        ServerMsg::Waiting {
            size: 13,
            color: ColorPref::Any,
        },
        ServerMsg::Cancelled,
        ServerMsg::Unwatched { game: 3 },
        ServerMsg::Matched {
            game: 1,
            color: "white".into(),
            opponent: "Bob".into(),
            size: 19,
        },
        ServerMsg::Snapshot(snapshot()),
        ServerMsg::Snapshot(over),
        ServerMsg::Move {
            game: 12,
            move_number: 3,
            color: "white".into(),
            mv: "E5".into(),
            captured: vec!["D5".into(), "E6".into()],
            clock_ms: Some(300_000),
        },
        ServerMsg::Ended {
            game: 12,
            result: "B+3.5".into(),
            score: Some(PerColor {
                black: 41,
                white: 40,
            }),
        },
        ServerMsg::Ended {
            game: 12,
            result: "B+T".into(),
            score: None,
        },
        ServerMsg::error("too many messages"),
        ServerMsg::game_error(7, "it is not your turn"),
    ];
    for msg in server {
        assert_eq!(ServerMsg::parse(&msg.to_json()).unwrap(), msg);
    }
}

#[test]
fn the_page_reads_a_server_message_without_the_fields_it_can_do_without() {
    let minimal = r#"{"type":"snapshot","game":12,"size":9,"black":"Ada","white":"Bob","moves":[],"move_number":0,"later":true}"#;
    let Ok(ServerMsg::Snapshot(s)) = ServerMsg::parse(minimal) else {
        panic!("not read");
    };
    assert_eq!((s.komi, s.clock_ms, s.result), (0.5, None, None));
    let mv = r#"{"type":"move","game":12,"move_number":3,"color":"white","move":"E5"}"#;
    assert!(matches!(
        ServerMsg::parse(mv).unwrap(),
        ServerMsg::Move { captured, clock_ms: None, .. } if captured.is_empty()
    ));
    let welcome = ServerMsg::parse(r#"{"type":"welcome","name":"Ada"}"#).unwrap();
    assert!(matches!(
        welcome,
        ServerMsg::Welcome {
            wins: 0,
            losses: 0,
            house: None,
            ..
        }
    ));
    for bad in [
        "",
        "{}",
        "[1]",
        r#"{"type":"nonsense"}"#,
        r#"{"type":"move","game":"x"}"#,
        r#"{"type":"watch","game":-1}"#,
        r#"{"type":"unwatch"}"#,
        r#"{"type":"unwatch","game":"12"}"#,
        r#"{"type":"seek","size":9,"color":"purple"}"#,
    ] {
        assert!(ServerMsg::parse(bad).is_err(), "{bad}");
        assert!(ClientMsg::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_http_answers_have_the_documented_shape() {
    let new: NewPlayer = serde_json::from_str(r#"{"name": "Ada"}"#).unwrap();
    assert_eq!(new.name, "Ada");
    let reg = Registered {
        id: 1,
        name: "Ada".into(),
        token: "ab".into(),
    };
    let json = serde_json::to_string(&reg).unwrap();
    assert_eq!(json, r#"{"id":1,"name":"Ada","token":"ab"}"#);
    assert_eq!(serde_json::from_str::<Registered>(&json).unwrap(), reg);
    let row = PlayerRecord {
        name: "Ada".into(),
        wins: 2,
        losses: 1,
        by_size: BTreeMap::new(),
    };
    assert_eq!(
        serde_json::to_string(&row).unwrap(),
        r#"{"name":"Ada","wins":2,"losses":1}"#
    );
    let full: PlayerRecord = serde_json::from_str(
        r#"{"name":"Ada","wins":2,"losses":1,"by_size":{"9":{"wins":2,"losses":1},"13":{"wins":0,"losses":0}}}"#,
    )
    .unwrap();
    assert_eq!(full.by_size[&9], WinLoss { wins: 2, losses: 1 });
    assert_eq!(full.by_size.len(), 2);
    let err = ApiError {
        error: "the name Ada is taken".into(),
    };
    assert_eq!(
        serde_json::to_string(&err).unwrap(),
        r#"{"error":"the name Ada is taken"}"#
    );
}
