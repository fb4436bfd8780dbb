//! The message field's text, from a tick's outcome alone: the engine already decided everything, this
//! only words it (turn, each team's latest move, damaged pieces, errors, HALMATE).

use gridarena_engine::halma::{ErrorKind, GameResult, Team, TickOutcome};
use std::sync::Arc;

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
    tick_entries(outcome).into_iter().map(|(_, l)| l).collect()
}

/// [`tick_lines`], each with the team it is about (`None` for the turn, damage and the result), so the
/// field can show one team's lines.
pub fn tick_entries(outcome: &TickOutcome) -> Vec<(Option<Team>, Line)> {
    let mut lines = vec![(None, line(Tone::Info, format!("Turn {}", outcome.turn)))];
    for team in outcome.movers.iter().copied() {
        let text = match outcome.moves.iter().find(|m| m.team == team) {
            Some(m) => {
                let path: Vec<String> = m.to.iter().map(|s| s.to_string()).collect();
                format!("{team}: {} -> {}", m.from, path.join(" -> "))
            }
            None => format!("{team}: no move enacted"),
        };
        lines.push((Some(team), line(Tone::Info, text)));
    }
    for sq in &outcome.collisions {
        lines.push((
            None,
            line(
                Tone::Info,
                format!("Collision at {sq}: both pieces damaged"),
            ),
        ));
    }
    if outcome.damaged.is_empty() {
        lines.push((None, line(Tone::Info, "Damaged pieces: none")));
    } else {
        let list: Vec<String> = outcome
            .damaged
            .iter()
            .map(|d| format!("{} ({},{}) {}", d.team, d.x, d.y, d.damage))
            .collect();
        lines.push((
            None,
            line(Tone::Info, format!("Damaged pieces: {}", list.join(", "))),
        ));
    }
    for e in &outcome.errors {
        let what = match e.kind {
            ErrorKind::NoMove => "no move",
            ErrorKind::InvalidMove => "invalid move",
        };
        lines.push((
            Some(e.team),
            line(
                Tone::Error,
                format!("Error, {}: {what}: {}", e.team, e.message),
            ),
        ));
    }
    // "Neither" only when two movers were asked; in an alternating game one side moved, or failed to.
    match (outcome.errors.first(), outcome.movers.as_slice()) {
        (None, _) => {}
        (Some(_), [_, _]) => lines.push((
            None,
            line(Tone::Error, "Neither move was enacted this tick."),
        )),
        (Some(e), _) => lines.push((
            Some(e.team),
            line(Tone::Error, format!("{}'s move was not enacted.", e.team)),
        )),
    }
    if let Some(r) = outcome.result {
        lines.push((None, line(Tone::Result, result_text(r))));
    }
    lines
}

/// One tick's lines as the message field shows them. The log writes a tick's block once, when the tick
/// is logged, and every later tick hands the page that same block: copying the shown blocks' lines
/// (then 40 blocks), twice a tick, cost the page more than the new block it shows (issue 38).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The number of its first line: lines are numbered in the order they were added.
    pub first: u64,
    pub lines: Arc<[Line]>,
    /// Its lines as a number (see [`content_key`]).
    content: u64,
}

impl Block {
    pub fn new(first: u64, lines: Vec<Line>) -> Block {
        Block {
            first,
            content: content_key(&lines),
            lines: lines.into(),
        }
    }

    /// What the page keys the block by: its number and its lines, for a block number comes back with
    /// other lines (a new game, a replay, another filter).
    pub fn key(&self) -> (u64, u64) {
        (self.first, self.content)
    }
}

/// Lines as a number, for a block's key, worked out once per block rather than hashed again each tick.
fn content_key(lines: &[Line]) -> u64 {
    // FNV-1a: a few instructions, where the standard library's hasher costs the download a kilobyte.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for l in lines {
        for b in l.text.bytes().chain([0xff, l.tone as u8]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// A logged tick: its turn, all its lines as one block, and the team each line is about (`None` for the
/// turn, damage and the result), for a filter.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Logged {
    turn: u32,
    block: Block,
    teams: Vec<Option<Team>>,
}

/// Which lines of the message field's history show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// One team's lines (and those about no team), or all.
    pub team: Option<Team>,
    /// Only the errors, each with its turn.
    pub errors_only: bool,
}

/// The message field's history: each tick's lines, the latest tick first, at most [`Log::MAX_TICKS`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    ticks: std::collections::VecDeque<Logged>,
    /// The number the next line added gets.
    next: u64,
}

impl Log {
    /// The most ticks kept; older ones drop off the bottom.
    pub const MAX_TICKS: usize = 300;

    /// Adds the lines of the tick that came out as `outcome`.
    pub fn push(&mut self, outcome: &TickOutcome) {
        if self.ticks.len() == Self::MAX_TICKS {
            self.ticks.pop_back();
        }
        let (teams, lines): (Vec<_>, Vec<_>) = tick_entries(outcome).into_iter().unzip();
        let first = self.next;
        self.next += lines.len() as u64;
        self.ticks.push_front(Logged {
            turn: outcome.turn,
            block: Block::new(first, lines),
            teams,
        });
    }

    pub fn is_empty(&self) -> bool {
        self.ticks.is_empty()
    }

    /// The lines `filter` lets through, the latest tick first.
    pub fn lines(&self, filter: Filter) -> Vec<Line> {
        self.numbered_lines(filter)
            .into_iter()
            .map(|(_, l)| l)
            .collect()
    }

    /// [`Log::lines`], each with its number: a line keeps its number while it stays in the log.
    pub fn numbered_lines(&self, filter: Filter) -> Vec<(u64, Line)> {
        self.numbered_ticks(filter, usize::MAX)
            .into_iter()
            .flat_map(|b| (b.first..).zip(b.lines.to_vec()))
            .collect()
    }

    /// The lines `filter` lets through, one block a tick (the latest first, at most `limit` blocks), each
    /// numbered by its tick's first line; a tick with no line through the filter has no block.
    ///
    /// The page keys its paragraphs by block: a tick then adds one block at the top and drops the oldest,
    /// and every other block stays where it is in the DOM. (Keyed line by line, the several lines a tick
    /// adds at the top made the page's list diff move every older line each tick.)
    ///
    /// The limit spares a tick the copy of the whole log (300 ticks) when the page shows the latest few.
    pub fn numbered_ticks(&self, filter: Filter, limit: usize) -> Vec<Block> {
        let mut out = Vec::new();
        for t in &self.ticks {
            if out.len() == limit {
                break;
            }
            if filter == Filter::default() {
                out.push(t.block.clone());
                continue;
            }
            let turn = t.turn;
            let lines: Vec<Line> = t
                .block
                .lines
                .iter()
                .zip(&t.teams)
                .filter(|(_, team)| {
                    filter.team.is_none() || team.is_none() || **team == filter.team
                })
                .filter_map(|(l, _)| {
                    if !filter.errors_only {
                        Some(l.clone())
                    } else {
                        (l.tone == Tone::Error)
                            .then(|| line(Tone::Error, format!("Turn {turn}: {}", l.text)))
                    }
                })
                .collect();
            if !lines.is_empty() {
                out.push(Block::new(t.block.first, lines));
            }
        }
        out
    }
}

/// The message field before the first tick.
pub fn start_lines(movers: &[Team], first_mover: Option<Team>, chosen: bool) -> Vec<Line> {
    let mut lines = vec![line(Tone::Info, "Turn 0: press Step or Run")];
    if let Some(t) = first_mover {
        let why = if chosen {
            "as the setup says"
        } else {
            "drawn from the seed"
        };
        lines.push(line(Tone::Info, format!("{t} moves first ({why})")));
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

    /// A mini game whose mover answers nothing: "red's move was not enacted", never "Neither".
    fn failed_alternating_tick(seed: u64) -> TickOutcome {
        let mut g = Game::new(&Preset::Mini.rules(), seed).unwrap();
        let none =
            || gridarena_engine::halma::Answer::NoMove(gridarena_engine::halma::NoMove::Missing);
        g.tick(none(), none()).unwrap()
    }

    #[test]
    fn an_alternating_tick_names_the_side_that_failed() {
        let o = failed_alternating_tick(5);
        assert_eq!(o.movers.len(), 1);
        let mover = o.movers[0];
        let text: Vec<String> = tick_lines(&o).into_iter().map(|l| l.text).collect();
        assert!(
            text.contains(&format!("{mover}'s move was not enacted.")),
            "{text:?}"
        );
        assert!(!text.iter().any(|t| t.starts_with("Neither")), "{text:?}");
    }

    #[test]
    fn the_log_keeps_the_latest_ticks_first_and_filters_them() {
        let mut g = Game::new(&Preset::Arena.rules(), 1).unwrap();
        let none =
            || gridarena_engine::halma::Answer::NoMove(gridarena_engine::halma::NoMove::Missing);
        let mut log = Log::default();
        for _ in 0..Log::MAX_TICKS + 5 {
            log.push(&g.tick(none(), none()).unwrap());
        }
        let all = log.lines(Filter::default());
        assert_eq!(all[0].text, format!("Turn {}", Log::MAX_TICKS + 5));
        assert_eq!(
            all.iter().filter(|l| l.text.starts_with("Turn ")).count(),
            Log::MAX_TICKS,
            "bounded"
        );
        assert_eq!(
            all.last().unwrap().text,
            "Neither move was enacted this tick."
        );
        let errors = log.lines(Filter {
            team: None,
            errors_only: true,
        });
        assert!(errors.iter().all(|l| l.tone == Tone::Error));
        assert!(errors[0]
            .text
            .starts_with(&format!("Turn {}: ", Log::MAX_TICKS + 5)));
        let blue = log.lines(Filter {
            team: Some(Team::Blue),
            errors_only: false,
        });
        assert!(blue.iter().any(|l| l.text.starts_with("Error, blue")));
        assert!(
            !blue.iter().any(|l| l.text.contains("red")),
            "red's lines are hidden"
        );
    }

    fn none() -> gridarena_engine::halma::Answer {
        gridarena_engine::halma::Answer::NoMove(gridarena_engine::halma::NoMove::Missing)
    }

    /// An arena game of missing moves, and a log holding as many ticks of it as a log keeps.
    fn a_full_log() -> (Game, Log) {
        let mut g = Game::new(&Preset::Arena.rules(), 1).unwrap();
        let mut log = Log::default();
        for _ in 0..Log::MAX_TICKS {
            log.push(&g.tick(none(), none()).unwrap());
        }
        (g, log)
    }

    #[test]
    fn a_line_keeps_its_number_as_ticks_come_and_go() {
        let (mut g, mut log) = a_full_log();
        let before = log.numbered_lines(Filter::default());
        log.push(&g.tick(none(), none()).unwrap());
        let after = log.numbered_lines(Filter::default());
        let numbers = |v: &[(u64, Line)]| v.iter().map(|(n, _)| *n).collect::<Vec<_>>();
        let mut unique = numbers(&after);
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), after.len(), "numbers are unique");
        // The new tick's lines come on top with new numbers; below them, every line keeps its number and
        // text; the oldest tick dropped off the bottom.
        let newest_before = before.iter().map(|(n, _)| *n).max().unwrap();
        let fresh = after.iter().take_while(|(n, _)| *n > newest_before).count();
        assert!(fresh > 0);
        assert_eq!(&after[fresh..], &before[..after.len() - fresh]);
        assert!(
            after.len() - fresh < before.len(),
            "the oldest tick dropped off"
        );
    }

    #[test]
    fn the_start_says_whether_the_first_mover_was_drawn_or_chosen() {
        let drawn = start_lines(&[Team::Blue], Some(Team::Blue), false);
        assert_eq!(drawn[1].text, "blue moves first (drawn from the seed)");
        let chosen = start_lines(&[Team::Blue], Some(Team::Blue), true);
        assert_eq!(chosen[1].text, "blue moves first (as the setup says)");
        assert_eq!(start_lines(&Team::ALL, None, false).len(), 1);
    }

    #[test]
    fn a_limit_keeps_the_latest_blocks_only() {
        let (_, log) = a_full_log();
        let all = log.numbered_ticks(Filter::default(), usize::MAX);
        assert_eq!(all.len(), Log::MAX_TICKS);
        assert_eq!(log.numbered_ticks(Filter::default(), 41), all[..41]);
        assert!(log.numbered_ticks(Filter::default(), 0).is_empty());
    }

    #[test]
    fn a_tick_adds_one_block_on_top_and_the_others_stay_as_they_were() {
        let (g, log) = a_full_log();
        for filter in [
            Filter::default(),
            Filter {
                team: Some(Team::Red),
                errors_only: true,
            },
        ] {
            let before = log.clone().numbered_ticks(filter, usize::MAX);
            let mut next = log.clone();
            next.push(&g.clone().tick(none(), none()).unwrap());
            let after = next.numbered_ticks(filter, usize::MAX);
            assert_eq!(after.len(), before.len(), "one on top, the oldest gone");
            assert!(after[0].first > before[0].first);
            assert!(after[0].lines[0]
                .text
                .contains(&format!("{}", Log::MAX_TICKS + 1)));
            assert_eq!(&after[1..], &before[..before.len() - 1]);
            // The flat lines are the blocks' lines in order.
            let flat: Vec<Line> = after.iter().flat_map(|b| b.lines.to_vec()).collect();
            // Unfiltered, a block stays the very one the log wrote when its tick was logged.
            if filter == Filter::default() {
                assert!(Arc::ptr_eq(&after[1].lines, &before[0].lines));
            }
            assert_eq!(next.lines(filter), flat);
        }
    }

    #[test]
    fn a_block_keeps_its_key_and_other_lines_get_another() {
        let block = || {
            vec![
                line(Tone::Info, "Turn 3"),
                line(Tone::Info, "red: (1,2) -> (1,3)"),
            ]
        };
        assert_eq!(Block::new(7, block()).key(), Block::new(7, block()).key());
        let others = [
            vec![
                line(Tone::Info, "Turn 3"),
                line(Tone::Error, "red: (1,2) -> (1,3)"),
            ],
            vec![line(Tone::Info, "Turn 3red: (1,2) -> (1,3)")],
            vec![line(Tone::Info, "Turn 3")],
            vec![],
        ];
        for other in others {
            assert_ne!(
                Block::new(7, block()).key(),
                Block::new(7, other.clone()).key(),
                "{other:?}"
            );
        }
        assert_ne!(Block::new(7, block()).key(), Block::new(8, block()).key());
    }
}
