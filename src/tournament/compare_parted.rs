//! Where the Compare run's two players parted: for each pair, the first position where A and B in the
//! same seat answered differently, with buttons to see either game there.

use super::compare_text::parted_line;
use gridarena_engine::compare::Divergence;
use leptos::prelude::*;

/// The positions in `parted`, once the run is over; `replay_at` shows game `number` at `tick`.
#[component]
pub fn CompareParted(
    parted: Memo<Option<Vec<Divergence>>>,
    replay_at: Callback<(usize, usize)>,
) -> impl IntoView {
    view! {
        <Show when=move || parted.with(|p| p.as_ref().is_some_and(|p| !p.is_empty()))>
            <section class="compare-parted" aria-label="Where the answers differed">
                <h3>"Where the two players' answers differed most"</h3>
                <p class="hint">"The two games of a pair are one game until A and B, in the same seat of the same position, answer differently. Each pair's first such position, the pairs whose games then ended most differently for that seat first."</p>
                <ol data-testid="compare-parted">
                    {move || parted.get().unwrap_or_default().into_iter().map(|d| {
                        let (a_game, b_game, tick) = (d.a_game() as usize, d.b_game() as usize, d.tick);
                        view! {
                            <li data-testid="parted-line">
                                {parted_line(&d)}
                                <button data-testid="parted-a" on:click=move |_| replay_at.run((a_game, tick))>"See A's game there"</button>
                                " "
                                <button data-testid="parted-b" on:click=move |_| replay_at.run((b_game, tick))>"See B's game there"</button>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </section>
        </Show>
    }
}
