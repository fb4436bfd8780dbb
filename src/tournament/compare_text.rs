//! The Compare page's words and shapes apart from drawing, plain Rust tested natively: the command line
//! that runs the same comparison, a form field's text, the score bar's interval and marker, the speed
//! line, and the line for a position where the players parted.

use super::compare::{swing_text, Form};
use gridarena_engine::compare::{answer_text, Divergence, ScoreTally};

/// The same run on the command line.
pub fn command_line(f: &Form) -> String {
    format!(
        "gridarena halma compare {} {} --games {} --min-games {} --seed {} --preset {}",
        f.a.trim(),
        f.b.trim(),
        f.games.trim(),
        f.min_games.trim(),
        f.seed.trim(),
        f.preset.trim()
    )
}

/// The text of the field named `key` (a link's name for it); empty for a name the form has not.
pub fn field_text(f: &Form, key: &str) -> String {
    f.fields()
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_string())
        .unwrap_or_default()
}

/// "50 games in 12.5 s: 4.00 games per second.", for `games` played in `ms`.
pub fn rate_line(games: u64, ms: f64) -> String {
    format!(
        "{games} games in {:.1} s: {:.2} games per second.",
        ms / 1000.0,
        games as f64 * 1000.0 / ms.max(1.0)
    )
}

/// The score bar's band: A's share's shown interval, as a style over the bar's width.
pub fn interval_style(tally: &ScoreTally) -> String {
    let i = tally.interval();
    format!(
        "position:absolute;top:0;bottom:0;left:{:.1}%;width:{:.1}%;background:#9bd",
        i.low * 100.0,
        (i.high - i.low) * 100.0
    )
}

/// The score bar's marker at A's share, once a game is counted.
pub fn share_style(tally: &ScoreTally) -> Option<String> {
    tally.share().map(|p| {
        format!(
            "position:absolute;top:0;bottom:0;left:calc({:.1}% - 2px);width:4px;background:#036",
            p * 100.0
        )
    })
}

/// "Games 3 and 4, turn 7, red: A played ..., B played ...; what the swing says. "
pub fn parted_line(d: &Divergence) -> String {
    format!(
        "Games {} and {}, turn {}, {}: A played {}, B played {}; {}. ",
        2 * d.pair + 1,
        2 * d.pair + 2,
        d.tick,
        d.seat.name(),
        answer_text(d.a.as_ref()),
        answer_text(d.b.as_ref()),
        swing_text(d)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::Team;

    #[test]
    fn the_command_line_reads_the_trimmed_form() {
        let mut f = Form::new(Some(4));
        f.a = " code:Ada ".into();
        f.games = "20 ".into();
        assert_eq!(
            command_line(&f),
            format!(
                "gridarena halma compare code:Ada builtin:greedy --games 20 --min-games {} --seed 1 --preset arena",
                f.min_games
            )
        );
        assert_eq!(field_text(&f, "games"), "20 ");
        assert_eq!(field_text(&f, "b"), "builtin:greedy");
        assert_eq!(field_text(&f, "nope"), "");
    }

    #[test]
    fn the_rate_is_games_per_second_and_never_divides_by_zero() {
        assert_eq!(
            rate_line(50, 12_500.0),
            "50 games in 12.5 s: 4.00 games per second."
        );
        assert_eq!(
            rate_line(3, 0.0),
            "3 games in 0.0 s: 3000.00 games per second."
        );
    }

    #[test]
    fn the_bar_spans_the_interval_and_marks_the_share() {
        let none = ScoreTally::default();
        assert_eq!(share_style(&none), None);
        let tally = ScoreTally {
            wins: 3,
            draws: 0,
            losses: 1,
        };
        let marker = share_style(&tally).unwrap();
        assert!(marker.contains("left:calc(75.0% - 2px)"), "{marker}");
        let i = tally.interval();
        let band = interval_style(&tally);
        assert!(
            band.contains(&format!("left:{:.1}%", i.low * 100.0)),
            "{band}"
        );
        assert!(
            band.contains(&format!("width:{:.1}%", (i.high - i.low) * 100.0)),
            "{band}"
        );
    }

    #[test]
    fn a_parted_line_names_both_games_of_the_pair() {
        let d = Divergence {
            pair: 1,
            tick: 7,
            seat: Team::Blue,
            a: None,
            b: None,
            swing: 1.0,
        };
        assert_eq!(
            parted_line(&d),
            "Games 3 and 4, turn 7, blue: A played (not asked), B played (not asked); \
             with A's answer blue won, with B's blue lost. "
        );
    }
}
