//! The roll call before round 1: every entry is asked what the engine's plan says
//! ([`gridarena_engine::tournament::plan`], which `gridarena halma tournament` obeys too), on the one
//! position every roll call asks: a web entry and function code get the first game's request, a
//! course-format entry one `SINGLE` move on a whole clock, in its own worker; a built-in is not asked.
//! Each turns green or red, with the reason in plain words and what to fix. A teacher then starts with
//! everyone, or without the red entries, knowing why they are red.
//!
//! The answer is judged by the engine: it is delivered to a scratch game of the start position, so an
//! illegal move is refused with the referee's own reason; and an entry cut at the tick in its games is
//! red when it answered slower than the tick ([`EntryPlan::in_time`]).

use crate::code::player::LOAD_LIMIT_MS;
use crate::halma::asker::Question;
use gridarena_engine::halma::code::ClockSettings;
use gridarena_engine::halma::game_loop::game_request_body;
use gridarena_engine::halma::play::Deadline;
use gridarena_engine::halma::protocol::ResponseError;
use gridarena_engine::halma::{AiPlayer, Answer, Match, NoMove, Team};
use gridarena_engine::tournament::plan::{self, EntryPlan, Occasion};
use gridarena_engine::tournament::roster::Roster;
use gridarena_engine::tournament::settings::Settings;

/// One entry of the roll call: its name, its player and how the engine's plan says to ask it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub player: AiPlayer,
    pub plan: EntryPlan,
}

/// The entries of `roster`, checked, in roster order, each with its plan under `settings`.
pub fn entries(roster: &Roster, settings: &Settings) -> Result<Vec<Entry>, String> {
    let planned = plan::roster_plans(roster, settings).map_err(|e| e.to_string())?;
    Ok(planned
        .into_iter()
        .map(|(name, player, plan)| Entry { name, player, plan })
        .collect())
}

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

/// The scratch match an entry's roll-call answer is judged in: the position every roll call asks
/// ([`plan::roll_call_position`]), under the tournament's settings.
pub fn scratch_game(settings: &Settings) -> Result<Match, String> {
    let (game, _) = plan::roll_call_position(settings).map_err(|e| e.to_string())?;
    Ok(Match::new(game, settings.seed, settings.policy))
}

/// The request a web entry is sent, and the team it is asked for: the start position's body
/// ([`plan::roll_call_position`]), as the first game will send it.
pub fn request(settings: &Settings) -> Result<(String, Team), String> {
    let (game, team) = plan::roll_call_position(settings).map_err(|e| e.to_string())?;
    let body = game_request_body(&game, team, settings.tick_ms, settings.seed);
    Ok((body, team))
}

/// How long the page waits for a question under `deadline`: its milliseconds; for a course clock, the
/// whole of `clock` (the tournament's settings') and its grace, which the code player keeps itself and
/// answers `timed_out` at, and [`LOAD_LIMIT_MS`] more, for a worker that was still loading when asked.
/// Only a page that lost the answer waits that long.
pub fn wait_ms(deadline: Deadline, clock: ClockSettings) -> u64 {
    match deadline {
        Deadline::Millis(ms) => ms,
        Deadline::CourseClock => deadline
            .longest_ms(clock)
            .saturating_add(u64::from(LOAD_LIMIT_MS)),
    }
}

/// The question `entry`'s roll call asks, as its plan says; `None` when it is not asked (a built-in
/// AI, or a program, which a page cannot start).
pub fn question(entry: &Entry, settings: &Settings) -> Option<Result<Question, String>> {
    let call = entry.plan.roll_call?;
    let asked = match &entry.player {
        AiPlayer::Web(url) => request(settings).map(|(body, _)| Question::Web {
            url: url.clone(),
            content_type: entry.plan.seat.content_type,
            body,
        }),
        AiPlayer::Code(_) => code_question(settings, call.occasion),
        AiPlayer::BuiltIn(_) | AiPlayer::Program(_) => return None,
    };
    Some(asked)
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

/// The question a code entry is asked in the roll call on `occasion`: the start position, as in its
/// first game, or the course's `SINGLE` move on it.
pub fn code_question(settings: &Settings, occasion: Occasion) -> Result<Question, String> {
    let (game, team) = plan::roll_call_position(settings).map_err(|e| e.to_string())?;
    let request = game_request_body(&game, team, settings.tick_ms, settings.seed);
    let state = serde_json::to_string(&game.state()).unwrap_or_default();
    Ok(match occasion {
        Occasion::Game => Question::Code {
            request,
            state,
            team,
        },
        Occasion::Single => Question::Single {
            request,
            state,
            team,
        },
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
        "timed_out" => "the script ran past all of its clock: does it loop for ever, or search far too deep?",
        _ => "open the code on the \"Write an AI\" page and play it there against a house bot to see why",
    }
}

/// What to do about an entry that gave no answer within the roll call's wait: its deadline in games
/// is the tick, or its course clock.
fn timed_out_fix(settings: &Settings, plan: &EntryPlan, what: &str) -> String {
    match plan.moves {
        Deadline::CourseClock => format!(
            "{what} must answer within its clock ({} s a game): does it loop for ever?",
            settings.clock.total.as_secs_f64()
        ),
        Deadline::Millis(_) => format!(
            "{what} must answer within the tick length ({} ms): does it loop for ever, or search too deep? Or raise the tick length",
            settings.tick_ms
        ),
    }
}

/// Judges a code entry's answer to the roll call's question: its failure with the line and the reason
/// (the failure's own message says them), or its move judged by the referee as a web AI's is, green
/// with the move and the time (red if slower than the tick, for an entry cut at the tick).
pub fn judge_code(
    settings: &Settings,
    plan: &EntryPlan,
    answer: Answer,
    latency_ms: Option<u32>,
) -> Check {
    match &answer {
        Answer::NoMove(NoMove::Replayed { code, message }) => {
            Check::red(message.clone(), code_fix(code))
        }
        Answer::NoMove(NoMove::Code(failure)) => {
            Check::red(failure.to_string(), code_fix(failure.code()))
        }
        Answer::NoMove(NoMove::Program(failure)) => {
            Check::red(failure.to_string(), code_fix(failure.code()))
        }
        Answer::NoMove(NoMove::TimedOut { after_ms }) => Check::red(
            format!("no answer within {after_ms} ms"),
            timed_out_fix(settings, plan, "the code"),
        ),
        Answer::Move(path) => {
            let moved = path.to_string();
            match judge(settings, plan, answer, latency_ms) {
                Check::Green(_) => Check::Green(match latency_ms {
                    Some(ms) => format!("moved {moved} in {ms} ms"),
                    None => format!("moved {moved}"),
                }),
                other => other,
            }
        }
        _ => judge(settings, plan, answer, latency_ms),
    }
}

const JSON_FIX: &str =
    "answer with one JSON object, like {\"from\":{\"x\":2,\"y\":14},\"to\":[{\"x\":2,\"y\":13}]}";

/// Judges a web entry's answer to the roll-call request (`latency_ms` from request to reply).
pub fn judge(
    settings: &Settings,
    plan: &EntryPlan,
    answer: Answer,
    latency_ms: Option<u32>,
) -> Check {
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
            return Check::red(format!("the request failed: {why}"), "check the address")
        }
        Answer::NoMove(NoMove::TimedOut { after_ms }) => {
            return Check::red(
                format!("no answer within {after_ms} ms"),
                timed_out_fix(settings, plan, "the AI"),
            )
        }
        Answer::NoMove(NoMove::Unreadable(
            e @ (ResponseError::NotJson(_) | ResponseError::Empty | ResponseError::TooLarge { .. }),
        )) => return Check::red(format!("the answer is not JSON: {e}"), JSON_FIX),
        Answer::NoMove(NoMove::Unreadable(e)) => {
            return Check::red(format!("the answer has the wrong shape: {e}"), JSON_FIX)
        }
        Answer::NoMove(other) => {
            return Check::red(
                format!("no move: {other}"),
                "the AI must answer with a move",
            )
        }
        Answer::Move(_) => {}
    }
    // A move: the referee judges it on the start position.
    let legal = scratch_game(settings).and_then(|mut game| {
        let asks = game
            .begin(|_| true, settings.tick_ms)
            .map_err(|e| e.to_string())?;
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
        Some(ms) if !plan.in_time(ms.into()) => Check::red(
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
    use gridarena_engine::halma::code::{CodeFile, Format, HashedSource, Lang, Source};
    use gridarena_engine::halma::{ContentType, Game, Preset};
    use gridarena_engine::tournament::roster::Entry as RosterEntry;
    use std::sync::Arc;

    fn settings() -> Settings {
        Settings {
            preset: Preset::Mini,
            tick_ms: 200,
            ..Settings::default()
        }
    }

    /// A web entry's plan under `s`.
    fn web_plan(s: &Settings) -> EntryPlan {
        let web = AiPlayer::Web("http://127.0.0.1:8001/".into());
        EntryPlan::new(&web, ContentType::default(), s)
    }

    fn good_move(s: &Settings) -> Answer {
        let game = Game::new(&s.rules(), s.seed).unwrap();
        let (_, team) = request(s).unwrap();
        BuiltIn::Greedy.answer(&game, team, 1)
    }

    #[test]
    fn a_legal_quick_answer_is_green_and_a_slow_one_red() {
        let s = settings();
        let good = judge(&s, &web_plan(&s), good_move(&s), Some(12));
        assert!(
            matches!(&good, Check::Green(t) if t.contains("12 ms")),
            "{good:?}"
        );
        let slow = judge(&s, &web_plan(&s), good_move(&s), Some(900));
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
            let Check::Red { reason, fix } = judge(&s, &web_plan(&s), answer, None) else {
                panic!("{said}")
            };
            assert!(reason.contains(said), "{reason}");
            assert!(!fix.is_empty());
        }
        let wrong = gridarena_engine::halma::protocol::parse_response(
            br#"{"from":{"x":0,"y":0},"to":[{"x":7,"y":7}]}"#,
        );
        let Check::Red { reason, .. } = judge(&s, &web_plan(&s), Answer::from(wrong), Some(5))
        else {
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

    /// A code entry of `format` (its files are never run here).
    fn code(format: Format) -> AiPlayer {
        AiPlayer::Code(Arc::new(HashedSource::new(Source {
            lang: Lang::Python,
            format,
            main: "homework.py".to_string(),
            files: vec![CodeFile::text("homework.py", "print(1)\n")],
        })))
    }

    fn entry(player: AiPlayer, content_type: ContentType, s: &Settings) -> Entry {
        let plan = EntryPlan::new(&player, content_type, s);
        Entry {
            name: "Ada".to_string(),
            player,
            plan,
        }
    }

    #[test]
    fn a_course_entry_is_asked_single_and_waited_for_on_its_clock() {
        // The page asked a first GAME move within 3 ticks, so an agent that spends 1/15 of its 300 s
        // on a first move was red; the engine's plan, which the CLI obeys too, asks SINGLE on its clock.
        let s = Settings {
            preset: Preset::Classic,
            tick_ms: 5000,
            ..Settings::default()
        };
        let course = entry(code(Format::Course), ContentType::default(), &s);
        let Some(Ok(Question::Single { state, team, .. })) = question(&course, &s) else {
            panic!("{:?}", question(&course, &s))
        };
        let (game, first) = plan::roll_call_position(&s).unwrap();
        assert_eq!(team, first);
        assert_eq!(state, serde_json::to_string(&game.state()).unwrap());
        let call = course.plan.roll_call.unwrap();
        assert_eq!(
            wait_ms(call.deadline, s.clock),
            310_000 + u64::from(LOAD_LIMIT_MS),
            "the whole clock and grace, not 3 ticks"
        );
        // The tournament's own clock, not the course's, where its settings say another.
        let short = ClockSettings::from_millis(60_000, 5_000);
        assert_eq!(
            wait_ms(call.deadline, short),
            65_000 + u64::from(LOAD_LIMIT_MS)
        );
        let on_short = Settings {
            clock: short,
            ..s.clone()
        };
        assert!(
            timed_out_fix(&on_short, &course.plan, "the code").contains("(60 s a game)"),
            "{}",
            timed_out_fix(&on_short, &course.plan, "the code")
        );
        // A 20 s answer is green for it: it plays on its clock, never cut at the tick.
        let green = judge_code(&s, &course.plan, good_move(&s), Some(20_000));
        assert!(
            matches!(&green, Check::Green(t) if t.contains("20000 ms")),
            "{green:?}"
        );
        // Function code is asked the first game's request, and is red when slower than the tick.
        let function = entry(code(Format::Function), ContentType::default(), &s);
        assert!(matches!(
            question(&function, &s),
            Some(Ok(Question::Code { .. }))
        ));
        let call = function.plan.roll_call.unwrap();
        assert_eq!(wait_ms(call.deadline, s.clock), 15_000);
        let slow = judge_code(&s, &function.plan, good_move(&s), Some(6000));
        assert!(slow.is_red(), "{slow:?}");
    }

    #[test]
    fn a_web_entrys_roll_call_is_labelled_as_its_roster_entry_says() {
        let s = settings();
        let mut json = RosterEntry::new("Json", "http://127.0.0.1:8001/");
        json.content_type = ContentType::Json;
        let roster = gridarena_engine::tournament::roster::Roster {
            entries: vec![json, RosterEntry::new("House", "builtin:greedy")],
        };
        let listed = entries(&roster, &s).unwrap();
        let Some(Ok(Question::Web {
            content_type, body, ..
        })) = question(&listed[0], &s)
        else {
            panic!("{:?}", question(&listed[0], &s))
        };
        assert_eq!(content_type, ContentType::Json);
        assert_eq!(body, request(&s).unwrap().0);
        assert_eq!(question(&listed[1], &s), None, "a built-in is not asked");
    }
}
