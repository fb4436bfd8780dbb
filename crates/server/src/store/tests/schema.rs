//! Migrations: a new database gets the current schema, opening it again changes nothing, a version-1
//! database (as `db.rs` wrote them) becomes the current version with its games going on, and a newer
//! one is refused.

use super::*;

/// The current version (both databases have the same).
const CURRENT: i64 = super::super::sqlite::VERSION;

on_every_backend!(
    a_new_database_gets_the_current_schema,
    a_newer_schema_is_refused
);

async fn a_new_database_gets_the_current_schema(b: Backend) {
    assert_eq!(
        super::super::sqlite::VERSION,
        super::super::postgres::VERSION
    );
    let db = Db::new(b).await;
    assert_eq!(db.store.schema_version().await.unwrap(), CURRENT);
    if b == Backend::Memory {
        return;
    }
    players(&db.store, 1).await;
    drop(db.store);
    let again = Store::open(&db.spec).await.expect("open again");
    assert_eq!(again.schema_version().await.unwrap(), CURRENT);
    assert!(again.record("p0").await.unwrap().is_some());
}

async fn force_version(store: &Store, version: i64) {
    match store {
        Store::Sqlite(s) => s.force_version(version).await.unwrap(),
        Store::Postgres(s) => s.force_version(version).await.unwrap(),
    }
}

async fn a_newer_schema_is_refused(b: Backend) {
    let db = Db::new(b).await;
    force_version(&db.store, 99).await;
    if b == Backend::Memory {
        // Nothing to reopen; the check is the same code as for a file.
        return;
    }
    drop(db.store);
    match Store::open(&db.spec).await {
        Err(OpenError::NewerSchema {
            found: 99,
            known: CURRENT,
        }) => {}
        Err(e) => panic!("wrong refusal: {e}"),
        Ok(_) => panic!("a newer schema was opened"),
    }
}

/// The unfinished game of a version-1 database: two moves, no deadline, no clock.
struct V1 {
    ada: i64,
    bob: i64,
    finished: GameId,
    unfinished: GameId,
}

async fn check_migrated(store: &Store, v1: &V1) {
    assert_eq!(store.schema_version().await.unwrap(), CURRENT);
    let game = store.game(v1.unfinished).await.unwrap().unwrap();
    assert_eq!(game.moves, ["D4", "pass"]);
    assert!(
        game.deadline > now_ms(),
        "the game goes on after the migration"
    );
    assert_eq!(store.unfinished().await.unwrap(), [v1.unfinished]);
    // The move count was migrated: move 3 is next.
    assert_eq!(
        store
            .add_move(v1.unfinished, 2, 'W', "E5", now_ms(), now_ms() + 1000)
            .await
            .unwrap(),
        Err(MoveRefusal::OutOfStep { stored: 2 })
    );
    assert_eq!(
        store
            .add_move(v1.unfinished, 3, 'B', "E5", now_ms(), now_ms() + 1000)
            .await
            .unwrap(),
        Ok(())
    );
    // Its clock belongs to nobody until an instance takes it.
    let a = instance("A");
    assert_eq!(store.keep_alive(&a, now_ms(), LEASE).await.unwrap(), 1);
    // The finished game kept its count and counts as rated.
    let ada = store.record("ada").await.unwrap().unwrap();
    assert_eq!((ada.wins, ada.losses), (1, 0));
    assert_eq!(ada.by_size[1], (13, 1, 0));
    assert_eq!(store.rated_between(v1.bob, v1.ada, 0).await.unwrap(), 1);
    // Its count was rated then, so the leaderboard ranks it.
    assert_eq!(
        store.leaderboard(20).await.unwrap(),
        [("Ada".to_string(), 1, 0), ("Bob".to_string(), 0, 1)]
    );
    let done = store.game(v1.finished).await.unwrap().unwrap();
    assert_eq!(done.result.as_deref(), Some("B+R"));
    assert!(!store
        .finish(v1.finished, &win(v1.bob, v1.ada, 1, true))
        .await
        .unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_sqlite_file_migrates_step_by_step() {
    // Version 1 as the first release wrote it (db.rs, since replaced by the store).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite3");
    super::super::sqlite::migrate_to(&path, 1).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "INSERT INTO players (id, name, name_key, token_hash, wins, created_at)
           VALUES (1, 'Ada', 'ada', x'01', 1, 0);
         INSERT INTO players (id, name, name_key, token_hash, losses, created_at)
           VALUES (2, 'Bob', 'bob', x'02', 1, 0);
         INSERT INTO records VALUES (1, 13, 1, 0), (2, 13, 0, 1);
         INSERT INTO games (id, size, black_id, white_id, created_at, finished, result, ended_at)
           VALUES (1, 13, 1, 2, 0, 1, 'B+R', 5);
         INSERT INTO moves VALUES (1, 1, 'B', 'D4', 0);
         INSERT INTO games (id, size, black_id, white_id, created_at) VALUES (2, 9, 1, 2, 0);
         INSERT INTO moves VALUES (2, 1, 'B', 'D4', 0), (2, 2, 'W', 'pass', 0);",
    )
    .unwrap();
    drop(conn);
    let store = Store::open(path.to_str().unwrap()).await.unwrap();
    let v1 = V1 {
        ada: 1,
        bob: 2,
        finished: 1,
        unfinished: 2,
    };
    check_migrated(&store, &v1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_postgres_database_migrates() {
    let url = testing::fresh_database().await;
    super::super::postgres::migrate_to(&url, 1).await.unwrap();
    let client = super::super::postgres::connect_raw(&url).await.unwrap();
    client
        .batch_execute(
            "INSERT INTO players (id, name, name_key, token_hash, wins, created_at)
               VALUES (1, 'Ada', 'ada', '\\x01', 1, 0);
             INSERT INTO players (id, name, name_key, token_hash, losses, created_at)
               VALUES (2, 'Bob', 'bob', '\\x02', 1, 0);
             INSERT INTO records VALUES (1, 13, 1, 0), (2, 13, 0, 1);
             INSERT INTO games (id, size, black_id, white_id, created_at, finished, result, ended_at)
               VALUES (1, 13, 1, 2, 0, true, 'B+R', 5);
             INSERT INTO moves VALUES (1, 1, 'B', 'D4', 0);
             INSERT INTO games (id, size, black_id, white_id, created_at) VALUES (2, 9, 1, 2, 0);
             INSERT INTO moves VALUES (2, 1, 'B', 'D4', 0), (2, 2, 'W', 'pass', 0);
             SELECT setval(pg_get_serial_sequence('players', 'id'), 2);
             SELECT setval(pg_get_serial_sequence('games', 'id'), 2);",
        )
        .await
        .unwrap();
    let store = Store::open(&url).await.unwrap();
    let v1 = V1 {
        ada: 1,
        bob: 2,
        finished: 1,
        unfinished: 2,
    };
    check_migrated(&store, &v1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_postgres_instances_starting_together_migrate_once() {
    let url = testing::fresh_database().await;
    let (a, b) = tokio::join!(Store::open(&url), Store::open(&url));
    let (a, b) = (a.expect("first"), b.expect("second"));
    assert_eq!(a.schema_version().await.unwrap(), CURRENT);
    assert_eq!(b.schema_version().await.unwrap(), CURRENT);
    let client = super::super::postgres::connect_raw(&url).await.unwrap();
    let rows = client
        .query_one("SELECT count(*) FROM schema_version", &[])
        .await
        .unwrap();
    assert_eq!(rows.get::<_, i64>(0), 1);
}
