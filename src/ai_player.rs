//! A game page's built-in AI opponent: whenever the session says it is the AI's turn, the job goes to a
//! Web Worker (so the page never freezes) and the answer is played through the session. An answer for a
//! position that is gone (the person undid, or started a new game) is dropped, and the worker thinking
//! about it is stopped. The Go and HyperChess pages each describe their AI as an [`AiSession`].

use crate::notice::{Line, Tone};
use crate::thinker::Thinker;
use leptos::prelude::*;

/// What a page's session tells its AI player, and how it takes the answer.
pub trait AiSession: Send + Sync + 'static {
    /// Names the position a job was asked about, so a late answer is recognised.
    type Ticket: Copy + PartialEq + Send + Sync + 'static;
    /// The AI module that answers the jobs (`src/bin/gridarena-ai-*.rs`).
    const MODULE: &'static str;
    /// The job when it is the AI's turn: its ticket and the text the worker reads. A session whose
    /// refused answer leaves the position as it was gives no job there: the player asks whenever the
    /// session offers a job it is not already on.
    fn ai_job(&self) -> Option<(Self::Ticket, String)>;
    /// Plays the answer to the job with `ticket`: the message line's text; `Ok(None)` for an answer to a
    /// position that is gone.
    fn ai_answer(&mut self, ticket: Self::Ticket, reply: &str) -> Result<Option<String>, String>;
    /// Whether the game is over (an answer that ended it is announced as the result).
    fn is_over(&self) -> bool;
}

/// Reads a job's first line, `N` whole numbers named by `names` (for the error), and returns them with
/// the rest of the job (the game). The Go and HyperChess jobs both start this way.
pub fn read_job<'a, const N: usize>(
    job: &'a str,
    names: [&str; N],
) -> Result<([u64; N], &'a str), String> {
    let (settings, game) = job.split_once('\n').ok_or("the job has no game")?;
    let mut words = settings.split(' ');
    let mut numbers = [0; N];
    for (slot, name) in numbers.iter_mut().zip(names) {
        *slot = words
            .next()
            .and_then(|w| w.parse::<u64>().ok())
            .ok_or(format!("the job's {name} is not a whole number"))?;
    }
    Ok((numbers, game))
}

struct State<T> {
    thinker: Option<Thinker>,
    /// The job the AI is on.
    pending: Option<T>,
}

impl<T> Default for State<T> {
    fn default() -> Self {
        State {
            thinker: None,
            pending: None,
        }
    }
}

/// The page's AI player. Copy: every callback holds its own handle.
pub struct AiPlayer<S: AiSession> {
    session: RwSignal<S>,
    notice: RwSignal<Option<Line>>,
    thinking: RwSignal<bool>,
    state: StoredValue<State<S::Ticket>, LocalStorage>,
}

impl<S: AiSession> Clone for AiPlayer<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: AiSession> Copy for AiPlayer<S> {}

impl<S: AiSession> AiPlayer<S> {
    /// Starts watching `session`: from now on the AI answers whenever it is to move.
    pub fn new(session: RwSignal<S>, notice: RwSignal<Option<Line>>) -> AiPlayer<S> {
        let ai = AiPlayer {
            session,
            notice,
            thinking: RwSignal::new(false),
            state: StoredValue::new_local(State::default()),
        };
        Effect::new(move |_| {
            let job = session.with(S::ai_job);
            ai.want(job);
        });
        on_cleanup(move || ai.state.update_value(|s| *s = State::default()));
        ai
    }

    /// Whether the AI is working out a move.
    pub fn thinking(self) -> Signal<bool> {
        self.thinking.into()
    }

    /// Makes the AI work on `job`, or on nothing, dropping whatever else it was on.
    fn want(self, job: Option<(S::Ticket, String)>) {
        let same = self
            .state
            .with_value(|s| s.pending == job.as_ref().map(|j| j.0));
        if same {
            return;
        }
        // A worker busy with an old position is stopped: terminating is the only way to interrupt it.
        let thinker = self.state.try_update_value(|s| {
            s.pending = job.as_ref().map(|j| j.0);
            s.thinker
                .get_or_insert_with(|| Thinker::new(S::MODULE))
                .clone()
        });
        let Some(thinker) = thinker else { return };
        thinker.stop();
        self.thinking.set(job.is_some());
        let Some((ticket, text)) = job else { return };
        thinker.ask(text, move |reply| self.answered(ticket, reply));
    }

    /// Plays the answer to the job with `ticket`, if it is still the pending one.
    fn answered(self, ticket: S::Ticket, reply: String) {
        let pending = self
            .state
            .try_update_value(|s| match s.pending {
                Some(t) if t == ticket => s.pending.take(),
                _ => None,
            })
            .flatten();
        if pending.is_none() {
            return;
        }
        self.thinking.set(false);
        let mut said = Ok(None);
        self.session.update(|s| said = s.ai_answer(ticket, &reply));
        match said {
            Ok(Some(text)) => {
                let tone = if self.session.with_untracked(S::is_over) {
                    Tone::Result
                } else {
                    Tone::Info
                };
                self.notice.set(Some(Line::new(tone, text)));
            }
            Ok(None) => {}
            Err(why) => self.notice.set(Some(Line::new(Tone::Error, why))),
        }
    }
}
