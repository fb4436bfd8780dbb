//! The projector wall: every game in progress as a small live board with the two names, in large text,
//! and a line when the machine, not a student's code, is the bottleneck ([`super::pool::Strain`]).

use super::driver::Control;
use super::runner::Run;
use crate::halma::board::Board;
use leptos::prelude::*;

/// One game in progress.
#[component]
fn GameCard(run: RwSignal<Option<Run>>, number: usize) -> impl IntoView {
    // The run changes as every game ends a tick; this board only when its own turn does, so each board
    // is rebuilt once a tick of its game, not once a tick of any game.
    let heading = Memo::new(move |_| run.with(|r| r.as_ref().and_then(|r| r.heading(number))));
    let board = Memo::new(move |_| {
        // Read (not only tracked), so the heading is brought up to date before it is compared.
        let _ = heading.get();
        run.with_untracked(|r| r.as_ref().map(|r| r.board(number)).unwrap_or_default())
    });
    let names = move || {
        heading.with(|h| {
            h.as_ref().map(|(f, red, blue, _)| {
                view! {
                    <span class="red-name">{red.clone()}</span>
                    " vs "
                    <span class="blue-name">{blue.clone()}</span>
                    <span class="t-round">{format!(" round {}, game {}", f.round + 1, f.number + 1)}</span>
                }
            })
        })
    };
    let turn = move || heading.with(|h| h.as_ref().map(|h| format!("turn {}", h.3)));
    view! {
        <figure class="t-card" data-testid="live-game">
            <figcaption>{names}</figcaption>
            <div class="t-board"><Board view=board /></div>
            <p class="t-turn">{turn}</p>
        </figure>
    }
}

#[component]
pub fn Wall(ctl: Control) -> impl IntoView {
    let run = ctl.run;
    // Said when the teacher's machine, not a student's code, holds the games up.
    let verdict = move || {
        let machine = ctl.machine();
        ctl.strain.with(|s| s.verdict(machine))
    };
    let live = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.live()
                        .iter()
                        .map(|l| l.game.fixture().number)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    view! {
        <p class="t-machine" data-testid="machine-verdict" role="status">{verdict}</p>
        <section class="t-wall" data-testid="wall" aria-label="Games in progress">
            <For each=move || live.get() key=|n| *n let:number>
                <GameCard run number />
            </For>
        </section>
    }
}
