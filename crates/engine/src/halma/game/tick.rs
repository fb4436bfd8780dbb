//! The referee's tick, as a list of named steps over one game, in the manner of a rules engine that runs
//! stages in order: check answers, enact, collide, heal and damage, decide, advance. Both modes run the same
//! steps; they differ only in who is asked to move.

use super::{
    Answer, DamagedPiece, EnactedMove, ErrorKind, Game, GameResult, NoMove, TeamError, TickOutcome,
    TickRefused,
};
use crate::halma::{Move, Square, Team, Teams, COLLISION_DAMAGE};

impl Game {
    /// Plays one tick with one answer per team.
    ///
    /// Simultaneous: both moves are checked against the board as it stands now; if either team has no
    /// move or an illegal one, neither is enacted. Alternating: only the team to move is asked, and the
    /// other's answer must be [`Answer::NoMove`]; a mover without a legal move forfeits the turn. Either
    /// way the turn counter advances.
    ///
    /// The tick runs as a list of named steps over one game, the same steps in both modes: the modes
    /// differ only in who is asked ([`Game::movers`]) and in who is asked next.
    ///
    /// ```
    /// use gridarena_engine::halma::{Answer, Game, NoMove, Path, Preset, Square, Team, TickRefused};
    ///
    /// let sq = |x, y| Square::new(x, y).unwrap();
    /// let mut game = Game::new(&Preset::Arena.rules(), 7).unwrap();
    /// let red = Path::new(sq(1, 15), vec![sq(3, 15)]); // a jump over (2,15)
    /// let blue = Path::new(sq(15, 14), vec![sq(14, 13)]); // a step
    /// let outcome = game.tick(Answer::Move(red), Answer::Move(blue)).unwrap();
    /// assert_eq!((outcome.turn, outcome.moves.len()), (1, 2));
    ///
    /// // In an alternating game, a move from the team that is not to move refuses the whole tick.
    /// let mut classic = Game::new(&Preset::Classic.rules(), 7).unwrap();
    /// let waiting = classic.to_move().unwrap().other();
    /// let step = Answer::Move(Path::new(sq(0, 0), vec![sq(0, 1)]));
    /// let missing = Answer::NoMove(NoMove::Missing);
    /// let (red, blue) = match waiting {
    ///     Team::Red => (step, missing),
    ///     Team::Blue => (missing, step),
    /// };
    /// assert_eq!(classic.tick(red, blue), Err(TickRefused::NotYourTurn(waiting)));
    /// assert_eq!(classic.turn(), 0);
    /// ```
    pub fn tick(&mut self, red: Answer, blue: Answer) -> Result<TickOutcome, TickRefused> {
        let answers = Teams { red, blue };
        let movers = self.movers_if_playable(&answers)?;
        let mut enacted = Enacted::default();
        let errors = match self.check_answers(&movers, &answers) {
            Ok(checked) => {
                enacted.moves = self.enact(checked);
                enacted.collisions = collide(&enacted.moves);
                self.heal_and_damage(&enacted.collisions);
                self.result = self.decide();
                vec![]
            }
            Err(errors) => errors,
        };
        self.advance();
        Ok(self.outcome(movers, enacted, errors))
    }

    /// Step 0, may it be played: a finished game, or a move from a team that was not asked, refuses the
    /// whole tick before any move is checked, so that a refused tick changes nothing, not even the turn.
    /// Returns the teams asked for a move.
    fn movers_if_playable(&self, answers: &Teams<Answer>) -> Result<Vec<Team>, TickRefused> {
        if let Some(r) = self.result {
            return Err(TickRefused::GameOver(r));
        }
        let movers = self.movers();
        for t in Team::ALL {
            if !movers.contains(&t) && matches!(answers[t], Answer::Move(_)) {
                return Err(TickRefused::NotYourTurn(t));
            }
        }
        Ok(movers)
    }

    /// Step 1, check answers: every mover's answer is judged against the board as it stands before any
    /// move is made, so neither team's move helps or hinders the other's. Every problem is reported, not
    /// only the first, because each team wants to know its own; one problem is enough to enact nothing.
    fn check_answers(
        &self,
        movers: &[Team],
        answers: &Teams<Answer>,
    ) -> Result<Vec<CheckedMove>, Vec<TeamError>> {
        let mut errors = Vec::new();
        let mut checked = Vec::new();
        for &team in movers {
            match &answers[team] {
                Answer::NoMove(why) => errors.push(TeamError {
                    team,
                    kind: ErrorKind::NoMove,
                    code: why.code().into(),
                    message: why.to_string(),
                    submitted: None,
                }),
                Answer::Move(path) => match self.position.check_path(team, path) {
                    Ok((mv, landings)) => checked.push(CheckedMove { team, mv, landings }),
                    Err(e) => errors.push(TeamError {
                        team,
                        kind: ErrorKind::InvalidMove,
                        code: e.code().into(),
                        message: e.to_string(),
                        submitted: Some(path.clone()),
                    }),
                },
            }
        }
        if errors.is_empty() {
            Ok(checked)
        } else {
            Err(errors)
        }
    }

    /// Step 2, enact: the checked moves are made together. A piece may land where the other team's
    /// piece lands; that is the next step's business, so nothing here looks at the other move.
    fn enact(&mut self, checked: Vec<CheckedMove>) -> Vec<EnactedMove> {
        checked
            .into_iter()
            .map(|c| {
                self.position.play_unchecked(c.team, c.mv);
                EnactedMove {
                    team: c.team,
                    from: c.mv.from,
                    to: c.landings,
                }
            })
            .collect()
    }

    /// Step 4, heal and damage: an enacted tick lowers every damage by one, except for the pieces that
    /// just collided, which get the full collision damage whatever they had.
    fn heal_and_damage(&mut self, collisions: &[Square]) {
        self.position.heal(collisions);
        for &sq in collisions {
            for t in Team::ALL {
                self.position.set_damage(t, sq, COLLISION_DAMAGE);
            }
        }
    }

    /// Step 5, decide: after an enacted tick either team may have filled its destinations, and both at
    /// once is a draw. Goals are only checked here, since a tick that enacted nothing moved nothing.
    fn decide(&self) -> Option<GameResult> {
        match (
            self.position.has_won(Team::Red),
            self.position.has_won(Team::Blue),
        ) {
            (true, true) => Some(GameResult::BothFinished),
            (true, false) => Some(GameResult::Win { winner: Team::Red }),
            (false, true) => Some(GameResult::Win { winner: Team::Blue }),
            (false, false) => None,
        }
    }

    /// Step 6, advance: every tick counts towards the turn limit, enacted or not, so a team that never
    /// answers cannot stall the game; in an alternating game the other team is asked next.
    fn advance(&mut self) {
        self.turn = self.turn.saturating_add(1);
        if self.result.is_none() && self.turn >= self.turn_limit {
            self.result = Some(GameResult::TurnLimit);
        }
        if let Some(t) = self.to_move {
            self.to_move = Some(t.other());
        }
    }

    /// The tick as plain data, so that a page or a record shows it without knowing any rule.
    fn outcome(&self, movers: Vec<Team>, enacted: Enacted, errors: Vec<TeamError>) -> TickOutcome {
        TickOutcome {
            turn: self.turn,
            movers,
            moves: enacted.moves,
            collisions: enacted.collisions,
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
        }
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

/// A mover's answer that passed the check: the move, and the landing squares to report.
struct CheckedMove {
    team: Team,
    mv: Move,
    landings: Vec<Square>,
}

/// What the enacting steps did to the board in one tick.
#[derive(Default)]
struct Enacted {
    moves: Vec<EnactedMove>,
    collisions: Vec<Square>,
}

/// Step 3, collide: two moves that end on one square both stand there, a collision. Only final squares
/// count; a chain passing through the other's square, or through its final square, collides with nothing.
fn collide(moves: &[EnactedMove]) -> Vec<Square> {
    match moves {
        [a, b] => match (a.to.last(), b.to.last()) {
            (Some(&fa), Some(&fb)) if fa == fb => vec![fa],
            _ => vec![],
        },
        _ => vec![],
    }
}
