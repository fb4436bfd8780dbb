//! The live view of a game played elsewhere (`gridarena hyperchess --view`, `gridarena hyperchess view
//! DIR`), as plain Rust: the latest [`LiveUpdate`] the server pushed, and what the page shows of it. The
//! server reads the game's currentstate and works out the turn, the last move and the pieces taken
//! (the engine's `hyperchess::live`); this only draws them.

use super::view::{lost_text, View};
use gridarena_engine::hyperchess::live::LiveUpdate;
use gridarena_engine::hyperchess::{parse_state, Piece, Side};

/// The live view's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveBoard {
    update: LiveUpdate,
    stream: Stream,
}

/// How the stream to the server stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stream {
    #[default]
    Up,
    /// It broke, and the browser opens it again by itself.
    Retrying,
    /// It was refused (no live game is served here, or the server answered with an error): the browser
    /// gives up, so only a reload tries again.
    Closed,
}

impl LiveBoard {
    /// Takes in one update as the server sent it; a message that is not one changes nothing.
    pub fn receive(&mut self, json: &str) -> Result<(), String> {
        let update =
            LiveUpdate::parse(json).map_err(|e| format!("a message the page cannot read: {e}"))?;
        self.update = update;
        self.stream = Stream::Up;
        Ok(())
    }

    /// The stream to the server broke; `for_good` when the browser will not open it again.
    pub fn lost(&mut self, for_good: bool) {
        self.stream = if for_good {
            Stream::Closed
        } else {
            Stream::Retrying
        };
    }

    /// The line above the board.
    pub fn status(&self) -> String {
        let u = &self.update;
        if u.seq == 0 {
            return "Live view: waiting for the game's first board…".to_string();
        }
        if let Some(result) = &u.result {
            return format!("Live view: {result}");
        }
        match &u.to_move {
            Some(side) => format!("Live view: {side} to move"),
            None => "Live view".to_string(),
        }
    }

    /// The last move in words, when the server knows it.
    pub fn last_move_text(&self) -> Option<String> {
        let m = self.update.last_move.as_ref()?;
        let (from, to) = m.coords();
        let took = m
            .captured
            .as_ref()
            .map(|p| format!(", taking the {p}"))
            .unwrap_or_default();
        Some(format!("Last move: {} ({from}) → ({to}){took}", m.piece))
    }

    /// What is wrong: the stream, or the file as it stands (the board shown is the last good one).
    pub fn problem(&self) -> Option<String> {
        match self.stream {
            Stream::Up => self
                .update
                .error
                .as_ref()
                .map(|e| format!("{e} (showing the last good board)")),
            Stream::Retrying => Some(
                "The game's server does not answer (has it stopped?); trying again…".to_string(),
            ),
            Stream::Closed => Some(
                "No live game is served here: `gridarena hyperchess MAP --view` or `gridarena \
                 hyperchess view DIR` serves one. Start it, then reload this page."
                    .to_string(),
            ),
        }
    }

    /// The pieces `side` has lost, as chess symbols, or "none".
    pub fn lost_text(&self, side: Side) -> String {
        let taken = self
            .update
            .captured
            .iter()
            .filter_map(|name| name.parse::<Piece>().ok());
        lost_text(taken, side)
    }

    /// The board as drawn, the last move marked.
    pub fn view(&self) -> View {
        let lines = parse_state(&self.update.state).unwrap_or_default();
        View::of_lines(&lines, self.update.last_move.as_ref().map(|m| m.coords()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::live::Follower;
    use gridarena_engine::hyperchess::{maps, parse_map, Coord, Game};

    #[test]
    fn each_update_shows_the_board_the_turn_the_last_move_and_the_losses() {
        let mut live = LiveBoard::default();
        assert!(live.status().contains("waiting"));
        let mut game = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
        let mut follower = Follower::new();
        let first = follower
            .see(Ok(game.board().to_string().as_bytes()), None)
            .unwrap()
            .to_json();
        live.receive(&first).unwrap();
        assert_eq!(live.status(), "Live view");
        assert_eq!(live.view().cells.len(), game.board().len());
        let (from, to) = game.legal_moves()[0];
        game.play(from, to).unwrap();
        let second = follower
            .see(Ok(game.board().to_string().as_bytes()), None)
            .unwrap()
            .to_json();
        live.receive(&second).unwrap();
        assert_eq!(live.status(), "Live view: Black to move");
        assert!(live
            .last_move_text()
            .unwrap()
            .contains(&format!("({from}) → ({to})")));
        let marked: Vec<Coord> = live
            .view()
            .cells
            .iter()
            .filter(|c| c.last)
            .map(|c| c.at)
            .collect();
        assert_eq!(marked.len(), 2);
        assert_eq!(live.lost_text(Side::White), "none");
        // A broken file: the board stays, and the problem is said.
        let broken = follower.see(Ok(b"nonsense"), None).unwrap().to_json();
        live.receive(&broken).unwrap();
        assert_eq!(live.view().cells.len(), game.board().len());
        assert!(live.problem().unwrap().contains("last good board"));
        assert!(live.receive("{not json").is_err());
        live.lost(false);
        assert!(live.problem().unwrap().contains("trying again"));
        live.receive(&second).unwrap();
        assert_eq!(live.problem(), None);
        // Refused for good (a static host has no stream): no promise of another try.
        live.lost(true);
        let said = live.problem().unwrap();
        assert!(said.contains("reload"), "{said}");
        assert!(!said.contains("trying again"), "{said}");
    }
}
