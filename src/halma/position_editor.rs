//! The position editor: set up any position on a preset's board, see at once whether the engine can play
//! it (and if not, why), and play from it. The board itself is the arena's: while a position is being
//! edited it shows that position and a click (or Enter on a square) uses the chosen tool there.

use super::messages::{Line, Tone};
use super::replay::Replay;
use super::session::Session;
use gridarena_engine::halma::edit::{PositionEdit, Tool};
use gridarena_engine::halma::{CampRules, Mode, Preset, Team};
use leptos::prelude::*;

/// The tools, as their buttons name them.
const TOOLS: [(Tool, &str, &str); 5] = [
    (Tool::Piece(Team::Red), "Red piece", "red"),
    (Tool::Piece(Team::Blue), "Blue piece", "blue"),
    (Tool::Remove, "Remove", "remove"),
    (Tool::Damage(true), "Damage +1", "damage-up"),
    (Tool::Damage(false), "Damage −1", "damage-down"),
];

/// The position to start editing from: the board shown (a replay's tick, else the live game) when it is
/// a game of `preset`, else `preset`'s start; under `camp_rules` where the preset takes them (classic).
pub fn edit_of_shown(
    session: &Session,
    replay: Option<&Replay>,
    preset: Preset,
    camp_rules: CampRules,
) -> PositionEdit {
    let camp_rules = camp_rules_for(preset, camp_rules);
    let shown = match replay {
        Some(r) => r.record().game(r.at()),
        None => Some(session.game().clone()),
    };
    let mut edit = shown
        .filter(|g| g.preset() == Some(preset) && g.position().size() == preset.rules().board_size)
        .map_or_else(
            || PositionEdit::start(preset, camp_rules),
            |g| PositionEdit::from_game(preset, &g),
        );
    edit.set_camp_rules(camp_rules);
    edit
}

/// The camp rules `preset` is played under when the form says `chosen`: the form offers the course's
/// with the classic preset only.
pub fn camp_rules_for(preset: Preset, chosen: CampRules) -> CampRules {
    if preset == Preset::Classic {
        chosen
    } else {
        CampRules::Seed
    }
}

/// "Edit position", or while editing, the tools, the mover, the engine's check and the way out.
#[component]
pub fn PositionEditor(
    session: RwSignal<Session>,
    replay: RwSignal<Option<Replay>>,
    running: RwSignal<bool>,
    notice: RwSignal<Option<Line>>,
    /// The preset and camp rules the form will set up: the editor's board follows them.
    preset_choice: RwSignal<Preset>,
    camp_rules_choice: RwSignal<CampRules>,
    /// The position being edited; `None` when the board shows a game.
    editing: RwSignal<Option<PositionEdit>>,
    /// What a click on the board does while editing.
    tool: RwSignal<Tool>,
    /// The engine's verdict on the edited position: the line to show, and whether it can be played.
    check: Memo<Option<(String, bool)>>,
    /// Starts a new game from the edited position.
    on_play: Callback<()>,
) -> impl IntoView {
    let enter = move || {
        running.set(false);
        let preset = preset_choice.get_untracked();
        let camp = camp_rules_choice.get_untracked();
        let edit = replay.with_untracked(|r| {
            session.with_untracked(|s| edit_of_shown(s, r.as_ref(), preset, camp))
        });
        editing.set(Some(edit));
        notice.set(Some(Line {
            tone: Tone::Info,
            text:
                "Editing the position: choose a tool, then click squares (or press Enter on them)."
                    .into(),
        }));
    };
    let leave = move || {
        editing.set(None);
        notice.set(None);
    };
    let update = move |f: &dyn Fn(&mut PositionEdit)| {
        editing.update(|e| {
            if let Some(e) = e {
                f(e);
            }
        })
    };
    let alternating = move || {
        editing.with(|e| {
            e.as_ref()
                .is_some_and(|e| e.preset().rules().mode == Mode::Alternating)
        })
    };
    let tool_button = move |(t, name, id): (Tool, &'static str, &'static str)| {
        view! {
            <button
                type="button"
                class=format!("tool tool-{id}")
                data-testid=format!("tool-{id}")
                aria-pressed=move || (tool.get() == t).to_string()
                on:click=move |_| tool.set(t)
            >
                {name}
            </button>
        }
    };

    view! {
        <div class="editor" role="group" aria-label="Position editor">
            <Show
                when=move || editing.with(Option::is_some)
                fallback=move || {
                    view! {
                        <button
                            type="button"
                            data-testid="edit-position"
                            title="Set up a position on the board shown and play from it"
                            on:click=move |_| enter()
                        >
                            "Edit position"
                        </button>
                    }
                }
            >
                <div class="tools" role="group" aria-label="Editing tool (click a square to use it)">
                    {TOOLS.into_iter().map(tool_button).collect_view()}
                </div>
                <Show when=alternating>
                    <label>
                        <span>"To move"</span>
                        <select
                            data-testid="edit-to-move"
                            aria-label="Team to move"
                            prop:value=move || {
                                editing.with(|e| e.as_ref().and_then(PositionEdit::to_move).map_or("red", Team::name))
                            }
                            on:change=move |ev| {
                                let team = event_target_value(&ev).parse::<Team>().ok();
                                update(&|e| e.set_to_move(team));
                            }
                        >
                            <option value="red">"red"</option>
                            <option value="blue">"blue"</option>
                        </select>
                    </label>
                </Show>
                <p
                    class=move || if check.with(|c| c.as_ref().is_some_and(|c| c.1)) { "check info" } else { "check error" }
                    role="status"
                    data-testid="edit-check"
                >
                    {move || check.get().map(|c| c.0)}
                </p>
                <div class="edit-actions">
                    <button
                        type="button"
                        data-testid="play-from-here"
                        title="A new game from this position, with the players chosen in the setup"
                        disabled=move || !check.with(|c| c.as_ref().is_some_and(|c| c.1))
                        on:click=move |_| on_play.run(())
                    >
                        "Play from here"
                    </button>
                    <button
                        type="button"
                        data-testid="edit-start"
                        on:click=move |_| update(&|e| *e = PositionEdit::start(e.preset(), e.camp_rules()))
                    >
                        "Start position"
                    </button>
                    <button type="button" data-testid="edit-clear" on:click=move |_| update(&PositionEdit::clear)>
                        "Clear board"
                    </button>
                    <button type="button" data-testid="edit-leave" on:click=move |_| leave()>
                        "Back to the game"
                    </button>
                </div>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::player::Player;
    use gridarena_engine::halma::Teams;

    #[test]
    fn the_editor_opens_on_the_game_shown_when_it_is_of_the_preset_else_on_its_start() {
        let players = Teams {
            red: Player::Human,
            blue: Player::Human,
        };
        let session = Session::new(Preset::Mini, players, 3);
        let opened = edit_of_shown(&session, None, Preset::Mini, CampRules::Course);
        // The course's camp rules are for classic only: mini keeps the seed's.
        assert_eq!(opened.camp_rules(), CampRules::Seed);
        assert_eq!(
            opened,
            PositionEdit::from_game(Preset::Mini, session.game())
        );
        assert_eq!(opened.to_move(), session.game().to_move());
        let classic = edit_of_shown(&session, None, Preset::Classic, CampRules::Course);
        assert_eq!(
            classic,
            PositionEdit::start(Preset::Classic, CampRules::Course)
        );
        assert!(classic.check().is_ok());
    }
}
