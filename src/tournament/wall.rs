//! The projector wall: every game in progress as a small live board with the two names, in large text,
//! and a line when the machine, not a student's code, is the bottleneck ([`super::pool::Strain`]).
//!
//! Each game keeps its place on the wall, and a new game takes the place of one that ended: the audience
//! finds it where the last one was, and the page reuses that place's board (its canvas, its squares'
//! elements and its size observer) instead of building a card anew. A class whose AIs forfeit quickly
//! starts games many times a second, and building a board was most of what the wall did.

use super::driver::Control;
use super::runner::Run;
use crate::halma::board::Board;
use crate::halma::board_view::BoardView;
use leptos::prelude::*;

/// The game each place on the wall shows, from the places `before` and the games in progress: a game
/// keeps its place, a new one takes the first free place (or a new one at the end), and free places at
/// the end are dropped. A free place among others stays, its card invisible but keeping its room, until
/// a game takes it: the cards after it do not move.
pub fn places(before: &[Option<usize>], live: &[usize]) -> Vec<Option<usize>> {
    let mut places: Vec<Option<usize>> = before
        .iter()
        .map(|p| p.filter(|n| live.contains(n)))
        .collect();
    for &n in live {
        if places.contains(&Some(n)) {
            continue;
        }
        match places.iter_mut().find(|p| p.is_none()) {
            Some(free) => *free = Some(n),
            None => places.push(Some(n)),
        }
    }
    while places.last() == Some(&None) {
        places.pop();
    }
    places
}

/// One place on the wall, and the game in it.
#[component]
fn GameCard(
    run: RwSignal<Option<Run>>,
    places: Memo<Vec<Option<usize>>>,
    place: usize,
) -> impl IntoView {
    let number = Memo::new(move |_| places.with(|p| p.get(place).copied().flatten()));
    // The run changes as every game ends a tick; this board only when its own turn does, so each board
    // is rebuilt once a tick of its game, not once a tick of any game.
    let heading = Memo::new(move |_| {
        let n = number.get()?;
        run.with(|r| r.as_ref().and_then(|r| r.heading(n)))
    });
    let board = Memo::new(move |before: Option<&BoardView>| {
        // Read (not only tracked), so the heading is brought up to date before it is compared.
        let Some(n) = heading.with(|h| h.as_ref().map(|h| h.0.number)) else {
            // A free place keeps its last board, hidden, for the next game to patch.
            return before.cloned().unwrap_or_default();
        };
        run.with_untracked(|r| r.as_ref().map(|r| r.board(n)).unwrap_or_default())
    });
    // The names change with the game, not with each turn.
    let players = Memo::new(move |_| {
        heading.with(|h| {
            h.as_ref()
                .map(|(f, red, blue, _)| (*f, red.clone(), blue.clone()))
        })
    });
    let names = move || {
        players.get().map(|(f, red, blue)| {
            view! {
                <span class="red-name">{red}</span>
                " vs "
                <span class="blue-name">{blue}</span>
                <span class="t-round">{format!(" round {}, game {}", f.round + 1, f.number + 1)}</span>
            }
        })
    };
    let turn = move || heading.with(|h| h.as_ref().map(|h| format!("turn {}", h.3)));
    let free = move || number.with(Option::is_none);
    view! {
        <figure
            class="t-card"
            data-testid=move || if free() { "free-place" } else { "live-game" }
            class:free=free
        >
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
    let places = Memo::new(move |before: Option<&Vec<Option<usize>>>| {
        let live = run.with(|r| {
            r.as_ref()
                .map(|r| {
                    r.live()
                        .iter()
                        .map(|l| l.fixture.number)
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        });
        places(before.map_or(&[], Vec::as_slice), &live)
    });
    let count = Memo::new(move |_| places.with(Vec::len));
    view! {
        <p class="t-machine" data-testid="machine-verdict" role="status">{verdict}</p>
        <section class="t-wall" data-testid="wall" aria-label="Games in progress">
            <For each=move || 0..count.get() key=|place| *place let:place>
                <GameCard run places place />
            </For>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::places;

    #[test]
    fn a_game_keeps_its_place_and_a_new_one_takes_a_place_that_was_freed() {
        let first = places(&[], &[0, 1, 2]);
        assert_eq!(first, [Some(0), Some(1), Some(2)]);
        // Game 1 ends and game 3 starts: 3 is shown where 1 was, the others stay put.
        assert_eq!(places(&first, &[0, 2, 3]), [Some(0), Some(3), Some(2)]);
        // Game 0 ends with nothing to replace it: its place waits, hidden, for the next game.
        let waiting = places(&[Some(0), Some(3), Some(2)], &[3, 2]);
        assert_eq!(waiting, [None, Some(3), Some(2)]);
        assert_eq!(
            places(&waiting, &[3, 2, 4, 5]),
            [Some(4), Some(3), Some(2), Some(5)]
        );
        // Free places at the end go.
        assert_eq!(places(&[Some(4), Some(3), Some(2)], &[4]), [Some(4)]);
        assert_eq!(places(&[Some(4)], &[]), Vec::<Option<usize>>::new());
    }
}
