//! What only the alternating mode has: the side to move, and the first mover drawn from the seed.

use super::{error_of, mv, none};
use gridarena_engine::halma::{Answer, Game, Mode, NoMove, Preset, Rules, Team, TickRefused};

/// A seed whose classic/mini game starts with `team`.
fn seed_for(team: Team) -> u64 {
    (0..).find(|&s| Rules::first_mover(s) == team).unwrap()
}

#[test]
fn only_the_side_to_move_may_move() {
    for preset in [Preset::Classic, Preset::Mini] {
        let mut g = Game::new(&preset.rules(), seed_for(Team::Red)).unwrap();
        assert_eq!(g.mode(), Mode::Alternating);
        assert_eq!(g.to_move(), Some(Team::Red));
        assert_eq!(g.movers(), vec![Team::Red]);
        let before = g.clone();
        let (red_move, blue_move) = match preset {
            Preset::Classic => (mv((2, 3), &[(3, 3)]), mv((11, 14), &[(10, 13)])),
            _ => (mv((1, 2), &[(2, 2)]), mv((4, 7), &[(3, 7)])),
        };
        assert_eq!(
            g.tick(none(), blue_move.clone()),
            Err(TickRefused::NotYourTurn(Team::Blue))
        );
        assert_eq!(
            g.tick(red_move.clone(), blue_move.clone()),
            Err(TickRefused::NotYourTurn(Team::Blue))
        );
        assert!(TickRefused::NotYourTurn(Team::Blue)
            .to_string()
            .contains("blue"));
        assert_eq!(g, before, "a refused tick changed the game");
        let o = g.play(Team::Red, red_move).unwrap();
        assert!(o.errors.is_empty(), "{preset}: {:?}", o.errors);
        assert_eq!(o.movers, vec![Team::Red]);
        assert_eq!(o.moves.len(), 1);
        assert_eq!(g.to_move(), Some(Team::Blue));
        assert_eq!(
            g.play(Team::Red, mv((2, 2), &[(3, 3)])),
            Err(TickRefused::NotYourTurn(Team::Red))
        );
        let o = g.play(Team::Blue, blue_move).unwrap();
        assert!(o.errors.is_empty(), "{preset}: {:?}", o.errors);
        assert_eq!(g.to_move(), Some(Team::Red));
        assert_eq!(g.turn(), 2);
    }
}

#[test]
fn the_first_mover_is_drawn_from_the_seed() {
    for preset in [Preset::Classic, Preset::Mini] {
        let firsts: Vec<Team> = (0..32)
            .map(|s| Game::new(&preset.rules(), s).unwrap().to_move().unwrap())
            .collect();
        assert!(
            firsts.contains(&Team::Red) && firsts.contains(&Team::Blue),
            "{preset}: {firsts:?}"
        );
        for (s, &t) in firsts.iter().enumerate() {
            let again = Game::new(&preset.rules(), s as u64).unwrap();
            assert_eq!(again.to_move(), Some(t), "seed {s} is not reproducible");
            assert_eq!(Rules::first_mover(s as u64), t);
        }
    }
    // The arena has no side to move.
    assert_eq!(
        Game::new(&Preset::Arena.rules(), 1).unwrap().to_move(),
        None
    );
}

#[test]
fn the_turn_passes_when_the_movers_move_is_missing_or_invalid() {
    let mut g = Game::new(&Preset::Mini.rules(), seed_for(Team::Blue)).unwrap();
    let start = g.position().clone();
    let o = g.play(Team::Blue, none()).unwrap();
    assert_eq!(o.errors.len(), 1);
    assert_eq!(error_of(&o, Team::Blue).code, "missing");
    assert_eq!(g.to_move(), Some(Team::Red));
    // Red's answer is invalid: it loses its turn.
    let o = g.play(Team::Red, mv((0, 0), &[(1, 1)])).unwrap();
    assert_eq!(error_of(&o, Team::Red).code, "occupied");
    assert!(o.moves.is_empty());
    assert_eq!(g.to_move(), Some(Team::Blue));
    assert_eq!(g.turn(), 2);
    assert_eq!(g.position(), &start);
    // The team not asked is never reported, whatever it "answered".
    let o = g
        .tick(Answer::NoMove(NoMove::TimedOut { after_ms: 5 }), none())
        .unwrap();
    assert_eq!(o.errors.len(), 1);
    assert_eq!(o.errors[0].team, Team::Blue);
}
