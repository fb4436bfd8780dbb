//! Perft against the published move counts (../shared/notes/halma.md), and the camp rules' own counts.
//!
//! The figures live in `tests/perft.txt`, one line per preset, rule set and depth, so a new figure is a
//! line of data, not code.

use gridarena_engine::halma::{
    perft, CampRules, Game, Piece, Position, Preset, Rules, Team, Teams,
};

fn start(preset: Preset, camp_rule: bool, camp_rules: CampRules) -> Position {
    let rules: Rules = preset.rules();
    let game = Game::new(&rules, 0).expect("presets are valid");
    let p = game.position();
    let pieces: Teams<Vec<Piece>> = Teams::from_fn(|t| p.pieces(t).to_vec());
    let dests = Teams::from_fn(|t| p.destinations(t).to_vec());
    Position::new(p.size(), camp_rule, pieces, dests)
        .and_then(|p| p.with_camp_rules(camp_rules))
        .expect("presets are valid")
}

#[test]
fn perft_matches_the_table() {
    let table = include_str!("perft.txt");
    let mut checked = 0;
    for line in table
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [preset, rule, depth, expected] = f[..] else {
            panic!("bad line in perft.txt: {line}")
        };
        let preset: Preset = preset.parse().unwrap();
        let (camp_rule, camp_rules) = match rule {
            "camp" => (true, CampRules::Seed),
            "nocamp" => (false, CampRules::Seed),
            "course" => (true, CampRules::Course),
            other => panic!("unknown rule set {other}"),
        };
        let depth: u32 = depth.parse().unwrap();
        let expected: u64 = expected.replace(',', "").parse().unwrap();
        let mut pos = start(preset, camp_rule, camp_rules);
        assert_eq!(
            perft(&mut pos, Team::Red, depth),
            expected,
            "perft {preset} {rule} depth {depth}"
        );
        checked += 1;
    }
    assert!(
        checked >= 22,
        "perft.txt lost lines: only {checked} checked"
    );
}
