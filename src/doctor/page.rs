//! The doctor page: the form, the progress line while the battery runs, then the report. The battery's
//! loop is here: ask the engine's [`Doctor`] for a probe, send it (`send.rs`), tell it what came back,
//! one request after another.

use super::form::DoctorForm;
use super::report_view::ReportViewProps;
use super::send::send;
use super::{parse_tick, progress_line, FormValues};
use crate::lazy::{LazyPart, Split};
use gridarena_engine::halma::doctor::{Client, Doctor, Report, Settings};
use leptos::prelude::*;

/// The form's values from the page's link (`#/doctor?url=...&type=json&tick=500`).
fn linked() -> FormValues {
    let query = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .and_then(|h| h.split_once('?').map(|(_, q)| q.to_string()));
    let params = query.and_then(|q| web_sys::UrlSearchParams::new_with_str(&q).ok());
    FormValues::from_link(|key| params.as_ref().and_then(|p| p.get(key)))
}

/// The page's own address: the battery judges mixed content and blocked ports against it.
fn page_address() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// The doctor page. `report_view` draws a finished battery's report ([`super::ReportView`]), split off
/// the page's module by its bin (`src/lazy.rs`): it loads once the page is idle, or with the first
/// report.
#[component]
pub fn DoctorPage(report_view: Split<ReportViewProps>) -> impl IntoView {
    crate::lazy::preload(report_view);
    let first = linked();
    let url = RwSignal::new(first.url.clone());
    let content_type = RwSignal::new(first.content_type);
    let tick = RwSignal::new(first.tick.clone());
    let running = RwSignal::new(false);
    let progress = RwSignal::new(None::<String>);
    let problem = RwSignal::new(None::<String>);
    let report = RwSignal::new(None::<Report>);

    let start = move || {
        if running.get_untracked() {
            return;
        }
        let address = url.get_untracked().trim().to_string();
        if address.is_empty() {
            problem.set(Some("type the address of your AI's endpoint first".into()));
            return;
        }
        let tick_ms = match parse_tick(&tick.get_untracked()) {
            Ok(ms) => ms,
            Err(why) => {
                problem.set(Some(why));
                return;
            }
        };
        problem.set(None);
        report.set(None);
        running.set(true);
        let mut doctor = Doctor::new(Settings {
            url: address.clone(),
            content_type: content_type.get_untracked(),
            tick_ms,
            origin: page_address(),
            client: Client::Browser,
        });
        leptos::task::spawn_local(async move {
            while let Some(probe) = doctor.next_probe() {
                let (sent, planned) = doctor.progress();
                // The page may have been left: stop sending.
                if progress
                    .try_set(Some(progress_line(sent, planned, probe.purpose)))
                    .is_some()
                {
                    return;
                }
                let seen = send(&address, &probe).await;
                doctor.observe(seen);
            }
            progress.try_set(None);
            report.try_set(Some(doctor.report()));
            running.try_set(false);
        });
    };
    if first.starts_at_once() {
        start();
    }

    view! {
        <section class="doctor" aria-label="Test an AI">
            <p class="doctor-intro">
                "Give the address of your AI: the doctor sends it the requests a game would, and some it "
                "would not, and says what works, what does not, and how to fix it."
            </p>
            <DoctorForm
                url=url
                content_type=content_type
                tick=tick
                running=running.into()
                on_test=Callback::new(move |()| start())
            />
            <p class="notice" data-testid="doctor-problem">
                {move || problem.get().map(|p| view! { <span class="error">{p}</span> })}
            </p>
            <p class="doctor-progress" data-testid="doctor-progress" role="status" aria-live="polite">
                {move || progress.get()}
            </p>
            {move || {
                report.get().map(|r| {
                    let load = move || (report_view.load)(ReportViewProps { report: r.clone() });
                    view! { <LazyPart what="the report" load=Box::new(load) at_once=true /> }
                })
            }}
        </section>
    }
}
