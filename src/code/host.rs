//! The code players' side of a game on another page: the arena (and, later, the tournament) loads this
//! page's module only once a code player is chosen, and asks it through the `CodeSeat` the module exports
//! (`src/bin/gridarena-code.rs`). The asking page keeps none of the players' code: not the worker's
//! messages, not the course format's `input.txt`, not the stored AIs' reader.
//!
//! Everything crosses as strings and plain JavaScript objects, since the two pages are two wasm modules
//! with two memories: a label and a seed in, status words and answers out. An answer is either the move
//! in the web protocol's JSON (which the asking page reads with the parser it reads web AIs with) or a
//! failure's code and message (which it keeps as they are, as records keep them).

use super::ai::{CodeRef, Format, Source};
use super::player::{CodePlayer, Status};
use super::store;
use super::CodeMove;
use gridarena_engine::halma::code::ClockSettings;
use gridarena_engine::halma::{Answer, CodeFailure, Game, GameState, NoMove, Team};
use gridarena_engine::tournament::plan::Occasion;
use wasm_bindgen::JsValue;

/// A code player asked for by another page: what its label names in this browser, or code the page
/// handed over whole (a tournament's code entry), started for a game.
pub struct HostedPlayer {
    label: String,
    /// Code handed over whole: a new game resets it, and never looks in this browser's storage.
    fixed: bool,
    /// The player, or why the label names nothing that can play.
    player: Result<CodePlayer, CodeFailure>,
    on_status: js_sys::Function,
}

/// The status words the asking page reads: `loading`, `ready`, `failed`, each with a text.
fn status_words(status: &Status) -> (&'static str, String) {
    match status {
        Status::Loading(text) => ("loading", text.clone()),
        Status::Ready => ("ready", String::new()),
        Status::Failed(failure) => ("failed", failure.to_string()),
    }
}

impl HostedPlayer {
    /// Starts what `label` (`code:NAME`, `code:NAME@v3`) names for a game seeded with `seed`;
    /// `on_status(words, text)` hears every change, a failure to start included.
    pub fn open(label: &str, seed: u64, on_status: js_sys::Function) -> HostedPlayer {
        let player = label
            .parse::<CodeRef>()
            .and_then(|code| store::source_of(&code))
            .map(|source| start(source, seed, ClockSettings::default(), on_status.clone()))
            .map_err(|why| CodeFailure::NotStarted { why });
        HostedPlayer::told(label, false, player, on_status)
    }

    /// Starts `json` (a [`Source`] as JSON, checked here as a roster checks it) under the name `label`
    /// for a game seeded with `seed`, on the tournament's `clock`: a tournament's code entry, which this
    /// browser does not keep.
    pub fn from_source(
        label: &str,
        json: &str,
        seed: u64,
        clock: ClockSettings,
        on_status: js_sys::Function,
    ) -> HostedPlayer {
        let player = serde_json::from_str::<Source>(json)
            .map_err(|e| format!("the entry's code could not be read: {e}"))
            .and_then(|source| source.check().map(|()| source))
            .map(|source| start(source, seed, clock, on_status.clone()))
            .map_err(|why| CodeFailure::NotStarted { why });
        HostedPlayer::told(label, true, player, on_status)
    }

    /// The player, its failure to start already told.
    fn told(
        label: &str,
        fixed: bool,
        player: Result<CodePlayer, CodeFailure>,
        on_status: js_sys::Function,
    ) -> HostedPlayer {
        let hosted = HostedPlayer {
            label: label.to_string(),
            fixed,
            player,
            on_status,
        };
        if let Err(failure) = &hosted.player {
            let failed = Status::Failed(failure.clone());
            tell(&hosted.on_status, &failed);
        }
        hosted
    }

    /// A new game seeded with `seed`: the same code with fresh module state if it is unchanged in this
    /// browser's storage, or what the label names now (edited on the "Write an AI" page meanwhile).
    /// Code handed over whole plays it on `clock`: a tournament's, which a warm player from an earlier
    /// roll call may not have had, and then starts again on it.
    pub fn new_game(&mut self, seed: u64, clock: ClockSettings) {
        if self.fixed {
            match &self.player {
                Ok(player) if player.clock_settings() != clock => {
                    let source = player.source();
                    self.player = Ok(start(source, seed, clock, self.on_status.clone()));
                }
                Ok(player) => player.new_game(seed),
                Err(failure) => tell(&self.on_status, &Status::Failed(failure.clone())),
            }
            return;
        }
        let now = self
            .label
            .parse::<CodeRef>()
            .and_then(|code| store::source_of(&code));
        match (&self.player, now) {
            (Ok(player), Ok(source)) if source == player.source() => player.new_game(seed),
            _ => *self = HostedPlayer::open(&self.label, seed, self.on_status.clone()),
        }
    }

    /// Asks for a move of `team` (`red` or `blue`) on `occasion`, a word of [`occasion_word`] (a game's
    /// move, or the course's one-move check): `request` is the web protocol's request, `state` the game's
    /// state (the course format writes `input.txt` from it). `on_answer` gets one object (see
    /// [`answer_object`]). Returns what the code is given, for the inspector.
    pub fn ask(
        &self,
        request: &str,
        state: &str,
        team: &str,
        occasion: &str,
        on_answer: js_sys::Function,
    ) -> String {
        let reply = move |moved: CodeMove| {
            let _ = on_answer.call1(&JsValue::UNDEFINED, &answer_object(moved));
        };
        let player = match &self.player {
            Ok(player) => player,
            Err(failure) => {
                reply(failed(NoMove::Code(failure.clone())));
                return request.to_string();
            }
        };
        let input = match player.source().format {
            Format::Function => None,
            Format::Course => match course_input(player, state, team, occasion) {
                Ok(text) => Some(text),
                Err(why) => {
                    reply(failed(NoMove::Code(CodeFailure::NotStarted { why })));
                    return request.to_string();
                }
            },
        };
        player.ask(request, input.as_deref(), reply);
        input.unwrap_or_else(|| request.to_string())
    }

    /// Drops the move in progress, charging `waited_ms` to a course clock; whether one was in progress.
    pub fn cancel(&self, waited_ms: f64) -> bool {
        self.player.as_ref().is_ok_and(|p| p.cancel(waited_ms))
    }
}

/// A clock as it crosses between the two pages' modules: its play time and grace in milliseconds,
/// JavaScript numbers (whole, at most a day, so exact). [`clock_from_millis`] reads it back.
pub fn clock_millis(clock: ClockSettings) -> (f64, f64) {
    let ms = |d: std::time::Duration| d.as_millis() as f64;
    (ms(clock.total), ms(clock.grace))
}

/// A clock from [`clock_millis`]'s numbers; a number that is not one (NaN, negative) reads as 0, which
/// a tournament's settings never hold.
pub fn clock_from_millis(total_ms: f64, grace_ms: f64) -> ClockSettings {
    ClockSettings::from_millis(total_ms as u64, grace_ms as u64)
}

fn start(
    source: Source,
    seed: u64,
    clock: ClockSettings,
    on_status: js_sys::Function,
) -> CodePlayer {
    CodePlayer::start(source, seed, clock, move |status| {
        // Heard after whatever changed it is done, never inside it: the asking page may ask at once.
        let (status, on_status) = (status.clone(), on_status.clone());
        wasm_bindgen_futures::spawn_local(async move { tell(&on_status, &status) });
    })
}

fn tell(on_status: &js_sys::Function, status: &Status) {
    let (words, text) = status_words(status);
    let _ = on_status.call2(&JsValue::UNDEFINED, &words.into(), &text.into());
}

/// `input.txt` for `team`'s move on `occasion` (an [`occasion_word`]) in the game whose state is `state`.
fn course_input(
    player: &CodePlayer,
    state: &str,
    team: &str,
    occasion: &str,
) -> Result<String, String> {
    let team = team.parse::<Team>().map_err(|e| e.to_string())?;
    let occasion = read_occasion(occasion)?;
    let state = serde_json::from_str::<serde_json::Value>(state)
        .and_then(serde_json::from_value::<GameState>)
        .map_err(|e| format!("the arena's game could not be read: {e}"))?;
    let game = Game::from_state(&state).map_err(|e| e.to_string())?;
    player.course_input(&game, team, occasion == Occasion::Single)
}

/// The occasion of a move as the word the module's `CodeSeat.ask` takes for it
/// (`src/bin/gridarena-code.rs`: a string, since the two pages are two wasm modules): `game` for a
/// game's move, `single` for the course's one-move check (`SINGLE`, which the engine's tournament plan
/// asks of a course entry at its roll call). Both modules build from this crate, so they agree on it.
pub fn occasion_word(occasion: Occasion) -> &'static str {
    match occasion {
        Occasion::Game => "game",
        Occasion::Single => "single",
    }
}

/// Reads an [`occasion_word`]; any other word is the asking page's mistake, said as one.
fn read_occasion(word: &str) -> Result<Occasion, String> {
    [Occasion::Game, Occasion::Single]
        .into_iter()
        .find(|&occasion| occasion_word(occasion) == word)
        .ok_or_else(|| {
            format!("the asking page named an unknown occasion {word:?} (known: game, single)")
        })
}

fn failed(no_move: NoMove) -> CodeMove {
    CodeMove::failed(Answer::NoMove(no_move))
}

/// One move's result as the asking page reads it: `{move}` (the web protocol's answer JSON) or `{code,
/// message}` (why there is none), with `body` (what the code returned), `output` (what it printed) and
/// `ms` (the worker's time) where there are some.
pub fn answer_object(moved: CodeMove) -> JsValue {
    let object = js_sys::Object::new();
    let set = |key: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&object, &key.into(), &value);
    };
    match &moved.answer {
        Answer::Move(path) => set(
            "move",
            serde_json::to_string(path).unwrap_or_default().into(),
        ),
        Answer::NoMove(no_move) => {
            set("code", no_move.code().into());
            set("message", no_move.to_string().into());
        }
    }
    if let Some(body) = moved.body {
        set("body", body.into());
    }
    if let Some(output) = moved.printed {
        set("output", output.into());
    }
    if let Some(ms) = moved.ms {
        set("ms", ms.into());
    }
    object.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournaments_clock_crosses_the_modules_as_whole_milliseconds() {
        let clock = ClockSettings::from_millis(42_500, 1_250);
        assert_eq!(clock_millis(clock), (42_500.0, 1_250.0));
        let (total, grace) = clock_millis(clock);
        assert_eq!(clock_from_millis(total, grace), clock);
        let course = ClockSettings::default();
        let (total, grace) = clock_millis(course);
        assert_eq!(clock_from_millis(total, grace), course);
        assert_eq!(clock_from_millis(f64::NAN, -5.0).total.as_millis(), 0);
    }

    #[test]
    fn the_occasion_word_carries_the_occasion_across_the_modules() {
        for occasion in [Occasion::Game, Occasion::Single] {
            assert_eq!(read_occasion(occasion_word(occasion)), Ok(occasion));
        }
        assert_eq!(occasion_word(Occasion::Game), "game");
        assert_eq!(occasion_word(Occasion::Single), "single");
        // The old word folded into the team is no occasion, nor is an empty one: each says what it got.
        for unknown in ["red:single", "", "twice"] {
            let why = read_occasion(unknown).unwrap_err();
            assert!(
                why.contains("unknown occasion") && why.contains(unknown),
                "{why}"
            );
        }
    }
}
