//! The arena page's logic apart from drawing: which game the board shows, and the words and names the
//! page's parts need. Plain Rust over [`Session`] and [`Replay`], tested natively; the components only
//! wire it to signals.

use super::answer_times::TickTimes;
use super::board_view::BoardView;
use super::messages::{start_lines, Block, Filter, Line, Tone};
use super::player::Player;
use super::replay::Replay;
use super::session::{ClickResult, Session};
use gridarena_engine::halma::debug::{self, DebugRead};
use gridarena_engine::halma::record::Record;
use gridarena_engine::halma::{Exchange, Game, Preset, Team, Verdict};
use leptos::prelude::*;

/// The signals a [`Screen`] is read from: the page's, and its parts'.
#[derive(Clone, Copy)]
pub struct Screens {
    pub session: RwSignal<Session>,
    pub replay: RwSignal<Option<Replay>>,
}

impl Screens {
    /// `f` of what is shown now, tracking both signals.
    pub fn with<T>(self, f: impl FnOnce(Screen<'_>) -> T) -> T {
        self.replay
            .with(|r| self.session.with(|s| f(Screen::of(s, r.as_ref()))))
    }
}

/// What the board, the message field and the controls follow: the live game, or a loaded record being
/// watched over it (the live game waits underneath until the page leaves the replay).
#[derive(Clone, Copy, Debug)]
pub enum Screen<'a> {
    Live(&'a Session),
    Replay(&'a Replay),
}

impl<'a> Screen<'a> {
    /// The replay when one is loaded, else the live game.
    pub fn of(session: &'a Session, replay: Option<&'a Replay>) -> Screen<'a> {
        replay.map_or(Screen::Live(session), Screen::Replay)
    }

    /// The board: the replay's shown tick, or the live position with the human's move in the making.
    pub fn board(self) -> BoardView {
        match self {
            Screen::Replay(r) => r.board(),
            Screen::Live(s) => {
                let human = s.active_human();
                BoardView::new(
                    s.game().position(),
                    s.last(),
                    human.map(|t| s.draft(t)),
                    &s.hints(),
                )
            }
        }
    }

    /// What `team`'s AI said it was thinking in the shown tick: the `debug` field of its answer, read
    /// for a board of `size` (nothing when it sent none, or its answer is not kept: a built-in AI's).
    pub fn debug(self, team: Team, size: u8) -> DebugRead {
        let Ok(exchanges) = self.exchanges(self.latest_tick()) else {
            return DebugRead::default();
        };
        exchanges
            .iter()
            .find(|e| e.team == team)
            .and_then(|e| e.wire.body.as_deref())
            .and_then(|body| serde_json::from_str::<serde_json::Value>(body).ok())
            .map(|answer| debug::read(&answer, size))
            .unwrap_or_default()
    }

    /// Each AI player's answer times so far: the live game's, or the whole record's.
    pub fn times(self) -> Vec<TickTimes> {
        match self {
            Screen::Live(s) => s.times(),
            Screen::Replay(r) => r.times().to_vec(),
        }
    }

    /// The message field: a replay's shown tick, or the live game's history through `filter`.
    pub fn lines(self, filter: Filter) -> Vec<Line> {
        self.message_blocks(filter, usize::MAX)
            .into_iter()
            .flat_map(|b| b.lines.to_vec())
            .collect()
    }

    /// [`Screen::lines`] in blocks, one a tick, for the page to key by block
    /// ([`Log::numbered_ticks`](super::messages::Log::numbered_ticks)): a replay's shown tick or a new
    /// game's lines are one block. At most `limit` blocks, the latest first.
    pub fn message_blocks(self, filter: Filter, limit: usize) -> Vec<Block> {
        match self {
            Screen::Replay(r) => vec![Block::new(0, r.lines())],
            Screen::Live(s) if s.log().is_empty() => {
                let game = s.game();
                vec![Block::new(
                    0,
                    start_lines(&game.movers(), game.to_move(), s.first_chosen()),
                )]
            }
            Screen::Live(s) => s.log().numbered_ticks(filter, limit),
        }
    }

    /// The latest tick there is to inspect: the live game's last, or the replay's shown tick.
    pub fn latest_tick(self) -> u32 {
        match self {
            Screen::Replay(r) => r.at() as u32,
            Screen::Live(s) => s.game().turn(),
        }
    }

    /// The web exchanges of tick `k` (from 1), or why there are none to show.
    pub fn exchanges(self, k: u32) -> Result<Vec<Exchange>, String> {
        let none = |why: &str| Err(format!("Tick {k}: {why}"));
        if k == 0 {
            return none("no tick played yet");
        }
        match self {
            Screen::Live(s) => match s.exchanges(k) {
                Some(e) => Ok(e.to_vec()),
                None if k > s.game().turn() => none("not played yet"),
                None => none("no web AI was asked, or the tick is older than the inspector keeps"),
            },
            Screen::Replay(r) => {
                let record = r.record();
                let Some(outcome) = record.outcome(k as usize) else {
                    return none("not in the record");
                };
                let found: Vec<Exchange> = Team::ALL
                    .into_iter()
                    .filter_map(|team| {
                        Some(Exchange {
                            tick: k,
                            team,
                            url: record.header().players[team].clone(),
                            request: record.request(k as usize, team)?,
                            wire: record.wire(k as usize, team)?.clone(),
                            verdict: Verdict::of(outcome, team),
                        })
                    })
                    .collect();
                if found.is_empty() {
                    none("the record holds no web AI exchanges for this tick")
                } else {
                    Ok(found)
                }
            }
        }
    }

    /// The game as it stood before tick `k` (from 1), or now when `k` is 0 or the next tick: the position
    /// that tick asked about.
    pub fn game_before(self, k: u32) -> Option<Game> {
        if k == 0 {
            return match self {
                Screen::Replay(r) => r.record().game(r.at()),
                Screen::Live(s) => Some(s.game().clone()),
            };
        }
        let k = (k - 1) as usize;
        match self {
            Screen::Replay(r) => r.record().game(k),
            Screen::Live(s) if k >= s.game().turn() as usize => Some(s.game().clone()),
            Screen::Live(s) => Record::parse(&s.record_text()?).ok()?.game(k),
        }
    }

    /// Whether Step and Run have a tick to play: the replay is not at its end, the game is not over.
    pub fn playable(self) -> bool {
        match self {
            Screen::Replay(r) => !r.at_end(),
            Screen::Live(s) => !s.is_over(),
        }
    }
}

/// The seed field's text as a seed: `None` for an empty field (a random seed), else the number.
pub fn parse_seed(text: &str) -> Result<Option<u64>, String> {
    match text.trim() {
        "" => Ok(None),
        t => t
            .parse::<u64>()
            .map(Some)
            .map_err(|_| format!("seed {t:?} is not a whole number from 0 to {}", u64::MAX)),
    }
}

/// The record to download, with its file name (`gridarena-arena-42-turn17.jsonl`), or why there is none.
pub fn record_download(s: &Session) -> Result<(String, String), String> {
    let text = s
        .record_text()
        .ok_or_else(|| "nothing to download yet: play a tick first".to_string())?;
    let name = format!(
        "gridarena-{}-{}-turn{}.jsonl",
        s.preset(),
        s.seed(),
        s.game().turn()
    );
    Ok((name, text))
}

/// "Answer time: red: 12 ms (average 10 ms) · blue: no answer yet", over the AI players; `None` when
/// both teams are human.
pub fn latency_text(s: &Session) -> Option<String> {
    let ms = |v: f64| format!("{} ms", v.round() as u64);
    let teams: Vec<String> = Team::ALL
        .into_iter()
        .filter(|&t| s.players()[t] != Player::Human)
        .map(|t| {
            let l = s.tally(t);
            match (l.last_ms(), l.mean_ms()) {
                (Some(last), Some(avg)) => format!("{t}: {} (average {})", ms(last), ms(avg)),
                _ => format!("{t}: no answer yet"),
            }
        })
        .collect();
    (!teams.is_empty()).then(|| format!("Answer time: {}", teams.join(" · ")))
}

/// "arena · seed 42 · ", beside the New game button, before [`turn_text`]: the two are apart so that a
/// tick rewrites only the turn.
pub fn game_info(s: &Session) -> String {
    format!("{} · seed {} · ", s.preset(), s.seed())
}

/// "turn 17", after [`game_info`].
pub fn turn_text(s: &Session) -> String {
    format!("turn {}", s.game().turn())
}

/// What the human whose clicks the board takes should do, if one is to move.
pub fn waiting_text(s: &Session) -> Option<String> {
    s.active_human().map(|t| {
        format!("{t} (human): click a piece, then each square of its move, then Confirm (Enter)")
    })
}

/// The line under the board after a click or a control.
pub fn click_notice(result: ClickResult) -> Option<Line> {
    match result {
        ClickResult::Ignored => None,
        ClickResult::Updated(text) => Some(Line {
            tone: Tone::Info,
            text,
        }),
        ClickResult::Refused(text) => Some(Line {
            tone: Tone::Error,
            text,
        }),
    }
}

/// The line under the board once a record has loaded.
pub fn loaded_notice(r: &Replay) -> Line {
    Line {
        tone: Tone::Info,
        text: format!(
            "Loaded {}: {} ticks. Step, Run or drag the turn slider.",
            r.name(),
            r.ticks()
        ),
    }
}

/// The preset menu's words.
pub fn preset_label(p: Preset) -> &'static str {
    match p {
        Preset::Arena => "Arena: 18x18, simultaneous",
        Preset::Classic => "Classic: 16x16, alternating",
        Preset::Mini => "Mini: 8x8, alternating",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::builtin;
    use gridarena_engine::halma::ai::BuiltIn;
    use gridarena_engine::halma::Teams;

    fn session(red: Player, blue: Player) -> Session {
        Session::new(Preset::Mini, Teams { red, blue }, 42)
    }

    fn greedy() -> Player {
        Player::BuiltIn(BuiltIn::Greedy)
    }

    #[test]
    fn the_position_before_a_tick_is_the_one_that_tick_asked_about() {
        let mut s = session(greedy(), greedy());
        let start = s.game().clone();
        for _ in 0..3 {
            s.tick().unwrap();
        }
        let live = Screen::of(&s, None);
        assert_eq!(live.game_before(1).unwrap().state(), start.state());
        assert_eq!(live.game_before(0).unwrap().state(), s.game().state());
        assert_eq!(live.game_before(4).unwrap().state(), s.game().state());
        let before_third = live.game_before(3).unwrap();
        assert_eq!(before_third.turn(), 2);
        let replay = Replay::load("r.jsonl", s.record_text().unwrap().as_bytes()).unwrap();
        let replayed = Screen::of(&s, Some(&replay));
        assert_eq!(
            replayed.game_before(3).unwrap().state(),
            before_third.state()
        );
    }

    #[test]
    fn seeds_are_read_or_refused_with_the_range() {
        let cases = [
            ("", Ok(None)),
            ("  ", Ok(None)),
            (" 7 ", Ok(Some(7))),
            ("18446744073709551615", Ok(Some(u64::MAX))),
            (
                "-1",
                Err("seed \"-1\" is not a whole number from 0 to 18446744073709551615"),
            ),
            (
                "x",
                Err("seed \"x\" is not a whole number from 0 to 18446744073709551615"),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(
                parse_seed(text),
                expected.map_err(str::to_string),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_screen_follows_the_replay_over_the_live_game() {
        let mut live = session(greedy(), greedy());
        assert!(Screen::of(&live, None).playable());
        assert_eq!(
            Screen::of(&live, None).lines(Filter::default())[0].text,
            "Turn 0: press Step or Run"
        );
        for _ in 0..3 {
            live.tick().unwrap();
        }
        let text = live.record_text().unwrap();
        let mut replay = Replay::load("g.jsonl", text.as_bytes()).unwrap();
        let shown = Screen::of(&live, Some(&replay));
        assert_eq!(shown.lines(Filter::default()), replay.lines());
        assert_eq!(shown.board(), replay.board());
        while replay.step() {}
        assert!(!Screen::of(&live, Some(&replay)).playable());
        assert_eq!(
            Screen::of(&live, Some(&replay)).board(),
            Screen::of(&live, None).board()
        );
        let lines = Screen::of(&live, None).lines(Filter::default());
        assert_eq!(lines[0].text, "Turn 3");
        assert!(
            lines.iter().any(|l| l.text == "Turn 1"),
            "the history keeps tick 1"
        );
    }

    #[test]
    fn the_record_is_named_after_preset_seed_and_turn() {
        let mut s = session(greedy(), greedy());
        assert_eq!(
            record_download(&s),
            Err("nothing to download yet: play a tick first".to_string())
        );
        s.tick().unwrap();
        let (name, text) = record_download(&s).unwrap();
        assert_eq!(name, "gridarena-mini-42-turn1.jsonl");
        assert_eq!(Some(text), s.record_text());
        assert_eq!(game_info(&s) + &turn_text(&s), "mini · seed 42 · turn 1");
    }

    #[test]
    fn answer_times_list_the_ai_players_only() {
        let both_human = session(Player::Human, Player::Human);
        assert_eq!(latency_text(&both_human), None);
        let players = Teams {
            red: Player::Human,
            blue: greedy(),
        };
        let mut s = Session::new(Preset::Arena, players, 42);
        assert_eq!(
            latency_text(&s).as_deref(),
            Some("Answer time: blue: no answer yet")
        );
        assert!(waiting_text(&s).is_some_and(|w| w.starts_with("red (human)")));
        let sq = |x, y| gridarena_engine::halma::Square::new(x, y).unwrap();
        s.click(sq(2, 14));
        s.click(sq(2, 13));
        s.confirm();
        assert_eq!(waiting_text(&s), None);
        let asks = s.begin_tick(1000).unwrap();
        assert_eq!(asks.len(), 1);
        let blue = builtin::answer(BuiltIn::Greedy, s.game(), Team::Blue, asks[0].request.seed);
        assert!(s.deliver(asks[0].request.turn, Team::Blue, blue, 12.4));
        s.finish_tick(1000).unwrap();
        assert_eq!(
            latency_text(&s).as_deref(),
            Some("Answer time: blue: 12 ms (average 12 ms)")
        );
    }

    #[test]
    fn a_click_result_becomes_the_notice() {
        assert_eq!(click_notice(ClickResult::Ignored), None);
        let updated = click_notice(ClickResult::Updated("ok".into())).unwrap();
        assert_eq!((updated.tone, updated.text.as_str()), (Tone::Info, "ok"));
        let refused = click_notice(ClickResult::Refused("no".into())).unwrap();
        assert_eq!(refused.tone, Tone::Error);
    }
}
