//! Storing moves several to a commit.
//!
//! PostgreSQL commits the transactions that notify one at a time, under one lock, and each commit wakes
//! every listening instance: a commit per move made the database the first thing a busy server ran out
//! of (0.45 ms of PostgreSQL's CPU per move). So moves that arrive while earlier ones are being stored
//! wait in [`Moves`], and whoever next gets one of the store's notifier permits stores all of them
//! (up to [`MAX_BATCH`], one per game) in one statement: each game's row is locked, in id order
//! (so two instances' batches cannot deadlock), and each move is checked against its own game exactly
//! as a single move was. A move alone is stored at once, as before.

use super::*;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;
use tokio::sync::oneshot;

/// The most moves stored by one statement.
const MAX_BATCH: usize = 128;

/// What a waiting `add_move` is told.
type Answer = Result<Result<(), MoveRefusal>, StoreError>;

/// One move waiting to be stored.
pub(super) struct Pending {
    game: i64,
    number: i64,
    color: String,
    mv: String,
    now: Millis,
    next_deadline: Millis,
    answer: oneshot::Sender<Answer>,
}

/// The moves waiting, oldest first.
#[derive(Default)]
pub(super) struct Moves(Mutex<VecDeque<Pending>>);

impl Moves {
    fn push(&self, p: Pending) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(p);
    }

    /// The oldest waiting moves, at most one per game (a later move of a game already taken waits for
    /// the next batch, behind the earlier one) and at most [`MAX_BATCH`].
    fn take(&self) -> Vec<Pending> {
        let mut queue = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut games = HashSet::new();
        let mut batch = Vec::new();
        let mut left = VecDeque::new();
        while let Some(p) = queue.pop_front() {
            if batch.len() < MAX_BATCH && games.insert(p.game) {
                batch.push(p);
            } else {
                left.push_back(p);
            }
        }
        *queue = left;
        batch
    }
}

/// Stores the batch in one statement; a row per game of the batch that exists, saying whether its
/// move was stored and, if not, what the game held.
const STORE_BATCH: &str = "WITH input AS (
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[],
                            $6::bigint[]) AS i(game, number, color, mv, now, next)),
     g AS (
       SELECT id, finished, move_count, deadline_at FROM games
       WHERE id IN (SELECT game FROM input) ORDER BY id FOR UPDATE),
     stored AS (
       UPDATE games SET move_count = i.number, deadline_at = i.next
       FROM g JOIN input i ON i.game = g.id
       WHERE games.id = g.id AND NOT g.finished AND g.move_count = i.number - 1
         AND g.deadline_at >= i.now
       RETURNING games.id, i.number, i.color, i.mv, i.now, i.next),
     played AS (
       INSERT INTO moves (game_id, number, color, mv, played_at)
       SELECT id, number, color, mv, now / 1000 FROM stored),
     note AS (
       SELECT pg_notify('gridarena', 'm ' || id || ' ' || number || ' ' || next || ' ' || mv)
       FROM stored)
     SELECT g.id, g.finished, g.move_count, g.deadline_at,
            g.id IN (SELECT id FROM stored), (SELECT count(*) FROM note)
     FROM g";

impl PgStore {
    pub(in crate::store) async fn add_move(
        &self,
        id: i64,
        number: u32,
        color: char,
        mv: &str,
        now: Millis,
        next_deadline: Millis,
    ) -> Result<Result<(), MoveRefusal>, StoreError> {
        let (answer, mut told) = oneshot::channel();
        self.moves.push(Pending {
            game: id,
            number: i64::from(number),
            color: color.to_string(),
            mv: mv.to_owned(),
            now,
            next_deadline,
            answer,
        });
        // The batch holding this move was dropped unfinished: the store is closing, or the call that
        // ran it gave up waiting for the database (`super::super::CALL_TIMEOUT`).
        let closing = || StoreError("the batch storing this move was given up".into());
        loop {
            tokio::select! {
                biased;
                told = &mut told => return told.unwrap_or_else(|_| Err(closing())),
                permit = self.notifiers.acquire() => {
                    let permit = permit.map_err(|_| closing())?;
                    let batch = self.moves.take();
                    if batch.is_empty() {
                        // Another batch took this move: its answer is on its way.
                        drop(permit);
                        return told.await.unwrap_or_else(|_| Err(closing()));
                    }
                    self.store_batch(batch).await;
                }
            }
        }
    }

    /// Stores `batch` and tells each waiting move what became of it.
    async fn store_batch(&self, batch: Vec<Pending>) {
        match self.judged(&batch).await {
            Ok(mut answers) => {
                for p in batch {
                    // A game without a row does not exist.
                    let answer = answers.remove(&p.game).unwrap_or(Err(MoveRefusal::Over));
                    let _ = p.answer.send(Ok(answer));
                }
            }
            Err(e) => {
                for p in batch {
                    let _ = p.answer.send(Err(e.clone()));
                }
            }
        }
    }

    /// Runs [`STORE_BATCH`]: for each game of `batch` that exists, its move stored or why not.
    async fn judged(
        &self,
        batch: &[Pending],
    ) -> Result<HashMap<i64, Result<(), MoveRefusal>>, StoreError> {
        let column = |f: fn(&Pending) -> i64| batch.iter().map(f).collect::<Vec<i64>>();
        let (games, numbers) = (column(|p| p.game), column(|p| p.number));
        let (nows, nexts) = (column(|p| p.now), column(|p| p.next_deadline));
        let colors: Vec<&str> = batch.iter().map(|p| p.color.as_str()).collect();
        let mvs: Vec<&str> = batch.iter().map(|p| p.mv.as_str()).collect();
        let rows = retrying!(self, client => {
            let stmt = client.prepare_cached(STORE_BATCH).await?;
            client
                .query(&stmt, &[&games, &numbers, &colors, &mvs, &nows, &nexts])
                .await
        })?;
        let asked: HashMap<i64, &Pending> = batch.iter().map(|p| (p.game, p)).collect();
        let mut answers = HashMap::with_capacity(rows.len());
        for row in &rows {
            let id: i64 = col(row, 0)?;
            let Some(p) = asked.get(&id) else { continue };
            let answer = if col::<bool>(row, 4)? {
                Ok(())
            } else {
                let (finished, stored) = (col(row, 1)?, col(row, 2)?);
                // Not stored, yet nothing to refuse: only if the row changed between the checks (it
                // cannot, it is locked); say the copy is stale rather than claim success.
                Err(
                    move_refusal(finished, stored, col(row, 3)?, p.number as u32, p.now).unwrap_or(
                        MoveRefusal::OutOfStep {
                            stored: count(stored),
                        },
                    ),
                )
            };
            answers.insert(id, answer);
        }
        Ok(answers)
    }
}
