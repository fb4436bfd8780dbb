//! Who runs each game's clock: leases, take-overs, `due`, `grace`, `retire`.

use super::*;

on_every_backend!(
    a_silent_instance_loses_its_clocks_after_the_lease,
    due_lists_only_the_callers_late_games,
    grace_moves_deadlines_forward_only,
);

async fn a_silent_instance_loses_its_clocks_after_the_lease(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 2).await;
    let (a, bi) = (instance("A"), instance("B"));
    assert_eq!(s.keep_alive(&bi, T0, LEASE).await.unwrap(), 0);
    let g = new_game(s, p[0], p[1], 9, T0 + 1000).await; // clock on A, alive at T0
    assert_eq!(s.due(&a, T0 + 1000).await.unwrap(), [g]);
    // A is still within its lease: nothing moves.
    assert_eq!(s.keep_alive(&bi, T0 + LEASE, LEASE).await.unwrap(), 0);
    assert_eq!(s.others_alive(&bi, T0 + LEASE, LEASE).await.unwrap(), 1);
    // One millisecond later A is gone: B takes its clock.
    let late = T0 + LEASE + 1;
    assert_eq!(s.keep_alive(&bi, late, LEASE).await.unwrap(), 1);
    assert_eq!(s.others_alive(&bi, late, LEASE).await.unwrap(), 0);
    assert_eq!(s.due(&bi, late).await.unwrap(), [g]);
    assert!(s.due(&a, late).await.unwrap().is_empty());
    // A comes back: B is alive, so A takes nothing back.
    assert_eq!(s.keep_alive(&a, late, LEASE).await.unwrap(), 0);
    assert_eq!(s.keep_alive(&bi, late, LEASE).await.unwrap(), 0);
    // B retires: its clocks are free at once.
    s.retire(&bi).await.unwrap();
    assert!(s.due(&bi, late).await.unwrap().is_empty());
    assert_eq!(s.keep_alive(&a, late, LEASE).await.unwrap(), 1);
    assert_eq!(s.due(&a, late).await.unwrap(), [g]);
    // A finished game's clock is nobody's concern.
    assert!(s.finish(g, &win(p[0], p[1], 0, true)).await.unwrap());
    assert!(s.due(&a, late).await.unwrap().is_empty());
    s.retire(&a).await.unwrap();
    assert_eq!(s.keep_alive(&bi, late, LEASE).await.unwrap(), 0);
}

async fn due_lists_only_the_callers_late_games(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 4).await;
    let g1 = new_game(s, p[0], p[1], 9, T0 + 2000).await;
    let g2 = new_game(s, p[2], p[3], 9, T0 + 1000).await;
    // A game whose clock B runs (B paired it).
    s.keep_alive(&instance("B"), T0, LEASE).await.unwrap();
    s.seek(
        &request(p[0], "B", 1, 13, ColorPref::Any),
        true,
        T0,
        LEASE,
        T0,
    )
    .await
    .unwrap();
    let out = s
        .seek(
            &request(p[1], "B", 2, 13, ColorPref::Any),
            true,
            T0,
            LEASE,
            T0,
        )
        .await
        .unwrap();
    let SeekOutcome::Paired { game: g3, .. } = out else {
        panic!("not paired")
    };
    let a = instance("A");
    assert!(s.due(&a, T0 + 999).await.unwrap().is_empty());
    assert_eq!(s.due(&a, T0 + 1000).await.unwrap(), [g2]);
    assert_eq!(s.due(&a, T0 + 5000).await.unwrap(), [g2, g1]);
    assert_eq!(s.due(&instance("B"), T0 + 5000).await.unwrap(), [g3]);
    // A move in time moves the deadline.
    s.add_move(g2, 1, 'B', "D4", T0 + 900, T0 + 9000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.due(&a, T0 + 5000).await.unwrap(), [g1]);
    assert!(s.due(&instance("C"), T0 + 99_999).await.unwrap().is_empty());
}

async fn grace_moves_deadlines_forward_only(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 4).await;
    let g1 = new_game(s, p[0], p[1], 9, T0 + 1000).await;
    let g2 = new_game(s, p[2], p[3], 9, T0 + 9000).await;
    s.grace(T0 + 5000).await.unwrap();
    assert_eq!(s.game(g1).await.unwrap().unwrap().deadline, T0 + 5000);
    assert_eq!(s.game(g2).await.unwrap().unwrap().deadline, T0 + 9000);
    assert!(s.due(&instance("A"), T0 + 4999).await.unwrap().is_empty());
}
