//! The arena page's signals, made from its [`Opening`], and the effects that keep them in step: the
//! setup saved into the link and localStorage, the content types into the session, the editor's board
//! after the form. Which game starts is [`super::arena_setup`]'s question; this only holds the answer.

use super::arena_model::Screens;
use super::arena_setup::Opening;
use super::controls::DEFAULT_TICK_MS;
use super::messages::{Line, Tone};
use super::player::Player;
use super::position_editor::camp_rules_for;
use super::prefs;
use super::replay::Replay;
use super::session::Session;
use gridarena_engine::halma::edit::{PositionEdit, Tool};
use gridarena_engine::halma::{CampRules, ContentType, Preset, Team, Teams};
use leptos::prelude::*;

/// Every signal the arena's parts share.
#[derive(Clone, Copy)]
pub struct ArenaState {
    pub session: RwSignal<Session>,
    /// A loaded record watched over the live game.
    pub replay: RwSignal<Option<Replay>>,
    red_type: RwSignal<ContentType>,
    blue_type: RwSignal<ContentType>,
    /// The turn-limit field's text; the limit applies on "New game", like the preset.
    pub turns_text: RwSignal<String>,
    /// The live game's turn limit as the form named it (`None`: the preset's), for the link.
    pub turn_limit: RwSignal<Option<u32>>,
    pub running: RwSignal<bool>,
    pub tick_ms: RwSignal<u32>,
    /// The position being edited: while set, the board shows it, a click edits it and the game waits.
    pub editing: RwSignal<Option<PositionEdit>>,
    pub tool: RwSignal<Tool>,
    /// The position the live game was started from in the editor, kept in the link until another game.
    pub played_from: RwSignal<Option<String>>,
    /// The line under the board: what the last click or control did, or why it was refused.
    pub notice: RwSignal<Option<Line>>,
    /// The preset applies on "New game"; the players switch at once.
    pub preset_choice: RwSignal<Preset>,
    /// The course's camp rules, offered with the classic preset; New game applies them.
    pub camp_rules_choice: RwSignal<CampRules>,
    pub first_choice: RwSignal<Option<Team>>,
    /// The players (a memo: ticks do not rewrite what follows them).
    pub players: Memo<Teams<Player>>,
}

impl ArenaState {
    pub fn new(o: Opening) -> ArenaState {
        let session = RwSignal::new(o.session);
        ArenaState {
            session,
            replay: RwSignal::new(None),
            red_type: RwSignal::new(o.content_types.red),
            blue_type: RwSignal::new(o.content_types.blue),
            turns_text: RwSignal::new(o.turn_limit.map(|n| n.to_string()).unwrap_or_default()),
            turn_limit: RwSignal::new(o.turn_limit),
            running: RwSignal::new(false),
            tick_ms: RwSignal::new(DEFAULT_TICK_MS),
            editing: RwSignal::new(o.editing),
            tool: RwSignal::new(Tool::Piece(Team::Red)),
            played_from: RwSignal::new(None),
            notice: RwSignal::new(o.notice),
            preset_choice: RwSignal::new(o.preset),
            camp_rules_choice: RwSignal::new(o.camp_rules),
            first_choice: RwSignal::new(o.first_mover),
            players: Memo::new(move |_| session.with(|s| s.players().clone())),
        }
    }

    /// Each team's content-type signal (a web AI's request body: JSON or text).
    pub fn content_types(self) -> Teams<RwSignal<ContentType>> {
        Teams {
            red: self.red_type,
            blue: self.blue_type,
        }
    }

    pub fn screen(self) -> Screens {
        Screens {
            session: self.session,
            replay: self.replay,
        }
    }

    /// Puts `text` on the line under the board as an error.
    pub fn error(self, text: String) {
        self.notice.set(Some(Line {
            tone: Tone::Error,
            text,
        }));
    }

    /// Starts the effects that keep the signals in step; once, when the page is made.
    pub fn keep_in_step(self) {
        self.save_setup();
        let s = self;
        // A content type chosen applies from the next tick on.
        Effect::new(move |_| {
            let types = s.content_types().map(|_, c| c.get());
            s.session.update_untracked(|session| {
                for team in Team::ALL {
                    session.set_content_type(team, types[team]);
                }
            });
        });
        // The editor's board follows the form: another preset starts from its start position, other camp
        // rules apply to the position as it is.
        Effect::new(move |_| {
            let preset = s.preset_choice.get();
            let camp = camp_rules_for(preset, s.camp_rules_choice.get());
            s.editing.update(|e| match e {
                Some(e) if e.preset() != preset => *e = PositionEdit::start(preset, camp),
                Some(e) => e.set_camp_rules(camp),
                None => {}
            });
        });
        // A loaded record is another game than the one started from the editor's position.
        Effect::new(move |_| {
            if s.replay.with(Option::is_some) {
                s.played_from.set(None);
            }
        });
    }

    /// The setup follows every change into the link and localStorage. The camp rules and first mover
    /// are kept with the classic preset only, where the form offers them.
    fn save_setup(self) {
        let s = self;
        Effect::new(move |saved_before: Option<()>| {
            let preset = s.preset_choice.get();
            let saved = prefs::Saved {
                players: s.players.get(),
                preset,
                content_types: s.content_types().map(|_, c| c.get()),
                turn_limit: s.turn_limit.get(),
                camp_rules: camp_rules_for(preset, s.camp_rules_choice.get()),
                first_mover: s.first_choice.get().filter(|_| preset == Preset::Classic),
                position: s
                    .editing
                    .with(|e| e.as_ref().map(PositionEdit::to_link))
                    .or_else(|| s.played_from.get()),
            };
            // The page's first save waits until the board is on screen: rewriting the address can take
            // the browser several milliseconds, and nothing needs it sooner.
            if saved_before.is_some() {
                prefs::save(&saved);
            } else {
                set_timeout(move || prefs::save(&saved), std::time::Duration::ZERO);
            }
        });
    }
}
