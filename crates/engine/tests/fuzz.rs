//! Fuzzing with proptest: whatever arrives from outside (an AI's answer, a request, a recorded game
//! state), the engine answers with a value or an error and never panics.

mod common;

use common::setups;
use gridarena_engine::halma::protocol::{parse_response, response_from_value};
use gridarena_engine::halma::{
    AiRequest, Answer, Game, GameState, NoMove, Path, Position, Preset, Team,
};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};

fn arena() -> Position {
    Game::new(&Preset::Arena.rules(), 0)
        .unwrap()
        .position()
        .clone()
}

/// Parses `body`, and checks any move it yields on the arena start and on `other`, for both teams.
fn parse_and_check(body: &[u8], other: &Position) -> Result<(), TestCaseError> {
    let parsed = parse_response(body);
    match &parsed {
        Ok(path) => {
            for pos in [&arena(), other] {
                check_everywhere(pos, path)?;
            }
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            prop_assert!(!e.code().is_empty());
        }
    }
    // The same through an already parsed value, when the body is JSON.
    if let Ok(text) = std::str::from_utf8(body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body)) {
        if let Ok(v) = serde_json::from_str::<Value>(text) {
            if body.len() <= gridarena_engine::halma::MAX_RESPONSE_BYTES {
                prop_assert_eq!(response_from_value(&v), parsed);
            }
        }
    }
    Ok(())
}

fn check_everywhere(pos: &Position, path: &Path) -> Result<(), TestCaseError> {
    for t in Team::ALL {
        match pos.check(t, path) {
            Ok(mv) => {
                prop_assert!(
                    pos.moves_from(t, mv.from).contains(&mv),
                    "{t} {path} accepted as {mv} but not generated"
                );
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty() && !e.code().is_empty());
            }
        }
    }
    Ok(())
}

fn small_position() -> impl Strategy<Value = Position> {
    setups(4..=12, 40).prop_map(|s| s.position())
}

/// Pieces of JSON and of things that are almost JSON.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    " ",
    "\n",
    "\"",
    "\"from\"",
    "\"to\"",
    "\"x\"",
    "\"y\"",
    "\"damage\"",
    "0",
    "1",
    "2",
    "-1",
    "17",
    "18",
    "3.0",
    "1.5",
    "-0.0",
    "1e30",
    "1e400",
    "-1e30",
    "99999999999999999999",
    "-9223372036854775808",
    "9223372036854775807",
    "18446744073709551616",
    "null",
    "true",
    "false",
    "\"3\"",
    "\"\"",
    "\\u0000",
    "\\",
    "\u{FEFF}",
    "\u{E9}",
    "NaN",
    "{}",
    "[]",
    "{\"x\":1,\"y\":2}",
    "{\"x\":0,\"y\":14}",
    "[{\"x\":2,\"y\":12}]",
];

fn fragments() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..40).prop_map(|v| v.concat())
}

/// A valid response body with small (sometimes off-board) coordinates.
fn valid_body() -> impl Strategy<Value = String> {
    (
        (-2i64..20, -2i64..20),
        prop::collection::vec((-2i64..20, -2i64..20), 0..5),
    )
        .prop_map(|((fx, fy), to)| {
            json!({
                "from": {"x": fx, "y": fy},
                "to": to.iter().map(|&(x, y)| json!({"x": x, "y": y})).collect::<Vec<_>>(),
            })
            .to_string()
        })
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(Index, u8),
    Insert(Index, u8),
    Delete(Index),
    Duplicate(Index, Index),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), any::<Index>()).prop_map(|(i, j)| Mutation::Duplicate(i, j)),
        any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(body: &mut Vec<u8>, m: &Mutation) {
    if body.is_empty() {
        if let Mutation::Insert(_, b) = m {
            body.push(*b);
        }
        return;
    }
    match m {
        Mutation::Flip(i, b) => {
            let i = i.index(body.len());
            body[i] ^= b;
        }
        Mutation::Insert(i, b) => body.insert(i.index(body.len() + 1), *b),
        Mutation::Delete(i) => {
            body.remove(i.index(body.len()));
        }
        Mutation::Duplicate(i, j) => {
            let (a, b) = (i.index(body.len()), j.index(body.len()));
            let (a, b) = (a.min(b), a.max(b) + 1);
            let slice = body[a..b].to_vec();
            body.splice(b..b, slice);
        }
        Mutation::Truncate(i) => body.truncate(i.index(body.len())),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..300), pos in small_position()) {
        parse_and_check(&body, &pos)?;
    }

    #[test]
    fn json_ish_fragments_never_panic(body in fragments(), pos in small_position()) {
        parse_and_check(body.as_bytes(), &pos)?;
        // With a BOM in front too.
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(body.as_bytes());
        parse_and_check(&bom, &pos)?;
    }

    #[test]
    fn mutated_valid_responses_never_panic(
        body in valid_body(),
        mutations in prop::collection::vec(mutation(), 0..6),
        pos in small_position(),
    ) {
        // Unmutated, it parses.
        prop_assert!(parse_response(body.as_bytes()).is_ok(), "{}", body);
        let mut bytes = body.into_bytes();
        for m in &mutations {
            mutate(&mut bytes, m);
        }
        parse_and_check(&bytes, &pos)?;
    }
}

// ---------------------------------------------------------------------------------------------------
// Structured values: responses, requests and game states

const KEYS: &[&str] = &[
    "from",
    "to",
    "x",
    "y",
    "damage",
    "version",
    "preset",
    "boardSize",
    "mode",
    "campRule",
    "turnLimit",
    "turn",
    "toMove",
    "result",
    "red",
    "blue",
    "pieces",
    "destinations",
    "kind",
    "winner",
    "enemy",
    "enemydestinations",
    "team",
    "timeLimitMs",
    "zzz",
];

const WORDS: &[&str] = &[
    "red",
    "blue",
    "simultaneous",
    "alternating",
    "arena",
    "classic",
    "mini",
    "win",
    "bothFinished",
    "turnLimit",
    "",
    "x",
    "🦀",
];

/// JSON scalars, weighted towards the small integers that make plausible coordinates, sizes and damage.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (-3i64..40).prop_map(|n| json!(n)),
        1 => any::<i64>().prop_map(|n| json!(n)),
        1 => prop_oneof![
            any::<u64>(),
            Just(u64::from(u32::MAX)),
            Just(u64::from(u32::MAX) + 1),
            Just(256),
            Just(255),
        ]
        .prop_map(|n| json!(n)),
        1 => any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f).map(Value::Number)),
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        2 => prop::sample::select(WORDS).prop_map(|s| Value::String(s.into())),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..4).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

#[derive(Clone, Debug)]
enum Edit {
    /// Replace the node reached by the walk.
    Replace(Value),
    /// Remove a key (objects) or an element (arrays) of the node reached.
    Remove(Index),
    /// Duplicate an element of the node reached (arrays), or add a key (objects).
    Grow(Index, Value),
}

/// One step of a walk into a JSON value: a named key if the node has it, else any child.
#[derive(Clone, Debug)]
enum Step {
    Key(&'static str),
    Any(Index),
}

/// Where to edit: mostly a piece's or destination's field, or a top-level field of a state, sometimes
/// anywhere.
fn walk() -> impl Strategy<Value = Vec<Step>> {
    prop_oneof![
        3 => (
            prop::sample::select(&["red", "blue"][..]),
            prop::sample::select(&["pieces", "destinations"][..]),
            any::<Index>(),
            prop::sample::select(&["x", "y", "damage"][..]),
            prop_oneof![1 => 0..4usize, 6 => Just(4usize)],
        )
            .prop_map(|(t, l, i, f, depth)| {
                [Step::Key(t), Step::Key(l), Step::Any(i), Step::Key(f)][..depth].to_vec()
            }),
        2 => prop::sample::select(
            &["boardSize", "turn", "turnLimit", "version", "mode", "toMove", "result", "campRule",
              "preset", "pieces", "enemy", "destinations", "enemydestinations", "team"][..]
        )
        .prop_map(|k| vec![Step::Key(k)]),
        1 => prop::collection::vec(any::<Index>().prop_map(Step::Any), 0..6),
    ]
}

fn edit() -> impl Strategy<Value = (Vec<Step>, Edit)> {
    (
        walk(),
        prop_oneof![
            3 => leaf().prop_map(Edit::Replace),
            1 => value().prop_map(Edit::Replace),
            1 => any::<Index>().prop_map(Edit::Remove),
            1 => (any::<Index>(), value()).prop_map(|(i, v)| Edit::Grow(i, v)),
        ],
    )
}

/// Walks into `v` along `walk` (the walk stops early at a leaf) and applies `e`.
fn apply(v: &mut Value, walk: &[Step], e: &Edit) {
    let mut node = v;
    for step in walk {
        let len = match &*node {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if len == 0 {
            break;
        }
        let child = match (&*node, step) {
            (Value::Object(m), Step::Key(k)) => m.keys().position(|x| x == k).unwrap_or(0),
            (_, Step::Key(k)) => k.len() % len,
            (_, Step::Any(i)) => i.index(len),
        };
        node = match node {
            Value::Object(m) => m.values_mut().nth(child).expect("in range"),
            Value::Array(a) => &mut a[child],
            _ => unreachable!("a node with children"),
        };
    }
    match (e, node) {
        (Edit::Replace(new), node) => *node = new.clone(),
        (Edit::Remove(i), Value::Object(m)) if !m.is_empty() => {
            let k = m.keys().nth(i.index(m.len())).cloned().expect("in range");
            m.remove(&k);
        }
        (Edit::Remove(i), Value::Array(a)) if !a.is_empty() => {
            a.remove(i.index(a.len()));
        }
        (Edit::Grow(i, _), Value::Array(a)) if !a.is_empty() => {
            let x = a[i.index(a.len())].clone();
            a.push(x);
        }
        (Edit::Grow(i, new), Value::Object(m)) => {
            m.insert(KEYS[i.index(KEYS.len())].to_string(), new.clone());
        }
        _ => {}
    }
}

/// A valid state to start mutating from: a preset's start or a random custom setup.
fn base_state() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(&Preset::ALL[..]).prop_map(|p| {
            serde_json::to_value(Game::new(&p.rules(), 5).unwrap().state()).unwrap()
        }),
        setups(4..=10, 20).prop_map(|s| {
            let ts = |pieces: &[(u8, u8, u8)], dests: &[(u8, u8)]| {
                json!({
                    "pieces": pieces.iter().map(|&(x, y, d)| json!({"x": x, "y": y, "damage": d})).collect::<Vec<_>>(),
                    "destinations": dests.iter().map(|&(x, y)| json!({"x": x, "y": y})).collect::<Vec<_>>(),
                })
            };
            json!({
                "boardSize": s.size, "mode": "simultaneous", "campRule": s.camp_rule,
                "campRules": s.camp_rules(),
                "turnLimit": 20, "turn": 0,
                "red": ts(&s.red, &s.red_dests), "blue": ts(&s.blue, &s.blue_dests),
            })
        }),
    ]
}

/// Plays a few ticks with answers read from arbitrary values, and round-trips the state.
fn exercise(mut game: Game, answers: &[(Value, Value)]) -> Result<(), TestCaseError> {
    for (r, b) in answers {
        let answer = |v: &Value, t: Team, g: &Game| -> Answer {
            if !g.movers().contains(&t) {
                return Answer::NoMove(NoMove::Missing);
            }
            match response_from_value(v) {
                Ok(p) => Answer::Move(p),
                // A legal move instead, if there is one, so that games move on.
                Err(_) => match g.position().moves(t).first() {
                    Some(&m) => Answer::Move(g.position().path(t, m).expect("legal")),
                    None => Answer::NoMove(NoMove::Missing),
                },
            }
        };
        let (red, blue) = (answer(r, Team::Red, &game), answer(b, Team::Blue, &game));
        let turn = game.turn();
        match game.tick(red, blue) {
            Ok(o) => {
                prop_assert_eq!(o.turn, turn + 1);
                for e in &o.errors {
                    prop_assert!(!e.message.is_empty() && !e.code.is_empty());
                }
                let _ = serde_json::to_string(&o).expect("an outcome serialises");
            }
            Err(refused) => {
                prop_assert!(!refused.to_string().is_empty());
                break;
            }
        }
    }
    let state = game.state();
    let text = serde_json::to_string(&state).expect("a state serialises");
    let back: GameState = serde_json::from_str(&text).expect("a state reads back");
    let again = Game::from_state(&back);
    prop_assert_eq!(again.as_ref(), Ok(&game));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_response_values_never_panic(v in value(), pos in small_position()) {
        if let Ok(path) = response_from_value(&v) {
            check_everywhere(&arena(), &path)?;
            check_everywhere(&pos, &path)?;
        }
        let text = v.to_string();
        parse_and_check(text.as_bytes(), &pos)?;
    }

    #[test]
    fn mutated_states_never_panic(
        base in base_state(),
        edits in prop::collection::vec(edit(), 0..4),
        answers in prop::collection::vec((value(), value()), 0..4),
    ) {
        let mut v = base;
        for (walk, e) in &edits {
            apply(&mut v, walk, e);
        }
        if let Ok(state) = serde_json::from_value::<GameState>(v) {
            match Game::from_state(&state) {
                Ok(game) => exercise(game, &answers)?,
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn arbitrary_state_values_never_panic(v in value()) {
        if let Ok(state) = serde_json::from_value::<GameState>(v) {
            if let Ok(game) = Game::from_state(&state) {
                exercise(game, &[])?;
            }
        }
    }

    #[test]
    fn mutated_requests_never_panic(
        team in prop::sample::select(&Team::ALL[..]),
        edits in prop::collection::vec(edit(), 0..4),
        camp_rule in any::<bool>(),
    ) {
        let game = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let mut v = serde_json::to_value(game.request(team)).unwrap();
        for (walk, e) in &edits {
            apply(&mut v, walk, e);
        }
        if let Ok(req) = serde_json::from_value::<AiRequest>(v) {
            match req.to_position(camp_rule) {
                Ok((pos, me)) => {
                    for mv in pos.moves(me) {
                        let path = pos.path(me, mv).expect("legal moves have paths");
                        prop_assert_eq!(pos.check(me, &path), Ok(mv));
                    }
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }
}
