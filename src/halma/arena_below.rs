//! The arena's parts below the board and its side column, each loaded once the page is idle: the replay
//! bar, the inspector and the new-game form.

use super::arena_actions::ArenaActions;
use super::arena_parts::ArenaParts;
use super::inspector::InspectorProps;
use super::replay_bar::ReplayBarProps;
use super::setup_form::SetupFormProps;
use crate::lazy::LazyPart;
use leptos::prelude::*;

#[component]
pub fn ArenaBelow(parts: ArenaParts, actions: ArenaActions) -> impl IntoView {
    let s = actions.state;
    let (session, replay, running, notice) = (s.session, s.replay, s.running, s.notice);
    let on_new_game = Callback::new(move |seed_text: String| actions.new_game(seed_text));
    view! {
        <LazyPart
            what="the replay bar"
            load=Box::new(move || {
                (parts.replay_bar.load)(ReplayBarProps { session, replay, running, notice })
            })
        />
        <LazyPart
            what="the inspector"
            load=Box::new(move || (parts.inspector.load)(InspectorProps { session, replay }))
        />
        <LazyPart
            what="the new-game form"
            load=Box::new(move || {
                (parts.setup_form.load)(SetupFormProps {
                    session,
                    players: s.players,
                    preset_choice: s.preset_choice,
                    camp_rules_choice: s.camp_rules_choice,
                    first_choice: s.first_choice,
                    notice,
                    content_types: s.content_types(),
                    tick_ms: s.tick_ms,
                    turns_text: s.turns_text,
                    on_new_game,
                })
            })
        />
    }
}
