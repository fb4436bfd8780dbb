//! The Online Go page's lazy part: the board of a game being played or watched (the lobby comes first),
//! cut into a module of its own (`dist/split/gridarena-online/split_board.wasm`, src/lazy.rs) and named
//! in the page list, `pages.json`. Declared in the page's own bin, never in the library (see
//! `gridarena-halma/parts.rs`).

use gridarena::online;

gridarena::split_part!(board, BOARD, online::OnlineBoard, online::OnlineBoardProps);

/// The board, handed to the page.
pub fn board() -> gridarena::lazy::Split<online::OnlineBoardProps> {
    BOARD
}
