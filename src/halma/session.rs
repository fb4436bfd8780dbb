//! A live game on the page: the engine's [`Game`], who plays each team, the human's move in the making,
//! and the last tick's outcome.
//!
//! Plain Rust with no signals or DOM, so every behaviour of the page that is not drawing is tested
//! natively. The rules all come from the engine, and so do how a tick is assembled from its answers, how
//! each team is asked, its tally and the error policy: the session holds the engine's [`Match`], as
//! the tournaments, `gridarena halma match` and Compare do, played leniently (an error costs its tick).
//! This type adds the page's players, the human's clicks, answer times, the web exchanges and the
//! record with its wires.

use super::answer_times::{think_ms, TickTimes, MAX_TICKS};
use super::messages::Log;
use super::player::Player;
use gridarena_engine::halma;
use gridarena_engine::halma::play::{Policy, Seat};
use gridarena_engine::halma::record::Recorder;
use gridarena_engine::halma::{
    Answer, AnswerTally, ContentType, Exchange, Game, LoopError, Match, Path, Position, Preset,
    Rules, Square, Team, Teams, TickOutcome, Verdict, Wire,
};
use std::collections::VecDeque;
use std::time::Duration;

/// The most ticks whose web exchanges the inspector keeps in a live game (the record keeps them all).
pub const MAX_EXCHANGE_TICKS: usize = 1000;

/// A human's move being clicked together: the piece, then every landing square so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    pub from: Option<Square>,
    pub landings: Vec<Square>,
}

impl Draft {
    fn path(&self) -> Option<Path> {
        self.from.map(|f| Path::new(f, self.landings.clone()))
    }
}

/// What a click on the board did, for the message line under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClickResult {
    /// Nothing to do: no human is to move, or the game is over.
    Ignored,
    /// The draft changed; the text says what to do next.
    Updated(String),
    /// The click was refused; the text says why.
    Refused(String),
}

/// One game in progress on the page.
#[derive(Clone, Debug)]
pub struct Session {
    /// The game, the tick in progress, the humans' confirmed moves, how each team is asked and its
    /// tally.
    play: Match,
    /// Whether the setup named the first mover, for the start's message.
    first_chosen: bool,
    preset: Preset,
    players: Teams<Player>,
    drafts: Teams<Draft>,
    last: Option<TickOutcome>,
    /// Started at the first tick, so the header names the players who actually began the game.
    recorder: Option<Recorder>,
    /// What went over the wire for each web AI in the tick in progress (its verdict comes at the end).
    wires: Teams<Option<Exchange>>,
    /// The web exchanges of the latest ticks, the oldest first, at most [`MAX_EXCHANGE_TICKS`] ticks.
    exchanges: VecDeque<(u32, Vec<Exchange>)>,
    /// The message field's history.
    log: Log,
    /// Each AI player's answer time, tick by tick (the latest [`MAX_TICKS`]), for the time chart.
    times: VecDeque<TickTimes>,
    /// The tick in progress: its deadline and the answer times so far.
    asking: (u64, Teams<Option<f64>>),
}

/// A request the page must send for the tick in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The engine's request: the tick it belongs to ([`Session::round`]), the team, a built-in AI's seed.
    pub request: halma::Ask,
    pub player: Player,
    /// How a web AI's request is labelled.
    pub content_type: ContentType,
    /// How long the page waits for the answer.
    pub time_limit_ms: u64,
}

impl Session {
    /// A new game of `preset`; `seed` draws the first mover of an alternating game and seeds the AIs.
    pub fn new(preset: Preset, players: Teams<Player>, seed: u64) -> Session {
        Session::with_turn_limit(preset, preset.rules().turn_limit, players, seed)
    }

    /// [`Session::new`] ending at `turn_limit` turns (at least 1) instead of the preset's.
    pub fn with_turn_limit(
        preset: Preset,
        turn_limit: u32,
        players: Teams<Player>,
        seed: u64,
    ) -> Session {
        let rules = Rules {
            turn_limit,
            ..preset.rules()
        };
        Session::with_rules(preset, rules, players, seed)
    }

    /// A new game of `preset` under `rules` (the preset's, with the form's turn limit, camp rules and
    /// first mover); a turn limit of 0 counts as 1.
    pub fn with_rules(
        preset: Preset,
        mut rules: Rules,
        players: Teams<Player>,
        seed: u64,
    ) -> Session {
        rules.turn_limit = rules.turn_limit.max(1);
        // Presets are fixed, valid setups (the engine's tests cover every one), the limit is not 0, and
        // the form offers the course's camp rules with the classic preset only.
        let game = Game::new(&rules, seed)
            .unwrap_or_else(|e| unreachable!("preset {preset} does not set up: {e}"));
        Session::from_game(preset, game, players, seed, rules.first_mover.is_some())
    }

    /// A game going on from `game` (a new one, or a replay's tick: its position, rules and turn count),
    /// played from here by `players`; `seed` seeds the AIs. The record it makes starts from that
    /// position. `first_chosen`: whether the setup named the first mover.
    pub fn from_game(
        preset: Preset,
        game: Game,
        players: Teams<Player>,
        seed: u64,
        first_chosen: bool,
    ) -> Session {
        Session {
            wires: Teams::default(),
            exchanges: VecDeque::new(),
            log: Log::default(),
            play: Match::new(game, seed, Policy::Lenient),
            first_chosen,
            preset,
            players,
            drafts: Teams::default(),
            last: None,
            recorder: None,
            times: VecDeque::new(),
            asking: (0, Teams::default()),
        }
    }

    /// A new game from `game` (a replay's tick) with this session's setup: its players, how each
    /// team's web requests are labelled, its seed. "Continue from here" is this, so a web AI that wants
    /// JSON still gets JSON.
    pub fn continued(&self, preset: Preset, game: Game) -> Session {
        let mut next = Session::from_game(preset, game, self.players.clone(), self.seed(), true);
        for team in Team::ALL {
            next.play.set_seat(team, self.play.seat(team));
        }
        next
    }

    pub fn game(&self) -> &Game {
        self.play.game()
    }

    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// Whether the setup named the first mover (rather than drawing it from the seed).
    pub fn first_chosen(&self) -> bool {
        self.first_chosen
    }

    pub fn seed(&self) -> u64 {
        self.play.seed()
    }

    pub fn players(&self) -> &Teams<Player> {
        &self.players
    }

    /// The game so far as a record (JSON Lines), or `None` before the first tick.
    pub fn record_text(&self) -> Option<String> {
        self.recorder.as_ref().map(Recorder::text)
    }

    /// Whether a record exists to download (a tick has been played).
    pub fn has_record(&self) -> bool {
        self.recorder.is_some()
    }

    /// How `team`'s web requests are labelled.
    pub fn content_type(&self, team: Team) -> ContentType {
        self.play.content_type(team)
    }

    /// Labels `team`'s web requests with `content_type` from the next tick on. Every arena player is cut
    /// at the tick: the page's tick is its clock.
    pub fn set_content_type(&mut self, team: Team, content_type: ContentType) {
        self.play.set_seat(team, Seat::at_the_tick(content_type));
    }

    /// The engine's match: what a question is built from ([`super::asker::Question::for_move`]).
    pub fn playing(&self) -> &Match {
        &self.play
    }

    /// Each AI player's answer time, tick by tick, for the time chart.
    pub fn times(&self) -> Vec<TickTimes> {
        self.times.iter().cloned().collect()
    }

    /// The message field's history.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The web exchanges of tick `turn` (from 1), if it is among the latest kept.
    pub fn exchanges(&self, turn: u32) -> Option<&[Exchange]> {
        self.exchanges
            .iter()
            .find(|(t, _)| *t == turn)
            .map(|(_, e)| e.as_slice())
    }

    /// Keeps what went over the wire for `team`'s web request to `url` in tick `round`, and the body sent.
    pub fn keep_wire(&mut self, round: u32, team: Team, url: String, request: String, wire: Wire) {
        if self.round() == Some(round) {
            self.wires[team] = Some(Exchange {
                tick: 0,
                team,
                url,
                request,
                wire,
                verdict: Verdict::NotAsked,
            });
        }
    }

    /// Completes `team`'s exchange of tick `round`, kept when its request went out, with what came back.
    pub fn keep_answer_wire(&mut self, round: u32, team: Team, wire: Wire) {
        if self.round() == Some(round) {
            if let Some(exchange) = &mut self.wires[team] {
                exchange.wire = wire;
            }
        }
    }

    /// Hands `team` to another player from the next tick on; a half-clicked human move is dropped.
    pub fn set_player(&mut self, team: Team, player: Player) {
        self.players[team] = player;
        self.drafts[team] = Draft::default();
        self.play.withdraw(team);
    }

    /// The outcome of the latest tick, if any was played.
    pub fn last(&self) -> Option<&TickOutcome> {
        self.last.as_ref()
    }

    pub fn draft(&self, team: Team) -> &Draft {
        &self.drafts[team]
    }

    /// Whether `team` is human and has confirmed its move for the coming tick.
    pub fn has_submitted(&self, team: Team) -> bool {
        self.play.submitted(team).is_some()
    }

    /// The human teams the coming tick waits for.
    pub fn waiting_for(&self) -> Vec<Team> {
        self.game()
            .movers()
            .into_iter()
            .filter(|&t| self.players[t] == Player::Human && !self.has_submitted(t))
            .collect()
    }

    /// The human team whose clicks the board takes now: the first human mover without a confirmed move.
    pub fn active_human(&self) -> Option<Team> {
        self.waiting_for().into_iter().next()
    }

    pub fn is_over(&self) -> bool {
        self.game().result().is_some()
    }

    /// Whether a tick can begin now: the game goes on, none is in progress and no human is choosing.
    pub fn ready(&self) -> bool {
        !self.is_over() && self.round().is_none() && self.waiting_for().is_empty()
    }

    /// Starts a tick: the requests to send to the AIs among the movers; humans play what they confirmed. When nothing is asked the tick is ready to
    /// [`finish`](Self::finish_tick) at once.
    ///
    /// Refused (and nothing changes) when the game is over, a tick is already in progress, or a human
    /// has not confirmed yet.
    pub fn begin_tick(&mut self, time_limit_ms: u64) -> Result<Vec<Ask>, String> {
        // The loop's refusals (the game is over, a tick is in progress) come first, as they always did.
        if let (None, None, Some(t)) = (self.game().result(), self.round(), self.active_human()) {
            return Err(format!("waiting for {t} (human) to confirm a move"));
        }
        let players = &self.players;
        let asks = self
            .play
            .begin(|t| players[t] != Player::Human, time_limit_ms)
            .map_err(|e| e.to_string())?;
        self.asking = (time_limit_ms, Teams::default());
        Ok(asks
            .into_iter()
            .map(|request| Ask {
                player: self.players[request.team].clone(),
                content_type: self.play.content_type(request.team),
                request,
                time_limit_ms,
            })
            .collect())
    }

    /// The game's state as the record's last tick line wrote it, when the game still stands there: what
    /// the next tick's players are sent, so a tick writes the state once, not once for the record and
    /// again for the players (about 30 µs of a tick's script in the page, issue 38).
    pub fn state_json(&self) -> Option<&str> {
        self.recorder.as_ref()?.state_json(self.game().turn())
    }

    /// The request JSON for `team` in the tick in progress, exactly what a web AI receives.
    pub fn request_body(&self, team: Team) -> String {
        self.play.request_body(team)
    }

    /// The tick in progress, if any: its id, which [`Ask::round`] carries.
    pub fn round(&self) -> Option<u32> {
        self.play.round()
    }

    /// Takes `team`'s answer for tick `round`, measured `latency_ms` after the request went out.
    ///
    /// Returns whether it was taken: an answer for another tick (a late one), for a team not asked, or a
    /// second answer is dropped, so a slow AI can never move in a tick it did not answer in time.
    pub fn deliver(&mut self, round: u32, team: Team, answer: Answer, latency_ms: f64) -> bool {
        // A clock that went backwards or a NaN is no time at all, not a panic.
        let took = Duration::try_from_secs_f64(latency_ms / 1000.0).unwrap_or_default();
        let taken = self.play.deliver_timed(round, team, answer, Some(took));
        if taken {
            self.asking.1[team] = Some(took.as_secs_f64() * 1000.0);
        }
        taken
    }

    /// The asked teams whose answer has not arrived.
    pub fn awaiting(&self) -> Vec<Team> {
        self.play.awaiting()
    }

    /// Ends the tick in progress: what arrived is enacted; an asked team with no answer timed out after
    /// `waited_ms`.
    pub fn finish_tick(&mut self, waited_ms: u64) -> Result<&TickOutcome, String> {
        if self.round().is_none() {
            return Err(LoopError::NotInProgress.to_string());
        }
        let recorder = self.recorder.get_or_insert_with(|| {
            Recorder::new(
                self.players.map(|_, p| p.to_string()),
                self.play.seed(),
                self.play.game(),
            )
        });
        let outcome = self.play.finish(waited_ms).map_err(|e| e.to_string())?;
        self.drafts = Teams::default();
        let sent = std::mem::take(&mut self.wires);
        let wires = sent.map(|_, e| e.as_ref().map(|e| e.wire.clone()));
        let (limit_ms, ms) = std::mem::take(&mut self.asking);
        if ms.red.is_some() || ms.blue.is_some() {
            if self.times.len() == MAX_TICKS {
                self.times.pop_front();
            }
            self.times.push_back(TickTimes {
                tick: outcome.turn,
                limit_ms,
                ms,
                think_ms: wires.map(|_, w| think_ms(w.as_ref().and_then(|w| w.body.as_deref()))),
            });
        }
        recorder.push_with_wires(&outcome, self.play.game(), Some(&wires));
        let exchanges: Vec<Exchange> = Team::ALL
            .into_iter()
            .filter_map(|team| {
                let mut e = sent[team].clone()?;
                e.tick = outcome.turn;
                e.verdict = Verdict::of(&outcome, team);
                Some(e)
            })
            .collect();
        if !exchanges.is_empty() {
            if self.exchanges.len() == MAX_EXCHANGE_TICKS {
                self.exchanges.pop_front();
            }
            self.exchanges.push_back((outcome.turn, exchanges));
        }
        self.log.push(&outcome);
        if self.play.game().result().is_some() {
            recorder.finish();
        }
        Ok(self.last.insert(outcome))
    }

    /// Plays one whole tick here and now: built-in AIs answer on this thread, humans with what they
    /// confirmed. What the tests drive; the page asks through its [`super::asker::Asker`]s.
    #[cfg(test)]
    pub fn tick(&mut self) -> Result<&TickOutcome, String> {
        for ask in self.begin_tick(0)? {
            let answer = match ask.player {
                Player::BuiltIn(ai) => {
                    super::builtin::answer(ai, self.game(), ask.request.team, ask.request.seed)
                }
                // A web AI or code needs the page's event loop; here it simply has not answered.
                Player::Web(_) | Player::Code(_) | Player::Human => {
                    Answer::NoMove(gridarena_engine::halma::NoMove::Missing)
                }
            };
            self.deliver(ask.request.turn, ask.request.team, answer, 0.0);
        }
        self.finish_tick(0)
    }

    /// How `team`'s AI player answered so far: its answer times (the last tick's and the mean), errors.
    pub fn tally(&self, team: Team) -> &AnswerTally {
        self.play.tally(team)
    }

    /// A click on `square` by the active human.
    pub fn click(&mut self, square: Square) -> ClickResult {
        let Some(team) = self.active_human() else {
            return ClickResult::Ignored;
        };
        let position = self.play.game().position();
        let draft = &self.drafts[team];
        let own_piece = position.piece_at(team, square).is_some();
        match draft.from {
            Some(from) if square == from && draft.landings.is_empty() => {
                self.drafts[team] = Draft::default();
                ClickResult::Updated(format!("{team}: choose a piece to move"))
            }
            Some(_) if own_piece && draft.landings.is_empty() => {
                self.drafts[team] = Draft {
                    from: Some(square),
                    landings: vec![],
                };
                ClickResult::Updated(format!(
                    "{team}: piece {square} chosen; click where it goes"
                ))
            }
            None if own_piece => {
                self.drafts[team].from = Some(square);
                ClickResult::Updated(format!(
                    "{team}: piece {square} chosen; click where it goes"
                ))
            }
            None => ClickResult::Refused(format!(
                "{square} holds no {team} piece: click one of {team}'s pieces"
            )),
            Some(from) => {
                let mut landings = draft.landings.clone();
                let offered = position.next_landings(team, &Path::new(from, landings.clone()));
                landings.push(square);
                let path = Path::new(from, landings.clone());
                let verdict = position.check(team, &path);
                if !offered.contains(&square) {
                    let why = verdict.err().map_or_else(
                        || "a move is one step or a chain of jumps".to_string(),
                        |e| e.to_string(),
                    );
                    return ClickResult::Refused(format!("{team}: {why}"));
                }
                self.drafts[team].landings = landings;
                ClickResult::Updated(match verdict {
                    Ok(_) => {
                        format!("{team}: {path}; press Confirm (Enter), or click the next jump")
                    }
                    Err(e) => format!("{team}: {path}; {e}: jump on"),
                })
            }
        }
    }

    /// Confirms the active human's move for the coming tick.
    pub fn confirm(&mut self) -> ClickResult {
        let Some(team) = self.active_human() else {
            return ClickResult::Ignored;
        };
        let Some(path) = self.drafts[team].path() else {
            return ClickResult::Refused(format!("{team}: choose a piece first"));
        };
        match self.game().position().check(team, &path) {
            Ok(_) => {
                self.play.submit(team, path.clone());
                ClickResult::Updated(format!("{team}: move {path} submitted"))
            }
            Err(e) => ClickResult::Refused(format!("{team}: {e}")),
        }
    }

    /// Drops the active human's draft.
    pub fn cancel(&mut self) -> ClickResult {
        match self.active_human() {
            Some(team) => {
                self.drafts[team] = Draft::default();
                ClickResult::Updated(format!("{team}: choose a piece to move"))
            }
            None => ClickResult::Ignored,
        }
    }

    /// Squares the active human's draft may go to next: final squares of legal moves from the chosen
    /// piece when nothing is landed yet, else the next jump landings.
    pub fn hints(&self) -> Vec<Square> {
        let Some(team) = self.active_human() else {
            return vec![];
        };
        let draft = &self.drafts[team];
        let Some(from) = draft.from else {
            return vec![];
        };
        let position: &Position = self.game().position();
        if draft.landings.is_empty() {
            return position
                .moves_from(team, from)
                .into_iter()
                .map(|m| m.to)
                .collect();
        }
        position.next_landings(team, &Path::new(from, draft.landings.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::builtin;
    use gridarena_engine::halma::ai::BuiltIn;
    use gridarena_engine::halma::record::Record;
    use gridarena_engine::halma::NoMove;

    fn sq(x: u8, y: u8) -> Square {
        Square::new(x, y).unwrap()
    }

    fn greedy_pair() -> Teams<Player> {
        Teams {
            red: Player::BuiltIn(BuiltIn::Greedy),
            blue: Player::BuiltIn(BuiltIn::Greedy),
        }
    }

    #[test]
    fn the_state_the_record_wrote_is_the_games_until_the_game_ends() {
        let mut s = Session::new(Preset::Mini, greedy_pair(), 5);
        assert_eq!(
            s.state_json(),
            None,
            "nothing written before the first tick"
        );
        while !s.is_over() {
            s.tick().unwrap();
            let state = serde_json::to_string(&s.game().state()).unwrap();
            if s.is_over() {
                assert_eq!(s.state_json(), None, "the record is closed");
            } else {
                assert_eq!(s.state_json(), Some(state.as_str()));
            }
        }
    }

    #[test]
    fn each_tick_keeps_the_ai_players_answer_times() {
        let mut s = Session::new(Preset::Mini, greedy_pair(), 5);
        for _ in 0..3 {
            s.tick().unwrap();
        }
        let times = s.times();
        assert_eq!(
            times.iter().map(|t| t.tick).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        // Mini alternates: each tick times its mover, and both teams have moved.
        assert!(times
            .iter()
            .all(|t| t.ms.red.is_some() != t.ms.blue.is_some()));
        assert!(
            times.iter().any(|t| t.ms.red.is_some()) && times.iter().any(|t| t.ms.blue.is_some())
        );
    }

    #[test]
    fn a_game_continued_from_a_record_tick_starts_there_and_records_from_there() {
        let mut s = Session::new(Preset::Mini, greedy_pair(), 5);
        for _ in 0..6 {
            s.tick().unwrap();
        }
        let record = Record::parse(&s.record_text().unwrap()).unwrap();
        let at = record.game(4).unwrap();
        s.set_content_type(Team::Blue, ContentType::Json);
        let mut c = s.continued(Preset::Mini, at.clone());
        // The setup comes along: the players, the seed and each team's content type.
        assert_eq!((c.players(), c.seed()), (s.players(), s.seed()));
        assert_eq!(c.content_type(Team::Blue), ContentType::Json);
        assert_eq!(c.game().turn(), 4);
        assert_eq!(c.game().position(), at.position());
        c.tick().unwrap();
        assert_eq!(c.game().turn(), 5);
        let again = Record::parse(&c.record_text().unwrap()).unwrap();
        assert_eq!(again.game(0).unwrap().position(), at.position());
        assert_eq!(again.ticks(), 1);
    }

    #[test]
    fn greedy_against_greedy_plays_a_mini_game_to_the_end() {
        let mut s = Session::new(Preset::Mini, greedy_pair(), 3);
        let mut ticks = 0;
        while !s.is_over() {
            s.tick().unwrap();
            ticks += 1;
            assert!(ticks <= 1000);
        }
        assert!(s.tick().is_err(), "a finished game takes no more ticks");
        assert!(s.last().unwrap().result.is_some());

        // The record loads back and ends where the game ended.
        let record = Record::parse(&s.record_text().unwrap()).unwrap();
        assert_eq!(record.ticks(), ticks);
        assert_eq!(record.result(), s.game().result());
        assert_eq!(record.header().players.red, "builtin:greedy");
    }

    #[test]
    fn a_human_move_is_clicked_confirmed_and_enacted() {
        let players = Teams {
            red: Player::Human,
            blue: Player::BuiltIn(BuiltIn::Greedy),
        };
        let mut s = Session::new(Preset::Arena, players, 1);
        assert!(!s.ready());
        assert_eq!(s.waiting_for(), vec![Team::Red]);
        assert!(s.tick().is_err(), "the tick waits for the human");

        assert!(matches!(s.click(sq(9, 9)), ClickResult::Refused(_)));
        assert!(matches!(s.click(sq(2, 15)), ClickResult::Updated(_)));
        assert!(s.hints().contains(&sq(2, 13)));
        // A jump over an empty square is explained, not taken.
        assert!(matches!(s.click(sq(4, 13)), ClickResult::Refused(m) if m.contains("empty")));
        assert!(matches!(s.click(sq(2, 13)), ClickResult::Updated(_)));
        assert!(matches!(s.confirm(), ClickResult::Updated(_)));
        assert!(s.ready());

        let outcome = s.tick().unwrap().clone();
        assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
        let red = outcome.moves.iter().find(|m| m.team == Team::Red).unwrap();
        assert_eq!((red.from, red.to.clone()), (sq(2, 15), vec![sq(2, 13)]));
        assert!(s.game().position().piece_at(Team::Red, sq(2, 13)).is_some());
        assert_eq!(s.draft(Team::Red), &Draft::default());
    }

    #[test]
    fn clicking_the_chosen_piece_again_or_cancel_clears_the_draft() {
        let players = Teams {
            red: Player::Human,
            blue: Player::Human,
        };
        let mut s = Session::new(Preset::Arena, players, 1);
        s.click(sq(2, 14));
        s.click(sq(2, 14));
        assert_eq!(s.draft(Team::Red), &Draft::default());
        s.click(sq(2, 14));
        s.cancel();
        assert_eq!(s.draft(Team::Red), &Draft::default());
        assert!(matches!(s.confirm(), ClickResult::Refused(_)));
    }

    #[test]
    fn two_humans_in_the_arena_each_confirm_before_the_tick() {
        let players = Teams {
            red: Player::Human,
            blue: Player::Human,
        };
        let mut s = Session::new(Preset::Arena, players, 1);
        s.click(sq(2, 14));
        s.click(sq(3, 13));
        s.confirm();
        assert_eq!(s.active_human(), Some(Team::Blue));
        s.click(sq(15, 14));
        s.click(sq(14, 13));
        s.confirm();
        assert!(s.ready());
        assert_eq!(s.tick().unwrap().moves.len(), 2);
    }

    #[test]
    fn an_alternating_game_asks_only_the_side_to_move() {
        let players = Teams {
            red: Player::Human,
            blue: Player::Human,
        };
        let s = Session::new(Preset::Mini, players, 5);
        let first = s.game().to_move().unwrap();
        assert_eq!(s.waiting_for(), vec![first]);
    }

    #[test]
    fn a_tick_collects_answers_and_drops_late_or_repeated_ones() {
        let mut s = Session::new(Preset::Arena, greedy_pair(), 8);
        let asks = s.begin_tick(1000).unwrap();
        assert_eq!(asks.len(), 2);
        assert!(s.begin_tick(1000).is_err(), "one tick at a time");
        assert!(!s.ready());
        let round = s.round().unwrap();
        let red = builtin::answer(BuiltIn::Greedy, s.game(), Team::Red, asks[0].request.seed);
        assert!(
            !s.deliver(round + 1, Team::Red, red.clone(), 1.0),
            "another tick's answer"
        );
        assert!(s.deliver(round, Team::Red, red.clone(), 2.0));
        assert!(!s.deliver(round, Team::Red, red, 3.0), "a second answer");
        assert_eq!(s.awaiting(), vec![Team::Blue]);
        assert_eq!(s.tally(Team::Red).last_ms(), Some(2.0));

        // Blue never answers: at the deadline it has timed out, and neither move is enacted.
        let outcome = s.finish_tick(1000).unwrap().clone();
        assert!(outcome.moves.is_empty());
        assert_eq!(outcome.errors.len(), 1);
        assert_eq!(outcome.errors[0].team, Team::Blue);
        assert!(
            outcome.errors[0]
                .message
                .contains("timed out after 1000 ms"),
            "{:?}",
            outcome.errors
        );
        assert!(s.round().is_none() && s.ready());
        assert!(
            !s.deliver(round, Team::Blue, Answer::NoMove(NoMove::Missing), 1.0),
            "too late"
        );
        assert!(s.finish_tick(1000).is_err(), "no tick in progress");
        assert_eq!(s.tally(Team::Red).mean_ms(), Some(2.0));
        assert_eq!(s.tally(Team::Blue).mean_ms(), None);
        assert_eq!(
            (s.tally(Team::Blue).asked, s.tally(Team::Blue).errors),
            (1, 1)
        );
        assert_eq!(s.tally(Team::Blue).causes["timed_out"].count, 1);
    }

    #[test]
    fn web_exchanges_are_kept_per_tick_and_go_into_the_record() {
        let players = Teams {
            red: Player::Web("http://127.0.0.1:9/".into()),
            blue: Player::BuiltIn(BuiltIn::Greedy),
        };
        let mut s = Session::with_turn_limit(Preset::Arena, 3, players, 8);
        s.set_content_type(Team::Red, ContentType::Json);
        let asks = s.begin_tick(500).unwrap();
        assert_eq!(asks[0].content_type, ContentType::Json);
        let round = s.round().unwrap();
        let body = s.request_body(Team::Red);
        let wire = Wire {
            status: Some(200),
            ms: Some(3),
            ..Wire::sent(ContentType::Json, 500)
        }
        .with_body(b"nonsense");
        s.keep_wire(
            round,
            Team::Red,
            "http://127.0.0.1:9/".into(),
            body.clone(),
            wire.clone(),
        );
        s.deliver(round, Team::Red, Answer::NoMove(NoMove::Missing), 3.0);
        s.finish_tick(500).unwrap();
        let kept = s.exchanges(1).unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].tick, kept[0].team), (1, Team::Red));
        assert_eq!(kept[0].request, body);
        assert!(kept[0].verdict.is_error());
        assert_eq!(s.exchanges(2), None);
        let record = Record::parse(&s.record_text().unwrap()).unwrap();
        assert_eq!(record.wire(1, Team::Red), Some(&wire));
        assert_eq!(record.request(1, Team::Red), Some(body));
        // The turn limit set ends the game there.
        s.set_player(Team::Red, Player::BuiltIn(BuiltIn::Greedy));
        while !s.is_over() {
            s.tick().unwrap();
        }
        assert_eq!(s.game().turn(), 3);
    }

    #[test]
    fn a_failed_built_in_answer_is_reported_for_its_team() {
        let mut s = Session::new(Preset::Arena, greedy_pair(), 8);
        let asks = s.begin_tick(50).unwrap();
        let round = s.round().unwrap();
        for ask in asks {
            let answer = match ask.request.team {
                Team::Red => builtin::read_reply("error: the worker crashed"),
                Team::Blue => {
                    builtin::answer(BuiltIn::Greedy, s.game(), Team::Blue, ask.request.seed)
                }
            };
            s.deliver(round, ask.request.team, answer, 1.0);
        }
        let outcome = s.finish_tick(50).unwrap();
        assert_eq!(outcome.errors.len(), 1);
        assert!(outcome.errors[0].message.contains("the worker crashed"));
    }
}
