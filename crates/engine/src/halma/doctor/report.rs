//! The findings: [`Check`], [`Status`] and the [`Report`] that lists every check in order, and
//! [`Doctor::report`], which assembles it (or says why a check was skipped).
//!
//! Apart because it is what a caller reads and shows; the checks that fill it are in their own files.

use super::battery::{Doctor, Step};
use super::Client;
use crate::halma::exchange::ContentType;
use serde::Serialize;
use std::fmt;

impl Doctor {
    /// The findings so far: a check whose requests were not sent is reported as skipped, with why.
    pub fn report(&self) -> Report {
        let mut checks = vec![self.address_check()];
        if self.address.is_err() {
            checks.extend(self.skipped_all("the browser would not send the request"));
        } else if !self.any_answer() && self.is_done() {
            checks.push(self.reachable_check());
            checks.extend(
                self.skipped_all("nothing answers at this address")
                    .into_iter()
                    .skip(1),
            );
        } else {
            checks.push(self.reachable_check());
            checks.push(self.cors_check());
            checks.push(self.cors_error_check());
            checks.push(self.text_plain_check());
            checks.extend(self.json_checks());
            for (i, s) in self.scenarios.iter().enumerate() {
                let title = format!("A legal move in {}", s.title);
                checks.push(self.move_check(
                    format!("legal-{}", s.id),
                    title,
                    Step::Scenario(i),
                    &s.game,
                ));
            }
            let start = &self.start().game;
            checks.push(self.move_check(
                "unknown-field".into(),
                "Ignores a request field it does not know".into(),
                Step::UnknownField,
                start,
            ));
            checks.push(self.move_check(
                "tiny-time-limit".into(),
                "Answers a request with timeLimitMs 1".into(),
                Step::TinyLimit,
                start,
            ));
            checks.push(self.latency_check());
            checks.push(self.keep_alive_check());
        }
        Report {
            url: self.settings.url.clone(),
            content_type: self.settings.content_type,
            tick_ms: self.settings.tick_ms,
            client: self.settings.client,
            checks,
            notes: self.notes.clone(),
        }
    }

    fn address_check(&self) -> Check {
        match &self.address {
            Ok(what) => Check::passed("address", "An address the browser will call", what.clone()),
            Err((why, fix)) => Check::failed(
                "address",
                "An address the browser will call",
                why.clone(),
                fix.clone(),
            ),
        }
    }

    /// Every check after the address, skipped for `why`.
    fn skipped_all(&self, why: &str) -> Vec<Check> {
        let mut ids: Vec<(String, String)> = [
            ("reachable", "Something answers"),
            ("cors", "Access-Control-Allow-Origin on a move"),
            (
                "cors-error",
                "Access-Control-Allow-Origin on an error answer",
            ),
            ("text-plain", "Reads a text/plain body"),
            ("json", "Reads an application/json body"),
            ("preflight", "Answers the OPTIONS preflight"),
        ]
        .into_iter()
        .map(|(i, t)| (i.to_string(), t.to_string()))
        .collect();
        ids.extend(self.scenarios.iter().map(|s| {
            (
                format!("legal-{}", s.id),
                format!("A legal move in {}", s.title),
            )
        }));
        ids.extend(
            [
                ("unknown-field", "Ignores a request field it does not know"),
                ("tiny-time-limit", "Answers a request with timeLimitMs 1"),
                ("latency", "Answers within the tick"),
                ("keep-alive", "Keeps the connection open between ticks"),
            ]
            .map(|(i, t)| (i.to_string(), t.to_string())),
        );
        ids.into_iter()
            .map(|(id, title)| Check::skipped(&id, &title, format!("not run: {why}")))
            .collect()
    }
}

/// How one check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    /// Worth knowing, not a failure.
    Note,
    /// Not run, with why.
    Skipped,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Passed => "PASS",
            Status::Failed => "FAIL",
            Status::Note => "NOTE",
            Status::Skipped => "SKIP",
        })
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// A stable identifier, for programs and tests: `reachable`, `cors`, `legal-start`, ...
    pub id: String,
    pub title: String,
    pub status: Status,
    /// What was seen.
    pub detail: String,
    /// What to do about it, in plain words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    pub(super) fn passed(id: &str, title: &str, detail: String) -> Check {
        Check {
            id: id.into(),
            title: title.into(),
            status: Status::Passed,
            detail,
            fix: None,
        }
    }

    pub(super) fn failed(id: &str, title: &str, detail: String, fix: String) -> Check {
        Check {
            id: id.into(),
            title: title.into(),
            status: Status::Failed,
            detail,
            fix: Some(fix),
        }
    }

    pub(super) fn skipped(id: &str, title: &str, detail: String) -> Check {
        Check {
            id: id.into(),
            title: title.into(),
            status: Status::Skipped,
            detail,
            fix: None,
        }
    }
}

/// Every finding of a battery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub url: String,
    pub content_type: ContentType,
    pub tick_ms: u64,
    pub client: Client,
    pub checks: Vec<Check>,
    /// Warnings about the address that do not stop a request.
    pub notes: Vec<String>,
}

impl Report {
    /// Whether no check failed (notes and skipped checks do not fail a battery).
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.status != Status::Failed)
    }

    pub fn check(&self, id: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
    }

    /// The report as text: a line per check, its fix indented below a failure.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{} ({}, tick {} ms)\n",
            self.url, self.content_type, self.tick_ms
        );
        for c in &self.checks {
            out.push_str(&format!("{}  {}: {}\n", c.status, c.title, c.detail));
            if let Some(fix) = c.fix.as_ref().filter(|_| c.status != Status::Passed) {
                out.push_str(&format!("      fix: {fix}\n"));
            }
        }
        for n in &self.notes {
            out.push_str(&format!("NOTE  {n}\n"));
        }
        let failed = self
            .checks
            .iter()
            .filter(|c| c.status == Status::Failed)
            .count();
        out.push_str(&match failed {
            0 => "every check passed\n".to_string(),
            1 => "1 check failed\n".to_string(),
            n => format!("{n} checks failed\n"),
        });
        out
    }
}
