//! The battery's findings: one row per check with its verdict, what was seen and, for a failure, the
//! fix; the summary line, the address notes and "Copy report". Every text is shown as text.

use super::copy::CopyReport;
use super::summary;
use gridarena_engine::halma::doctor::{Report, Status};
use leptos::prelude::*;

fn status_key(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Note => "note",
        Status::Skipped => "skipped",
    }
}

#[component]
pub fn ReportView(
    /// A finished battery's report.
    report: Report,
) -> impl IntoView {
    let closing = summary(&report);
    let passed = report.passed();
    let text = report.to_text();
    let rows = report
        .checks
        .into_iter()
        .map(|c| {
            let key = status_key(c.status);
            let fix = c.fix.filter(|_| c.status != Status::Passed);
            view! {
                <li class=format!("doctor-check {key}") data-testid=format!("check-{}", c.id) data-status=key>
                    <span class="doctor-verdict">{c.status.to_string()}</span>
                    <span class="doctor-title">{c.title}</span>
                    <span class="doctor-detail">{c.detail}</span>
                    {fix.map(|f| view! { <span class="doctor-fix">"Fix: " {f}</span> })}
                </li>
            }
        })
        .collect_view();
    let notes = report
        .notes
        .into_iter()
        .map(|n| view! { <li>{n}</li> })
        .collect_view();
    view! {
        <section class="doctor-report" aria-label="Findings">
            <ol class="doctor-checks">{rows}</ol>
            <ul class="doctor-notes">{notes}</ul>
            <p
                class=if passed { "doctor-summary result" } else { "doctor-summary error" }
                data-testid="doctor-summary"
            >
                {closing}
            </p>
            <CopyReport text=text />
        </section>
    }
}
