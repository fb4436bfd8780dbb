//! Players: registration, tokens, records and the leaderboard.

use super::*;

impl SqliteStore {
    pub(in crate::store) async fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        let (name, key, hash) = (name.to_owned(), key.to_owned(), token_hash.to_vec());
        // Durable: the page keeps the token from the answer, so a power cut must not forget it.
        self.workers
            .write_durable(move |c| {
                let inserted = c
                    .prepare_cached(
                        "INSERT INTO players (name, name_key, token_hash, created_at)
                         VALUES (?1, ?2, ?3, ?4)",
                    )
                    .and_then(|mut s| s.execute(params![name, key, hash, now_ms() / 1000]));
                match inserted {
                    Ok(_) => Ok(c.last_insert_rowid()),
                    Err(rusqlite::Error::SqliteFailure(e, Some(msg)))
                        if e.code == ErrorCode::ConstraintViolation
                            && msg.contains("players.name_key") =>
                    {
                        Err(CreatePlayerError::Taken)
                    }
                    Err(e) => Err(CreatePlayerError::Store(e.into())),
                }
            })
            .await
    }

    pub(in crate::store) async fn player_by_token(
        &self,
        token_hash: &[u8],
    ) -> Result<Option<PlayerRow>, StoreError> {
        let hash = token_hash.to_vec();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id, name, wins, losses FROM players WHERE token_hash = ?1",
                )?;
                Ok(s.query_row([hash], |r| {
                    Ok(PlayerRow {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        wins: r.get(2)?,
                        losses: r.get(3)?,
                    })
                })
                .optional()?)
            })
            .await
    }

    pub(in crate::store) async fn player_id(&self, key: &str) -> Result<Option<i64>, StoreError> {
        let key = key.to_owned();
        self.workers
            .read(move |c| {
                Ok(
                    c.prepare_cached("SELECT id FROM players WHERE name_key = ?1")?
                        .query_row([key], |r| r.get(0))
                        .optional()?,
                )
            })
            .await
    }

    pub(in crate::store) async fn record(
        &self,
        key: &str,
    ) -> Result<Option<RecordRow>, StoreError> {
        let key = key.to_owned();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id, name, wins, losses FROM players WHERE name_key = ?1",
                )?;
                let Some((id, name, wins, losses)) = s
                    .query_row([key], |r| {
                        Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                    })
                    .optional()?
                else {
                    return Ok(None);
                };
                let mut s = c.prepare_cached(
                    "SELECT size, wins, losses FROM records WHERE player_id = ?1",
                )?;
                let rows = s
                    .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                Ok(Some(RecordRow {
                    name,
                    wins,
                    losses,
                    by_size: by_size(rows),
                }))
            })
            .await
    }

    pub(in crate::store) async fn rekey_players(
        &self,
        key: fn(&str) -> String,
    ) -> Result<usize, StoreError> {
        self.workers
            .write(move |c| {
                let players: Vec<(i64, String, String)> = c
                    .prepare("SELECT id, name, name_key FROM players ORDER BY id")?
                    .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<Result<_, _>>()?;
                let changes = rekeyed(&players, key);
                // Through a key no name has, so that two keys trading places never collide.
                let mut park =
                    c.prepare("UPDATE players SET name_key = '#' || id WHERE id = ?1")?;
                for (id, _) in &changes {
                    park.execute([id])?;
                }
                let mut update = c.prepare("UPDATE players SET name_key = ?2 WHERE id = ?1")?;
                for (id, new) in &changes {
                    update.execute(params![id, new])?;
                }
                Ok(changes.len())
            })
            .await
    }

    pub(in crate::store) async fn leaderboard(
        &self,
        n: u32,
    ) -> Result<Vec<(String, u32, u32)>, StoreError> {
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT name, rated_wins, rated_losses FROM players
                     WHERE rated_wins + rated_losses > 0
                     ORDER BY rated_wins DESC, rated_losses ASC, name_key ASC LIMIT ?1",
                )?;
                let rows = s.query_map([n], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }
}
