//! Each AI player's answer time, tick by tick, against the tick's deadline: what the time chart under
//! the board draws (live and in replays). A web AI may say how long it thought (`thinkMs` in its answer,
//! docs/protocol.md), so the chart can tell thinking from the network's round trip.

use gridarena_engine::halma::record::Record;
use gridarena_engine::halma::{Team, Teams, Wire};

/// One tick's answer times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TickTimes {
    /// The tick, from 1.
    pub tick: u32,
    /// How long an answer was waited for.
    pub limit_ms: u64,
    /// From asking to the whole answer, for each team that answered in time.
    pub ms: Teams<Option<f64>>,
    /// The time the AI said it thought, where it said so.
    pub think_ms: Teams<Option<f64>>,
}

/// The most ticks a chart keeps (the latest): a long game's chart stays a few kilobytes.
pub const MAX_TICKS: usize = 1000;

/// The `thinkMs` an answer body gives: a finite number from 0 up, else nothing.
pub fn think_ms(body: Option<&str>) -> Option<f64> {
    /// Only the one field: read into a whole `Value`, every answer built a map of its fields (its move,
    /// its debug marks) to throw away, each tick.
    #[derive(serde::Deserialize)]
    struct Thought {
        #[serde(rename = "thinkMs")]
        think_ms: Option<serde_json::Value>,
    }
    // serde reads a struct from a list too (`[5]`): only an object says what it thought.
    let body = body?.trim_start();
    if !body.starts_with('{') {
        return None;
    }
    let thought: Thought = serde_json::from_str(body).ok()?;
    thought
        .think_ms?
        .as_f64()
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// A record's answer times, from the answers it kept (web and code players': a built-in's answer keeps
/// no time in a record).
pub fn of_record(record: &Record) -> Vec<TickTimes> {
    let from = record.ticks().saturating_sub(MAX_TICKS);
    (from + 1..=record.ticks())
        .filter_map(|k| {
            let wires: Teams<Option<&Wire>> = Teams::from_fn(|team: Team| record.wire(k, team));
            let limit_ms = Team::ALL
                .into_iter()
                .find_map(|t| wires[t].map(|w| w.time_limit_ms))?;
            Some(TickTimes {
                tick: k as u32,
                limit_ms,
                ms: wires.map(|_, w| w.and_then(|w| w.ms).map(f64::from)),
                think_ms: wires.map(|_, w| think_ms(w.and_then(|w| w.body.as_deref()))),
            })
        })
        .collect()
}

/// The ticks to mark on the chart: the `n` slowest answers, any team, slowest first; of equal times the
/// earlier tick, then red. Picked in one pass, as the chart asks each tick: sorting every answer of the
/// game to keep three was most of the chart's work.
pub fn slowest(times: &[TickTimes], n: usize) -> Vec<(u32, Team, f64)> {
    let mut top: Vec<(u32, Team, f64)> = Vec::new();
    for t in times {
        for team in Team::ALL {
            let Some(ms) = t.ms[team] else { continue };
            // After every kept answer at least as slow, so that equal times keep their order.
            let at = top
                .iter()
                .position(|k| k.2.total_cmp(&ms).is_lt())
                .unwrap_or(top.len());
            if at < n {
                top.insert(at, (t.tick, team, ms));
                top.truncate(n);
            }
        }
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_ms_is_a_number_from_zero_or_nothing() {
        assert_eq!(think_ms(Some(r#"{"thinkMs": 12.5}"#)), Some(12.5));
        assert_eq!(think_ms(Some(r#"{"thinkMs": -1}"#)), None);
        assert_eq!(think_ms(Some(r#"{"thinkMs": "5"}"#)), None);
        assert_eq!(think_ms(Some("not json")), None);
        assert_eq!(think_ms(Some("[5]")), None);
        assert_eq!(
            think_ms(Some(r#"{"move": [[1, 2], [1, 3]], "thinkMs": 3}"#)),
            Some(3.0)
        );
        assert_eq!(think_ms(Some(r#" {"move": [[1, 2], [1, 3]]}"#)), None);
        assert_eq!(think_ms(None), None);
    }

    #[test]
    fn the_slowest_answers_come_first() {
        let t = |tick, red, blue| TickTimes {
            tick,
            limit_ms: 100,
            ms: Teams {
                red: Some(red),
                blue,
            },
            think_ms: Teams::default(),
        };
        let times = [
            t(1, 5.0, Some(50.0)),
            t(2, 70.0, None),
            t(3, 1.0, Some(2.0)),
        ];
        assert_eq!(
            slowest(&times, 2),
            vec![(2, Team::Red, 70.0), (1, Team::Blue, 50.0)]
        );
        assert_eq!(slowest(&times, 0), vec![]);
    }

    #[test]
    fn the_slowest_are_those_a_stable_sort_of_every_answer_puts_first() {
        // Times from a small range, so many are equal: the earlier tick, then red, comes first.
        let mut seed = 7_u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 59
        };
        let times: Vec<TickTimes> = (1..=200)
            .map(|tick| TickTimes {
                tick,
                limit_ms: 100,
                ms: Teams {
                    red: (next() > 3).then(|| next() as f64),
                    blue: (next() > 3).then(|| next() as f64),
                },
                think_ms: Teams::default(),
            })
            .collect();
        let mut all: Vec<(u32, Team, f64)> = times
            .iter()
            .flat_map(|t| Team::ALL.map(|team| t.ms[team].map(|ms| (t.tick, team, ms))))
            .flatten()
            .collect();
        all.sort_by(|a, b| b.2.total_cmp(&a.2));
        for n in [1, 3, 10, 500] {
            let want: Vec<_> = all.iter().copied().take(n).collect();
            assert_eq!(slowest(&times, n), want, "{n}");
        }
    }
}
