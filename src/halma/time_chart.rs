//! How close each AI player is to the deadline, tick by tick: a small chart under the board, live and in
//! replays. Each team's answer times as a line against the tick's deadline (dashed), the slowest answers
//! ringed and named; where a web AI says how long it thought (`thinkMs`), the rest was the network's.

use super::answer_times::slowest;
use super::arena_model::Screens;
use gridarena_engine::halma::Team;
use leptos::prelude::*;

const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 80.0;

/// The chart of the shown game's answer times; nothing until an AI has answered.
#[component]
pub fn TimeChart(screen: Screens) -> impl IntoView {
    let times = Memo::new(move |_| screen.with(|s| s.times()));
    move || {
        times.with(|times| {
            if times.is_empty() {
                return None;
            }
            let top = times
                .iter()
                .flat_map(|t| [t.ms.red, t.ms.blue, Some(t.limit_ms as f64)])
                .flatten()
                .fold(1.0_f64, f64::max);
            let first = times.first().map_or(1, |t| t.tick);
            let last = times.last().map_or(1, |t| t.tick).max(first + 1);
            let x = move |tick: u32| f64::from(tick - first) / f64::from(last - first) * WIDTH;
            let y = move |ms: f64| HEIGHT - ms / top * (HEIGHT - 4.0);
            let line = |team: Team| {
                times
                    .iter()
                    .filter_map(|t| Some(format!("{:.1},{:.1}", x(t.tick), y(t.ms[team]?))))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let deadline = times
                .iter()
                .map(|t| format!("{:.1},{:.1}", x(t.tick), y(t.limit_ms as f64)))
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
                                " (thought {think:.0}, network {:.0})",
                                (ms - think).max(0.0)
                            )
                        });
                    format!("tick {tick}: {team} {ms:.0} of {limit} ms{net}")
                })
                .collect::<Vec<_>>()
                .join("; ");
            let rings = marked
                .iter()
                .map(|(tick, team, ms)| {
                    view! {
                        <circle
                            class=format!("slow {team}")
                            cx=format!("{:.1}", x(*tick))
                            cy=format!("{:.1}", y(*ms))
                            r="3.5"
                        >
                            <title>{format!("tick {tick}: {team} {ms:.0} ms")}</title>
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
                        <polyline class="deadline" points=deadline />
                        <polyline class="red" points=line(Team::Red) />
                        <polyline class="blue" points=line(Team::Blue) />
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
