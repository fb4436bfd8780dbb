//! Instances and the matchmaking queue: who is alive, who runs which clock, and pairing.

use super::*;

impl PgStore {
    pub(in crate::store) async fn keep_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let cut = now.saturating_sub(lease);
        let me = &instance.0;
        let taken = retrying!(self, client => {
            let tx = client.transaction().await?;
            tx.execute(
                "INSERT INTO instances (id, seen_at) VALUES ($1, $2)
                 ON CONFLICT (id) DO UPDATE SET seen_at = GREATEST(instances.seen_at, excluded.seen_at)",
                &[me, &now],
            )
            .await?;
            let taken = tx
                .execute(
                    "UPDATE games SET clock_instance = $1
                     WHERE NOT finished AND (clock_instance IS NULL OR (clock_instance <> $1
                       AND clock_instance NOT IN (SELECT id FROM instances WHERE seen_at >= $2)))",
                    &[me, &cut],
                )
                .await?;
            tx.execute(
                "DELETE FROM seeks WHERE instance <> $1
                 AND instance NOT IN (SELECT id FROM instances WHERE seen_at >= $2)",
                &[me, &cut],
            )
            .await?;
            tx.execute(
                "DELETE FROM instances WHERE id <> $1 AND seen_at < $2",
                &[me, &cut],
            )
            .await?;
            tx.commit().await?;
            Ok(taken)
        })?;
        Ok(usize::try_from(taken).unwrap_or(usize::MAX))
    }

    pub(in crate::store) async fn others_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT count(*) FROM instances WHERE id <> $1 AND seen_at >= $2",
                &[&instance.0, &now.saturating_sub(lease)],
            )
            .await?;
        Ok(usize::try_from(col::<i64>(&row, 0)?).unwrap_or(0))
    }

    pub(in crate::store) async fn retire(&self, instance: &InstanceId) -> Result<(), StoreError> {
        let me = &instance.0;
        retrying!(self, client => {
            let tx = client.transaction().await?;
            tx.execute("DELETE FROM seeks WHERE instance = $1", &[me]).await?;
            tx.execute(
                "UPDATE games SET clock_instance = NULL WHERE NOT finished AND clock_instance = $1",
                &[me],
            )
            .await?;
            tx.execute("DELETE FROM instances WHERE id = $1", &[me]).await?;
            tx.commit().await
        })
    }

    pub(in crate::store) async fn seek(
        &self,
        seek: &SeekRow,
        coin: bool,
        now: Millis,
        lease: Millis,
        first_deadline: Millis,
    ) -> Result<SeekOutcome, StoreError> {
        let cut = now.saturating_sub(lease);
        let size = i64::from(seek.size);
        let [p1, p2, p3] = partners(seek.color);
        let found = notifying!(self, client => {
            let tx = client.transaction().await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&(SEEK_LOCK + size)])
                .await?;
            let stmt = tx
                .prepare_cached("DELETE FROM seeks WHERE player_id = $1")
                .await?;
            tx.execute(&stmt, &[&seek.player]).await?;
            let stmt = tx
                .prepare_cached(
                    "SELECT s.seq, s.player_id, p.name, s.instance, s.conn, s.color
                     FROM seeks s JOIN instances i ON i.id = s.instance
                     JOIN players p ON p.id = s.player_id
                     WHERE s.size = $1 AND s.player_id <> $2 AND i.seen_at >= $3
                       AND s.color IN ($4, $5, $6)
                     ORDER BY s.seq LIMIT 1
                     FOR UPDATE OF s SKIP LOCKED",
                )
                .await?;
            let waiting = tx
                .query_opt(&stmt, &[&size, &seek.player, &cut, &p1, &p2, &p3])
                .await?;
            let Some(waiting) = waiting else {
                // The instance queuing a request is alive: so said here, the request is seen at once
                // even when the instance's own keep_alive is late (just after a network partition,
                // when the others took it for dead), and no other instance's keep_alive drops it.
                let stmt = tx
                    .prepare_cached(
                        "INSERT INTO instances (id, seen_at) VALUES ($1, $2)
                         ON CONFLICT (id) DO UPDATE
                         SET seen_at = GREATEST(instances.seen_at, excluded.seen_at)",
                    )
                    .await?;
                tx.execute(&stmt, &[&seek.instance.0, &now]).await?;
                let stmt = tx
                    .prepare_cached(
                        "INSERT INTO seeks (player_id, instance, conn, size, color)
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .await?;
                tx.execute(
                    &stmt,
                    &[
                        &seek.player,
                        &seek.instance.0,
                        &conn_to_db(seek.conn),
                        &size,
                        &color_word(seek.color),
                    ],
                )
                .await?;
                tx.commit().await?;
                return Ok(None);
            };
            let row = (
                waiting.try_get::<_, i64>(0)?,
                waiting.try_get::<_, i64>(1)?,
                waiting.try_get::<_, String>(2)?,
                waiting.try_get::<_, String>(3)?,
                waiting.try_get::<_, i64>(4)?,
                waiting.try_get::<_, String>(5)?,
            );
            let Ok(color) = color_from_word(&row.5) else {
                // Not a row this code writes; leave it and wait.
                return Ok(Some(Err(row.5)));
            };
            let waiting_black = pair_colors(color, seek.color, coin).unwrap_or(coin);
            let (black, white) = if waiting_black {
                (row.1, seek.player)
            } else {
                (seek.player, row.1)
            };
            let stmt = tx
                .prepare_cached(
                    "WITH taken AS (DELETE FROM seeks WHERE seq = $1),
                     game AS (
                       INSERT INTO games (size, black_id, white_id, created_at, deadline_at,
                                          clock_instance)
                       VALUES ($2, $3, $4, $5, $6, $7) RETURNING id),
                     note AS (
                       SELECT pg_notify('gridarena', 'p ' || id || ' ' || $8::text || ' ' || $9::text)
                       FROM game)
                     SELECT id, (SELECT count(*) FROM note) FROM game",
                )
                .await?;
            let created = tx
                .query_one(
                    &stmt,
                    &[
                        &row.0,
                        &size,
                        &black,
                        &white,
                        &(now / 1000),
                        &first_deadline,
                        &seek.instance.0,
                        &row.3,
                        &conn_from_db(row.4).to_string(),
                    ],
                )
                .await?;
            let game: i64 = created.try_get(0)?;
            tx.commit().await?;
            Ok(Some(Ok((game, row, color, waiting_black))))
        })?;
        match found {
            None => Ok(SeekOutcome::Waiting),
            Some(Err(word)) => Err(StoreError(format!("unknown colour {word:?} in seeks"))),
            Some(Ok((game, (_, player, name, instance, conn, _), color, waiting_black))) => {
                Ok(SeekOutcome::Paired {
                    game: game_id(game)?,
                    waiting: SeekRow {
                        player,
                        name,
                        instance: InstanceId(instance),
                        conn: conn_from_db(conn),
                        size: seek.size,
                        color,
                    },
                    waiting_black,
                })
            }
        }
    }

    pub(in crate::store) async fn cancel_seek(&self, player: i64) -> Result<bool, StoreError> {
        let n = retrying!(self, client => {
            client
                .execute("DELETE FROM seeks WHERE player_id = $1", &[&player])
                .await
        })?;
        Ok(n > 0)
    }

    pub(in crate::store) async fn leave(
        &self,
        instance: &InstanceId,
        conn: u64,
    ) -> Result<(), StoreError> {
        let conn = conn_to_db(conn);
        retrying!(self, client => {
            client
                .execute(
                    "DELETE FROM seeks WHERE instance = $1 AND conn = $2",
                    &[&instance.0, &conn],
                )
                .await
        })?;
        Ok(())
    }

    pub(in crate::store) async fn is_waiting(
        &self,
        instance: &InstanceId,
        conn: u64,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM seeks WHERE instance = $1 AND conn = $2)")
            .await?;
        let row = client
            .query_one(&stmt, &[&instance.0, &conn_to_db(conn)])
            .await?;
        col(&row, 0)
    }
}
