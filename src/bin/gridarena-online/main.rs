//! The Online Go page: mounts it. A module of its own (started by the script in index.html): it shares
//! the Go page's board and rules code but not its AI or SGF, and adds the server's protocol. The board of
//! a game being played or watched is split off it ([`parts`]): the lobby comes first.

mod parts;

use gridarena::online::OnlinePage;
use leptos::prelude::*;

fn page() -> impl IntoView {
    view! { <OnlinePage board=parts::board() /> }
}

fn main() {
    console_error_panic_hook::set_once();
    gridarena::mount(page);
}
