//! The clock keeper: each instance says it is alive and ends, on time, the games whose clocks the
//! store gives it (its own, and those of instances that fell silent).
//!
//! Saying it is alive runs on its own, so that a slow time-out never costs an instance its clocks;
//! and each time-out is bounded ([`STEP`]) and runs beside the others, so that a database that stops
//! answering, or a game whose lock a stuck move holds, delays the clocks, never stops them. (Every
//! store call is bounded too: `store::CALL_TIMEOUT`.)

use super::{ms, over_by_moves, Found, Hub};
use crate::incident;
use crate::store::{now_ms, EndReason, Millis, StoreError};
use futures_util::future::join_all;
use gridarena_engine::go::online::GameId;
use std::sync::Arc;
use std::time::Duration;

/// The longest one game's time-out may take: a few store calls, each bounded, after the game's lock,
/// which a move may hold for one store call. Past it the step is dropped and the game is taken up
/// again at the next tick (the end is judged in the database, so a step dropped after its end was
/// stored only leaves the announcement to the next one).
pub const STEP: Duration = Duration::from_secs(25);

impl Hub {
    /// The clock keeper: says this instance is alive (taking over the clocks of silent ones) a few
    /// times per lease, and ends every game of its own whose deadline passed.
    pub(super) async fn keep_clocks(self: Arc<Self>) {
        tokio::spawn(Arc::clone(&self).say_alive());
        let tick = (self.config.move_time / 4)
            .clamp(Duration::from_millis(10), Duration::from_millis(250));
        loop {
            tokio::time::sleep(tick).await;
            let now = now_ms();
            match self.store.due(&self.instance, now).await {
                Ok(due) => {
                    let hub = &self;
                    join_all(due.into_iter().map(|id| async move {
                        match tokio::time::timeout(STEP, hub.time_out(id, now)).await {
                            Ok(Ok(())) => {}
                            Ok(Err(e)) => {
                                incident::report("ending a game on time", &e);
                            }
                            Err(_) => {
                                incident::report(
                                    "ending a game on time",
                                    &format!("game {id}: gave up after {} s", STEP.as_secs()),
                                );
                            }
                        }
                    }))
                    .await;
                }
                Err(e) => {
                    incident::report("looking for games out of time", &e);
                }
            }
        }
    }

    /// Says this instance is alive (taking over the clocks of silent ones) three times per lease. A
    /// call that took longer than that (the database answered late, as after a network partition) is
    /// followed by another at once: the time it carried was stale by the time it was stored, and until
    /// a fresh one is stored the other instances take this one for dead (and drop its requests).
    async fn say_alive(self: Arc<Self>) {
        let lease = ms(self.config.lease);
        let every = (self.config.lease / 3).max(Duration::from_millis(10));
        loop {
            let started = tokio::time::Instant::now();
            if let Err(e) = self.store.keep_alive(&self.instance, now_ms(), lease).await {
                incident::report("saying the instance is alive", &e);
            }
            tokio::time::sleep_until(started + every).await;
        }
    }

    /// Game `id`'s deadline passed at `now` by the store: the player to move loses on time, unless a
    /// move came in meanwhile (or the stored moves already end the game, which is then scored).
    async fn time_out(&self, id: GameId, now: Millis) -> Result<(), StoreError> {
        let Found::Live(cell) = self.load(id).await? else {
            return Ok(());
        };
        let mut st = cell.lock().await;
        self.refresh(&cell, &mut st).await?;
        if st.ended.is_none() {
            if let Some(reason) = over_by_moves(&cell, &st) {
                let game = st.game.clone();
                self.end(&cell, &mut st, &game, reason, None).await?;
            } else if st.deadline <= now {
                let mut after = st.game.clone();
                let loser = after.to_move();
                if after.time_out(loser).is_ok() {
                    self.end(&cell, &mut st, &after, EndReason::Time, Some(now))
                        .await?;
                }
            }
        }
        drop(st);
        self.forget_if_unfollowed(&cell).await;
        Ok(())
    }
}
