//! A game: the board, whose turn it is, the pieces taken, and the winner. White moves first; capturing a
//! King wins at once. There is no check, castling or promotion (the seed keeps the game simple).

use super::board::Board;
use super::coord::Coord;
use super::error::{MoveError, SetupError};
use super::moves;
use super::outcome::Outcome;
use super::piece::{Kind, Piece, Side};

/// A game in progress or over: the one place the rules are kept, for the terminal game, the page and any
/// AI. A refused move changes nothing and says why.
///
/// ```
/// use gridarena_engine::hyperchess::{maps, parse_map, Coord, Game, MoveError, Side};
///
/// let mut game = Game::new(parse_map(maps::SMALL)?)?;
/// // White's King steps up and out, into the middle of the 3x3x3 board.
/// let played = game.play(Coord::new(1, 2, 0), Coord::new(1, 1, 1))?;
/// assert_eq!(played.captured, None);
/// assert_eq!(game.to_move(), Side::Black);
/// // White's pieces are not Black's to move.
/// let refused = game.play(Coord::new(1, 1, 1), Coord::new(1, 0, 1)).unwrap_err();
/// assert!(matches!(refused, MoveError::NotYours { .. }));
/// assert_eq!(refused.to_string(), "the WKing at (1 1 1) belongs to White");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(super) board: Board,
    pub(super) to_move: Side,
    /// Pieces taken, in the order they were taken.
    pub(super) captured: Vec<Piece>,
    pub(super) outcome: Option<Outcome>,
}

/// A move made: from where, to where, and what it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub from: Coord,
    pub to: Coord,
    pub piece: Piece,
    pub captured: Option<Piece>,
}

impl Game {
    /// A new game on `board`, White to move, or why the board cannot hold one ([`SetupError`]). The
    /// rule lives here so that the terminal game and the page refuse the same boards with the same words.
    ///
    /// ```
    /// use gridarena_engine::hyperchess::{parse_map, Game, SetupError, Side};
    ///
    /// let board = parse_map("2\n0 -1 1 -1 -1 -1 -1 WKing\n1 0 -1 -1 -1 -1 -1 BQueen\n").unwrap();
    /// assert_eq!(Game::new(board), Err(SetupError::NoKing(Side::Black)));
    /// ```
    pub fn new(board: Board) -> Result<Game, SetupError> {
        if let Some(side) = board.missing_king() {
            return Err(SetupError::NoKing(side));
        }
        Ok(Game::resume(board, Side::White, Vec::new()))
    }

    /// A game from a saved position, taken as it is. A King among the captured pieces means the game ended
    /// when it was taken, so a save needs no separate result; and since a finished game has lost a King
    /// (and saves made before [`Game::new`] refused kingless boards may lack one), no King is required.
    pub fn resume(board: Board, to_move: Side, captured: Vec<Piece>) -> Game {
        let king = captured.iter().find(|p| p.kind == Kind::King);
        let mut game = Game {
            outcome: king.map(|k| Outcome::KingTaken {
                winner: k.side.other(),
            }),
            board,
            to_move,
            captured,
        };
        if game.outcome.is_none() {
            game.outcome = game.decide();
        }
        game
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn to_move(&self) -> Side {
        self.to_move
    }

    pub fn captured(&self) -> &[Piece] {
        &self.captured
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The side that took a King, if one has; `None` while the game goes on and after a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.outcome {
            Some(Outcome::KingTaken { winner }) => Some(winner),
            _ => None,
        }
    }

    /// Where the piece at `from` may go. Errors: no node, no piece, or another player's piece.
    pub fn targets(&self, from: Coord) -> Result<Vec<Coord>, MoveError> {
        let (i, _) = self.own_piece(from)?;
        Ok(self.targets_of(i))
    }

    fn targets_of(&self, i: usize) -> Vec<Coord> {
        let Some(piece) = self.board.node(i).and_then(|n| n.piece) else {
            return Vec::new();
        };
        moves::targets(&self.board, i, piece)
            .into_iter()
            .filter_map(|t| self.board.node(t).map(|n| n.coord))
            .collect()
    }

    fn own_piece(&self, at: Coord) -> Result<(usize, Piece), MoveError> {
        if let Some(o) = self.outcome {
            return Err(MoveError::GameOver(o));
        }
        let i = self.board.index_of(at).ok_or(MoveError::NoNode(at))?;
        let piece = self
            .board
            .node(i)
            .and_then(|n| n.piece)
            .ok_or(MoveError::Empty(at))?;
        if piece.side != self.to_move {
            return Err(MoveError::NotYours { at, piece });
        }
        Ok((i, piece))
    }

    /// Checks a move without making it.
    pub fn check(&self, from: Coord, to: Coord) -> Result<(), MoveError> {
        let (i, piece) = self.own_piece(from)?;
        if self.board.index_of(to).is_none() {
            return Err(MoveError::NoNode(to));
        }
        if !self.targets_of(i).contains(&to) {
            return Err(MoveError::Illegal { from, to, piece });
        }
        Ok(())
    }

    /// Moves the piece at `from` to `to`, or refuses and changes nothing.
    pub fn play(&mut self, from: Coord, to: Coord) -> Result<Played, MoveError> {
        self.check(from, to)?;
        let (Some(i), Some(j)) = (self.board.index_of(from), self.board.index_of(to)) else {
            return Err(MoveError::NoNode(to));
        };
        let piece = self.board.node(i).and_then(|n| n.piece);
        let Some(piece) = piece else {
            return Err(MoveError::Empty(from));
        };
        let taken = self.board.node(j).and_then(|n| n.piece);
        self.board.set_piece(j, Some(piece));
        self.board.set_piece(i, None);
        if let Some(t) = taken {
            self.captured.push(t);
        }
        self.to_move = self.to_move.other();
        self.outcome = match taken {
            Some(t) if t.kind == Kind::King => Some(Outcome::KingTaken { winner: piece.side }),
            _ => self.decide(),
        };
        Ok(Played {
            from,
            to,
            piece,
            captured: taken,
        })
    }

    /// Whether the player to move can move at all.
    fn decide(&self) -> Option<Outcome> {
        let can_move = self.board.nodes().iter().enumerate().any(|(i, n)| {
            n.piece.is_some_and(|p| p.side == self.to_move) && !self.targets_of(i).is_empty()
        });
        (!can_move).then_some(Outcome::NoMoves { side: self.to_move })
    }

    /// Every legal move of the player to move, for tests, AIs and hints.
    pub fn legal_moves(&self) -> Vec<(Coord, Coord)> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (i, n) in self.board.nodes().iter().enumerate() {
            if n.piece.is_some_and(|p| p.side == self.to_move) {
                out.extend(self.targets_of(i).into_iter().map(|t| (n.coord, t)));
            }
        }
        out
    }
}
