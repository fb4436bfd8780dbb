//! Games: moves, the end, clocks that are due, and reading games back.

use super::*;

impl SqliteStore {
    pub(in crate::store) async fn add_move(
        &self,
        id: i64,
        number: u32,
        color: char,
        mv: &str,
        now: Millis,
        next_deadline: Millis,
    ) -> Result<Result<(), MoveRefusal>, StoreError> {
        let mv = mv.to_owned();
        self.workers
            .write(move |c| {
                let state = c
                    .prepare_cached(
                        "SELECT finished, move_count, deadline_at FROM games WHERE id = ?1",
                    )?
                    .query_row([id], |r| {
                        Ok((
                            r.get::<_, bool>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, i64>(2)?,
                        ))
                    })
                    .optional()?;
                let Some((finished, stored, deadline)) = state else {
                    return Ok(Err(MoveRefusal::Over));
                };
                if let Some(refusal) = move_refusal(finished, stored, deadline, number, now) {
                    return Ok(Err(refusal));
                }
                c.prepare_cached(
                    "INSERT INTO moves (game_id, number, color, mv, played_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    id,
                    number,
                    color.to_string(),
                    mv,
                    now / 1000
                ])?;
                c.prepare_cached(
                    "UPDATE games SET move_count = ?2, deadline_at = ?3 WHERE id = ?1",
                )?
                .execute(params![id, number, next_deadline])?;
                Ok(Ok(()))
            })
            .await
    }

    pub(in crate::store) async fn finish(
        &self,
        id: i64,
        finish: &Finish,
    ) -> Result<bool, StoreError> {
        let f = finish.clone();
        // Durable: a finished game's record survives a power cut (see `worker`).
        self.workers
            .write_durable(move |c| {
                let now = now_ms();
                let changed = c
                    .prepare_cached(
                        "UPDATE games SET finished = 1, result = ?2, black_area = ?3, white_area = ?4,
                           ended_at = ?5, finished_at = ?6, end_reason = ?7, rated = ?8
                         WHERE id = ?1 AND finished = 0 AND move_count = ?9
                           AND (?10 IS NULL OR deadline_at <= ?10)",
                    )?
                    .execute(params![
                        id,
                        f.result,
                        f.score.map(|s| s.0),
                        f.score.map(|s| s.1),
                        now / 1000,
                        now,
                        f.reason.as_str(),
                        f.rated,
                        f.moves,
                        f.late_at
                    ])?;
                if changed != 1 {
                    return Ok(false);
                }
                if let (true, Some((winner, loser))) = (f.counted || f.rated, f.winner_loser) {
                    let size: i64 = c
                        .prepare_cached("SELECT size FROM games WHERE id = ?1")?
                        .query_row([id], |r| r.get(0))?;
                    c.prepare_cached(
                        "UPDATE players SET wins = wins + (id = ?1), losses = losses + (id = ?2),
                           rated_wins = rated_wins + (?3 AND id = ?1),
                           rated_losses = rated_losses + (?3 AND id = ?2)
                         WHERE id IN (?1, ?2)",
                    )?
                    .execute(params![winner, loser, f.rated])?;
                    let mut up = c.prepare_cached(
                        "INSERT INTO records (player_id, size, wins, losses) VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (player_id, size) DO UPDATE
                         SET wins = wins + excluded.wins, losses = losses + excluded.losses",
                    )?;
                    up.execute(params![winner, size, 1, 0])?;
                    up.execute(params![loser, size, 0, 1])?;
                }
                Ok(true)
            })
            .await
    }

    pub(in crate::store) async fn grace(&self, at: Millis) -> Result<(), StoreError> {
        self.workers
            .write(move |c| {
                c.prepare_cached(
                    "UPDATE games SET deadline_at = ?1 WHERE finished = 0 AND deadline_at < ?1",
                )?
                .execute([at])?;
                Ok(())
            })
            .await
    }

    pub(in crate::store) async fn rated_between(
        &self,
        a: i64,
        b: i64,
        since: Millis,
    ) -> Result<u32, StoreError> {
        self.workers
            .read(move |c| {
                let n: i64 = c
                    .prepare_cached(
                        "SELECT count(*) FROM games
                         WHERE ((black_id = ?1 AND white_id = ?2) OR (black_id = ?2 AND white_id = ?1))
                           AND finished = 1 AND rated = 1 AND finished_at >= ?3",
                    )?
                    .query_row(params![a, b, since], |r| r.get(0))?;
                Ok(u32::try_from(n).unwrap_or(u32::MAX))
            })
            .await
    }

    pub(in crate::store) async fn due(
        &self,
        instance: &InstanceId,
        now: Millis,
    ) -> Result<Vec<GameId>, StoreError> {
        let me = instance.0.clone();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id FROM games
                     WHERE finished = 0 AND clock_instance = ?1 AND deadline_at <= ?2
                     ORDER BY deadline_at, id",
                )?;
                let ids = s.query_map(params![me, now], |r| r.get::<_, GameId>(0))?;
                Ok(ids.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }

    pub(in crate::store) async fn create_game(&self, game: &NewGame) -> Result<GameId, StoreError> {
        let g = game.clone();
        self.workers
            .write(move |c| {
                c.prepare_cached("DELETE FROM seeks WHERE player_id IN (?1, ?2)")?
                    .execute(params![g.black, g.white])?;
                c.prepare_cached(
                    "INSERT INTO games (size, black_id, white_id, created_at, deadline_at, clock_instance)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(params![
                    g.size,
                    g.black,
                    g.white,
                    g.now / 1000,
                    g.first_deadline,
                    g.instance.0
                ])?;
                let id = c.last_insert_rowid();
                GameId::try_from(id).map_err(|_| StoreError(format!("game id {id} out of range")))
            })
            .await
    }

    pub(in crate::store) async fn clocked_games_of(
        &self,
        player: i64,
        instance: &InstanceId,
    ) -> Result<Vec<GameId>, StoreError> {
        let me = instance.0.clone();
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(
                    "SELECT id FROM games WHERE finished = 0 AND clock_instance = ?1
                     AND (black_id = ?2 OR white_id = ?2) ORDER BY id",
                )?;
                let ids = s.query_map(params![me, player], |r| r.get::<_, GameId>(0))?;
                Ok(ids.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }

    pub(in crate::store) async fn unfinished(&self) -> Result<Vec<GameId>, StoreError> {
        self.workers
            .read(|c| {
                let mut s =
                    c.prepare_cached("SELECT id FROM games WHERE finished = 0 ORDER BY id")?;
                let ids = s.query_map([], |r| r.get::<_, GameId>(0))?;
                Ok(ids.collect::<rusqlite::Result<_>>()?)
            })
            .await
    }

    pub(in crate::store) async fn unfinished_of(
        &self,
        player: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(&format!(
                    "{GAME_SELECT} WHERE g.finished = 0 AND (g.black_id = ?1 OR g.white_id = ?1)
                     ORDER BY g.id"
                ))?;
                let games = s
                    .query_map([player], game_row)?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                games.into_iter().map(|g| with_moves(c, g)).collect()
            })
            .await
    }

    pub(in crate::store) async fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        self.workers
            .read(move |c| {
                let mut s = c.prepare_cached(&format!("{GAME_SELECT} WHERE g.id = ?1"))?;
                match s.query_row([id], game_row).optional()? {
                    Some(g) => Ok(Some(with_moves(c, g)?)),
                    None => Ok(None),
                }
            })
            .await
    }
}

const GAME_SELECT: &str = "SELECT g.id, g.size, g.black_id, b.name, g.white_id, w.name, g.result,
        g.black_area, g.white_area, g.deadline_at
    FROM games g JOIN players b ON b.id = g.black_id JOIN players w ON w.id = g.white_id";

/// A row of [`GAME_SELECT`], without its moves.
fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let score = match (r.get::<_, Option<u16>>(7)?, r.get::<_, Option<u16>>(8)?) {
        (Some(b), Some(w)) => Some((b, w)),
        _ => None,
    };
    Ok(GameRow {
        id: r.get(0)?,
        size: r.get(1)?,
        black: (r.get(2)?, r.get(3)?),
        white: (r.get(4)?, r.get(5)?),
        moves: Vec::new(),
        result: r.get(6)?,
        score,
        deadline: r.get(9)?,
    })
}

fn with_moves(c: &Connection, mut game: GameRow) -> Result<GameRow, StoreError> {
    let id = i64::try_from(game.id).map_err(|_| StoreError("game id out of range".into()))?;
    let mut s = c.prepare_cached("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY number")?;
    game.moves = s
        .query_map([id], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(game)
}
