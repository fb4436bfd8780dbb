//! How many finished games the standings, the crosstable and the games list show.
//!
//! With 16 games on the wall, games end several times a second, and each end re-sorted the standings
//! and the crosstable: hundreds of cells rewritten and laid out again, a frame of the wall lost each
//! time, and tables no one in the room could read as they jumped. While games are in progress the
//! tables catch up with the results at most once per [`PACE_MS`]; a result is never later than that,
//! and the last game's is shown at once.

use super::runner::Run;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;

/// The shortest time between two updates of the tables while games are in progress, in ms.
pub const PACE_MS: f64 = 1000.0;

/// The finished-game count the tables show: `run`'s, caught up at once when no game is in progress or
/// the last update is [`PACE_MS`] old, and otherwise when it is.
pub fn shown_finished(run: RwSignal<Option<Run>>) -> ReadSignal<usize> {
    let finished =
        Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, |r| r.tournament.finished_count())));
    let shown = RwSignal::new(finished.get_untracked());
    let last = StoredValue::new(f64::NEG_INFINITY);
    let pending = StoredValue::new_local(None::<Timeout>);
    let catch_up = move || {
        if let Some(count) = finished.try_get_untracked() {
            shown.try_set(count);
            last.try_set_value(js_sys::Date::now());
        }
    };
    Effect::new(move |_| {
        let count = finished.get();
        if count == shown.get_untracked() {
            return;
        }
        let playing = run.with_untracked(|r| r.as_ref().is_some_and(|r| !r.live().is_empty()));
        match wait_ms(playing, last.get_value(), js_sys::Date::now()) {
            // A timer waiting to catch up is not needed any more: dropping it cancels it.
            None => {
                pending.set_value(None);
                catch_up();
            }
            // A timer already waiting shows this result too.
            Some(_) if pending.with_value(Option::is_some) => {}
            Some(ms) => {
                let timer = Timeout::new(ms, move || {
                    pending.try_update_value(|p| *p = None);
                    catch_up();
                });
                pending.set_value(Some(timer));
            }
        }
    });
    // A timer still waiting when the page goes is cancelled with it.
    on_cleanup(move || {
        pending.try_update_value(|p| *p = None);
    });
    shown.read_only()
}

/// How long the tables wait to show a new result, in ms, the last update having been at `last_ms` and
/// the time being `now_ms`: `None` for at once.
fn wait_ms(playing: bool, last_ms: f64, now_ms: f64) -> Option<u32> {
    let wait = last_ms + PACE_MS - now_ms;
    (playing && wait > 0.0).then(|| wait.ceil() as u32)
}

#[cfg(test)]
mod tests {
    use super::wait_ms;

    #[test]
    fn results_wait_for_the_pace_only_while_games_are_in_progress() {
        // The first result, and one a second or more after the last update: at once.
        assert_eq!(wait_ms(true, f64::NEG_INFINITY, 5_000.0), None);
        assert_eq!(wait_ms(true, 4_000.0, 5_000.0), None);
        assert_eq!(wait_ms(true, 3_000.0, 5_000.0), None);
        // Sooner, it waits out the rest of the second.
        assert_eq!(wait_ms(true, 4_700.0, 5_000.0), Some(700));
        assert_eq!(wait_ms(true, 4_999.5, 5_000.0), Some(1000));
        // With no game in progress (the tournament over, or between rounds), never.
        assert_eq!(wait_ms(false, 4_700.0, 5_000.0), None);
    }
}
