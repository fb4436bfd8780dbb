//! What the arena's clicks and buttons do: a click on the board (an edit while the editor is open, else
//! the human's move), Confirm and Cancel, New game, and Play from the editor's position. Which game
//! starts is decided in [`super::arena_setup`]; this moves the result into the page's signals.

use super::arena_model::click_notice;
use super::arena_run::ArenaClock;
use super::arena_setup::{game_from_edit, GameForm};
use super::arena_state::ArenaState;
use super::messages::{Line, Tone};
use super::session::{ClickResult, Session};
use super::ticker::Call;
use gridarena_engine::halma::{Square, Team};
use leptos::prelude::*;

/// The page's handlers. Copy: every callback takes its own.
#[derive(Clone, Copy)]
pub struct ArenaActions {
    pub state: ArenaState,
    pub clock: ArenaClock,
}

impl ArenaActions {
    /// A click on `sq`: edits the position while the editor is open, else goes to the live game (a
    /// replay's board takes no clicks).
    pub fn click(self, sq: Square) {
        let s = self.state;
        if s.editing.with_untracked(Option::is_some) {
            let mut refused = None;
            s.editing.update(|e| {
                refused = e
                    .as_mut()
                    .and_then(|e| e.apply(s.tool.get_untracked(), sq).err());
            });
            s.notice.set(refused.map(|e| Line {
                tone: Tone::Error,
                text: format!("Not changed: {e}."),
            }));
        } else if s.replay.with_untracked(Option::is_none) {
            self.act(&|session| session.click(sq));
        }
    }

    pub fn confirm(self) {
        self.act(&Session::confirm);
    }

    pub fn cancel(self) {
        self.act(&Session::cancel);
    }

    /// New game from the form, its seed field reading `seed_text`.
    pub fn new_game(self, seed_text: String) {
        let s = self.state;
        let form = GameForm {
            seed_text: &seed_text,
            turns_text: &s.turns_text.get_untracked(),
            preset: s.preset_choice.get_untracked(),
            camp_rules: s.camp_rules_choice.get_untracked(),
            first_mover: s.first_choice.get_untracked(),
        };
        let players = s.session.with_untracked(|s| s.players().clone());
        match form.game(players, crate::random_seed) {
            Err(text) => s.error(text),
            Ok((session, limit)) => {
                s.played_from.set(None);
                self.begin(session, limit);
                s.notice.set(None);
            }
        }
    }

    /// Play from the editor's position, with the players chosen and the live game's seed.
    pub fn play_edited(self) {
        let s = self.state;
        let Some(edit) = s.editing.get_untracked() else {
            return;
        };
        let (players, seed) = s
            .session
            .with_untracked(|s| (s.players().clone(), s.seed()));
        match game_from_edit(&edit, &s.turns_text.get_untracked(), players, seed) {
            Err(text) => s.error(text),
            Ok((session, limit)) => {
                s.played_from.set(Some(edit.to_link()));
                self.begin(session, limit);
                s.notice.set(Some(Line {
                    tone: Tone::Info,
                    text: "A new game from the edited position, with the players chosen below: Step or Run to play."
                        .into(),
                }));
            }
        }
    }

    /// A human's click or button on the live game, its result on the line under the board.
    fn act(self, f: &dyn Fn(&mut Session) -> ClickResult) {
        let mut result = ClickResult::Ignored;
        self.state.session.update(|s| result = f(s));
        self.state.notice.set(click_notice(result));
    }

    /// Every new live game, from the form or the editor: the old one's tick is abandoned and the page
    /// leaves a replay and the editor.
    fn begin(self, mut session: Session, limit: Option<u32>) {
        let s = self.state;
        s.running.set(false);
        self.clock.tick(Call::Reset);
        s.replay.set(None);
        s.editing.set(None);
        for team in Team::ALL {
            session.set_content_type(team, s.content_types()[team].get_untracked());
        }
        s.session.set(session);
        s.turn_limit.set(limit);
    }
}
