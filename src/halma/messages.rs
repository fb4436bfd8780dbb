//! The message field's text, from a tick's outcome alone: the engine already decided everything, this
//! only words it (turn, each team's latest move, damaged pieces, errors, HALMATE).

use gridarena_engine::halma::{ErrorKind, GameResult, Team, TickOutcome};

pub use crate::notice::{Line, Tone};

fn line(tone: Tone, text: impl Into<String>) -> Line {
    Line {
        tone,
        text: text.into(),
    }
}

/// The words for a result: "HALMATE! red wins", or the draw.
pub fn result_text(result: GameResult) -> String {
    result.to_string()
}

/// The message field after a tick.
pub fn tick_lines(outcome: &TickOutcome) -> Vec<Line> {
    let mut lines = vec![line(Tone::Info, format!("Turn {}", outcome.turn))];
    for team in outcome.movers.iter().copied() {
        let text = match outcome.moves.iter().find(|m| m.team == team) {
            Some(m) => {
                let path: Vec<String> = m.to.iter().map(|s| s.to_string()).collect();
                format!("{team}: {} -> {}", m.from, path.join(" -> "))
            }
            None => format!("{team}: no move enacted"),
        };
        lines.push(line(Tone::Info, text));
    }
    for sq in &outcome.collisions {
        lines.push(line(
            Tone::Info,
            format!("Collision at {sq}: both pieces damaged"),
        ));
    }
    if outcome.damaged.is_empty() {
        lines.push(line(Tone::Info, "Damaged pieces: none"));
    } else {
        let list: Vec<String> = outcome
            .damaged
            .iter()
            .map(|d| format!("{} ({},{}) {}", d.team, d.x, d.y, d.damage))
            .collect();
        lines.push(line(
            Tone::Info,
            format!("Damaged pieces: {}", list.join(", ")),
        ));
    }
    for e in &outcome.errors {
        let what = match e.kind {
            ErrorKind::NoMove => "no move",
            ErrorKind::InvalidMove => "invalid move",
        };
        lines.push(line(
            Tone::Error,
            format!("Error, {}: {what}: {}", e.team, e.message),
        ));
    }
    if !outcome.errors.is_empty() {
        lines.push(line(Tone::Error, "Neither move was enacted this tick."));
    }
    if let Some(r) = outcome.result {
        lines.push(line(Tone::Result, result_text(r)));
    }
    lines
}

/// The message field before the first tick.
pub fn start_lines(movers: &[Team], first_mover: Option<Team>) -> Vec<Line> {
    let mut lines = vec![line(Tone::Info, "Turn 0: press Step or Run")];
    if let Some(t) = first_mover {
        lines.push(line(
            Tone::Info,
            format!("{t} moves first (drawn from the seed)"),
        ));
    }
    if movers.is_empty() {
        lines.push(line(Tone::Info, "The game is over"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::{Game, Preset};

    #[test]
    fn an_enacted_tick_lists_turn_moves_and_damage() {
        let mut g = Game::new(&Preset::Arena.rules(), 1).unwrap();
        let red = gridarena_engine::halma::protocol::parse_response(
            br#"{"from":{"x":2,"y":14},"to":[{"x":3,"y":13}]}"#,
        );
        let blue = gridarena_engine::halma::protocol::parse_response(
            br#"{"from":{"x":15,"y":14},"to":[{"x":14,"y":13}]}"#,
        );
        let o = g.tick(red.into(), blue.into()).unwrap();
        let text: Vec<String> = tick_lines(&o).into_iter().map(|l| l.text).collect();
        assert_eq!(text[0], "Turn 1");
        assert_eq!(text[1], "red: (2,14) -> (3,13)");
        assert_eq!(text[2], "blue: (15,14) -> (14,13)");
        assert_eq!(text[3], "Damaged pieces: none");
    }
}
