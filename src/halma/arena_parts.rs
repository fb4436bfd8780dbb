//! The arena's lazily loaded parts, as one value its bin builds. The page, its side column and the parts
//! below the board all load from it, so it is a module of its own rather than the page's, which the side
//! column and the parts below would otherwise have to use.

use super::debug_marks::DebugMarksProps;
use super::inspector::InspectorProps;
use super::position_editor::PositionEditorProps;
use super::replay_bar::ReplayBarProps;
use super::setup_form::SetupFormProps;
use super::ticker;
use super::time_chart::TimeChartProps;
use crate::lazy::Split;

/// The arena's parts that its first board does not show, split off the start page's module
/// (`src/lazy.rs`): its bin declares them, and each loads once the page is idle after the first board.
#[derive(Clone, Copy)]
pub struct ArenaParts {
    /// The tick machinery ([`ticker::run`]): the first Step or Run waits for it.
    pub clock: Split<ticker::Asked, ()>,
    pub setup_form: Split<SetupFormProps>,
    pub replay_bar: Split<ReplayBarProps>,
    pub inspector: Split<InspectorProps>,
    pub position_editor: Split<PositionEditorProps>,
    pub time_chart: Split<TimeChartProps>,
    pub debug_marks: Split<DebugMarksProps>,
}
