//! How close each AI player is to the deadline, tick by tick: a small chart under the board, live and in
//! replays. Each team's answer times as a line against the tick's deadline (dashed), the slowest answers
//! ringed and named; where a web AI says how long it thought (`thinkMs`), the rest was the network's.

use super::answer_times::{slowest, TickTimes};
use super::arena_model::Screens;
use gridarena_engine::halma::Team;
use leptos::html::{Figcaption, Figure};
use leptos::prelude::*;
use leptos::svg::{Polyline, Svg, G};
use web_sys::{Element, HtmlElement};

const WIDTH: u64 = 320;
const HEIGHT: u64 = 80;

/// The chart's scale in whole numbers: ticks across, tenths of a millisecond up. The lines are drawn in
/// these units (an inner `<svg>` whose viewBox stretches them over the chart), so a tick writes each
/// point as two integers and never formats a float: a 1,000-tick chart is 3,000 points a tick.
///
/// A point depends on nothing but its tick and its time (up is negative, the viewBox's top is the
/// highest time), and the ticks across are the game's so far rounded up to a few steps
/// ([`ticks_across`]): a tick adds a point to each line, and the viewBox and the rings stay as they
/// were, where a scale that moved with every tick made the browser lay out and paint the whole chart.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scale {
    first: u32,
    /// Ticks across the chart, from the first shown: at least 10.
    span: u32,
    /// The highest time or deadline shown, in tenths of a millisecond, at least 10.
    top: u64,
}

/// The ticks the chart's width stands for: `played` rounded up to 10, 20, 50, 100, 200, 500 or 1,000
/// (a chart keeps at most [`MAX_TICKS`](super::answer_times::MAX_TICKS)), so it changes a few times a
/// game and the line grows across it.
fn ticks_across(played: u32) -> u32 {
    [10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&s| s >= played)
        .unwrap_or(played)
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
        let last = times.last().map_or(1, |t| t.tick).max(first);
        Scale {
            first,
            span: ticks_across(last - first),
            top,
        }
    }

    /// The space above the highest point, a 20th of the chart's height as before (4 of 80 pixels).
    fn margin(self) -> u64 {
        (self.top / 19).max(1)
    }

    /// The lines' viewBox: from the highest point and the margin above it down to 0.
    fn view_box(self) -> String {
        let high = self.top + self.margin();
        format!("0 -{high} {} {high}", self.span)
    }

    /// A line's points, one for each of `times` that `ms` gives a time, in the lines' units.
    fn points(self, times: &[TickTimes], ms: impl Fn(&TickTimes) -> Option<f64>) -> String {
        let mut out = String::with_capacity(times.len() * 9);
        for t in times {
            let Some(ms) = ms(t) else { continue };
            if !out.is_empty() {
                out.push(' ');
            }
            push_whole(&mut out, u64::from(t.tick.saturating_sub(self.first)));
            out.push(',');
            let up = tenths(ms).min(self.top);
            if up > 0 {
                out.push('-');
            }
            push_whole(&mut out, up);
        }
        out
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

/// Writes `n` in decimal: a chart's thousands of numbers a tick, without the formatting machinery
/// (`itoa`, which serde_json writes its numbers with).
fn push_whole(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
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

/// What the caption says of the slowest answers `marked` among `times`.
fn slowest_text(times: &[TickTimes], marked: &[(u32, Team, f64)]) -> String {
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
    format!("Answer time per tick, the deadline dashed; slowest: {summary}.")
}

/// The rings round the slowest answers, as SVG markup: each names its tick, team and time when hovered.
/// Only numbers and team names go into it, so nothing needs escaping.
fn rings_markup(scale: Scale, marked: &[(u32, Team, f64)]) -> String {
    marked
        .iter()
        .map(|&(tick, team, ms)| {
            let (cx, cy) = scale.ring(tick, ms);
            format!(
                r#"<circle class="slow {team} team-{team}" cx="{cx}" cy="{cy}" r="3.5"><title>tick {tick}: {team} {} ms</title></circle>"#,
                whole(ms)
            )
        })
        .collect()
}

/// The three lines, in the order of the chart's polylines: the deadline, red, blue.
const LINES: [fn(&TickTimes) -> Option<f64>; 3] = [
    |t| Some(t.limit_ms as f64),
    |t| t.ms[Team::Red],
    |t| t.ms[Team::Blue],
];

/// The chart's elements that change.
struct Parts {
    figure: HtmlElement,
    plot: Element,
    lines: [Element; 3],
    rings: Element,
    caption: Element,
}

/// The references the chart's markup fills in, read into [`Parts`] once it is on the page.
#[derive(Clone, Copy)]
struct Refs {
    figure: NodeRef<Figure>,
    plot: NodeRef<Svg>,
    lines: [NodeRef<Polyline>; 3],
    rings: NodeRef<G>,
    caption: NodeRef<Figcaption>,
}

impl Refs {
    fn new() -> Refs {
        Refs {
            figure: NodeRef::new(),
            plot: NodeRef::new(),
            lines: [NodeRef::new(), NodeRef::new(), NodeRef::new()],
            rings: NodeRef::new(),
            caption: NodeRef::new(),
        }
    }

    /// The elements, once the markup is on the page: the figure's reference is tracked, so the effect
    /// that asks runs again when it is set; its children are set with it.
    fn parts(self) -> Option<Parts> {
        let figure = self.figure.get()?;
        let [deadline, red, blue] = self.lines.map(|l| l.get_untracked());
        Some(Parts {
            figure,
            plot: self.plot.get_untracked()?.into(),
            lines: [deadline?.into(), red?.into(), blue?.into()],
            rings: self.rings.get_untracked()?.into(),
            caption: self.caption.get_untracked()?.into(),
        })
    }
}

/// What the chart shows now, so that a tick writes only what changed: the lines' points, and the scale,
/// the rings and the caption when they change (a few times a game).
#[derive(Default)]
struct Shown {
    empty: Option<bool>,
    scale: Option<Scale>,
    lines: [String; 3],
    marked: Vec<(u32, Team, f64)>,
    caption: String,
}

impl Shown {
    fn show(&mut self, parts: &Parts, times: &[TickTimes]) {
        let empty = times.is_empty();
        if self.empty != Some(empty) {
            parts.figure.set_hidden(empty);
            self.empty = Some(empty);
        }
        if empty {
            return;
        }
        let scale = Scale::of(times);
        let rescaled = self.scale != Some(scale);
        if rescaled {
            let _ = parts.plot.set_attribute("viewBox", &scale.view_box());
            self.scale = Some(scale);
        }
        for ((el, shown), ms) in parts.lines.iter().zip(&mut self.lines).zip(LINES) {
            let points = scale.points(times, ms);
            if *shown != points {
                let _ = el.set_attribute("points", &points);
                *shown = points;
            }
        }
        let marked = slowest(times, 3);
        let caption = slowest_text(times, &marked);
        if caption != self.caption {
            parts.caption.set_text_content(Some(&caption));
            self.caption = caption;
        }
        if rescaled || marked != self.marked {
            parts.rings.set_inner_html(&rings_markup(scale, &marked));
            self.marked = marked;
        }
    }
}

/// The chart of the shown game's answer times; hidden until an AI has answered.
///
/// One effect writes it, as the board is written: a tick sets the three lines' points and, a few times a
/// game, the scale, the rings and the caption. A view built again each tick, and diffed, cost the page
/// more than the points it changed, and a reactive node for each part more again (issue 38).
#[component]
pub fn TimeChart(screen: Screens) -> impl IntoView {
    let refs = Refs::new();
    let shown = StoredValue::new_local(Shown::default());
    Effect::new(move |parts: Option<Option<Parts>>| {
        let parts = parts.flatten().or_else(|| refs.parts())?;
        let times = screen.with(|s| s.times());
        shown.update_value(|s| s.show(&parts, &times));
        Some(parts)
    });
    let [deadline, red, blue] = refs.lines;
    view! {
        <figure class="time-chart" data-testid="time-chart" hidden node_ref=refs.figure>
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label="Answer time per tick against the deadline"
                preserveAspectRatio="none"
            >
                <svg
                    width=WIDTH.to_string()
                    height=HEIGHT.to_string()
                    preserveAspectRatio="none"
                    node_ref=refs.plot
                >
                    <polyline class="deadline" node_ref=deadline />
                    <polyline class="red team-red" node_ref=red />
                    <polyline class="blue team-blue" node_ref=blue />
                </svg>
                <g node_ref=refs.rings></g>
            </svg>
            <figcaption data-testid="time-slowest" node_ref=refs.caption></figcaption>
        </figure>
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
    fn points_are_whole_ticks_across_and_tenths_of_a_millisecond_up() {
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
                span: 10,
                top: 1500
            }
        );
        // Up is negative: 150 ms, the top, is -1500; tick 6 has no time.
        assert_eq!(scale.points(&times, |t| t.ms.red), "0,-123 2,-1500");
        assert_eq!(
            scale.points(&times, |t| Some(t.limit_ms as f64)),
            "0,-1000 1,-1000 2,-1000"
        );
        // The top 4 of the 80 pixels are the margin, as the chart always had.
        assert_eq!(scale.view_box(), "0 -1578 10 1578");
        assert_eq!(scale.ring(7, 150.0), (64, 3));
        assert_eq!(scale.ring(5, 0.0), (0, 80));
    }

    #[test]
    fn a_tick_adds_a_point_and_moves_nothing_else_until_a_step() {
        let times: Vec<TickTimes> = (1..=21).map(|k| tick(k, Some(20.0), 100)).collect();
        let at = |n: usize| Scale::of(&times[..n]);
        // Ticks 1 to 11 span 10 ticks: one scale, each tick's line the last one and a point more.
        for n in 2..=11 {
            assert_eq!(at(n), at(1), "{n} ticks");
            let (before, now) = (
                at(n).points(&times[..n - 1], |t| t.ms.red),
                at(n).points(&times[..n], |t| t.ms.red),
            );
            assert_eq!(now, format!("{before} {},-200", n - 1));
        }
        assert_eq!(at(12).span, 20);
        assert_eq!(at(21).span, 20);
        assert_eq!(ticks_across(21), 50);
        assert_eq!(ticks_across(999), 1000);
        assert_eq!(ticks_across(5000), 5000);
    }

    #[test]
    fn a_lone_tick_and_odd_times_keep_the_scale_whole() {
        let times = [tick(1, Some(0.0), 0)];
        let scale = Scale::of(&times);
        assert_eq!(
            scale,
            Scale {
                first: 1,
                span: 10,
                top: 10
            }
        );
        for (ms, point) in [
            (f64::NAN, "0,0"),
            (-3.0, "0,0"),
            (f64::INFINITY, "0,-10"),
            (1e300, "0,-10"),
        ] {
            assert_eq!(scale.points(&times, |_| Some(ms)), point, "{ms}");
        }
    }

    #[test]
    fn the_rings_and_the_caption_name_the_slowest_answers() {
        let mut times = vec![
            tick(1, Some(40.0), 100),
            tick(2, Some(150.4), 100),
            tick(3, None, 100),
        ];
        times[1].think_ms.red = Some(100.0);
        let scale = Scale::of(&times);
        let marked = slowest(&times, 3);
        assert_eq!(marked, vec![(2, Team::Red, 150.4), (1, Team::Red, 40.0)]);
        assert_eq!(
            slowest_text(&times, &marked),
            "Answer time per tick, the deadline dashed; slowest: tick 2: red 150 of 100 ms \
             (thought 100, network 50); tick 1: red 40 of 100 ms."
        );
        // Tick 2 is one tick of the ten across (32 of 320 pixels), at the top below the margin.
        assert_eq!(
            rings_markup(scale, &marked[..1]),
            r#"<circle class="slow red team-red" cx="32" cy="3" r="3.5"><title>tick 2: red 150 ms</title></circle>"#
        );
        assert_eq!(rings_markup(scale, &[]), "");
    }

    #[test]
    fn whole_numbers_are_written_as_format_writes_them() {
        for n in [0, 7, 10, 99, 1_000, 123_456_789, u64::MAX] {
            let mut out = String::from("x");
            push_whole(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
