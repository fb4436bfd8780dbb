//! The HyperChess page's lazy parts: the live view, the new-game form, the 3D board and the files bar,
//! each cut into a module of its own (`dist/split/gridarena-hyperchess/split_<name>.wasm`, src/lazy.rs)
//! and named in the page list, `pages.json`. Declared in the page's own bin, never in the library (see
//! `gridarena-halma/parts.rs`).

use gridarena::hyperchess::{self, HyperChessParts};

gridarena::split_part!(live, LIVE, hyperchess::LiveView, hyperchess::LiveViewProps);
gridarena::split_part!(
    new_game,
    NEW_GAME,
    hyperchess::NewGameForm,
    hyperchess::NewGameFormProps
);
gridarena::split_part!(
    board3d,
    BOARD3D,
    hyperchess::Board3d,
    hyperchess::Board3dProps
);
gridarena::split_part!(
    file_bar,
    FILE_BAR,
    hyperchess::FileBar,
    hyperchess::FileBarProps
);

/// Every part, handed to the page.
pub fn all() -> HyperChessParts {
    HyperChessParts {
        live: LIVE,
        new_game: NEW_GAME,
        file_bar: FILE_BAR,
        board3d: BOARD3D,
    }
}
