//! The leaderboard: the server's top players, best first, by rated games (docs/online.md, "Records"):
//! the note under it says which games those are, since a player's own record counts more of them.

use gridarena_engine::go::online::PlayerRecord;
use leptos::prelude::*;

#[component]
pub fn Leaderboard(#[prop(into)] rows: Signal<Vec<PlayerRecord>>) -> impl IntoView {
    view! {
        <table class="leaderboard" data-testid="online-leaderboard">
            <caption>"Leaderboard"</caption>
            <thead><tr><th>"#"</th><th>"Player"</th><th>"Won"</th><th>"Lost"</th></tr></thead>
            <tbody>
                {move || rows.get().into_iter().enumerate().map(|(i, r)| view! {
                    <tr><td>{i + 1}</td><td>{r.name}</td><td>{r.wins}</td><td>{r.losses}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
        <p class="leaderboard-note">
            "Ranked by rated games: 10 moves or more, at most 3 a day between the same two players. \
             Your own record counts every game in which both players moved."
        </p>
    }
}
