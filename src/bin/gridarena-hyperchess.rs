//! The HyperChess page. A module of its own (started by the script in index.html), so its download
//! carries no other game; its built-in AI thinks in the AI module (`gridarena-ai-hyperchess`), and the
//! parts its first board does not show (the live view, the new-game form, the files bar and the 3D board) are split
//! off it (`src/lazy.rs`, `dist/split/`).

use gridarena::hyperchess::{self, HyperChessPage, HyperChessParts};
use leptos::prelude::*;

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

fn page() -> impl IntoView {
    let parts = HyperChessParts {
        live: LIVE,
        new_game: NEW_GAME,
        file_bar: FILE_BAR,
        board3d: BOARD3D,
    };
    view! { <HyperChessPage parts=parts /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
    gridarena::ai_worker::preload_when_idle(hyperchess::builtin::MODULE);
}
