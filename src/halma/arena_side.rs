//! The arena's side column, beside the board: the message field, the debug marks, the line under the
//! board, the late-beat note, the answer times and their chart, the human's buttons, the controls and
//! the position editor.

use super::arena_actions::ArenaActions;
use super::arena_model::waiting_text;
use super::arena_parts::ArenaParts;
use super::board_view::BoardView;
use super::controls::Controls;
use super::debug_marks::{DebugMarksProps, Thought};
use super::human_actions::HumanActions;
use super::latency_panel::LatencyPanel;
use super::message_field::{blocks_wanted, MessageField};
use super::messages::Filter;
use super::notice_line::NoticeLine;
use super::position_editor::PositionEditorProps;
use super::time_chart::TimeChartProps;
use crate::lazy::LazyPart;
use leptos::prelude::*;

/// The side column. `plain_board` is the shown game's board without the debug marks, `thought` what
/// the debug marks' part reads, `late` the late-beat note, `verdict` the editor's line.
#[component]
pub fn ArenaSide(
    parts: ArenaParts,
    actions: ArenaActions,
    plain_board: Memo<BoardView>,
    thought: RwSignal<Option<Thought>>,
    late: RwSignal<Option<String>>,
    playable: Memo<bool>,
    verdict: Memo<Option<(String, bool)>>,
    on_step: Callback<()>,
    on_confirm: Callback<()>,
    on_cancel: Callback<()>,
) -> impl IntoView {
    let s = actions.state;
    let (session, screen) = (s.session, s.screen());
    // Memos, where a tick's new session reads the same: the line under the board and the human's
    // buttons change only when what they show does.
    let waiting = Memo::new(move |_| session.with(waiting_text));
    let human_active = Memo::new(move |_| session.with(|s| s.active_human().is_some()));
    let filter = RwSignal::new(Filter::default());
    let all_messages = RwSignal::new(false);
    let messages = Memo::new(move |_| {
        let (f, limit) = (filter.get(), blocks_wanted(all_messages.get()));
        screen.with(|s| s.message_blocks(f, limit))
    });
    let on_play = Callback::new(move |()| actions.play_edited());
    view! {
        <div class="arena-side">
        <MessageField lines=messages filter=filter all=all_messages />
        <LazyPart
            what="the debug marks"
            load=Box::new(move || {
                (parts.debug_marks.load)(DebugMarksProps {
                    screen,
                    size: Memo::new(move |_| plain_board.with(|v| v.size)).into(),
                    thought,
                })
            })
        />
        <NoticeLine notice=s.notice waiting=waiting />
        <p class="late" role="status" data-testid="late">{move || late.get()}</p>
        <LatencyPanel session=session />
        <LazyPart
            what="the time chart"
            load=Box::new(move || (parts.time_chart.load)(TimeChartProps { screen }))
        />
        <HumanActions
            active=Signal::from(human_active)
            on_confirm=on_confirm
            on_cancel=on_cancel
        />
        <Controls
            running=s.running
            tick_ms=s.tick_ms
            playable=playable.into()
            awaiting_answers=actions.clock.awaiting_answers()
            on_step=on_step
        />
        <LazyPart
            what="the position editor"
            load=Box::new(move || {
                (parts.position_editor.load)(PositionEditorProps {
                    session,
                    replay: s.replay,
                    running: s.running,
                    notice: s.notice,
                    preset_choice: s.preset_choice,
                    camp_rules_choice: s.camp_rules_choice,
                    editing: s.editing,
                    tool: s.tool,
                    check: verdict,
                    on_play,
                })
            })
        />
        </div>
    }
}
