//! The clock keeper: each instance says it is alive and ends, on time, the games whose clocks the
//! store gives it (its own, and those of instances that fell silent).

use super::{ms, over_by_moves, Found, Hub};
use crate::incident;
use crate::store::{now_ms, EndReason, Millis, StoreError};
use gridarena_engine::go::online::GameId;
use std::sync::Arc;
use std::time::Duration;

impl Hub {
    /// The clock keeper: says this instance is alive (taking over the clocks of silent ones) a few
    /// times per lease, and ends every game of its own whose deadline passed.
    pub(super) async fn keep_clocks(self: Arc<Self>) {
        let lease = ms(self.config.lease);
        let tick = (self.config.move_time / 4)
            .clamp(Duration::from_millis(10), Duration::from_millis(250));
        let mut said_alive = now_ms();
        loop {
            tokio::time::sleep(tick).await;
            let now = now_ms();
            if now - said_alive >= lease / 3 {
                match self.store.keep_alive(&self.instance, now, lease).await {
                    Ok(_) => said_alive = now,
                    Err(e) => {
                        incident::report("saying the instance is alive", &e);
                    }
                }
            }
            match self.store.due(&self.instance, now).await {
                Ok(due) => {
                    for id in due {
                        if let Err(e) = self.time_out(id, now).await {
                            incident::report("ending a game on time", &e);
                        }
                    }
                }
                Err(e) => {
                    incident::report("looking for games out of time", &e);
                }
            }
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
