//! The endpoint doctor page (`#/doctor`, "Test an AI"): runs the engine's battery
//! ([`gridarena_engine::halma::doctor`]) against an AI's address from the browser and shows each
//! finding with its fix. The battery decides what to send and how to judge it; this page only sends
//! (`send.rs`) and shows. What the form reads from a link and how it checks its values is plain Rust here,
//! tested natively.

mod copy;
mod form;
mod page;
mod report_view;
mod send;

pub use page::DoctorPage;
pub use report_view::{ReportView, ReportViewProps};

use gridarena_engine::halma::doctor::Report;
use gridarena_engine::halma::ContentType;

/// The tick lengths the form takes, in milliseconds.
pub const TICK_RANGE: std::ops::RangeInclusive<u64> = 50..=60_000;

/// The tick length the form starts with.
pub const DEFAULT_TICK_MS: u64 = 1000;

/// The form's values as typed (or as a link gave them), not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormValues {
    pub url: String,
    pub content_type: ContentType,
    pub tick: String,
}

impl Default for FormValues {
    fn default() -> FormValues {
        FormValues {
            url: String::new(),
            content_type: ContentType::TextPlain,
            tick: DEFAULT_TICK_MS.to_string(),
        }
    }
}

impl FormValues {
    /// The values a link carries (`#/doctor?url=...&type=text|json&tick=<ms>`), read through `get` (the
    /// query's decoded value of a key). A missing or unknown value keeps the default; the tick is kept
    /// as given, so a bad one is reported when the battery starts.
    pub fn from_link(get: impl Fn(&str) -> Option<String>) -> FormValues {
        let mut values = FormValues::default();
        if let Some(url) = get("url") {
            values.url = url.trim().to_string();
        }
        if let Some(ty) = get("type").and_then(|t| t.parse().ok()) {
            values.content_type = ty;
        }
        if let Some(tick) = get("tick") {
            values.tick = tick.trim().to_string();
        }
        values
    }

    /// Whether the link names an AI, so that the battery starts by itself.
    pub fn starts_at_once(&self) -> bool {
        !self.url.is_empty()
    }
}

/// The tick length in `text`, or a sentence saying what is wrong with it.
pub fn parse_tick(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (low, high) = (TICK_RANGE.start(), TICK_RANGE.end());
    match text.parse::<u64>() {
        Ok(ms) if TICK_RANGE.contains(&ms) => Ok(ms),
        Ok(ms) => Err(format!(
            "the tick length must be between {low} and {high} ms, not {ms}"
        )),
        Err(_) if text.is_empty() => Err(format!(
            "give the tick length in milliseconds ({low} to {high}), such as {DEFAULT_TICK_MS}"
        )),
        Err(_) => Err(format!(
            "the tick length {text:?} is not a whole number of milliseconds ({low} to {high})"
        )),
    }
}

/// The line shown while the battery runs: "request 7 of about 34: a move in a test position".
/// `sent` counts the requests before this one; `planned` those still to come after it.
pub fn progress_line(sent: usize, planned: usize, purpose: &str) -> String {
    format!(
        "request {} of about {}: {purpose}",
        sent + 1,
        sent + 1 + planned
    )
}

/// The report's closing line: "every check passed" or "N checks failed".
pub fn summary(report: &Report) -> String {
    let failed = report
        .checks
        .iter()
        .filter(|c| c.status == gridarena_engine::halma::doctor::Status::Failed)
        .count();
    match failed {
        0 => "every check passed".to_string(),
        1 => "1 check failed".to_string(),
        n => format!("{n} checks failed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::doctor::{Client, Doctor, Settings};
    use std::collections::HashMap;

    fn link(pairs: &[(&str, &str)]) -> FormValues {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        FormValues::from_link(|k| map.get(k).cloned())
    }

    #[test]
    fn a_link_fills_the_form_and_starts_it() {
        let v = link(&[
            ("url", " http://127.0.0.1:8001/ai "),
            ("type", "json"),
            ("tick", "250"),
        ]);
        assert_eq!(v.url, "http://127.0.0.1:8001/ai");
        assert_eq!(v.content_type, ContentType::Json);
        assert_eq!(v.tick, "250");
        assert!(v.starts_at_once());
        assert_eq!(
            link(&[("type", "text")]).content_type,
            ContentType::TextPlain
        );
    }

    #[test]
    fn a_link_without_values_keeps_the_defaults() {
        let v = link(&[]);
        assert_eq!(v, FormValues::default());
        assert_eq!(v.tick, "1000");
        assert!(!v.starts_at_once());
        // An unknown type is ignored; a bad tick is kept, to be reported when the battery starts.
        let v = link(&[("type", "xml"), ("tick", "soon")]);
        assert_eq!(v.content_type, ContentType::TextPlain);
        assert_eq!(v.tick, "soon");
    }

    #[test]
    fn ticks_are_whole_milliseconds_in_range() {
        assert_eq!(parse_tick("1000"), Ok(1000));
        assert_eq!(parse_tick(" 50 "), Ok(50));
        assert_eq!(parse_tick("60000"), Ok(60_000));
        let low = parse_tick("49").unwrap_err();
        assert!(
            low.contains("between 50 and 60000") && low.contains("49"),
            "{low}"
        );
        assert!(parse_tick("60001").is_err());
        let word = parse_tick("fast").unwrap_err();
        assert!(word.contains("\"fast\" is not a whole number"), "{word}");
        assert!(parse_tick("1.5").is_err());
        assert!(parse_tick("-5").is_err());
        assert!(parse_tick("").unwrap_err().contains("give the tick length"));
    }

    #[test]
    fn the_progress_line_counts_from_one() {
        assert_eq!(
            progress_line(6, 27, "a move in a test position"),
            "request 7 of about 34: a move in a test position"
        );
    }

    #[test]
    fn the_summary_counts_failures() {
        let settings = |url: &str| Settings {
            url: url.into(),
            content_type: ContentType::TextPlain,
            tick_ms: 1000,
            origin: "http://127.0.0.1:8080/".into(),
            client: Client::Browser,
        };
        // A blocked port fails the address check and sends nothing.
        let report = Doctor::new(settings("http://127.0.0.1:6000/")).report();
        assert_eq!(summary(&report), "1 check failed");
        let mut doctor = Doctor::new(settings("http://127.0.0.1:8001/"));
        let mut report = doctor.report();
        assert_eq!(summary(&report), "every check passed");
        report.checks.iter_mut().for_each(|c| {
            c.status = gridarena_engine::halma::doctor::Status::Failed;
        });
        let n = report.checks.len();
        assert_eq!(summary(&report), format!("{n} checks failed"));
        assert!(doctor.next_probe().is_some());
    }
}
