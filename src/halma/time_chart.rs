//! How close each AI player is to the deadline, tick by tick: a small chart under the board, live and in
//! replays. Each team's answer times as a line against the tick's deadline (dashed), the slowest answers
//! ringed and named; where a web AI says how long it thought (`thinkMs`), the rest was the network's.

use super::answer_times::{slowest, TickTimes};
use super::arena_model::Screens;
use gridarena_engine::halma::Team;
use leptos::prelude::*;

const WIDTH: u64 = 320;
const HEIGHT: u64 = 80;

/// The chart's scale in whole numbers: ticks across, tenths of a millisecond up. The lines are drawn in
/// these units (an inner `<svg>` whose viewBox stretches them over the chart), so a tick writes each
/// point as two integers and never formats a float: a 1,000-tick chart is 3,000 points a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scale {
    first: u32,
    /// Ticks from the first shown to the last, at least 1.
    span: u32,
    /// The highest time or deadline shown, in tenths of a millisecond, at least 10.
    top: u64,
}

impl Scale {
    fn of(times: &[TickTimes]) -> Scale {
        let top = times
            .iter()
            .flat_map(|t| [t.ms.red, t.ms.blue, Some(t.limit_ms as f64)])
            .flatten()
            .map(tenths)
            .fold(10, u64::max);
        let first = times.first().map_or(1, |t| t.tick);
        let last = times.last().map_or(1, |t| t.tick).max(first + 1);
        Scale {
            first,
            span: last - first,
            top,
        }
    }

    /// The space above the highest point, a 20th of the chart's height as before (4 of 80 pixels).
    fn margin(self) -> u64 {
        (self.top / 19).max(1)
    }

    /// The lines' viewBox: the chart's whole height, the margin above the highest point included.
    fn view_box(self) -> String {
        let m = self.margin();
        format!("0 -{m} {} {}", self.span, self.top + m)
    }

    /// A point of a line, in the lines' units.
    fn point(self, tick: u32, ms: f64) -> String {
        let up = tenths(ms).min(self.top);
        format!("{},{}", tick.saturating_sub(self.first), self.top - up)
    }

    /// A ring's centre in the chart's own box (WIDTH by HEIGHT), to the pixel: a circle drawn in the
    /// lines' stretched units would be an ellipse.
    fn ring(self, tick: u32, ms: f64) -> (u64, u64) {
        let m = self.margin();
        let down = self.top - tenths(ms).min(self.top) + m;
        (
            u64::from(tick.saturating_sub(self.first)) * WIDTH / u64::from(self.span),
            down * HEIGHT / (self.top + m),
        )
    }
}

/// A time in whole tenths of a millisecond, at most 10^12 (a day is 864 million), so sums stay far
/// from overflow; a negative time reads 0, and so does NaN (`clamp` keeps it, `as` makes it 0).
fn tenths(ms: f64) -> u64 {
    (ms * 10.0).round().clamp(0.0, 1e12) as u64
}

/// Whole milliseconds, for the captions.
fn whole(ms: f64) -> u64 {
    ms.round() as u64
}

/// The chart of the shown game's answer times; nothing until an AI has answered.
#[component]
pub fn TimeChart(screen: Screens) -> impl IntoView {
    let times = Memo::new(move |_| screen.with(|s| s.times()));
    move || {
        times.with(|times| {
            if times.is_empty() {
                return None;
            }
            let scale = Scale::of(times);
            let line = |team: Team| {
                times
                    .iter()
                    .filter_map(|t| Some(scale.point(t.tick, t.ms[team]?)))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let deadline = times
                .iter()
                .map(|t| scale.point(t.tick, t.limit_ms as f64))
                .collect::<Vec<_>>()
                .join(" ");
            let marked = slowest(times, 3);
            let summary = marked
                .iter()
                .map(|(tick, team, ms)| {
                    let t = times.iter().find(|t| t.tick == *tick);
                    let limit = t.map_or(0, |t| t.limit_ms);
                    let net = t
                        .and_then(|t| t.think_ms[*team])
                        .map_or(String::new(), |think| {
                            format!(
                                " (thought {}, network {})",
                                whole(think),
                                whole((ms - think).max(0.0))
                            )
                        });
                    format!("tick {tick}: {team} {} of {limit} ms{net}", whole(*ms))
                })
                .collect::<Vec<_>>()
                .join("; ");
            let rings = marked
                .iter()
                .map(|(tick, team, ms)| {
                    let (cx, cy) = scale.ring(*tick, *ms);
                    view! {
                        <circle
                            class=format!("slow {team}")
                            cx=cx.to_string()
                            cy=cy.to_string()
                            r="3.5"
                        >
                            <title>{format!("tick {tick}: {team} {} ms", whole(*ms))}</title>
                        </circle>
                    }
                })
                .collect_view();
            Some(view! {
                <figure class="time-chart" data-testid="time-chart">
                    <svg
                        viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                        role="img"
                        aria-label="Answer time per tick against the deadline"
                        preserveAspectRatio="none"
                    >
                        <svg
                            width=WIDTH.to_string()
                            height=HEIGHT.to_string()
                            viewBox=scale.view_box()
                            preserveAspectRatio="none"
                        >
                            <polyline class="deadline" points=deadline />
                            <polyline class="red" points=line(Team::Red) />
                            <polyline class="blue" points=line(Team::Blue) />
                        </svg>
                        {rings}
                    </svg>
                    <figcaption data-testid="time-slowest">
                        {format!("Answer time per tick, the deadline dashed; slowest: {summary}.")}
                    </figcaption>
                </figure>
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::Teams;

    fn tick(tick: u32, red: Option<f64>, limit_ms: u64) -> TickTimes {
        TickTimes {
            tick,
            limit_ms,
            ms: Teams { red, blue: None },
            think_ms: Teams::default(),
        }
    }

    #[test]
    fn points_are_whole_ticks_and_tenths_of_a_millisecond_up_from_the_bottom() {
        let times = [
            tick(5, Some(12.34), 100),
            tick(6, None, 100),
            tick(7, Some(150.0), 100),
        ];
        let scale = Scale::of(&times);
        assert_eq!(
            scale,
            Scale {
                first: 5,
                span: 2,
                top: 1500
            }
        );
        // 150 ms is the top; 12.3 ms is 1,377 tenths below it; the deadline 500 below.
        assert_eq!(scale.point(7, 150.0), "2,0");
        assert_eq!(scale.point(5, 12.34), "0,1377");
        assert_eq!(scale.point(6, 100.0), "1,500");
        // The top 4 of the 80 pixels are the margin, as the chart always had.
        assert_eq!(scale.view_box(), "0 -78 2 1578");
        assert_eq!(scale.ring(7, 150.0), (320, 3));
        assert_eq!(scale.ring(5, 0.0), (0, 80));
    }

    #[test]
    fn a_lone_tick_and_odd_times_keep_the_scale_whole() {
        let scale = Scale::of(&[tick(1, Some(0.0), 0)]);
        assert_eq!(
            scale,
            Scale {
                first: 1,
                span: 1,
                top: 10
            }
        );
        assert_eq!(scale.point(1, f64::NAN), "0,10");
        assert_eq!(scale.point(1, -3.0), "0,10");
        assert_eq!(scale.point(1, f64::INFINITY), "0,0");
    }
}
