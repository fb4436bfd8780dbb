//! Players: registration, tokens, records and the leaderboard.

use super::*;

impl PgStore {
    pub(in crate::store) async fn create_player(
        &self,
        name: &str,
        key: &str,
        token_hash: &[u8],
    ) -> Result<i64, CreatePlayerError> {
        let client = self.client().await.map_err(CreatePlayerError::Store)?;
        let inserted = async {
            let stmt = client
                .prepare_cached(
                    "INSERT INTO players (name, name_key, token_hash, created_at)
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .await?;
            client
                .query_one(&stmt, &[&name, &key, &token_hash, &(now_ms() / 1000)])
                .await
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

    pub(in crate::store) async fn leaderboard(
        &self,
        n: u32,
    ) -> Result<Vec<(String, u32, u32)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT name, wins, losses FROM players WHERE wins + losses > 0
                 ORDER BY wins DESC, losses ASC, name_key ASC LIMIT $1",
            )
            .await?;
        let rows = client.query(&stmt, &[&i64::from(n)]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, count(col(r, 1)?), count(col(r, 2)?))))
            .collect()
    }
}
