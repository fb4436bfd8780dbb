//! The one place a Halma page asks a team's player for a move, whatever the player is: a built-in AI
//! (thinking in a worker, [`Thinker`]), a web AI (an HTTP request) or a code player (a student's code in
//! the code players' module, [`Seat`]). The arena's ticker and the tournament's games each hold one
//! [`Asker`] per team; the answer comes to a callback when it arrives, so nothing polls, and an answer
//! the page no longer wants (its tick is over, the game was reset) never arrives at all.

use super::builtin;
use crate::code::seat::{Seat, SeatStatus};
use crate::now_ms;
use crate::thinker::Thinker;
use crate::web_ai;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::{self, Answer, CodeFailure, ContentType, Match, NoMove, Team, Wire};
use gridarena_engine::tournament::plan::Occasion;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// What a player is asked, in the form its kind reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// A built-in AI's job ([`builtin::halma_builtin_answer`] reads it).
    BuiltIn { job: String },
    /// A web AI's request: its address, how the body is labelled, and the body.
    Web {
        url: String,
        content_type: ContentType,
        body: String,
    },
    /// A code player's move in a game: the web protocol's request, and the game's state as records
    /// keep it (the course format writes `input.txt` from it), for `team`.
    Code {
        request: String,
        state: String,
        team: Team,
    },
    /// A code player's one move outside a game, as [`Question::Code`]: the course's one-move check,
    /// `SINGLE` in `input.txt` and a whole clock, which the engine's tournament plan asks of a course
    /// entry at its roll call (a function-format player answers it as a game's move).
    Single {
        request: String,
        state: String,
        team: Team,
    },
}

/// How a player is reached, as far as its question goes: the arena's players and a tournament's entries
/// both say it, and [`Question::for_move`] asks them alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach<'a> {
    BuiltIn(BuiltIn),
    Web(&'a str),
    Code,
}

impl Question {
    /// The question of a game's move `ask` in match `m` to a player reached as `reach`: a built-in's
    /// job with the tick's `state`, a web AI's request labelled as the match's seat says, a code
    /// player's request with the state. The arena's ticker and the tournament's games both ask through
    /// this, so a player is asked alike wherever it plays.
    pub fn for_move(
        reach: Reach<'_>,
        m: &Match,
        ask: &halma::Ask,
        state: &builtin::TickState,
    ) -> Question {
        let team = ask.team;
        match reach {
            Reach::BuiltIn(ai) => Question::BuiltIn {
                job: builtin::job_with_state(ai, state.text(), team, ask.seed),
            },
            Reach::Web(url) => Question::Web {
                url: url.to_string(),
                content_type: m.content_type(team),
                body: m.request_body(team),
            },
            Reach::Code => Question::Code {
                request: m.request_body(team),
                state: state.text().to_string(),
                team,
            },
        }
    }
}

/// What came back for a question.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub answer: Answer,
    /// What went over the wire: the answer's text, its status, what a code player printed.
    pub wire: Wire,
    /// Milliseconds from asking to the answer, as the page saw them.
    pub elapsed_ms: f64,
}

/// What the page keeps of a question it sent, for the inspector: who it went to and the text they were
/// given. Built-in AIs are not shown, so they give none.
pub struct Sent {
    pub to: String,
    pub text: String,
    pub wire: Wire,
}

/// One team's player as the page asks it: at most one question in flight.
#[derive(Default)]
pub struct Asker {
    thinker: RefCell<Option<Thinker>>,
    /// The web request in flight, until its answer comes (aborting one that has ended costs the
    /// browser an exception object, hundreds of times a second on a tournament's wall).
    request: Rc<RefCell<Option<web_sys::AbortController>>>,
    seat: RefCell<Option<Seat>>,
    /// Counts the questions asked and dropped, so that only the answer to the question in flight is
    /// handed on: an answer to one dropped by [`Asker::stop`] is ignored wherever it comes from.
    question: Rc<Cell<u64>>,
    /// Whether the code player's seat has a move in progress.
    code_busy: Rc<Cell<bool>>,
}

impl Asker {
    /// Asks `question` within `deadline_ms`; `on_answer` gets what came back, after this returns, unless
    /// the question is dropped first. Returns what to show of the question, for all but built-in AIs.
    pub fn ask(
        &self,
        question: Question,
        deadline_ms: u64,
        on_answer: impl FnOnce(Asked) + 'static,
    ) -> Option<Sent> {
        self.stop(0.0);
        let occasion = match question {
            Question::Single { .. } => Occasion::Single,
            _ => Occasion::Game,
        };
        let number = self.question.get() + 1;
        self.question.set(number);
        let current = self.question.clone();
        let started = now_ms();
        let answered = move |answer: Answer, wire: Wire| {
            if current.get() == number {
                current.set(number + 1);
                let elapsed_ms = (now_ms() - started).max(0.0);
                on_answer(Asked {
                    answer,
                    wire,
                    elapsed_ms,
                });
            }
        };
        match question {
            Question::BuiltIn { job } => {
                let thinker = self
                    .thinker
                    .borrow_mut()
                    .get_or_insert_with(|| Thinker::new(builtin::MODULE))
                    .clone();
                thinker.ask(job, move |reply| {
                    let wire = Wire {
                        ms: Some((now_ms() - started).max(0.0).round() as u32),
                        ..Wire::default()
                    };
                    answered(builtin::read_reply(&reply), wire);
                });
                None
            }
            Question::Web {
                url,
                content_type,
                body,
            } => {
                let sent = Sent {
                    to: url.clone(),
                    text: body.clone(),
                    wire: Wire::sent(content_type, deadline_ms),
                };
                let abort = match web_sys::AbortController::new() {
                    Ok(a) => a,
                    Err(_) => {
                        let why = "this browser cannot cancel requests (no AbortController)";
                        let answer = Answer::NoMove(NoMove::Failed(why.to_string()));
                        let wire = sent.wire.clone();
                        leptos::task::spawn_local(async move { answered(answer, wire) });
                        return Some(sent);
                    }
                };
                let signal = abort.signal();
                *self.request.borrow_mut() = Some(abort);
                let (slot, asked) = (self.request.clone(), self.question.clone());
                leptos::task::spawn_local(async move {
                    let (answer, wire) =
                        web_ai::ask_wire(&url, content_type, body, &signal, deadline_ms).await;
                    if asked.get() == number {
                        slot.borrow_mut().take();
                    }
                    answered(answer, wire);
                });
                Some(sent)
            }
            Question::Code {
                request,
                state,
                team,
            }
            | Question::Single {
                request,
                state,
                team,
            } => {
                let open = self.seat.borrow().clone();
                let Some(seat) = open else {
                    // The page opens a code team's seat before its first tick; this is only a guard.
                    let why = "no code player is open for this team".to_string();
                    let answer = Answer::NoMove(NoMove::Code(CodeFailure::NotStarted { why }));
                    leptos::task::spawn_local(async move { answered(answer, Wire::default()) });
                    return None;
                };
                let sent = Wire::sent(ContentType::TextPlain, deadline_ms);
                let wire = sent.clone();
                let busy = self.code_busy.clone();
                busy.set(true);
                let shown = seat.ask(&request, &state, team, occasion, move |moved| {
                    busy.set(false);
                    let wire = Wire {
                        ms: moved.ms.map(|ms| ms.round() as u32),
                        body: moved.body,
                        stderr: moved.printed,
                        ..wire
                    };
                    answered(moved.answer, wire);
                });
                Some(Sent {
                    to: seat.label(),
                    text: shown,
                    wire: sent,
                })
            }
        }
    }

    /// Drops the question in flight, if any: a thinking worker is terminated, a request cancelled, a
    /// code player's move cut off (its worker restarts; `waited_ms` is charged to a course clock).
    pub fn stop(&self, waited_ms: f64) {
        self.question.set(self.question.get() + 1);
        if let Some(thinker) = self.thinker.borrow().as_ref() {
            thinker.stop();
        }
        if let Some(request) = self.request.borrow_mut().take() {
            request.abort();
        }
        if self.code_busy.replace(false) {
            if let Some(seat) = self.seat.borrow().as_ref() {
                seat.cancel(waited_ms);
            }
        }
    }

    /// Gets the code player `label` names ready for a game seeded with `seed`: the seat already open
    /// for it takes the new game, another label opens a new seat. `on_status` hears a new seat's changes.
    /// Returns where the seat stands.
    pub fn seat(
        &self,
        label: &str,
        seed: u64,
        on_status: impl Fn(&SeatStatus) + 'static,
    ) -> SeatStatus {
        let open = self.seat.borrow().clone();
        match open {
            Some(seat) if seat.label() == label => {
                if seat.seed() != seed {
                    seat.new_game(seed);
                }
                seat.status()
            }
            _ => {
                let seat = Seat::open(label, seed, on_status);
                let status = seat.status();
                *self.seat.borrow_mut() = Some(seat);
                status
            }
        }
    }

    /// Seats a code player opened elsewhere (a tournament's pool of seats, which reuses them across
    /// games): its answers come to this asker until [`Asker::take_seat`].
    pub fn put_seat(&self, seat: Seat) {
        self.stop(0.0);
        *self.seat.borrow_mut() = Some(seat);
    }

    /// Takes the code player's seat back, its move in progress (if any) cut off.
    pub fn take_seat(&self) -> Option<Seat> {
        self.stop(0.0);
        self.seat.borrow_mut().take()
    }

    /// Closes the code player's seat, if one is open (the team has another player now).
    pub fn close_seat(&self) {
        self.code_busy.set(false);
        self.seat.borrow_mut().take();
    }

    /// The open seat's label and status.
    pub fn seat_status(&self) -> Option<(String, SeatStatus)> {
        self.seat.borrow().as_ref().map(|s| (s.label(), s.status()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::play::{Policy, Seat};
    use gridarena_engine::halma::{Game, Preset, Teams};

    #[test]
    fn a_move_is_asked_as_the_matchs_seat_says_whatever_the_host() {
        let game = Game::new(&Preset::Arena.rules(), 5).unwrap();
        let seats = Teams {
            red: Seat::at_the_tick(ContentType::Json),
            blue: Seat::default(),
        };
        let mut m = Match::new(game, 5, Policy::Lenient).with_seats(seats);
        let asks = m.begin(|_| true, 400).unwrap();
        let state = builtin::TickState::new(m.game());
        let web = Question::for_move(Reach::Web("http://ai.example/"), &m, &asks[0], &state);
        let Question::Web {
            url,
            content_type,
            body,
        } = web
        else {
            panic!("{web:?}")
        };
        assert_eq!(
            (url.as_str(), content_type),
            ("http://ai.example/", ContentType::Json)
        );
        assert_eq!(body, m.request_body(Team::Red));
        assert!(body.contains(r#""timeLimitMs":400"#), "{body}");
        let code = Question::for_move(Reach::Code, &m, &asks[1], &state);
        assert_eq!(
            code,
            Question::Code {
                request: m.request_body(Team::Blue),
                state: state.text().to_string(),
                team: Team::Blue,
            }
        );
        let built_in = Question::for_move(Reach::BuiltIn(BuiltIn::Greedy), &m, &asks[1], &state);
        assert_eq!(
            built_in,
            Question::BuiltIn {
                job: builtin::job_with_state(
                    BuiltIn::Greedy,
                    state.text(),
                    Team::Blue,
                    asks[1].seed
                ),
            }
        );
    }
}
