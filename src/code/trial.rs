//! "Test": the positions an AI is tried on before it plays, and the referee's verdict on each answer.
//!
//! A function-format AI gets the endpoint doctor's four positions (the start, damaged pieces, a
//! two-jump win, a nearly finished game), asked exactly as a web AI is. A course-format AI can only
//! read the classic 16x16 game, so it gets the classic start and a mid-game, with the course's camp rules.

use super::ai::Format;
use super::player::CodePlayer;
use super::CodeMove;
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::course::{input_txt, Occasion};
use gridarena_engine::halma::doctor::{scenarios, ASKED};
use gridarena_engine::halma::game_loop::game_request_body;
use gridarena_engine::halma::{
    Answer, CampRules, Game, NoMove, Preset, Rules, Team, Teams, Verdict,
};

/// How long "Test" gives a move, in milliseconds: generous, since a test is about being right.
pub const TRIAL_DEADLINE_MS: u64 = 10_000;

/// One position to try.
#[derive(Clone, Debug)]
pub struct Trial {
    pub title: &'static str,
    pub game: Game,
    pub team: Team,
}

impl Trial {
    /// The request JSON the code is given.
    pub fn request(&self) -> String {
        game_request_body(&self.game, self.team, TRIAL_DEADLINE_MS, 1)
    }

    /// The course format's `input.txt`, where the format can describe the game.
    pub fn input(&self) -> Option<String> {
        input_txt(&self.game, self.team, 300.0, Occasion::FirstMove).ok()
    }

    /// Asks `player` for its move here (the request, or `input.txt` for the course format) within
    /// [`TRIAL_DEADLINE_MS`]: what it answered, whether the referee enacts it, and the verdict's words.
    pub async fn ask(&self, player: &CodePlayer) -> (CodeMove, bool, String) {
        let input = match player.source().format {
            Format::Course => self.input(),
            Format::Function => None,
        };
        let moved = player
            .ask_within(&self.request(), input.as_deref(), TRIAL_DEADLINE_MS)
            .await;
        let (passed, verdict) = self.verdict(&moved.answer);
        (moved, passed, verdict)
    }

    /// Whether the referee enacts `answer` here, and what it says of it.
    pub fn verdict(&self, answer: &Answer) -> (bool, String) {
        let mut game = self.game.clone();
        let movers = game.movers();
        let other = self.team.other();
        // The other team plays its greedy move where it moves too (the arena), so the verdict is this
        // team's own.
        let other_answer = if movers.contains(&other) {
            BuiltIn::Greedy.answer(&game, other, 1)
        } else {
            Answer::NoMove(NoMove::Missing)
        };
        let answers = match self.team {
            Team::Red => Teams {
                red: answer.clone(),
                blue: other_answer,
            },
            Team::Blue => Teams {
                red: other_answer,
                blue: answer.clone(),
            },
        };
        match game.tick(answers.red, answers.blue) {
            Ok(outcome) => {
                let verdict = Verdict::of(&outcome, self.team);
                let good = matches!(verdict, Verdict::Enacted | Verdict::Collided { .. });
                let text = match answer {
                    Answer::Move(path) if good => format!("legal: {path}"),
                    _ => verdict.to_string(),
                };
                (good, text)
            }
            Err(refused) => (false, refused.to_string()),
        }
    }
}

/// The positions for an AI of `format`.
pub fn trials(format: Format) -> Vec<Trial> {
    match format {
        Format::Function => scenarios()
            .into_iter()
            .map(|s| Trial {
                title: s.title,
                game: s.game,
                team: ASKED,
            })
            .collect(),
        Format::Course => {
            let rules = Rules {
                camp_rules: CampRules::Course,
                first_mover: Some(Team::Red),
                ..Preset::Classic.rules()
            };
            let Ok(start) = Game::new(&rules, 1) else {
                return Vec::new();
            };
            let mut midgame = start.clone();
            for turn in 0..40u64 {
                let mover = midgame.movers().first().copied().unwrap_or(Team::Red);
                let answer = BuiltIn::Greedy.answer(&midgame, mover, turn);
                let (red, blue) = match mover {
                    Team::Red => (answer, Answer::NoMove(NoMove::Missing)),
                    Team::Blue => (Answer::NoMove(NoMove::Missing), answer),
                };
                if midgame.tick(red, blue).is_err() {
                    break;
                }
            }
            let team = midgame.movers().first().copied().unwrap_or(Team::Red);
            vec![
                Trial {
                    title: "the classic start (BLACK, the course's camp rules)",
                    game: start,
                    team: Team::Red,
                },
                Trial {
                    title: "a classic mid-game after 40 greedy moves",
                    game: midgame,
                    team,
                },
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::protocol::parse_response;

    #[test]
    fn the_greedy_move_passes_and_a_wrong_one_is_named() {
        for format in [Format::Function, Format::Course] {
            let list = trials(format);
            assert!(list.len() >= 2, "{format:?}");
            for trial in &list {
                let good = BuiltIn::Greedy.answer(&trial.game, trial.team, 3);
                let (ok, text) = trial.verdict(&good);
                assert!(ok, "{}: {text}", trial.title);
                assert!(text.starts_with("legal: "), "{text}");
                let bad = Answer::from(parse_response(
                    br#"{"from":{"x":0,"y":0},"to":[{"x":9,"y":9}]}"#,
                ));
                let (ok, text) = trial.verdict(&bad);
                assert!(
                    !ok && text.starts_with("illegal"),
                    "{}: {text}",
                    trial.title
                );
                let (ok, text) = trial.verdict(&Answer::NoMove(NoMove::Missing));
                assert!(!ok && text.contains("no move"), "{text}");
                assert!(trial.request().contains("\"boardSize\""));
                assert_eq!(
                    trial.input().is_some(),
                    format == Format::Course,
                    "{}",
                    trial.title
                );
            }
        }
    }
}
