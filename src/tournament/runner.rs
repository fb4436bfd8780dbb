//! A tournament being played: the engine's [`Tournament`] and the games in progress, each the engine's
//! [`Match`] of its fixture, its sides seated as the entries' plans say ([`Tournament::start`]). The
//! page's clock drives it tick by tick ([`Run::begin`], [`Run::deliver`], [`Run::end_tick`]); each
//! player is asked through [`Question::for_move`], as in the arena, and its answer delivered as it comes.

use crate::halma::asker::{Question, Reach};
use crate::halma::board_view::BoardView;
use crate::halma::builtin;
use gridarena_engine::halma::code::HashedSource;
use gridarena_engine::halma::play::Deadline;
use gridarena_engine::halma::{AiPlayer, Answer, Match, NoMove, Team, TickOutcome};
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::game::{Fixture, GameReport};
use std::sync::Arc;

/// An AI to ask this tick, what it is asked (a web AI's request, a built-in AI's job for the page's
/// worker), and until when, as the match's seat says for its entry (the tick, or its course clock).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub turn: u32,
    pub team: Team,
    pub to: Question,
    pub deadline: Deadline,
}

/// A game in progress, and its last tick for the wall.
#[derive(Clone, Debug)]
pub struct Live {
    pub fixture: Fixture,
    pub game: Match,
    pub last: Option<TickOutcome>,
}

/// What ending a tick did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TickEnd {
    /// The game goes on.
    Continues,
    /// The game ended and is in the standings; the message says how (and any withdrawal).
    Finished(String),
    /// The game is not in progress (the tournament was replaced).
    Gone,
}

/// A tournament being played.
#[derive(Clone, Debug)]
pub struct Run {
    pub tournament: Tournament,
    live: Vec<Live>,
}

impl Run {
    pub fn new(tournament: Tournament) -> Run {
        Run {
            tournament,
            live: Vec::new(),
        }
    }

    /// The games in progress.
    pub fn live(&self) -> &[Live] {
        &self.live
    }

    fn live_mut(&mut self, number: usize) -> Option<&mut Live> {
        self.live.iter_mut().find(|l| l.fixture.number == number)
    }

    pub fn game(&self, number: usize) -> Option<&Live> {
        self.live.iter().find(|l| l.fixture.number == number)
    }

    /// Starts the games the schedule allows now; returns their numbers. A game that cannot be set up
    /// (the settings were checked, so this does not happen) is handed back to the schedule.
    pub fn start_games(&mut self) -> Vec<usize> {
        let mut started = Vec::new();
        for fixture in self.tournament.next_games() {
            match self.tournament.start(&fixture) {
                Ok(game) => {
                    started.push(fixture.number);
                    self.live.push(Live {
                        fixture,
                        game,
                        last: None,
                    });
                }
                Err(_) => self.tournament.abandon(fixture.number),
            }
        }
        started
    }

    /// Starts a tick of game `number` and returns the AIs to ask (built-ins as jobs for the AI module's
    /// worker). `None` when the game is not in progress.
    pub fn begin(&mut self, number: usize) -> Option<Vec<Request>> {
        let tick_ms = self.tournament.settings().tick_ms;
        let tournament = &self.tournament;
        let live = self.live.iter_mut().find(|l| l.fixture.number == number)?;
        let f = live.fixture;
        let asks = live.game.begin(|_| true, tick_ms).ok()?;
        let mut requests = Vec::new();
        // A program cannot run in the page: its team is answered with that once the others are asked.
        let mut refused = Vec::new();
        // The state both teams' messages carry, written once.
        let state = builtin::TickState::new(live.game.game());
        for ask in asks {
            let reach = match tournament.player(f.entry(ask.team)) {
                Some(AiPlayer::BuiltIn(ai)) => Reach::BuiltIn(*ai),
                Some(AiPlayer::Web(url)) => Reach::Web(url),
                Some(AiPlayer::Code(_)) => Reach::Code,
                Some(AiPlayer::Program(_)) => {
                    refused.push((ask.turn, ask.team));
                    continue;
                }
                None => continue,
            };
            requests.push(Request {
                turn: ask.turn,
                team: ask.team,
                to: Question::for_move(reach, &live.game, &ask, &state),
                deadline: live.game.deadline(ask.team),
            });
        }
        for (turn, team) in refused {
            let why = crate::halma::player::PROGRAM_IN_PAGE.to_string();
            live.game
                .deliver(turn, team, Answer::NoMove(NoMove::Failed(why)), None);
        }
        Some(requests)
    }

    /// Hands a web AI's answer to game `number`. Returns whether it was taken: a late one (its tick has
    /// ended), a second one, or one for a game no longer played is dropped.
    pub fn deliver(
        &mut self,
        number: usize,
        turn: u32,
        team: Team,
        answer: Answer,
        ms: Option<u32>,
    ) -> bool {
        self.live_mut(number)
            .is_some_and(|live| live.game.deliver(turn, team, answer, ms))
    }

    /// Whether game `number` still waits for an answer this tick.
    pub fn awaiting(&self, number: usize) -> bool {
        self.game(number).is_some_and(|l| l.game.is_awaiting())
    }

    /// Ends the tick of game `number` after `waited_ms`; a finished game goes to the standings.
    pub fn end_tick(&mut self, number: usize, waited_ms: u64) -> TickEnd {
        let Some(live) = self.live_mut(number) else {
            return TickEnd::Gone;
        };
        match live.game.finish(waited_ms) {
            Ok(outcome) => live.last = Some(outcome),
            Err(_) => return TickEnd::Gone,
        }
        let Some(report) = live.game.report() else {
            return TickEnd::Continues;
        };
        let report = GameReport {
            fixture: live.fixture,
            played: report,
        };
        self.live.retain(|l| l.fixture.number != number);
        let names = self.tournament.names();
        let name = |e: usize| names.get(e).cloned().unwrap_or_default();
        let f = report.fixture;
        let mut said = format!(
            "Game {}: {} (red) vs {} (blue): {}",
            f.number + 1,
            name(f.red),
            name(f.blue),
            report.played.ending
        );
        match self.tournament.finish(report) {
            Ok(withdrawals) => {
                for w in withdrawals {
                    said.push_str(&format!("; {} withdrawn: {}", name(w.entry), w.cause));
                }
                TickEnd::Finished(said)
            }
            Err(e) => TickEnd::Finished(format!("{said} (not counted: {e})")),
        }
    }

    /// The board of game `number` as the wall draws it.
    pub fn board(&self, number: usize) -> BoardView {
        self.game(number).map_or_else(BoardView::default, |l| {
            BoardView::new(l.game.game().position(), l.last.as_ref(), None, &[])
        })
    }

    /// The code entries of game `number`, by team: each one's index in the roster and its code.
    pub fn code_entries(&self, number: usize) -> Vec<(Team, usize, Arc<HashedSource>)> {
        let Some(live) = self.game(number) else {
            return Vec::new();
        };
        let f = live.fixture;
        Team::ALL
            .iter()
            .filter_map(|&team| match self.tournament.player(f.entry(team)) {
                Some(AiPlayer::Code(source)) => Some((team, f.entry(team), Arc::clone(source))),
                _ => None,
            })
            .collect()
    }

    /// The names of game `number`'s two entries, and its turn.
    pub fn heading(&self, number: usize) -> Option<(Fixture, String, String, u32)> {
        let live = self.game(number)?;
        let f = live.fixture;
        let names = self.tournament.roster();
        let name = |e: usize| {
            names
                .entries
                .get(e)
                .map(|x| x.name.clone())
                .unwrap_or_default()
        };
        Some((f, name(f.red), name(f.blue), live.game.game().turn()))
    }

    pub fn is_over(&self) -> bool {
        self.live.is_empty() && self.tournament.is_over()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use gridarena_engine::halma::Preset;
    use gridarena_engine::tournament::pairing::Format;
    use gridarena_engine::tournament::roster::Roster;
    use gridarena_engine::tournament::settings::Settings;

    pub(crate) fn tournament(lines: &str, format: Format) -> Tournament {
        let entries = gridarena_engine::tournament::roster::entries_from_lines(lines).unwrap();
        let settings = Settings {
            format,
            preset: Preset::Mini,
            max_turns: Some(30),
            tick_ms: 100,
            concurrency: 2,
            ..Settings::default()
        };
        Tournament::new(Roster { entries }, settings).unwrap()
    }

    /// Plays `run` as the page does, web AIs never answering; stops after `games` finished games.
    pub(crate) fn play(run: &mut Run, games: Option<usize>) {
        loop {
            if games.is_some_and(|n| run.tournament.finished_count() >= n) {
                return;
            }
            if run.live().is_empty() && run.start_games().is_empty() {
                return;
            }
            let numbers: Vec<usize> = run.live().iter().map(|l| l.fixture.number).collect();
            for n in numbers {
                // Built-ins answer at once, as their worker would; web AIs never do.
                for ask in run.begin(n).unwrap() {
                    match &ask.to {
                        Question::BuiltIn { job } => {
                            let answer = builtin::read_reply(&builtin::halma_builtin_answer(job));
                            run.deliver(n, ask.turn, ask.team, answer, Some(0));
                        }
                        Question::Web { body, .. } => assert!(body.starts_with('{')),
                        Question::Code { .. } | Question::Single { .. } => {
                            panic!("no code entries here")
                        }
                    }
                }
                if let TickEnd::Finished(said) = run.end_tick(n, 100) {
                    assert!(said.starts_with("Game "), "{said}");
                    run.start_games();
                }
            }
        }
    }

    #[test]
    fn a_tournament_plays_to_the_end_and_resumes_from_its_bundle() {
        let four =
            "Ada builtin:greedy\nBo builtin:search\nCy builtin:greedy\nDead http://127.0.0.1:9/";
        let mut whole = Run::new(tournament(four, Format::Double));
        play(&mut whole, None);
        assert!(whole.is_over());
        assert_eq!(whole.tournament.finished_count(), 12);
        assert!(whole.tournament.withdrawn(3).is_some());

        let mut first = Run::new(tournament(four, Format::Double));
        play(&mut first, Some(5));
        assert!(
            !first.live().is_empty(),
            "games in flight when the page closes"
        );
        let bundle = first.tournament.to_bundle();
        let mut resumed = Run::new(Tournament::from_bundle(&bundle).unwrap());
        play(&mut resumed, None);
        assert_eq!(
            resumed.tournament.standings().unwrap().ranked(),
            whole.tournament.standings().unwrap().ranked()
        );
    }

    #[test]
    fn the_wall_shows_a_live_game_and_stale_answers_are_dropped() {
        let mut run = Run::new(tournament(
            "Ada builtin:greedy\nBo builtin:greedy",
            Format::RoundRobin,
        ));
        let n = run.start_games()[0];
        assert_eq!(run.board(n).size, 8);
        let (f, red, blue, turn) = run.heading(n).unwrap();
        let names = ["Ada".to_string(), "Bo".to_string()];
        assert_eq!(
            (red, blue, turn),
            (names[f.red].clone(), names[f.blue].clone(), 0)
        );
        assert_eq!(run.end_tick(99, 5), TickEnd::Gone);
        assert!(run.begin(99).is_none());
        // The built-ins come back as jobs, answered as the worker answers them.
        let jobs = run.begin(n).unwrap();
        assert_eq!(jobs.len(), 1, "mini alternates: one side to move");
        assert!(run.awaiting(n));
        let Question::BuiltIn { job } = &jobs[0].to else {
            panic!()
        };
        let answer = builtin::read_reply(&builtin::halma_builtin_answer(job));
        run.deliver(n, jobs[0].turn, jobs[0].team, answer, Some(3));
        assert!(!run.awaiting(n));
        assert_eq!(run.end_tick(n, 5), TickEnd::Continues);
    }

    #[test]
    fn each_request_carries_its_entrys_deadline_and_label_from_the_engines_plan() {
        use gridarena_engine::halma::code::{CodeFile, Format as CodeFormat, Lang, Source};
        use gridarena_engine::halma::ContentType;
        use gridarena_engine::tournament::roster::Entry;
        let course = Source {
            lang: Lang::Python,
            format: CodeFormat::Course,
            main: "homework.py".to_string(),
            files: vec![CodeFile::text("homework.py", "print(1)\n")],
        };
        let mut web = Entry::new("Web", "http://127.0.0.1:9/");
        web.content_type = ContentType::Json;
        let settings = Settings {
            preset: Preset::Classic,
            tick_ms: 5000,
            ..Settings::default()
        };
        let roster = Roster {
            entries: vec![Entry::code("Course", course), web],
        };
        let mut run = Run::new(Tournament::new(roster, settings).unwrap());
        let n = run.start_games()[0];
        let mut asked = Vec::new();
        // Classic alternates: two ticks ask both sides once.
        for _ in 0..2 {
            for r in run.begin(n).unwrap() {
                asked.push(r.clone());
                run.deliver(n, r.turn, r.team, Answer::NoMove(NoMove::Missing), None);
            }
            run.end_tick(n, 10);
        }
        let course = asked
            .iter()
            .find(|r| matches!(r.to, Question::Code { .. }))
            .expect("the course entry asked");
        // Its course clock, not the tick: a 6 s move of a 300 s clock is no time-out.
        assert_eq!(course.deadline, Deadline::CourseClock);
        let web = asked
            .iter()
            .find(|r| matches!(r.to, Question::Web { .. }))
            .expect("the web entry asked");
        assert_eq!(web.deadline, Deadline::Millis(5000));
        let Question::Web { content_type, .. } = &web.to else {
            unreachable!()
        };
        assert_eq!(*content_type, ContentType::Json);
    }
}
