//! Instances and the matchmaking queue: who is alive, who runs which clock, and pairing.

use super::*;

impl SqliteStore {
    pub(in crate::store) async fn keep_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let me = instance.0.clone();
        let cut = now.saturating_sub(lease);
        self.workers
            .write(move |c| {
                c.prepare_cached(
                    "INSERT INTO instances (id, seen_at) VALUES (?1, ?2)
                     ON CONFLICT (id) DO UPDATE SET seen_at = max(seen_at, excluded.seen_at)",
                )?
                .execute(params![me, now])?;
                let taken = c
                    .prepare_cached(
                        "UPDATE games SET clock_instance = ?1
                         WHERE finished = 0 AND (clock_instance IS NULL OR (clock_instance <> ?1
                           AND clock_instance NOT IN (SELECT id FROM instances WHERE seen_at >= ?2)))",
                    )?
                    .execute(params![me, cut])?;
                c.prepare_cached(
                    "DELETE FROM seeks WHERE instance <> ?1
                     AND instance NOT IN (SELECT id FROM instances WHERE seen_at >= ?2)",
                )?
                .execute(params![me, cut])?;
                c.prepare_cached("DELETE FROM instances WHERE id <> ?1 AND seen_at < ?2")?
                    .execute(params![me, cut])?;
                Ok(taken)
            })
            .await
    }

    pub(in crate::store) async fn others_alive(
        &self,
        instance: &InstanceId,
        now: Millis,
        lease: Millis,
    ) -> Result<usize, StoreError> {
        let me = instance.0.clone();
        let cut = now.saturating_sub(lease);
        self.workers
            .read(move |c| {
                let n: i64 = c
                    .prepare_cached(
                        "SELECT count(*) FROM instances WHERE id <> ?1 AND seen_at >= ?2",
                    )?
                    .query_row(params![me, cut], |r| r.get(0))?;
                Ok(usize::try_from(n).unwrap_or(0))
            })
            .await
    }

    pub(in crate::store) async fn retire(&self, instance: &InstanceId) -> Result<(), StoreError> {
        let me = instance.0.clone();
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE instance = ?1")?
                    .execute([&me])?;
                c.prepare_cached(
                    "UPDATE games SET clock_instance = NULL WHERE finished = 0 AND clock_instance = ?1",
                )?
                .execute([&me])?;
                c.prepare_cached("DELETE FROM instances WHERE id = ?1")?
                    .execute([&me])?;
                Ok(())
            })
            .await
    }

    pub(in crate::store) async fn seek(
        &self,
        seek: &SeekRow,
        coin: bool,
        now: Millis,
        lease: Millis,
        first_deadline: Millis,
    ) -> Result<SeekOutcome, StoreError> {
        let seek = seek.clone();
        let cut = now.saturating_sub(lease);
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE player_id = ?1")?
                    .execute([seek.player])?;
                let [p1, p2, p3] = partners(seek.color);
                let waiting = c
                    .prepare_cached(
                        "SELECT s.seq, s.player_id, p.name, s.instance, s.conn, s.color
                         FROM seeks s JOIN instances i ON i.id = s.instance
                         JOIN players p ON p.id = s.player_id
                         WHERE s.size = ?1 AND s.player_id <> ?2 AND i.seen_at >= ?3
                           AND s.color IN (?4, ?5, ?6)
                         ORDER BY s.seq LIMIT 1",
                    )?
                    .query_row(params![seek.size, seek.player, cut, p1, p2, p3], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, String>(3)?,
                            r.get::<_, i64>(4)?,
                            r.get::<_, String>(5)?,
                        ))
                    })
                    .optional()?;
                let Some((seq, player, name, instance, conn, color)) = waiting else {
                    // The instance queuing a request is alive (see the PostgreSQL store).
                    c.prepare_cached(
                        "INSERT INTO instances (id, seen_at) VALUES (?1, ?2)
                         ON CONFLICT (id) DO UPDATE SET seen_at = max(seen_at, excluded.seen_at)",
                    )?
                    .execute(params![seek.instance.0, now])?;
                    c.prepare_cached(
                        "INSERT INTO seeks (player_id, instance, conn, size, color)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                    )?
                    .execute(params![
                        seek.player,
                        seek.instance.0,
                        conn_to_db(seek.conn),
                        seek.size,
                        color_word(seek.color)
                    ])?;
                    return Ok(SeekOutcome::Waiting);
                };
                let waiting = SeekRow {
                    player,
                    name,
                    instance: InstanceId(instance),
                    conn: conn_from_db(conn),
                    size: seek.size,
                    color: color_from_word(&color)?,
                };
                let waiting_black = pair_colors(waiting.color, seek.color, coin).unwrap_or(coin);
                let (black, white) = if waiting_black {
                    (waiting.player, seek.player)
                } else {
                    (seek.player, waiting.player)
                };
                c.prepare_cached("DELETE FROM seeks WHERE seq = ?1")?
                    .execute([seq])?;
                c.prepare_cached(
                    "INSERT INTO games (size, black_id, white_id, created_at, deadline_at, clock_instance)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(params![
                    seek.size,
                    black,
                    white,
                    now / 1000,
                    first_deadline,
                    seek.instance.0
                ])?;
                let id = c.last_insert_rowid();
                let game = GameId::try_from(id)
                    .map_err(|_| StoreError(format!("game id {id} out of range")))?;
                Ok(SeekOutcome::Paired {
                    game,
                    waiting,
                    waiting_black,
                })
            })
            .await
    }

    pub(in crate::store) async fn cancel_seek(&self, player: i64) -> Result<bool, StoreError> {
        self.workers
            .write(move |c| {
                let n = c
                    .prepare_cached("DELETE FROM seeks WHERE player_id = ?1")?
                    .execute([player])?;
                Ok(n > 0)
            })
            .await
    }

    pub(in crate::store) async fn leave(
        &self,
        instance: &InstanceId,
        conn: u64,
    ) -> Result<(), StoreError> {
        let me = instance.0.clone();
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE instance = ?1 AND conn = ?2")?
                    .execute(params![me, conn_to_db(conn)])?;
                Ok(())
            })
            .await
    }

    pub(in crate::store) async fn is_waiting(
        &self,
        instance: &InstanceId,
        conn: u64,
    ) -> Result<bool, StoreError> {
        let me = instance.0.clone();
        self.workers
            .read(move |c| {
                Ok(c.prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM seeks WHERE instance = ?1 AND conn = ?2)",
                )?
                .query_row(params![me, conn_to_db(conn)], |r| r.get(0))?)
            })
            .await
    }
}
