//! The checks on time: whether answers come within the tick, over [`LATENCY_SAMPLES`] requests, and
//! whether the connection is kept open between them.
//!
//! Apart because these judge how the answers arrive, not what they say.

use super::battery::{Doctor, Step};
use super::probe::{failure, ms, ok, Observation};
use super::report::{Check, Status};
use super::{Client, LATENCY_SAMPLES};

impl Doctor {
    pub(super) fn latency_check(&self) -> Check {
        let (id, title) = ("latency", "Answers within the tick");
        let tick = self.settings.tick_ms;
        let samples: Vec<&Observation> = (0..LATENCY_SAMPLES)
            .filter_map(|i| self.seen(Step::Latency(i)))
            .collect();
        if samples.is_empty() {
            return Check::skipped(id, title, self.not_run());
        }
        let mut times: Vec<f64> = samples
            .iter()
            .filter(|o| o.status.is_some_and(ok))
            .map(|o| o.ms)
            .collect();
        times.sort_by(f64::total_cmp);
        let missed = samples.len() - times.len();
        let late = times.iter().filter(|&&t| t >= tick as f64).count();
        let summary = match (times.get(times.len() / 2), times.last()) {
            (Some(&median), Some(&worst)) => format!(
                "median {}, worst {} over {} requests; the tick is {tick} ms",
                ms(median),
                ms(worst),
                times.len()
            ),
            _ => "no request was answered".to_string(),
        };
        if missed == 0 && late == 0 {
            return Check::passed(id, title, summary);
        }
        let fix = "Answer faster than the tick: search less deep, stop at timeLimitMs, avoid \
                   printing or loading files on every request; or play with a longer tick (the page's \
                   speed slider, --tick-ms)."
            .into();
        let mut why = summary;
        if late > 0 {
            why.push_str(&format!(
                "; {late} answers took longer than the tick and would count as no move"
            ));
        }
        if missed > 0 {
            let example = samples
                .iter()
                .find(|o| !o.status.is_some_and(ok))
                .map(|o| match o.status {
                    Some(s) => format!("HTTP {s}"),
                    None => failure(o),
                })
                .unwrap_or_default();
            why.push_str(&format!(
                "; {missed} of {} requests got no move ({example})",
                samples.len()
            ));
        }
        Check::failed(id, title, why, fix)
    }

    pub(super) fn keep_alive_check(&self) -> Check {
        let (id, title) = ("keep-alive", "Keeps the connection open between ticks");
        if self.settings.client == Client::Browser {
            return Check::skipped(
                id,
                title,
                "a page cannot see whether its connection is reused; `gridarena halma probe URL` can"
                    .into(),
            );
        }
        let seen: Vec<Option<bool>> = (0..LATENCY_SAMPLES)
            .filter_map(|i| self.seen(Step::Latency(i)))
            .filter_map(|o| o.headers.as_ref().map(|h| h.keep_alive))
            .collect();
        if seen.is_empty() {
            return Check::skipped(id, title, "not run yet".into());
        }
        if seen.contains(&Some(false)) {
            Check {
                status: Status::Note,
                ..Check::failed(
                    id,
                    title,
                    "the server closes the connection after each answer, so every tick opens a new \
                     one (a few ms on this computer, more across a network)"
                        .into(),
                    "Fine for a class; for speed, serve HTTP/1.1 with keep-alive (Python: \
                     protocol_version = 'HTTP/1.1' in the handler, with a Content-Length on every \
                     answer)."
                        .into(),
                )
            }
        } else {
            Check::passed(id, title, "HTTP/1.1, the connection is reused".into())
        }
    }
}
