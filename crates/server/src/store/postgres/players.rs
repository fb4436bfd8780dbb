//! Players: registration, tokens, records and the leaderboard.

use super::*;

/// The advisory lock taken while re-keying players (any number no other user of the database takes).
const REKEY_LOCK: i64 = 0x4752_4944_0002;

impl PgStore {
    pub(in crate::store) async fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        let mut client = self.client().await.map_err(CreatePlayerError::Store)?;
        let inserted = async {
            // A synchronous commit: the page keeps the token from the answer, so a crash of the
            // database's machine must not forget it (see "Durability" in the module's notes).
            let tx = client.transaction().await?;
            tx.batch_execute(SYNCHRONOUS).await?;
            let stmt = tx
                .prepare_cached(
                    "INSERT INTO players (name, name_key, token_hash, created_at)
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .await?;
            let row = tx
                .query_one(&stmt, &[&name, &key, &token_hash, &(now_ms() / 1000)])
                .await?;
            tx.commit().await?;
            Ok::<_, tokio_postgres::Error>(row)
        }
        .await;
        match inserted {
            Ok(row) => col(&row, 0).map_err(CreatePlayerError::Store),
            Err(e)
                if e.code() == Some(&SqlState::UNIQUE_VIOLATION)
                    && e.as_db_error().and_then(|d| d.constraint())
                        == Some("players_name_key_key") =>
            {
                Err(CreatePlayerError::Taken)
            }
            Err(e) => Err(CreatePlayerError::Store(e.into())),
        }
    }

    pub(in crate::store) async fn player_id(&self, key: &str) -> Result<Option<i64>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT id FROM players WHERE name_key = $1")
            .await?;
        match client.query_opt(&stmt, &[&key]).await? {
            Some(row) => Ok(Some(col(&row, 0)?)),
            None => Ok(None),
        }
    }

    pub(in crate::store) async fn player_by_token(
        &self,
        token_hash: &[u8],
    ) -> Result<Option<PlayerRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT id, name, wins, losses FROM players WHERE token_hash = $1")
            .await?;
        let Some(row) = client.query_opt(&stmt, &[&token_hash]).await? else {
            return Ok(None);
        };
        Ok(Some(PlayerRow {
            id: col(&row, 0)?,
            name: col(&row, 1)?,
            wins: count(col(&row, 2)?),
            losses: count(col(&row, 3)?),
        }))
    }

    pub(in crate::store) async fn record(
        &self,
        key: &str,
    ) -> Result<Option<RecordRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT p.name, p.wins, p.losses, r.size, r.wins, r.losses
                 FROM players p LEFT JOIN records r ON r.player_id = p.id
                 WHERE p.name_key = $1",
            )
            .await?;
        let rows = client.query(&stmt, &[&key]).await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let mut sizes = Vec::with_capacity(rows.len());
        for row in &rows {
            if let Some(size) = col::<Option<i64>>(row, 3)? {
                sizes.push((size, col(row, 4)?, col(row, 5)?));
            }
        }
        Ok(Some(RecordRow {
            name: col(first, 0)?,
            wins: count(col(first, 1)?),
            losses: count(col(first, 2)?),
            by_size: by_size(sizes),
        }))
    }

    pub(in crate::store) async fn rekey_players(
        &self,
        key: fn(&str) -> String,
    ) -> Result<usize, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // Every player, once, at start-up: it may take longer than a statement may.
        tx.batch_execute(NO_TIMEOUTS).await?;
        // Instances starting together re-key one after the other.
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&REKEY_LOCK])
            .await?;
        let rows = tx
            .query("SELECT id, name, name_key FROM players ORDER BY id", &[])
            .await?;
        let mut players = Vec::with_capacity(rows.len());
        for row in &rows {
            players.push((col(row, 0)?, col(row, 1)?, col(row, 2)?));
        }
        let changes = rekeyed(&players, key);
        // Through a key no name has, so that two keys trading places never collide on the way.
        for (id, _) in &changes {
            tx.execute(
                "UPDATE players SET name_key = '#' || id::text WHERE id = $1",
                &[id],
            )
            .await?;
        }
        for (id, new) in &changes {
            tx.execute("UPDATE players SET name_key = $2 WHERE id = $1", &[id, new])
                .await?;
        }
        tx.commit().await?;
        Ok(changes.len())
    }

    pub(in crate::store) async fn leaderboard(
        &self,
        n: u32,
    ) -> Result<Vec<(String, u32, u32)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT name, rated_wins, rated_losses FROM players
                 WHERE rated_wins + rated_losses > 0
                 ORDER BY rated_wins DESC, rated_losses ASC, name_key ASC LIMIT $1",
            )
            .await?;
        let rows = client.query(&stmt, &[&i64::from(n)]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, count(col(r, 1)?), count(col(r, 2)?))))
            .collect()
    }
}
