//! The referee: a game's turn, who moves, the tick, collisions, damage and the result.

use super::protocol::{board_size, square_on, AiRequest, PieceJson, Point, ResponseError};
use super::state::{GameState, TeamState, STATE_VERSION};
use super::{
    Mode, Path, Piece, Position, Preset, Rules, SetupError, Square, Team, Teams, COLLISION_DAMAGE,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum GameResult {
    /// One team filled its destinations: "HALMATE".
    Win { winner: Team },
    /// Both teams finished on the same tick.
    BothFinished,
    /// The turn limit was reached first.
    TurnLimit,
}

impl GameResult {
    /// The winner, if the game was not drawn.
    pub fn winner(self) -> Option<Team> {
        match self {
            GameResult::Win { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner } => write!(f, "HALMATE! {winner} wins"),
            GameResult::BothFinished => {
                f.write_str("HALMATE for both teams on the same tick: a draw")
            }
            GameResult::TurnLimit => f.write_str("the turn limit was reached: a draw"),
        }
    }
}

/// Why a team has no move this tick. The UI and the runner say which; the referee only needs to know
/// there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// No answer was given (a null in `gridarena halma tick`, a player that has nothing to say).
    Missing,
    /// The answer did not arrive before the deadline.
    TimedOut { after_ms: u64 },
    /// The answer arrived but is not a move.
    Unreadable(ResponseError),
    /// The request failed: refused connection, HTTP error status, blocked by CORS, ...
    Failed(String),
}

impl NoMove {
    /// A stable identifier for programs.
    pub fn code(&self) -> &'static str {
        match self {
            NoMove::Missing => "missing",
            NoMove::TimedOut { .. } => "timed_out",
            NoMove::Unreadable(e) => e.code(),
            NoMove::Failed(_) => "request_failed",
        }
    }
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::Missing => f.write_str("no move was submitted"),
            NoMove::TimedOut { after_ms } => write!(f, "no answer: timed out after {after_ms} ms"),
            NoMove::Unreadable(e) => write!(f, "unreadable answer: {e}"),
            NoMove::Failed(why) => write!(f, "request failed: {why}"),
        }
    }
}

/// What a team submits for a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Move(Path),
    NoMove(NoMove),
}

impl From<Path> for Answer {
    fn from(p: Path) -> Answer {
        Answer::Move(p)
    }
}

impl From<Result<Path, ResponseError>> for Answer {
    fn from(r: Result<Path, ResponseError>) -> Answer {
        match r {
            Ok(p) => Answer::Move(p),
            Err(e) => Answer::NoMove(NoMove::Unreadable(e)),
        }
    }
}

/// Why the referee refused to play a tick at all (nothing changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickRefused {
    /// The game has ended.
    GameOver(GameResult),
    /// In an alternating game, a move came from the team that is not to move.
    NotYourTurn(Team),
}

impl fmt::Display for TickRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TickRefused::GameOver(r) => write!(f, "the game is over ({r}); it takes no more moves"),
            TickRefused::NotYourTurn(t) => write!(f, "it is not {t}'s turn"),
        }
    }
}

impl std::error::Error for TickRefused {}

/// A move the referee carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnactedMove {
    pub team: Team,
    pub from: Square,
    /// Every landing square, the final one last.
    pub to: Vec<Square>,
}

/// A piece whose damage is above 0 after the tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagedPiece {
    pub team: Team,
    pub x: u8,
    pub y: u8,
    pub damage: u8,
}

/// Whether a team's error was the lack of a move or an illegal one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    NoMove,
    InvalidMove,
}

/// One team's problem in a tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamError {
    pub team: Team,
    pub kind: ErrorKind,
    /// A stable identifier such as `timed_out` or `jump_over_empty`.
    pub code: String,
    /// The explanation for people.
    pub message: String,
    /// The move that was refused, if one was submitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<Path>,
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::NoMove => write!(f, "{}: {}", self.team, self.message),
            ErrorKind::InvalidMove => write!(f, "{}: invalid move: {}", self.team, self.message),
        }
    }
}

/// Everything a tick did, as plain data: enough to render the message field without any rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TickOutcome {
    /// Ticks played, this one included.
    pub turn: u32,
    /// The teams that were asked for a move.
    pub movers: Vec<Team>,
    /// The moves carried out: none if any mover had no move or an illegal one.
    pub moves: Vec<EnactedMove>,
    /// Squares where both teams' moves ended this tick.
    pub collisions: Vec<Square>,
    /// Every damaged piece after the tick.
    pub damaged: Vec<DamagedPiece>,
    /// Every team's problem this tick.
    pub errors: Vec<TeamError>,
    /// How the game ended, if it ended on this tick.
    pub result: Option<GameResult>,
}

/// A game of Halma in progress: the position, the turn, whose move it is, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    preset: Option<Preset>,
    mode: Mode,
    turn_limit: u32,
    turn: u32,
    to_move: Option<Team>,
    result: Option<GameResult>,
    position: Position,
}

impl Game {
    /// A new game; in an alternating game `seed` draws the first mover.
    pub fn new(rules: &Rules, seed: u64) -> Result<Game, SetupError> {
        let pieces = rules.start.map(|_, squares| {
            squares
                .iter()
                .map(|&square| Piece { square, damage: 0 })
                .collect()
        });
        let position = Position::new(
            rules.board_size,
            rules.camp_rule,
            pieces,
            rules.destinations.clone(),
        )?;
        for s in &rules.start.red {
            if rules.start.blue.contains(s) {
                return Err(SetupError::StartsOverlap { square: *s });
            }
        }
        if rules.turn_limit == 0 {
            return Err(SetupError::ZeroTurnLimit);
        }
        Ok(Game {
            preset: rules.preset,
            mode: rules.mode,
            turn_limit: rules.turn_limit,
            turn: 0,
            to_move: (rules.mode == Mode::Alternating).then(|| Rules::first_mover(seed)),
            result: None,
            position,
        })
    }

    /// A game from a recorded state, checked in full.
    pub fn from_state(state: &GameState) -> Result<Game, SetupError> {
        if state.version != STATE_VERSION {
            return Err(SetupError::UnsupportedVersion {
                found: state.version,
            });
        }
        let size = board_size(state.board_size)?;
        let team_parts =
            |team: Team, ts: &TeamState| -> Result<(Vec<Piece>, Vec<Square>), SetupError> {
                let pieces = ts
                    .pieces
                    .iter()
                    .map(|p| p.to_piece(team, size))
                    .collect::<Result<_, _>>()?;
                let dests = ts
                    .destinations
                    .iter()
                    .map(|&p| square_on(format!("{team} destination"), p, size))
                    .collect::<Result<_, _>>()?;
                Ok((pieces, dests))
            };
        let (red_pieces, red_dests) = team_parts(Team::Red, &state.red)?;
        let (blue_pieces, blue_dests) = team_parts(Team::Blue, &state.blue)?;
        let position = Position::new(
            size,
            state.camp_rule,
            Teams {
                red: red_pieces,
                blue: blue_pieces,
            },
            Teams {
                red: red_dests,
                blue: blue_dests,
            },
        )?;
        if state.turn_limit == 0 {
            return Err(SetupError::ZeroTurnLimit);
        }
        if state.result.is_none() && state.turn >= state.turn_limit {
            return Err(SetupError::TurnLimitPassed {
                turn: state.turn,
                turn_limit: state.turn_limit,
            });
        }
        match (state.mode, state.to_move) {
            (Mode::Alternating, None) => return Err(SetupError::MissingToMove),
            (Mode::Simultaneous, Some(_)) => return Err(SetupError::UnexpectedToMove),
            _ => {}
        }
        Ok(Game {
            preset: state.preset,
            mode: state.mode,
            turn_limit: state.turn_limit,
            turn: state.turn,
            to_move: state.to_move,
            result: state.result,
            position,
        })
    }

    /// The game as its serialisable state.
    pub fn state(&self) -> GameState {
        let team = |t: Team| TeamState {
            pieces: self
                .position
                .pieces(t)
                .iter()
                .map(|&p| PieceJson::from(p))
                .collect(),
            destinations: self
                .position
                .destinations(t)
                .iter()
                .map(|&s| Point::from(s))
                .collect(),
        };
        GameState {
            version: STATE_VERSION,
            preset: self.preset,
            board_size: self.position.size().into(),
            mode: self.mode,
            camp_rule: self.position.camp_rule(),
            turn_limit: self.turn_limit,
            turn: self.turn,
            to_move: self.to_move,
            result: self.result,
            red: team(Team::Red),
            blue: team(Team::Blue),
        }
    }

    /// The board.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The preset the game was created from, if any.
    pub fn preset(&self) -> Option<Preset> {
        self.preset
    }

    /// Simultaneous or alternating.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Ticks played so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Ticks after which the game is a draw.
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// In an alternating game, the team to move.
    pub fn to_move(&self) -> Option<Team> {
        self.to_move
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The teams asked for a move on the next tick: both, the one to move, or none once the game is over.
    pub fn movers(&self) -> Vec<Team> {
        match (self.result, self.to_move) {
            (Some(_), _) => vec![],
            (None, Some(t)) => vec![t],
            (None, None) => Team::ALL.to_vec(),
        }
    }

    /// The request to send to `team`'s AI.
    pub fn request(&self, team: Team) -> AiRequest {
        let pieces = |t: Team| {
            self.position
                .pieces(t)
                .iter()
                .map(|&p| PieceJson::from(p))
                .collect()
        };
        let dests = |t: Team| {
            self.position
                .destinations(t)
                .iter()
                .map(|&s| Point::from(s))
                .collect()
        };
        AiRequest {
            board_size: self.position.size().into(),
            pieces: pieces(team),
            destinations: dests(team),
            enemy: pieces(team.other()),
            enemy_destinations: dests(team.other()),
            team: Some(team),
            turn: Some(self.turn),
            preset: self.preset,
            camp_rule: Some(self.position.camp_rule()),
            time_limit_ms: None,
        }
    }

    /// Plays one tick with one answer per team.
    ///
    /// Simultaneous: both moves are checked against the board as it stands now; if either team has no
    /// move or an illegal one, neither is enacted. Alternating: only the team to move is asked, and the
    /// other's answer must be [`Answer::NoMove`]; a mover without a legal move forfeits the turn. Either
    /// way the turn counter advances.
    pub fn tick(&mut self, red: Answer, blue: Answer) -> Result<TickOutcome, TickRefused> {
        if let Some(r) = self.result {
            return Err(TickRefused::GameOver(r));
        }
        let answers = Teams { red, blue };
        let movers = self.movers();
        for t in Team::ALL {
            if !movers.contains(&t) && matches!(answers[t], Answer::Move(_)) {
                return Err(TickRefused::NotYourTurn(t));
            }
        }

        let mut errors = Vec::new();
        let mut checked = Vec::new();
        for &t in &movers {
            match &answers[t] {
                Answer::NoMove(why) => errors.push(TeamError {
                    team: t,
                    kind: ErrorKind::NoMove,
                    code: why.code().into(),
                    message: why.to_string(),
                    submitted: None,
                }),
                Answer::Move(path) => match self.position.check_path(t, path) {
                    Ok((mv, landings)) => checked.push((t, mv, landings)),
                    Err(e) => errors.push(TeamError {
                        team: t,
                        kind: ErrorKind::InvalidMove,
                        code: e.code().into(),
                        message: e.to_string(),
                        submitted: Some(path.clone()),
                    }),
                },
            }
        }

        self.turn = self.turn.saturating_add(1);
        let mut moves = Vec::new();
        let mut collisions = Vec::new();
        if errors.is_empty() {
            for (t, mv, landings) in checked {
                self.position.play_unchecked(t, mv);
                moves.push(EnactedMove {
                    team: t,
                    from: mv.from,
                    to: landings,
                });
            }
            if let [a, b] = moves.as_slice() {
                let (fa, fb) = (a.to.last(), b.to.last());
                if let (Some(&sq), true) = (fa, fa == fb) {
                    collisions.push(sq);
                }
            }
            self.position.heal(&collisions);
            for &sq in &collisions {
                for t in Team::ALL {
                    self.position.set_damage(t, sq, COLLISION_DAMAGE);
                }
            }
            self.result = match (
                self.position.has_won(Team::Red),
                self.position.has_won(Team::Blue),
            ) {
                (true, true) => Some(GameResult::BothFinished),
                (true, false) => Some(GameResult::Win { winner: Team::Red }),
                (false, true) => Some(GameResult::Win { winner: Team::Blue }),
                (false, false) => None,
            };
        }
        if self.result.is_none() && self.turn >= self.turn_limit {
            self.result = Some(GameResult::TurnLimit);
        }
        if let Some(t) = self.to_move {
            self.to_move = Some(t.other());
        }
        Ok(TickOutcome {
            turn: self.turn,
            movers,
            moves,
            collisions,
            damaged: self
                .position
                .damaged()
                .map(|(team, p)| DamagedPiece {
                    team,
                    x: p.square.x(),
                    y: p.square.y(),
                    damage: p.damage,
                })
                .collect(),
            errors,
            result: self.result,
        })
    }

    /// Plays `team`'s answer in an alternating game (the other team is not asked).
    pub fn play(&mut self, team: Team, answer: Answer) -> Result<TickOutcome, TickRefused> {
        let none = || Answer::NoMove(NoMove::Missing);
        match team {
            Team::Red => self.tick(answer, none()),
            Team::Blue => self.tick(none(), answer),
        }
    }
}
