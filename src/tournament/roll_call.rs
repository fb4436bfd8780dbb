//! The roll call before round 1: every web entry gets one real request (the start position, as it will
//! get in its first game), and every code entry runs once on it in its own worker; each turns green or
//! red, with the reason in plain words and what to fix. A teacher then starts with everyone, or without
//! the red entries, knowing why they are red.
//!
//! The answer is judged by the engine: it is delivered to a scratch game of the start position, so an
//! illegal move is refused with the referee's own reason.

use crate::halma::asker::Question;
use gridarena_engine::halma::protocol::ResponseError;
use gridarena_engine::halma::{AiPlayer, Answer, NoMove, Team};
use gridarena_engine::tournament::game::{Fixture, TournamentGame};
use gridarena_engine::tournament::settings::Settings;

/// Where one entry stands in the roll call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Not asked yet, or the answer is on its way.
    Waiting,
    /// Ready to play: what was seen ("answered in 12 ms", "house bot").
    Green(String),
    /// Not ready: what went wrong, and how to fix it.
    Red { reason: String, fix: String },
}

impl Check {
    pub fn is_red(&self) -> bool {
        matches!(self, Check::Red { .. })
    }

    fn red(reason: impl Into<String>, fix: impl Into<String>) -> Check {
        Check::Red {
            reason: reason.into(),
            fix: fix.into(),
        }
    }
}

/// The scratch game an entry's roll-call request is made in: the tournament's first position, the
/// entry playing red.
pub fn scratch_game(settings: &Settings) -> Result<TournamentGame, String> {
    let fixture = Fixture {
        number: 0,
        round: 0,
        red: 0,
        blue: 1,
        seed: settings.seed,
    };
    TournamentGame::new(fixture, settings).map_err(|e| e.to_string())
}

/// The request a web entry is sent, and the team it is asked for: the start position's body.
pub fn request(settings: &Settings) -> Result<(String, Team), String> {
    let mut game = scratch_game(settings)?;
    let asks = game.begin().map_err(|e| e.to_string())?;
    let team = asks.first().map_or(Team::Red, |a| a.team);
    Ok((game.request_body(team, settings.tick_ms), team))
}

/// How long the roll call waits for an answer: longer than a tick, so a slow AI is told how slow it is.
pub fn deadline_ms(settings: &Settings) -> u64 {
    settings.tick_ms.saturating_mul(3).max(3000)
}

/// The check for an entry that needs no request: built-ins are always ready, and an `http:` AI cannot
/// be reached from an `https:` page at all (the browser blocks mixed content before any request).
pub fn before_asking(player: &AiPlayer, page_protocol: &str) -> Option<Check> {
    match player {
        AiPlayer::BuiltIn(_) => Some(Check::Green("house bot: always ready".to_string())),
        AiPlayer::Web(url) if page_protocol == "https:" && url.starts_with("http:") => Some(Check::red(
            "this page is on https:, and the browser refuses to fetch an http: address from it (mixed content)",
            "serve the AI over https:, or open this page over http: (for example from a local copy)",
        )),
        AiPlayer::Web(_) => None,
        AiPlayer::Code(_) => None,
        AiPlayer::Program(_) => Some(Check::red(
            "this entry is a program on a computer, which a browser cannot start",
            "serve it with gridarena halma bridge (docs/programs.md) and enter the address it prints as this entry's player, or run the tournament with gridarena halma tournament",
        )),
    }
}

/// The question a code entry is asked in the roll call: the start position, as in its first game.
pub fn code_question(settings: &Settings) -> Result<Question, String> {
    let mut game = scratch_game(settings)?;
    let asks = game.begin().map_err(|e| e.to_string())?;
    let team = asks.first().map_or(Team::Red, |a| a.team);
    Ok(Question::Code {
        request: game.request_body(team, settings.tick_ms),
        state: serde_json::to_string(&game.game().state()).unwrap_or_default(),
        team,
    })
}

/// What a student does about a code failure named `code` (the code players' and the course format's
/// names, docs/code-players.md).
fn code_fix(code: &str) -> &'static str {
    match code {
        "syntax_error" => "fix the code at that line (the \"Write an AI\" page shows it), and hand it in again",
        "exception" => "the last lines of the traceback are the student's code that failed: fix it there",
        "no_move_function" => "the main file must define move(request), or be a course homework script",
        "network" => "an AI may not use the network in a tournament: take the fetch or socket out",
        "out_of_memory" => "the code keeps too much: a smaller table, or fewer copies of the board",
        "malformed_answer" | "malformed_output" => {
            "answer with a move like {\"from\":{\"x\":2,\"y\":14},\"to\":[{\"x\":2,\"y\":13}]} (course format: output.txt as the course says)"
        }
        "no_output" => "the script must write its move to output.txt",
        "output_too_large" => "the script must write one move to output.txt, nothing more",
        "crashed" => "the script stopped with an error: read it above, and run the script on the course's input.txt",
        "out_of_time" => "the course's clock for a game is spent: the script must be quicker",
        _ => "open the code on the \"Write an AI\" page and play it there against a house bot to see why",
    }
}

/// Judges a code entry's answer to the roll call's question: its failure with the line and the reason
/// (the failure's own message says them), or its move judged by the referee as a web AI's is, green
/// with the move and the time.
pub fn judge_code(settings: &Settings, answer: Answer, latency_ms: Option<u32>) -> Check {
    let tick = settings.tick_ms;
    match &answer {
        Answer::NoMove(NoMove::Replayed { code, message }) => Check::red(message.clone(), code_fix(code)),
        Answer::NoMove(NoMove::Code(failure)) => Check::red(failure.to_string(), code_fix(failure.code())),
        Answer::NoMove(NoMove::Program(failure)) => {
            Check::red(failure.to_string(), code_fix(failure.code()))
        }
        Answer::NoMove(NoMove::TimedOut { after_ms }) => Check::red(
            format!("no answer within {after_ms} ms"),
            format!(
                "the code must answer within the tick length ({tick} ms): does it loop for ever, or search too deep? Or raise the tick length"
            ),
        ),
        Answer::Move(path) => {
            let moved = path.to_string();
            match judge(settings, answer, latency_ms) {
                Check::Green(_) => Check::Green(match latency_ms {
                    Some(ms) => format!("moved {moved} in {ms} ms"),
                    None => format!("moved {moved}"),
                }),
                other => other,
            }
        }
        _ => judge(settings, answer, latency_ms),
    }
}

const JSON_FIX: &str =
    "answer with one JSON object, like {\"from\":{\"x\":2,\"y\":14},\"to\":[{\"x\":2,\"y\":13}]}";

/// Judges a web entry's answer to the roll-call request (`latency_ms` from request to reply).
pub fn judge(settings: &Settings, answer: Answer, latency_ms: Option<u32>) -> Check {
    let tick = settings.tick_ms;
    match &answer {
        Answer::NoMove(NoMove::Failed(why)) if why.contains("CORS") => {
            return Check::red(
                "unreachable, or blocked by CORS: the browser cannot tell these two apart",
                "check that the AI is running at this address, and that every answer carries the \
                 header Access-Control-Allow-Origin: *",
            )
        }
        Answer::NoMove(NoMove::Failed(why)) if why.starts_with("HTTP ") => {
            return Check::red(
                format!("it answered with an error status: {why}"),
                "the AI must answer 200 with its move; look at its own log for the error",
            )
        }
        Answer::NoMove(NoMove::Failed(why)) => {
            return Check::red(
                format!("the request failed: {why}"),
                "check the address",
            )
        }
        Answer::NoMove(NoMove::TimedOut { after_ms }) => {
            return Check::red(
                format!("no answer within {after_ms} ms"),
                format!("the AI must answer within the tick length ({tick} ms): make it faster, or raise the tick length"),
            )
        }
        Answer::NoMove(NoMove::Unreadable(
            e @ (ResponseError::NotJson(_) | ResponseError::Empty | ResponseError::TooLarge { .. }),
        )) => return Check::red(format!("the answer is not JSON: {e}"), JSON_FIX),
        Answer::NoMove(NoMove::Unreadable(e)) => {
            return Check::red(format!("the answer has the wrong shape: {e}"), JSON_FIX)
        }
        Answer::NoMove(other) => {
            return Check::red(format!("no move: {other}"), "the AI must answer with a move")
        }
        Answer::Move(_) => {}
    }
    // A move: the referee judges it on the start position.
    let legal = scratch_game(settings).and_then(|mut game| {
        let asks = game.begin().map_err(|e| e.to_string())?;
        let ask = asks.first().ok_or("no side is to move")?;
        game.deliver(ask.turn, ask.team, answer, latency_ms);
        let outcome = game.finish(tick).map_err(|e| e.to_string())?;
        match outcome.errors.first() {
            Some(e) => Err(format!("illegal move: {e}")),
            None => Ok(()),
        }
    });
    if let Err(why) = legal {
        return Check::red(
            why,
            "check that the AI reads the position and its team from the request",
        );
    }
    match latency_ms {
        Some(ms) if u64::from(ms) > tick => Check::red(
            format!("slower than the tick: it answered in {ms} ms, the tick is {tick} ms"),
            "make the AI faster, or raise the tick length",
        ),
        Some(ms) => Check::Green(format!("answered with a legal move in {ms} ms")),
        None => Check::Green("answered with a legal move".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::ai::BuiltIn;
    use gridarena_engine::halma::{Game, Preset};

    fn settings() -> Settings {
        Settings {
            preset: Preset::Mini,
            tick_ms: 200,
            ..Settings::default()
        }
    }

    fn good_move(s: &Settings) -> Answer {
        let game = Game::new(&s.rules(), s.seed).unwrap();
        let (_, team) = request(s).unwrap();
        BuiltIn::Greedy.answer(&game, team, 1)
    }

    #[test]
    fn a_legal_quick_answer_is_green_and_a_slow_one_red() {
        let s = settings();
        let good = judge(&s, good_move(&s), Some(12));
        assert!(
            matches!(&good, Check::Green(t) if t.contains("12 ms")),
            "{good:?}"
        );
        let slow = judge(&s, good_move(&s), Some(900));
        assert!(
            matches!(&slow, Check::Red { reason, .. } if reason.contains("900 ms")),
            "{slow:?}"
        );
        let (body, _) = request(&s).unwrap();
        assert!(body.contains("\"team\""), "{body}");
    }

    #[test]
    fn every_failure_is_named_with_a_fix() {
        let s = settings();
        let cases = [
            (
                Answer::NoMove(NoMove::Failed(
                    "connection refused or blocked by CORS (x)".into(),
                )),
                "cannot tell",
            ),
            (
                Answer::NoMove(NoMove::Failed("HTTP 500 boom".into())),
                "HTTP 500",
            ),
            (
                Answer::NoMove(NoMove::TimedOut { after_ms: 3000 }),
                "3000 ms",
            ),
            (
                Answer::NoMove(NoMove::Unreadable(ResponseError::NotJson("x".into()))),
                "not JSON",
            ),
            (
                Answer::NoMove(NoMove::Unreadable(ResponseError::List)),
                "wrong shape",
            ),
        ];
        for (answer, said) in cases {
            let Check::Red { reason, fix } = judge(&s, answer, None) else {
                panic!("{said}")
            };
            assert!(reason.contains(said), "{reason}");
            assert!(!fix.is_empty());
        }
        let wrong = gridarena_engine::halma::protocol::parse_response(
            br#"{"from":{"x":0,"y":0},"to":[{"x":7,"y":7}]}"#,
        );
        let Check::Red { reason, .. } = judge(&s, Answer::from(wrong), Some(5)) else {
            panic!()
        };
        assert!(reason.starts_with("illegal move: "), "{reason}");
    }

    #[test]
    fn built_ins_are_green_and_mixed_content_is_red_before_asking() {
        assert!(matches!(
            before_asking(&AiPlayer::BuiltIn(BuiltIn::Greedy), "https:"),
            Some(Check::Green(_))
        ));
        let web = AiPlayer::Web("http://127.0.0.1:8001/".into());
        assert!(before_asking(&web, "http:").is_none());
        assert!(
            matches!(before_asking(&web, "https:"), Some(Check::Red { reason, .. }) if reason.contains("mixed content"))
        );
    }
}
