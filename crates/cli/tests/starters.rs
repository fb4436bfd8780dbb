//! The starter AIs (`ai/python/halma_ai.py`, `ai/php/index.php`) as real HTTP servers.
//!
//! Each starter is started on a free port and asked over plain HTTP/1.1, as the arena asks: whole games
//! of every preset (against itself and against the built-in greedy AI), refereed in-process by the
//! engine, and positions changed at random (damage, the camp rule, crowded camps). Every answer must be a
//! move the referee accepts whenever the team has one, and the documented no-move answer otherwise; the
//! two starters implement the same greedy rule and tie-break, so they must give the same answer to every
//! request. The HTTP side is checked too: CORS headers, 400 for malformed requests, and a server that
//! keeps answering afterwards.
//!
//! A starter whose interpreter (`python3`, `php`) is not installed is skipped with a message.

use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::protocol::parse_response;
use gridarena_engine::halma::{
    AiRequest, Answer, CampRules, Game, GameLoop, GameResult, NoMove, Path, PieceJson, Point,
    Preset, ResponseError, Team, Teams,
};
use gridarena_engine::SplitMix64;
use serde_json::{json, Value};

#[path = "support/starter.rs"]
mod starter;

use starter::{http, start_all, Reply, Starter, ROOT};

/// Ticks after which a game is stopped, a safety net: these games end in 40 to 200 ticks.
const MAX_TICKS: u32 = 300;

impl Starter {
    fn post(&self, body: &[u8]) -> Reply {
        http(self.port, "POST", &[], body).unwrap_or_else(|e| {
            panic!(
                "{:?} starter: the request failed: {e}; its stderr:\n{}",
                self.kind,
                self.log_tail()
            )
        })
    }

    /// Asks for a move as the referee does: a 200 answer read by the referee's own parser.
    fn ask(&self, request: &AiRequest) -> Result<Path, ResponseError> {
        let reply = self.post(&serde_json::to_vec(request).expect("a request serialises"));
        assert_eq!(
            reply.status,
            200,
            "{:?} starter: {}; its stderr:\n{}",
            self.kind,
            reply.text(),
            self.log_tail()
        );
        assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
        parse_response(&reply.body)
    }
}

/// Who plays a team in a test game.
#[derive(Clone, Copy, Debug)]
enum Side {
    /// Every running starter is asked; the first one's answer is played.
    Starters,
    /// The engine's built-in greedy AI, seeded with the game seed and the turn, so games differ.
    Greedy,
}

/// What a game came to (printed with `--nocapture`).
#[derive(Debug, Default)]
struct Summary {
    ticks: u32,
    result: Option<GameResult>,
    starter_moves: usize,
    collisions: usize,
}

/// Plays one game of `preset`; checks every starter answer (legal whenever the team has a legal move,
/// the same from every starter) and enacts the first starter's.
fn play(starters: &[Starter], preset: Preset, seed: u64, sides: Teams<Side>) -> Summary {
    let mut game = Game::new(&preset.rules(), seed).expect("the preset sets up");
    let mut summary = Summary::default();
    while game.result().is_none() && game.turn() < MAX_TICKS {
        let mut answers = Teams::from_fn(|_| Answer::NoMove(NoMove::Missing));
        for team in game.movers() {
            let position = game.position();
            if let Side::Greedy = sides[team] {
                let seed = seed ^ u64::from(game.turn()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                answers[team] = match BuiltIn::Greedy.choose(position, game.mode(), team, seed) {
                    Some(path) => Answer::Move(path),
                    None => Answer::NoMove(NoMove::Missing),
                };
                continue;
            }
            let mut request = game.request(team);
            request.time_limit_ms = Some(1000);
            let has_move = position.count_moves(team) > 0;
            let at = || format!("{preset} seed {seed} turn {} {team}", game.turn());
            let replies: Vec<_> = starters.iter().map(|s| s.ask(&request)).collect();
            for (starter, reply) in starters.iter().zip(&replies) {
                let kind = starter.kind;
                match reply {
                    Ok(path) if has_move => {
                        if let Err(e) = position.check(team, path) {
                            panic!(
                                "{}: the {kind:?} starter's move {path} is illegal: {e}",
                                at()
                            );
                        }
                    }
                    Ok(path) => panic!("{}: no legal move exists, yet {kind:?} sent {path}", at()),
                    Err(e) if has_move => panic!("{}: {kind:?} sent no move: {e}", at()),
                    // The documented answer without a legal move, {"error":"no legal move"}, has no "from".
                    Err(e) => assert_eq!(e.code(), "missing_field", "{}: {e}", at()),
                }
            }
            for (starter, reply) in starters.iter().zip(&replies).skip(1) {
                assert_eq!(
                    reply,
                    &replies[0],
                    "{}: the {:?} and {:?} starters disagree",
                    at(),
                    starters[0].kind,
                    starter.kind
                );
            }
            summary.starter_moves += 1;
            answers[team] = Answer::from(replies[0].clone());
        }
        let Teams { red, blue } = answers;
        let outcome = game.tick(red, blue).expect("the referee takes the tick");
        summary.collisions += outcome.collisions.len();
    }
    summary.ticks = game.turn();
    summary.result = game.result();
    eprintln!(
        "{preset} seed {seed}, red {:?}, blue {:?}: {summary:?}",
        sides.red, sides.blue
    );
    summary
}

/// Plays `preset` starters against starters for each seed in `own`, and against the built-in greedy AI
/// (on each side in turn) for each seed in `mixed`.
fn play_games(preset: Preset, own: &[u64], mixed: &[u64]) {
    let starters = start_all();
    if starters.is_empty() {
        return;
    }
    let mut summaries = Vec::new();
    for &seed in own {
        let sides = Teams::from_fn(|_| Side::Starters);
        summaries.push(play(&starters, preset, seed, sides));
    }
    for (i, &seed) in mixed.iter().enumerate() {
        let sides = if i % 2 == 0 {
            Teams {
                red: Side::Starters,
                blue: Side::Greedy,
            }
        } else {
            Teams {
                red: Side::Greedy,
                blue: Side::Starters,
            }
        };
        summaries.push(play(&starters, preset, seed, sides));
    }
    // Legal is the point; but a starter that never finishes a game has lost its way (two pieces
    // swapping squares forever, say).
    assert!(
        summaries.iter().any(|s| s.result.is_some()),
        "no {preset} game reached a result: {summaries:?}"
    );
}

#[test]
fn arena_games_get_only_legal_moves_and_the_starters_agree() {
    play_games(Preset::Arena, &[0], &[1, 2, 3, 4]);
}

#[test]
fn classic_games_get_only_legal_moves_and_the_starters_agree() {
    play_games(Preset::Classic, &[1, 2], &[3, 4]);
}

#[test]
fn mini_games_get_only_legal_moves_and_the_starters_agree() {
    play_games(Preset::Mini, &[1, 2, 3], &[4, 5, 6, 7]);
}

/// Positions from games of the built-in greedy AI, changed at random: damage on some of the asked team's
/// pieces, the camp rule on or off, and sometimes only the pieces already home or a camp full of the
/// team's own pieces. Whatever the position, the starters' answer is a legal move (or, without one, the
/// no-move answer), and both starters give the same one.
#[test]
fn damaged_pieces_and_the_camp_rule_in_many_positions() {
    let starters = start_all();
    if starters.is_empty() {
        return;
    }
    let mut rng = SplitMix64::new(2024);
    let mut asked = 0;
    let mut stuck = 0;
    for preset in Preset::ALL {
        let mut game = Game::new(&preset.rules(), 9).expect("the preset sets up");
        while game.result().is_none() && game.turn() < 120 {
            let mut answers = Teams::from_fn(|_| Answer::NoMove(NoMove::Missing));
            for team in game.movers() {
                let seed = rng.next_u64();
                if let Some(path) = BuiltIn::Greedy.choose(game.position(), game.mode(), team, seed)
                {
                    answers[team] = Answer::Move(path);
                }
                if game.turn() % 5 != 0 {
                    continue;
                }
                let mut request = game.request(team);
                for piece in &mut request.pieces {
                    if rng.below(3) == 0 {
                        piece.damage = 1 + rng.below(5) as i64;
                    }
                }
                request.camp_rule = Some(rng.below(2) == 0);
                // Sometimes only the pieces already home, or a camp full of the team's own pieces: then
                // the camp rule decides what is legal, and may leave no legal move at all.
                let home = |p: &PieceJson| request.destinations.contains(&Point { x: p.x, y: p.y });
                let home_pieces: Vec<PieceJson> =
                    request.pieces.iter().copied().filter(home).collect();
                let enemy: Vec<Point> = request
                    .enemy
                    .iter()
                    .map(|p| Point { x: p.x, y: p.y })
                    .collect();
                let full_camp: Vec<PieceJson> = request
                    .destinations
                    .iter()
                    .filter(|d| !enemy.contains(d))
                    .map(|d| PieceJson {
                        x: d.x,
                        y: d.y,
                        damage: rng.below(2) as i64,
                    })
                    .collect();
                match rng.below(4) {
                    0 if !home_pieces.is_empty() => request.pieces = home_pieces,
                    1 if !full_camp.is_empty() => request.pieces = full_camp,
                    _ => {}
                }
                let (position, asked_team) = request.to_position(false).expect("a valid position");
                assert_eq!(asked_team, team);
                let has_move = position.count_moves(team) > 0;
                stuck += usize::from(!has_move);
                let replies: Vec<_> = starters.iter().map(|s| s.ask(&request)).collect();
                for (starter, reply) in starters.iter().zip(&replies) {
                    let kind = starter.kind;
                    let json = serde_json::to_string(&request).unwrap();
                    match reply {
                        Ok(path) => {
                            assert!(
                                has_move,
                                "{kind:?} moved {path} without a legal move: {json}"
                            );
                            if let Err(e) = position.check(team, path) {
                                panic!("{kind:?}: {path} is illegal ({e}) in {json}");
                            }
                        }
                        Err(e) => assert!(!has_move, "{kind:?} sent no move ({e}) in {json}"),
                    }
                    assert_eq!(reply, &replies[0], "the starters disagree on {json}");
                }
                asked += 1;
            }
            let Teams { red, blue } = answers;
            game.tick(red, blue).expect("the referee takes the tick");
        }
    }
    assert!(asked > 50, "only {asked} positions were tried");
    assert!(stuck > 0, "no position without a legal move was tried");
}

/// The schemas in docs/schema describe what the referee really sends and what it reads.
#[test]
fn the_documented_schemas_match_the_referee() {
    let read = |name: &str| -> Value {
        let path = format!("{ROOT}/docs/schema/{name}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
    };
    let names = |v: &Value| -> Vec<String> {
        match v {
            Value::Object(o) => o.keys().cloned().collect(),
            Value::Array(a) => a.iter().map(|s| s.as_str().unwrap().to_string()).collect(),
            other => panic!("not a list of names: {other}"),
        }
    };
    let schema = read("halma-request.schema.json");
    let mut properties = names(&schema["properties"]);
    // Every preset's request as a game sends it, and the classic game under the course's camp rules,
    // which alone sends `campRules`: between them every documented field is sent.
    let mut course = Preset::Classic.rules();
    course.camp_rules = CampRules::Course;
    let rules = Preset::ALL.map(Preset::rules).into_iter().chain([course]);
    let mut all_sent = Vec::new();
    for rules in rules {
        let game = GameLoop::new(Game::new(&rules, 0).unwrap(), 0);
        let body = game.request_body(Team::Blue, 500);
        let sent = names(&serde_json::from_str::<Value>(&body).unwrap());
        for field in &sent {
            assert!(
                properties.contains(field),
                "{field} is sent but not documented"
            );
        }
        for field in names(&schema["required"]) {
            assert!(sent.contains(&field), "{field} is required but not sent");
        }
        all_sent.extend(sent);
    }
    all_sent.sort();
    all_sent.dedup();
    properties.sort();
    assert_eq!(
        all_sent, properties,
        "every documented field is sent by some game"
    );
    let schema = read("halma-response.schema.json");
    assert_eq!(names(&schema["required"]), ["from", "to"]);
    for example in schema["examples"].as_array().unwrap() {
        parse_response(example.to_string().as_bytes()).expect("the examples are moves");
        let read = gridarena_engine::halma::debug::read(example, 16);
        assert_eq!(read.warnings, Vec::<String>::new(), "{example}");
    }
}

/// A request for red on a `size` board; `campRule` is set when given.
fn request(
    size: i64,
    pieces: Value,
    destinations: Value,
    enemy: Value,
    camp: Option<bool>,
) -> Value {
    let mut r = json!({"boardSize": size, "pieces": pieces, "destinations": destinations,
        "enemy": enemy, "enemydestinations": [], "team": "red", "turn": 0});
    if let Some(c) = camp {
        r["campRule"] = json!(c);
    }
    r
}

fn path(from: (i64, i64), to: &[(i64, i64)]) -> Path {
    Path {
        from: Point {
            x: from.0,
            y: from.1,
        },
        to: to.iter().map(|&(x, y)| Point { x, y }).collect(),
    }
}

#[test]
fn small_positions_get_the_greedy_move_or_an_error_object() {
    let dest = json!([{"x": 0, "y": 0}]);
    let blocker = json!([{"x": 0, "y": 2}]);
    let cases = [
        // The jump over the enemy piece gains two rows.
        (
            request(
                4,
                json!([{"x": 0, "y": 3}]),
                dest.clone(),
                blocker.clone(),
                None,
            ),
            Some(path((0, 3), &[(0, 1)])),
        ),
        // A damaged piece may only step.
        (
            request(
                4,
                json!([{"x": 0, "y": 3, "damage": 2}]),
                dest.clone(),
                blocker,
                None,
            ),
            Some(path((0, 3), &[(1, 2)])),
        ),
        // A chain of jumps, over pieces of both teams.
        (
            request(
                6,
                json!([{"x": 0, "y": 5}, {"x": 0, "y": 2}]),
                dest.clone(),
                json!([{"x": 0, "y": 4}]),
                Some(false),
            ),
            Some(path((0, 5), &[(0, 3), (0, 1)])),
        ),
        // Home, with the camp rule: every move would leave the camp.
        (
            request(
                4,
                json!([{"x": 0, "y": 0}]),
                dest.clone(),
                json!([]),
                Some(true),
            ),
            None,
        ),
        // The classic preset implies the camp rule when the request does not say.
        (
            {
                let mut r = request(4, json!([{"x": 0, "y": 0}]), dest.clone(), json!([]), None);
                r["preset"] = json!("classic");
                r
            },
            None,
        ),
        // Without the camp rule it may leave (a last resort), smallest square first.
        (
            request(4, json!([{"x": 0, "y": 0}]), dest, json!([]), Some(false)),
            Some(path((0, 0), &[(0, 1)])),
        ),
    ];
    for starter in start_all() {
        for (req, expected) in &cases {
            let reply = starter.post(req.to_string().as_bytes());
            assert_eq!(reply.status, 200, "{:?}: {}", starter.kind, reply.text());
            match expected {
                Some(p) => assert_eq!(
                    parse_response(&reply.body).as_ref(),
                    Ok(p),
                    "{:?} on {req}",
                    starter.kind
                ),
                None => assert_eq!(
                    reply.json(),
                    json!({"error": "no legal move"}),
                    "{:?} on {req}",
                    starter.kind
                ),
            }
        }
    }
}

#[test]
fn starters_speak_cors_and_survive_malformed_requests() {
    let good = Game::new(&Preset::Arena.rules(), 0)
        .unwrap()
        .request(Team::Blue);
    let good = serde_json::to_vec(&good).unwrap();
    let malformed: [&[u8]; 9] = [
        b"",
        b"not json",
        b"[]",
        b"{\"boardSize\":18}",
        b"{\"boardSize\":\"18\",\"pieces\":[],\"destinations\":[],\"enemy\":[],\"enemydestinations\":[]}",
        b"{\"boardSize\":18,\"pieces\":[{\"x\":18,\"y\":0}],\"destinations\":[],\"enemy\":[],\"enemydestinations\":[]}",
        b"{\"boardSize\":18,\"pieces\":[{\"x\":1.5,\"y\":0}],\"destinations\":[],\"enemy\":[],\"enemydestinations\":[]}",
        b"{\"boardSize\":99999999999999999999999999,\"pieces\":[],\"destinations\":[],\"enemy\":[],\"enemydestinations\":[]}",
        b"{\"boardSize\":8,\"pieces\":{},\"destinations\":[],\"enemy\":[],\"enemydestinations\":[]}",
    ];
    for starter in start_all() {
        let kind = starter.kind;
        let preflight = http(
            starter.port,
            "OPTIONS",
            &[
                ("Origin", "http://127.0.0.1:8080"),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ],
            b"",
        )
        .expect("the preflight is answered");
        assert!(
            (200..300).contains(&preflight.status),
            "{kind:?}: {preflight:?}"
        );
        for (name, value) in [
            ("Access-Control-Allow-Origin", "*"),
            ("Access-Control-Allow-Methods", "POST"),
            ("Access-Control-Allow-Headers", "Content-Type"),
            ("Access-Control-Max-Age", ""),
        ] {
            let got = preflight.header(name);
            assert!(
                got.is_some_and(|v| v.contains(value)),
                "{kind:?}: preflight {name} is {got:?}"
            );
        }

        let reply = starter.post(&good);
        assert_eq!(reply.status, 200, "{kind:?}: {}", reply.text());
        assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
        assert!(
            parse_response(&reply.body).is_ok(),
            "{kind:?}: {}",
            reply.text()
        );
        let expected = reply.body;

        for body in malformed {
            let reply = starter.post(body);
            let shown = String::from_utf8_lossy(body);
            assert_eq!(reply.status, 400, "{kind:?} on {shown:?}: {}", reply.text());
            assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
            assert!(
                reply.json()["error"].is_string(),
                "{kind:?} on {shown:?}: {}",
                reply.text()
            );
            // Still serving, and still right.
            let again = starter.post(&good);
            assert_eq!(again.status, 200, "{kind:?} after {shown:?}");
            assert_eq!(again.body, expected, "{kind:?} after {shown:?}");
        }
    }
}
