//! Games: moves, the end, clocks that are due, and reading games back.

use super::*;

impl PgStore {
    pub(in crate::store) async fn finish(
        &self,
        id: i64,
        finish: &Finish,
    ) -> Result<bool, StoreError> {
        let f = finish;
        let area = |a: Option<u16>| a.map(i64::from);
        let (black_area, white_area) = (area(f.score.map(|s| s.0)), area(f.score.map(|s| s.1)));
        let winner = f.winner_loser.map(|w| w.0);
        let loser = f.winner_loser.map(|w| w.1);
        let moves = i64::from(f.moves);
        let reason = f.reason.as_str();
        let now = now_ms();
        let counted = f.counted || f.rated;
        let ended = notifying!(self, client => {
            // A synchronous commit, unlike a move's: a finished game's record must survive a crash
            // of the database's machine (see "Durability" in the module's notes).
            let tx = client.transaction().await?;
            tx.batch_execute(SYNCHRONOUS).await?;
            let stmt = tx
                .prepare_cached(
                    "WITH g AS (
                       UPDATE games SET finished = true, result = $2, black_area = $3,
                         white_area = $4, ended_at = $5::bigint / 1000, finished_at = $5,
                         end_reason = $6, rated = $7
                       WHERE id = $1 AND NOT finished AND move_count = $8
                         AND ($9::bigint IS NULL OR deadline_at <= $9)
                       RETURNING size),
                     totals AS (
                       UPDATE players
                       SET wins = wins + CASE WHEN id = $10 THEN 1 ELSE 0 END,
                           losses = losses + CASE WHEN id = $11 THEN 1 ELSE 0 END,
                           rated_wins = rated_wins + CASE WHEN $7 AND id = $10 THEN 1 ELSE 0 END,
                           rated_losses = rated_losses + CASE WHEN $7 AND id = $11 THEN 1 ELSE 0 END
                       WHERE id IN ($10, $11) AND $12 AND EXISTS (SELECT 1 FROM g)),
                     sizes AS (
                       INSERT INTO records (player_id, size, wins, losses)
                       SELECT v.player, g.size, v.wins, v.losses
                       FROM g CROSS JOIN (VALUES ($10::bigint, 1::bigint, 0::bigint),
                                                 ($11::bigint, 0::bigint, 1::bigint))
                                         AS v (player, wins, losses)
                       WHERE $12 AND v.player IS NOT NULL
                       ORDER BY v.player
                       ON CONFLICT (player_id, size) DO UPDATE
                       SET wins = records.wins + excluded.wins,
                           losses = records.losses + excluded.losses),
                     note AS (SELECT pg_notify('gridarena', 'e ' || $1::bigint) FROM g)
                     SELECT count(*) FROM note",
                )
                .await?;
            let row = tx
                .query_one(
                    &stmt,
                    &[
                        &id,
                        &f.result,
                        &black_area,
                        &white_area,
                        &now,
                        &reason,
                        &f.rated,
                        &moves,
                        &f.late_at,
                        &winner,
                        &loser,
                        &counted,
                    ],
                )
                .await?;
            tx.commit().await?;
            Ok(row)
        })?;
        Ok(col::<i64>(&ended, 0)? == 1)
    }

    pub(in crate::store) async fn grace(&self, at: Millis) -> Result<(), StoreError> {
        retrying!(self, client => {
            client
                .execute(
                    "UPDATE games SET deadline_at = $1 WHERE NOT finished AND deadline_at < $1",
                    &[&at],
                )
                .await
        })?;
        Ok(())
    }

    pub(in crate::store) async fn rated_between(
        &self,
        a: i64,
        b: i64,
        since: Millis,
    ) -> Result<u32, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT count(*) FROM games
                 WHERE ((black_id = $1 AND white_id = $2) OR (black_id = $2 AND white_id = $1))
                   AND finished AND rated AND finished_at >= $3",
            )
            .await?;
        let row = client.query_one(&stmt, &[&a, &b, &since]).await?;
        Ok(count(col(&row, 0)?))
    }

    pub(in crate::store) async fn due(
        &self,
        instance: &InstanceId,
        now: Millis,
    ) -> Result<Vec<GameId>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT id FROM games
                 WHERE NOT finished AND clock_instance = $1 AND deadline_at <= $2
                 ORDER BY deadline_at, id",
            )
            .await?;
        let rows = client.query(&stmt, &[&instance.0, &now]).await?;
        rows.iter().map(|r| game_id(col(r, 0)?)).collect()
    }

    pub(in crate::store) async fn create_game(&self, game: &NewGame) -> Result<GameId, StoreError> {
        let g = game;
        let size = i64::from(g.size);
        let id: i64 = retrying!(self, client => {
            let tx = client.transaction().await?;
            let stmt = tx
                .prepare_cached("DELETE FROM seeks WHERE player_id = $1 OR player_id = $2")
                .await?;
            tx.execute(&stmt, &[&g.black, &g.white]).await?;
            let stmt = tx
                .prepare_cached(
                    "INSERT INTO games (size, black_id, white_id, created_at, deadline_at,
                                        clock_instance)
                     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                )
                .await?;
            let row = tx
                .query_one(
                    &stmt,
                    &[&size, &g.black, &g.white, &(g.now / 1000), &g.first_deadline, &g.instance.0],
                )
                .await?;
            tx.commit().await?;
            row.try_get(0)
        })?;
        game_id(id)
    }

    pub(in crate::store) async fn clocked_games_of(
        &self,
        player: i64,
        instance: &InstanceId,
    ) -> Result<Vec<GameId>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT id FROM games WHERE NOT finished AND clock_instance = $1
                 AND (black_id = $2 OR white_id = $2) ORDER BY id",
            )
            .await?;
        let rows = client.query(&stmt, &[&instance.0, &player]).await?;
        rows.iter().map(|r| game_id(col(r, 0)?)).collect()
    }

    pub(in crate::store) async fn unfinished(&self) -> Result<Vec<GameId>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query("SELECT id FROM games WHERE NOT finished ORDER BY id", &[])
            .await?;
        rows.iter().map(|r| game_id(col(r, 0)?)).collect()
    }

    pub(in crate::store) async fn unfinished_of(
        &self,
        player: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "{GAME_SELECT} WHERE NOT g.finished AND (g.black_id = $1 OR g.white_id = $1)
                 ORDER BY g.id"
            ))
            .await?;
        let rows = client.query(&stmt, &[&player]).await?;
        rows.iter().map(game_row).collect()
    }

    pub(in crate::store) async fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!("{GAME_SELECT} WHERE g.id = $1"))
            .await?;
        match client.query_opt(&stmt, &[&id]).await? {
            Some(row) => Ok(Some(game_row(&row)?)),
            None => Ok(None),
        }
    }
}

/// A game and its moves in one statement (one snapshot).
const GAME_SELECT: &str = "SELECT g.id, g.size, g.black_id, b.name, g.white_id, w.name, g.result,
        g.black_area, g.white_area, g.deadline_at,
        array(SELECT m.mv FROM moves m WHERE m.game_id = g.id ORDER BY m.number)
    FROM games g JOIN players b ON b.id = g.black_id JOIN players w ON w.id = g.white_id";

fn game_row(r: &Row) -> Result<GameRow, StoreError> {
    let area = |i: usize| -> Result<Option<u16>, StoreError> {
        Ok(col::<Option<i64>>(r, i)?.map(|a| u16::try_from(a).unwrap_or(u16::MAX)))
    };
    let score = match (area(7)?, area(8)?) {
        (Some(b), Some(w)) => Some((b, w)),
        _ => None,
    };
    let size: i64 = col(r, 1)?;
    Ok(GameRow {
        id: game_id(col(r, 0)?)?,
        size: u8::try_from(size).map_err(|_| StoreError(format!("board size {size}")))?,
        black: (col(r, 2)?, col(r, 3)?),
        white: (col(r, 4)?, col(r, 5)?),
        moves: col(r, 10)?,
        result: col(r, 6)?,
        score,
        deadline: col(r, 9)?,
    })
}
