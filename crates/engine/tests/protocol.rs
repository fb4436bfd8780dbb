//! The seeds' JSON protocol: reading an AI's answer, and the request sent to it.

mod common;

use common::{path, sq};
use gridarena_engine::halma::protocol::{parse_response, response_from_value};
use gridarena_engine::halma::{
    AiRequest, Game, MoveError, Point, Preset, ResponseError, Team, MAX_RESPONSE_BYTES,
};
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use std::fmt;

fn parse(s: &str) -> Result<gridarena_engine::halma::Path, ResponseError> {
    parse_response(s.as_bytes())
}

fn err(s: &str) -> ResponseError {
    parse(s).expect_err(&format!("accepted {s:?}"))
}

#[test]
fn the_seeds_shape_is_read() {
    let p = parse(r#"{"from":{"x":0,"y":14},"to":[{"x":2,"y":12},{"x":4,"y":10}]}"#).unwrap();
    assert_eq!(p, path((0, 14), &[(2, 12), (4, 10)]));
    // The seed's own example, pretty-printed.
    let p = parse(
        "{\n  \"from\":{\"x\":0,\"y\":0},\n  \"to\":[{\"x\":1,\"y\":1},{\"x\":2,\"y\":2}]\n}\n",
    )
    .unwrap();
    assert_eq!(p, path((0, 0), &[(1, 1), (2, 2)]));
}

#[test]
fn old_ais_echoing_damage_and_unknown_fields_still_work() {
    let p = parse(
        r#"{"from":{"x":1,"y":15,"damage":0},"to":[{"x":3,"y":15,"z":9}],"team":"red","comment":[1,{"a":null}]}"#,
    )
    .unwrap();
    assert_eq!(p, path((1, 15), &[(3, 15)]));
    // And the move is legal on the arena's start position.
    let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
    assert!(g.position().check(Team::Red, &p).is_ok());
}

#[test]
fn a_byte_order_mark_whole_floats_and_key_order_are_accepted() {
    let body = b"\xEF\xBB\xBF{\"from\":{\"x\":1,\"y\":2},\"to\":[{\"x\":1,\"y\":3}]}";
    assert_eq!(parse_response(body).unwrap(), path((1, 2), &[(1, 3)]));
    assert_eq!(
        parse(r#"{"to":[{"y":3.0,"x":1}],"from":{"y":2,"x":1.0}}"#).unwrap(),
        path((1, 2), &[(1, 3)])
    );
    assert_eq!(
        parse(r#"{"from":{"x":3.0,"y":-0.0},"to":[{"x":1e1,"y":2E0}]}"#).unwrap(),
        path((3, 0), &[(10, 2)])
    );
}

#[test]
fn an_empty_to_parses_and_check_rejects_it() {
    let p = parse(r#"{"from":{"x":1,"y":15},"to":[]}"#).unwrap();
    let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
    assert_eq!(g.position().check(Team::Red, &p), Err(MoveError::EmptyTo));
}

#[test]
fn empty_and_whitespace_bodies_are_empty() {
    for body in ["", " ", "\n\t \r\n", "\u{FEFF}", "\u{FEFF}  \n"] {
        assert_eq!(err(body), ResponseError::Empty, "{body:?}");
    }
    assert_eq!(ResponseError::Empty.code(), "empty_body");
}

#[test]
fn invalid_json_is_refused() {
    for body in [
        "{",
        "{\"from\":",
        "{'from':{'x':1,'y':2},'to':[]}",
        "from=1,2&to=3,4",
        "{\"from\":{\"x\":1,\"y\":2},\"to\":[]}}",
        "{\"from\":{\"x\":01,\"y\":2},\"to\":[]}",
        "{\"from\":{\"x\":NaN,\"y\":2},\"to\":[]}",
        "{\"from\":{\"x\":1e400,\"y\":2},\"to\":[]}",
        "\u{0}",
    ] {
        let e = err(body);
        assert!(matches!(e, ResponseError::NotJson(_)), "{body:?}: {e:?}");
        assert_eq!(e.code(), "invalid_json");
    }
    // Not UTF-8.
    assert!(matches!(
        parse_response(b"{\"from\":\xff}"),
        Err(ResponseError::NotJson(_))
    ));
}

#[test]
fn a_list_of_moves_is_refused() {
    let e = err(r#"[{"from":{"x":0,"y":14},"to":[{"x":0,"y":13}]}]"#);
    assert_eq!(e, ResponseError::List);
    assert_eq!(e.code(), "list_of_moves");
    assert!(e.to_string().contains("one move"), "{e}");
    assert_eq!(err("[]"), ResponseError::List);
}

#[test]
fn scalars_are_not_objects() {
    for (body, found) in [
        ("\"move\"", "a string"),
        ("42", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
    ] {
        let e = err(body);
        assert_eq!(e, ResponseError::NotAnObject { found }, "{body}");
        assert_eq!(e.code(), "not_an_object");
        assert!(e.to_string().contains(found));
    }
}

#[test]
fn missing_fields_are_named() {
    for (body, field) in [
        (r#"{"to":[{"x":1,"y":1}]}"#, "from"),
        (r#"{"from":{"x":1,"y":1}}"#, "to"),
        (r#"{"from":{"y":1},"to":[]}"#, "from.x"),
        (r#"{"from":{"x":1},"to":[]}"#, "from.y"),
        (
            r#"{"from":{"x":1,"y":1},"to":[{"x":1,"y":2},{"x":3}]}"#,
            "to[1].y",
        ),
        (r#"{}"#, "from"),
        (r#"{"From":{"x":1,"y":1},"To":[]}"#, "from"),
    ] {
        let e = err(body);
        assert_eq!(
            e,
            ResponseError::Missing {
                field: field.into()
            },
            "{body}"
        );
        assert_eq!(e.code(), "missing_field");
        assert!(e.to_string().contains(field));
    }
}

#[test]
fn mistyped_fields_are_named() {
    for (body, field, found) in [
        (
            r#"{"from":{"x":1,"y":1},"to":{"x":1,"y":2}}"#,
            "to",
            "an object",
        ),
        (r#"{"from":{"x":1,"y":1},"to":"1,2"}"#, "to", "a string"),
        (r#"{"from":{"x":1,"y":1},"to":null}"#, "to", "null"),
        (r#"{"from":[1,1],"to":[]}"#, "from", "an array"),
        (r#"{"from":{"x":"1","y":1},"to":[]}"#, "from.x", "a string"),
        (
            r#"{"from":{"x":1,"y":"one"},"to":[]}"#,
            "from.y",
            "a string",
        ),
        (
            r#"{"from":{"x":1,"y":1},"to":[{"x":true,"y":2}]}"#,
            "to[0].x",
            "a boolean",
        ),
        (
            r#"{"from":{"x":1,"y":1},"to":[[1,2]]}"#,
            "to[0]",
            "an array",
        ),
        (r#"{"from":{"x":null,"y":1},"to":[]}"#, "from.x", "null"),
    ] {
        let e = err(body);
        assert!(
            matches!(&e, ResponseError::WrongType { field: f, found: fd, .. } if f == field && *fd == found),
            "{body}: {e:?}"
        );
        assert_eq!(e.code(), "wrong_type");
        assert!(e.to_string().contains(field), "{e}");
    }
}

#[test]
fn fractional_coordinates_are_refused() {
    for (body, field) in [
        (r#"{"from":{"x":1.5,"y":1},"to":[]}"#, "from.x"),
        (
            r#"{"from":{"x":1,"y":1},"to":[{"x":2,"y":0.000001}]}"#,
            "to[0].y",
        ),
        (r#"{"from":{"x":-2.5,"y":1},"to":[]}"#, "from.x"),
    ] {
        let e = err(body);
        assert!(
            matches!(&e, ResponseError::NotAnInteger { field: f, .. } if f == field),
            "{body}: {e:?}"
        );
        assert_eq!(e.code(), "not_an_integer");
        assert!(e.to_string().contains(field));
    }
    assert!(err(r#"{"from":{"x":1.5,"y":1},"to":[]}"#)
        .to_string()
        .contains("1.5"));
}

#[test]
fn huge_coordinates_are_out_of_range() {
    for (body, field) in [
        (r#"{"from":{"x":1e30,"y":1},"to":[]}"#, "from.x"),
        (
            r#"{"from":{"x":99999999999999999999,"y":1},"to":[]}"#,
            "from.x",
        ),
        (
            r#"{"from":{"x":18446744073709551615,"y":1},"to":[]}"#,
            "from.x",
        ),
        (
            r#"{"from":{"x":9223372036854775808,"y":1},"to":[]}"#,
            "from.x",
        ),
        (r#"{"from":{"x":1,"y":-1e300},"to":[]}"#, "from.y"),
        (
            r#"{"from":{"x":1,"y":1},"to":[{"x":-99999999999999999999,"y":1}]}"#,
            "to[0].x",
        ),
    ] {
        let e = err(body);
        assert!(
            matches!(&e, ResponseError::OutOfRange { field: f, .. } if f == field),
            "{body}: {e:?}"
        );
        assert_eq!(e.code(), "out_of_range");
    }
}

#[test]
fn negative_and_off_board_coordinates_parse_and_check_names_them() {
    let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
    for (body, point) in [
        (
            r#"{"from":{"x":-1,"y":14},"to":[{"x":0,"y":13}]}"#,
            (-1, 14),
        ),
        (r#"{"from":{"x":0,"y":14},"to":[{"x":0,"y":-1}]}"#, (0, -1)),
        (
            r#"{"from":{"x":0,"y":14},"to":[{"x":18,"y":13}]}"#,
            (18, 13),
        ),
        (
            r#"{"from":{"x":-9223372036854775808,"y":14},"to":[{"x":0,"y":13}]}"#,
            (i64::MIN, 14),
        ),
        (
            r#"{"from":{"x":0,"y":14},"to":[{"x":9223372036854775807,"y":13}]}"#,
            (i64::MAX, 13),
        ),
    ] {
        let p = parse(body).unwrap();
        let e = g.position().check(Team::Red, &p).unwrap_err();
        assert_eq!(
            e,
            MoveError::OffBoard {
                point: Point {
                    x: point.0,
                    y: point.1
                },
                size: 18
            },
            "{body}"
        );
        assert!(e
            .to_string()
            .contains(&format!("({},{})", point.0, point.1)));
    }
}

#[test]
fn bodies_over_64_kib_are_refused() {
    let valid = r#"{"from":{"x":1,"y":15},"to":[{"x":3,"y":15}]}"#;
    // Exactly the limit, padded with whitespace: read.
    let mut body = valid.as_bytes().to_vec();
    body.resize(MAX_RESPONSE_BYTES, b' ');
    assert_eq!(parse_response(&body).unwrap(), path((1, 15), &[(3, 15)]));
    // One byte more: refused before parsing.
    body.push(b' ');
    let e = parse_response(&body).unwrap_err();
    assert_eq!(
        e,
        ResponseError::TooLarge {
            bytes: MAX_RESPONSE_BYTES + 1
        }
    );
    assert_eq!(e.code(), "too_large");
    assert!(e
        .to_string()
        .contains(&(MAX_RESPONSE_BYTES + 1).to_string()));
    assert_eq!(MAX_RESPONSE_BYTES, 64 * 1024);
    // A megabyte of garbage.
    let e = parse_response(&vec![b'['; 1 << 20]).unwrap_err();
    assert!(matches!(e, ResponseError::TooLarge { .. }));
    // Deep nesting under the limit: an error, no stack overflow.
    let deep = "[".repeat(60_000);
    assert!(parse(&deep).is_err());
    let deep = format!(
        "{{\"from\":{}1{},\"to\":[]}}",
        "[".repeat(30_000),
        "]".repeat(30_000)
    );
    assert!(parse(&deep).is_err());
}

#[test]
fn response_from_value_agrees_with_parse_response() {
    let body = r#"{"from":{"x":0,"y":14},"to":[{"x":2,"y":12}]}"#;
    let v: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(response_from_value(&v), parse(body));
    assert_eq!(
        response_from_value(&serde_json::json!([])),
        Err(ResponseError::List)
    );
}

/// The keys of a JSON object, in the order they are written.
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Keys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, _)) = m.next_entry::<String, IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(V)
    }
}

/// The key order of every piece and destination in a request.
#[derive(serde::Deserialize)]
struct Lists {
    pieces: Vec<Keys>,
    destinations: Vec<Keys>,
    enemy: Vec<Keys>,
    enemydestinations: Vec<Keys>,
}

fn keys(json: &str) -> Vec<String> {
    serde_json::from_str::<Keys>(json).unwrap().0
}

#[test]
fn the_request_has_the_seeds_keys_first_in_the_seeds_spelling() {
    let g = Game::new(&Preset::Arena.rules(), 0).unwrap();
    for team in Team::ALL {
        let req = g.request(team);
        let text = serde_json::to_string(&req).unwrap();
        let k = keys(&text);
        assert_eq!(
            k[..5],
            [
                "boardSize",
                "pieces",
                "destinations",
                "enemy",
                "enemydestinations"
            ],
            "{text}"
        );
        assert!(
            k[5..].iter().all(|x| ![
                "boardSize",
                "pieces",
                "destinations",
                "enemy",
                "enemydestinations"
            ]
            .contains(&x.as_str())),
            "{text}"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["boardSize"], 18);
        // Pieces carry x, y and damage; destinations x and y, in that order.
        let lists: Lists = serde_json::from_str(&text).unwrap();
        for items in [&lists.pieces, &lists.enemy] {
            assert_eq!(items.len(), 12);
            for item in items {
                assert_eq!(item.0, ["x", "y", "damage"]);
            }
        }
        for items in [&lists.destinations, &lists.enemydestinations] {
            assert_eq!(items.len(), 9);
            for item in items {
                assert_eq!(item.0, ["x", "y"]);
            }
        }
        // "pieces" are the asked team's, "enemy" the other's.
        let own_x = if team == Team::Red { 0 } else { 15 };
        assert!(v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["x"] == own_x && p["y"] == 14 && p["damage"] == 0));
        let dest_x = if team == Team::Red { 15 } else { 0 };
        assert!(v["destinations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["x"] == dest_x && p["y"] == 0));
        assert_eq!(v["team"], team.name());
        // The request reads back into the same position.
        let back: AiRequest = serde_json::from_str(&text).unwrap();
        let (pos, me) = back.to_position(false).unwrap();
        assert_eq!(me, team);
        assert_eq!(pos.pieces(team), g.position().pieces(team));
        assert_eq!(
            pos.destinations(team.other()),
            g.position().destinations(team.other())
        );
    }
    // The exact start of red's request.
    let text = serde_json::to_string(&g.request(Team::Red)).unwrap();
    assert!(
        text.starts_with(r#"{"boardSize":18,"pieces":[{"x":0,"y":14,"damage":0},"#),
        "{text}"
    );
}

#[test]
fn the_seeds_request_example_reads_as_a_position() {
    // The seed's example, with its squares adjusted to be distinct and damage within 0..=5.
    let text = r#"{
        "boardSize":18,
        "pieces":[{"x":0,"y":0,"damage":0},{"x":1,"y":1,"damage":1}],
        "destinations":[{"x":0,"y":0},{"x":1,"y":1}],
        "enemy":[{"x":5,"y":5,"damage":0},{"x":6,"y":6,"damage":1}],
        "enemydestinations":[{"x":17,"y":17},{"x":16,"y":16}]
    }"#;
    let req: AiRequest = serde_json::from_str(text).unwrap();
    let (pos, me) = req.to_position(false).unwrap();
    assert_eq!(me, Team::Red);
    assert_eq!(pos.size(), 18);
    assert_eq!(pos.piece_at(Team::Red, sq(1, 1)).unwrap().damage, 1);
    assert!(pos.is_destination(Team::Blue, sq(17, 17)));
}

#[test]
fn only_http_and_https_addresses_with_a_host_are_web_ais() {
    use gridarena_engine::halma::protocol::{check_ai_url, MAX_AI_URL_LEN};
    assert_eq!(
        check_ai_url(" http://127.0.0.1:8001/ "),
        Ok("http://127.0.0.1:8001/".into())
    );
    assert!(check_ai_url("HTTPS://ai.example.org/move").is_ok());
    for bad in [
        "",
        "127.0.0.1:8001",
        "ftp://x",
        "javascript:alert(1)",
        "http://",
        "http:///x",
        "http://a b",
        "http://x/\ny",
    ] {
        assert!(check_ai_url(bad).is_err(), "{bad:?}");
    }
    assert!(check_ai_url(&format!("http://x/{}", "a".repeat(MAX_AI_URL_LEN))).is_err());
}
