//! One local game of Go on the page, as plain Rust: who plays each colour, the move clock, undo as a
//! person expects it, the built-in AI's turn, and SGF in and out. It holds no signals, so its behaviour is
//! tested natively; the rules are the engine's [`Game`].
//!
//! Time is passed in (milliseconds of the page's clock) rather than read, for the same reason.

use crate::ai_player::AiSession;
use gridarena_engine::go::mcts::{self, DEFAULT_PLAYOUTS};
use gridarena_engine::go::sgf::{self, GameInfo};
use gridarena_engine::go::{BoardSize, Color, Game, GameResult, Move, Point, Score};

/// The seed's move clock: each move must be made within five minutes of the previous one.
pub const MOVE_LIMIT_MS: f64 = 5.0 * 60.0 * 1000.0;

/// A colour's name at the start of a sentence or on a label.
pub fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Two people on one screen, taking turns with the mouse.
    Person,
    /// The built-in Monte-Carlo tree search, with this many simulations per move.
    Ai { playouts: u32 },
}

/// A strength the page offers: simulations a move, a name, and what it beats, in words a player can
/// weigh: games on 9x9 (komi 7.5) against GNU Go 3.8, measured by `benches/go_vs_gnugo.rs` (docs/go.md
/// has the figures). GNU Go's level 10 is its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub playouts: u32,
    pub name: &'static str,
    pub beats: &'static str,
}

/// The strengths offered, weakest first.
pub const STRENGTHS: [Strength; 4] = [
    Strength {
        playouts: 300,
        name: "beginner",
        beats: "wins 2 of 10 games against GNU Go level 1",
    },
    Strength {
        playouts: 2_000,
        name: "club",
        beats: "beats GNU Go level 1 in 7 of 10 games",
    },
    Strength {
        playouts: DEFAULT_PLAYOUTS,
        name: "strong",
        beats: "beats GNU Go level 10 in 8 of 10 games",
    },
    Strength {
        playouts: 30_000,
        name: "strongest",
        beats: "beats GNU Go level 10 in 9 of 10 games",
    },
];

/// What "New game" starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub size: BoardSize,
    pub opponent: Opponent,
    /// The colour the person at the screen plays against the AI (ignored for two people).
    pub human: Color,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            size: BoardSize::NINE,
            opponent: Opponent::Ai {
                playouts: DEFAULT_PLAYOUTS,
            },
            human: Color::Black,
        }
    }
}

/// What a person does on their turn: every button, a click on the board and a typed move are one of
/// these, and [`GoSession::act`] answers them all alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Play(Point),
    Pass,
    Resign,
    Undo,
}

/// A job for the AI: what it must answer, and the game state it was asked about, so that an answer to a
/// position that has since changed (an undo, a new game) is recognised and dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiJob {
    /// The text the worker reads (see `builtin::job`).
    pub text: String,
    pub ticket: Ticket,
}

/// Which state of the session an AI answer is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket(u64);

/// A local game.
#[derive(Clone, Debug)]
pub struct GoSession {
    setup: Setup,
    game: Game,
    /// Counts every change (a move, an undo, a new or loaded game), so an AI answer is only ever played
    /// on the very position it was asked about.
    version: u64,
    /// Varies the AI's search from game to game; within a game the moves are reproducible.
    seed: u64,
    /// When the clock of the move now awaited started (page milliseconds); `None` while no move is on the
    /// board. The clock waits for the first move: a page left open, or a player reading the rules, loses
    /// no time before the game has begun.
    move_started: Option<f64>,
    /// Names written into SGF (`PB`, `PW`) when the game was loaded from a file with names.
    names: [Option<String>; 2],
}

impl GoSession {
    /// A new game as `setup` says; its clock starts at the first move.
    pub fn new(setup: Setup, seed: u64) -> GoSession {
        GoSession {
            setup,
            game: Game::new(setup.size),
            version: 0,
            seed,
            move_started: None,
            names: [None, None],
        }
    }

    /// The next game with `setup`; nothing meant for this game reaches it.
    pub fn restart(&self, setup: Setup, seed: u64) -> GoSession {
        GoSession {
            version: self.version + 1,
            ..GoSession::new(setup, seed)
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The colour the AI plays, if one plays.
    pub fn ai_color(&self) -> Option<Color> {
        match self.setup.opponent {
            Opponent::Person => None,
            Opponent::Ai { .. } => Some(self.setup.human.other()),
        }
    }

    /// Whether a person at the screen moves now (so clicks, Pass and Resign are theirs).
    pub fn human_to_move(&self) -> bool {
        !self.game.is_over() && self.ai_color() != Some(self.game.to_move())
    }

    /// What a player is called on this page.
    pub fn player_name(&self, c: Color) -> String {
        if let Some(name) = &self.names[c as usize] {
            return name.clone();
        }
        match (self.setup.opponent, self.ai_color() == Some(c)) {
            (Opponent::Ai { playouts }, true) => format!("GridArena MCTS ({playouts} playouts)"),
            (Opponent::Ai { .. }, false) => "You".to_string(),
            (Opponent::Person, _) => title(c).to_string(),
        }
    }

    /// The last move, if any: for the marker on the board and the status line.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.game.moves().last().copied()
    }

    /// The area count of the position as it stands (every stone alive; see docs/go.md).
    pub fn area(&self) -> Score {
        self.game.score()
    }

    /// Milliseconds left on the clock of the player to move at `now`; `None` once the game is over. Before
    /// the first move the whole limit is left, whatever `now` is.
    pub fn clock_left(&self, now: f64) -> Option<f64> {
        if self.game.is_over() {
            return None;
        }
        let Some(started) = self.move_started else {
            return Some(MOVE_LIMIT_MS);
        };
        // Clamped both ways: a display clock read just before the move started must not show more.
        Some((MOVE_LIMIT_MS - (now - started)).clamp(0.0, MOVE_LIMIT_MS))
    }

    /// Whether the move clock is counting down: a move is on the board and the game is not over.
    pub fn clock_running(&self) -> bool {
        self.move_started.is_some() && !self.game.is_over()
    }

    /// Ends the game on time if the player to move has run out at `now`; true if it just ended.
    pub fn check_clock(&mut self, now: f64) -> bool {
        if self.clock_left(now) != Some(0.0) {
            return false;
        }
        self.version += 1;
        self.game.time_out(self.game.to_move()).is_ok()
    }

    /// Does what a person asked at `now`; the answer (or why not) is in words for the message line.
    pub fn act(&mut self, action: Action, now: f64) -> Result<String, String> {
        match action {
            Action::Play(p) => self.click(p, now),
            Action::Pass => self.pass(now),
            Action::Resign => self.resign(now),
            Action::Undo => self.undo(now),
        }
    }

    /// A move typed as text, for keyboards and screen readers: a vertex of this board such as D4,
    /// "pass" or "resign" (the page asks to confirm a resignation before acting on it).
    pub fn typed(&self, text: &str) -> Result<Action, String> {
        match Move::from_gtp(text, self.game.size()).map_err(|e| e.to_string())? {
            Move::Play(p) => Ok(Action::Play(p)),
            Move::Pass => Ok(Action::Pass),
            Move::Resign => Ok(Action::Resign),
        }
    }

    /// A person plays a stone at `p`. The error says why not, in words for the message line.
    pub fn click(&mut self, p: Point, now: f64) -> Result<String, String> {
        self.human_move(Move::Play(p), now)
    }

    /// A person passes.
    pub fn pass(&mut self, now: f64) -> Result<String, String> {
        self.human_move(Move::Pass, now)
    }

    /// A person resigns: against the AI, the person's colour; between two people, the player to move.
    pub fn resign(&mut self, now: f64) -> Result<String, String> {
        if self.game.is_over() {
            return Err("the game is over".to_string());
        }
        let color = match self.ai_color() {
            Some(ai) => ai.other(),
            None => self.game.to_move(),
        };
        self.game
            .play_as(color, Move::Resign)
            .map_err(|e| e.to_string())?;
        self.moved(now);
        Ok(self.result_text().unwrap_or_default())
    }

    fn human_move(&mut self, mv: Move, now: f64) -> Result<String, String> {
        if let Some(result) = self.game.result() {
            return Err(format!("the game is over ({result})"));
        }
        if !self.human_to_move() {
            return Err("wait: the AI is thinking".to_string());
        }
        let color = self.game.to_move();
        self.game.play(mv).map_err(|e| e.to_string())?;
        self.moved(now);
        Ok(self.after_move(color, mv))
    }

    /// The game changed at `now`: the next move's clock starts, unless the board is back to no moves (an
    /// undo of the first), where it waits for the first move again.
    fn moved(&mut self, now: f64) {
        self.move_started = self.clock_start(now);
        self.version += 1;
    }

    /// When the awaited move's clock starts if the position was reached at `now`.
    fn clock_start(&self, now: f64) -> Option<f64> {
        (!self.game.moves().is_empty()).then_some(now)
    }

    /// What the message line says after `color` played `mv`.
    fn after_move(&self, color: Color, mv: Move) -> String {
        if let Some(result) = self.result_text() {
            return result;
        }
        let played = match mv {
            Move::Pass => format!("{} passed", title(color)),
            _ => format!("{} played {mv}", title(color)),
        };
        if self.game.consecutive_passes() == 1 {
            format!(
                "{played}. If {} passes too, the game ends and is counted.",
                title(self.game.to_move())
            )
        } else {
            played
        }
    }

    /// Takes back moves: between two people, the last one; against the AI, back to before the person's
    /// last move (the AI's reply included), so it is the person's turn again with the same choice. A
    /// game lost on time stays lost.
    pub fn undo(&mut self, now: f64) -> Result<String, String> {
        let human = self.ai_color().map(Color::other);
        let (mut color, _) = self.game.undo().map_err(|e| e.to_string())?;
        let mut taken = 1;
        while human.is_some_and(|h| color != h) {
            match self.game.undo() {
                Ok((c, _)) => {
                    color = c;
                    taken += 1;
                }
                Err(_) => break,
            }
        }
        self.moved(now);
        Ok(format!(
            "took back {taken} move{}; {} to play",
            if taken == 1 { "" } else { "s" },
            title(self.game.to_move())
        ))
    }

    /// Whether there is a move a person may take back.
    pub fn can_undo(&self) -> bool {
        !self.game.moves().is_empty()
            && !matches!(self.game.result(), Some(GameResult::Time { .. }))
    }

    /// The AI's job when it is the AI's turn.
    pub fn ai_job(&self) -> Option<AiJob> {
        let Opponent::Ai { playouts } = self.setup.opponent else {
            return None;
        };
        if self.game.is_over() || self.ai_color() != Some(self.game.to_move()) {
            return None;
        }
        let seed = mcts::move_seed(self.seed, &self.game);
        Some(AiJob {
            text: super::builtin::job(&self.game, playouts, seed),
            ticket: self.ticket(),
        })
    }

    fn ticket(&self) -> Ticket {
        Ticket(self.version)
    }

    /// Plays the AI's answer to the job with `ticket`. `Ok(None)`: the answer is for a position that is
    /// gone (an undo or a new game came first) and is dropped. An answer the rules refuse is reported and
    /// the AI passes instead, so a game is never stuck waiting for it.
    pub fn ai_answer(
        &mut self,
        ticket: Ticket,
        reply: &str,
        now: f64,
    ) -> Result<Option<String>, String> {
        if ticket != self.ticket() {
            return Ok(None);
        }
        let Some(color) = self.ai_color().filter(|&c| c == self.game.to_move()) else {
            return Ok(None);
        };
        if self.game.is_over() {
            return Ok(None);
        }
        let answer = super::builtin::read_reply(reply, self.game.size())
            .and_then(|mv| self.game.check(mv).map(|()| mv).map_err(|e| e.to_string()));
        let (mv, refused) = match answer {
            Ok(mv) => (mv, None),
            Err(why) => (Move::Pass, Some(why)),
        };
        // A pass is always legal in a running game.
        let _ = self.game.play_as(color, mv);
        self.moved(now);
        let said = self.after_move(color, mv);
        match refused {
            None => Ok(Some(said)),
            Some(why) => Err(format!("the AI's answer was refused ({why}), so it passed")),
        }
    }

    /// The result in words, with SGF's form: "Black wins by 3.5 points (B+3.5)".
    pub fn result_text(&self) -> Option<String> {
        let result = self.game.result()?;
        let how = match result {
            GameResult::Points { half_points, .. } => {
                let whole = half_points / 2;
                let half = if half_points % 2 == 1 { ".5" } else { "" };
                format!(
                    "by {whole}{half} point{}",
                    if half_points == 2 { "" } else { "s" }
                )
            }
            GameResult::Resignation { .. } => "by resignation".to_string(),
            GameResult::Time { .. } => "on time".to_string(),
            GameResult::Draw => return Some("The game is a draw (0)".to_string()),
        };
        let winner = result.winner().map_or("", title);
        Some(format!("{winner} wins {how} ({result})"))
    }

    /// The game as an SGF file, dated `date` ("2026-11-22").
    pub fn to_sgf(&self, date: &str) -> String {
        let info = GameInfo {
            black: Some(self.player_name(Color::Black)),
            white: Some(self.player_name(Color::White)),
            date: Some(date.to_string()),
            ..GameInfo::default()
        };
        sgf::to_sgf(&self.game, &info)
    }

    /// A file name for the download.
    pub fn sgf_file_name(&self, date: &str) -> String {
        let size = self.game.size();
        format!("gridarena-go-{size}-{date}.sgf")
    }

    /// A chosen SGF file, read or not: as [`GoSession::load_sgf`], every refusal naming the file.
    pub fn load_file(
        &mut self,
        name: &str,
        bytes: Result<Vec<u8>, String>,
        now: f64,
    ) -> Result<String, String> {
        bytes
            .and_then(|bytes| self.load_sgf(&bytes, now))
            .map_err(|why| format!("{name}: {why}"))
    }

    /// Replaces the game by the one in an SGF file; play continues from its last position with this
    /// page's players, the clock started at `now` (if the file has a move). Nothing changes if the file is
    /// refused.
    pub fn load_sgf(&mut self, bytes: &[u8], now: f64) -> Result<String, String> {
        let (game, info) = sgf::from_sgf_bytes(bytes).map_err(|e| e.to_string())?;
        let moves = game.moves().len();
        let size = game.size();
        *self = GoSession {
            setup: Setup { size, ..self.setup },
            game,
            version: self.version + 1,
            seed: self.seed,
            move_started: None,
            names: [info.black, info.white],
        };
        self.move_started = self.clock_start(now);
        let state = match self.result_text() {
            Some(result) => result,
            None => format!("{} to play", title(self.game.to_move())),
        };
        Ok(format!("loaded a {size} game of {moves} moves: {state}"))
    }
}

/// The page's AI player drives a session through this (`crate::ai_player`): the session, not the AI's
/// job format, knows whose turn it is.
impl AiSession for GoSession {
    type Ticket = Ticket;
    const MODULE: &'static str = super::builtin::MODULE;

    fn ai_job(&self) -> Option<(Ticket, String)> {
        GoSession::ai_job(self).map(|j| (j.ticket, j.text))
    }

    fn ai_answer(&mut self, ticket: Ticket, reply: &str) -> Result<Option<String>, String> {
        GoSession::ai_answer(self, ticket, reply, super::now())
    }

    fn is_over(&self) -> bool {
        self.game().is_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: &str, size: BoardSize) -> Point {
        Point::from_gtp(v, size).unwrap()
    }

    fn two_people() -> GoSession {
        let setup = Setup {
            opponent: Opponent::Person,
            ..Setup::default()
        };
        GoSession::new(setup, 7)
    }

    fn vs_ai(human: Color) -> GoSession {
        GoSession::new(
            Setup {
                human,
                opponent: Opponent::Ai { playouts: 50 },
                ..Setup::default()
            },
            7,
        )
    }

    #[test]
    fn two_people_alternate_and_the_rules_refuse_with_reasons() {
        let mut s = two_people();
        let n = BoardSize::NINE;
        assert_eq!(s.click(p("E5", n), 1.0).unwrap(), "Black played E5");
        assert_eq!(
            s.click(p("E5", n), 2.0).unwrap_err(),
            "E5 is occupied by a black stone"
        );
        assert_eq!(s.game().to_move(), Color::White);
        assert!(s.pass(3.0).unwrap().contains("If Black passes too"));
        assert_eq!(s.pass(4.0).unwrap(), "Black wins by 80.5 points (B+80.5)");
        assert!(s.click(p("A1", n), 5.0).unwrap_err().contains("over"));
    }

    #[test]
    fn the_clock_runs_per_move_and_running_out_loses() {
        let mut s = two_people();
        // Before the first move the clock waits, however long the page has been open.
        assert!(!s.clock_running());
        assert_eq!(s.clock_left(1000.0), Some(MOVE_LIMIT_MS));
        assert_eq!(s.clock_left(MOVE_LIMIT_MS * 3.0), Some(MOVE_LIMIT_MS));
        assert!(!s.check_clock(MOVE_LIMIT_MS * 3.0));
        s.click(p("C3", BoardSize::NINE), 60_000.0).unwrap();
        assert!(s.clock_running());
        assert_eq!(s.clock_left(59_000.0), Some(MOVE_LIMIT_MS));
        // White's clock started at Black's move.
        assert_eq!(s.clock_left(60_000.0 + 500.0), Some(MOVE_LIMIT_MS - 500.0));
        assert!(!s.check_clock(60_000.0 + MOVE_LIMIT_MS - 1.0));
        assert!(s.check_clock(60_000.0 + MOVE_LIMIT_MS));
        assert_eq!(s.result_text().unwrap(), "Black wins on time (B+T)");
        assert_eq!(s.clock_left(1e12), None);
        assert!(!s.check_clock(1e12));
        // A loss on time is the clock's verdict: it cannot be taken back.
        assert!(!s.can_undo());
        assert!(s.undo(1e12).is_err());
    }

    #[test]
    fn undoing_the_first_move_stops_the_clock_until_a_move_is_played_again() {
        let mut s = two_people();
        s.click(p("C3", BoardSize::NINE), 10.0).unwrap();
        s.undo(20.0).unwrap();
        assert!(!s.clock_running());
        assert_eq!(
            s.clock_left(20.0 + MOVE_LIMIT_MS * 2.0),
            Some(MOVE_LIMIT_MS)
        );
        s.click(p("D4", BoardSize::NINE), 30.0).unwrap();
        assert_eq!(s.clock_left(1030.0), Some(MOVE_LIMIT_MS - 1000.0));
        // An empty game loaded from a file waits too; one with moves starts at the load.
        let mut t = two_people();
        t.load_sgf(b"(;GM[1]SZ[9])", 5.0).unwrap();
        assert!(!t.clock_running());
        t.load_sgf(b"(;GM[1]SZ[9];B[ee])", 5.0).unwrap();
        assert_eq!(t.clock_left(1005.0), Some(MOVE_LIMIT_MS - 1000.0));
    }

    #[test]
    fn undo_between_people_takes_back_one_move() {
        let mut s = two_people();
        s.click(p("C3", BoardSize::NINE), 1.0).unwrap();
        s.click(p("D3", BoardSize::NINE), 2.0).unwrap();
        assert_eq!(s.undo(3.0).unwrap(), "took back 1 move; White to play");
        assert_eq!(s.game().moves().len(), 1);
        s.resign(4.0).unwrap();
        assert_eq!(s.game().result().unwrap().to_string(), "B+R");
        s.undo(5.0).unwrap();
        assert!(!s.game().is_over());
    }

    #[test]
    fn against_the_ai_undo_goes_back_to_the_persons_turn() {
        let mut s = vs_ai(Color::Black);
        s.click(p("E5", BoardSize::NINE), 1.0).unwrap();
        assert!(!s.human_to_move());
        assert!(s
            .click(p("A1", BoardSize::NINE), 1.5)
            .unwrap_err()
            .contains("thinking"));
        let job = s.ai_job().unwrap();
        let reply = super::super::builtin::go_builtin_answer(&job.text);
        assert!(s.ai_answer(job.ticket, &reply, 2.0).unwrap().is_some());
        assert!(s.human_to_move());
        assert_eq!(s.undo(3.0).unwrap(), "took back 2 moves; Black to play");
        assert!(s.game().moves().is_empty());
        // Undo while the AI thinks takes back the person's move; the late answer is dropped.
        s.click(p("E5", BoardSize::NINE), 4.0).unwrap();
        let job = s.ai_job().unwrap();
        s.undo(5.0).unwrap();
        let reply = super::super::builtin::go_builtin_answer(&job.text);
        assert_eq!(s.ai_answer(job.ticket, &reply, 6.0), Ok(None));
        assert!(s.game().moves().is_empty());
    }

    #[test]
    fn the_ai_moves_first_when_the_person_takes_white() {
        let mut s = vs_ai(Color::White);
        assert!(!s.human_to_move());
        let job = s.ai_job().unwrap();
        let reply = super::super::builtin::go_builtin_answer(&job.text);
        s.ai_answer(job.ticket, &reply, 1.0).unwrap();
        assert_eq!(s.game().moves().len(), 1);
        assert_eq!(s.game().moves()[0].0, Color::Black);
        // Undo with only the AI's move on the board takes it back, and the AI is asked again.
        s.undo(2.0).unwrap();
        assert!(s.ai_job().is_some());
        assert_eq!(s.resign(3.0).unwrap(), "Black wins by resignation (B+R)");
    }

    #[test]
    fn an_answer_for_another_game_or_a_refused_answer() {
        let mut s = vs_ai(Color::White);
        let job = s.ai_job().unwrap();
        let mut next = s.restart(s.setup(), 8);
        assert_eq!(next.ai_answer(job.ticket, "E5", 2.0), Ok(None));
        assert!(next.game().moves().is_empty());
        // The rules refuse a bad answer; the AI passes and the page says why.
        let job = s.ai_job().unwrap();
        let err = s.ai_answer(job.ticket, "Z99", 2.0).unwrap_err();
        assert!(err.contains("refused"), "{err}");
        assert_eq!(s.last_move(), Some((Color::Black, Move::Pass)));
        let job = s.ai_job();
        assert!(job.is_none(), "it is the person's turn now");
    }

    #[test]
    fn sgf_round_trip_keeps_the_game_and_a_bad_file_changes_nothing() {
        let mut s = two_people();
        for v in ["C3", "D3", "D4"] {
            s.click(p(v, BoardSize::NINE), 1.0).unwrap();
        }
        s.pass(2.0).unwrap();
        let text = s.to_sgf("2026-11-22");
        assert!(text.contains("DT[2026-11-22]"), "{text}");
        let mut t = two_people();
        let said = t.load_sgf(text.as_bytes(), 5.0).unwrap();
        assert_eq!(said, "loaded a 9x9 game of 4 moves: Black to play");
        assert_eq!(t.game(), s.game());
        assert!(t.load_sgf(b"(;GM[1]SZ[9];B[zz]", 6.0).is_err());
        assert_eq!(t.game(), s.game());
        assert_eq!(t.clock_left(6.0), Some(MOVE_LIMIT_MS - 1.0));
    }

    #[test]
    fn every_action_goes_through_act_and_typed_moves_are_read_for_the_board() {
        let mut s = two_people();
        let n = BoardSize::NINE;
        assert_eq!(s.typed(" d4 "), Ok(Action::Play(p("D4", n))));
        assert_eq!(s.typed("PASS"), Ok(Action::Pass));
        assert_eq!(s.typed("resign"), Ok(Action::Resign));
        assert!(s.typed("T19").is_err());
        assert!(s.typed("").is_err());
        assert_eq!(
            s.act(Action::Play(p("D4", n)), 1.0).unwrap(),
            "Black played D4"
        );
        assert!(s.act(Action::Pass, 2.0).unwrap().contains("White passed"));
        assert_eq!(
            s.act(Action::Undo, 3.0).unwrap(),
            "took back 1 move; White to play"
        );
        assert_eq!(
            s.act(Action::Resign, 4.0).unwrap(),
            "Black wins by resignation (B+R)"
        );
        assert!(s.act(Action::Pass, 5.0).unwrap_err().contains("over"));
    }

    #[test]
    fn a_file_that_was_not_read_or_is_refused_is_named_and_changes_nothing() {
        let mut s = two_people();
        s.click(p("C3", BoardSize::NINE), 1.0).unwrap();
        let before = s.game().clone();
        assert_eq!(
            s.load_file("big.sgf", Err("too large".into()), 2.0),
            Err("big.sgf: too large".to_string())
        );
        assert!(s
            .load_file("bad.sgf", Ok(b"(;GM[1]SZ[9];B[zz]".to_vec()), 2.0)
            .unwrap_err()
            .starts_with("bad.sgf: "));
        assert_eq!(s.game(), &before);
        let text = s.to_sgf("2026-11-22").into_bytes();
        assert_eq!(
            s.load_file("ok.sgf", Ok(text), 3.0).unwrap(),
            "loaded a 9x9 game of 1 moves: White to play"
        );
    }

    #[test]
    fn names_and_results_read_well() {
        let s = vs_ai(Color::White);
        assert_eq!(s.player_name(Color::White), "You");
        assert_eq!(s.player_name(Color::Black), "GridArena MCTS (50 playouts)");
        let mut s = two_people();
        s.click(p("A1", BoardSize::NINE), 0.0).unwrap();
        s.resign(0.0).unwrap();
        assert_eq!(s.result_text().unwrap(), "Black wins by resignation (B+R)");
        assert_eq!(
            s.sgf_file_name("2026-11-22"),
            "gridarena-go-9x9-2026-11-22.sgf"
        );
    }
}
