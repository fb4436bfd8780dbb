//! The Online Go page: mounts it. A module of its own (started by the script in index.html): it shares
//! the Go page's board and rules code but not its AI or SGF, and adds the server's protocol. The board of
//! a game being played or watched is split off it (`src/lazy.rs`, `dist/split/`): the lobby comes first.

use gridarena::online::{self, OnlinePage};
use leptos::prelude::*;

gridarena::split_part!(board, BOARD, online::OnlineBoard, online::OnlineBoardProps);

fn page() -> impl IntoView {
    view! { <OnlinePage board=BOARD /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
}
