//! The endpoint doctor's requests, sent natively: the engine's battery
//! ([`gridarena_engine::halma::doctor`]) decides what to send and judges what comes back; this sends each
//! probe with the HTTP client the match runner uses, and reads every header a browser would care about.
//!
//! One agent serves the whole battery and keeps one idle connection, as the match runner does, so the
//! keep-alive check sees what a match would see.

use crate::web::{agent, read_capped, transport_failure};
use gridarena_engine::halma::doctor::{
    Doctor, Headers, Method, Observation, Probe, Report, Settings,
};
use std::time::{Duration, Instant};
use ureq::http::{HeaderMap, Response, Version};
use ureq::{Agent, Body};

/// Runs the whole battery against `settings.url`; `progress` is told about each request before it goes.
pub fn examine(settings: Settings, mut progress: impl FnMut(&Probe, (usize, usize))) -> Report {
    let https = settings
        .url
        .trim()
        .to_ascii_lowercase()
        .starts_with("https://");
    let url = settings.url.trim().to_string();
    let origin = settings.origin.clone();
    let agent = agent(concat!("gridarena-probe/", env!("CARGO_PKG_VERSION")));
    let mut doctor = Doctor::new(settings);
    while let Some(probe) = doctor.next_probe() {
        progress(&probe, doctor.progress());
        let observation = send(&agent, &url, &origin, https, &probe);
        doctor.observe(observation);
    }
    doctor.report()
}

/// Sends one probe and observes what a browser would: status, the CORS headers, the body, the time.
fn send(agent: &Agent, url: &str, origin: &str, https: bool, probe: &Probe) -> Observation {
    let timeout = Duration::from_millis(probe.timeout_ms);
    let start = Instant::now();
    let elapsed = || start.elapsed().as_secs_f64() * 1000.0;
    let sent = match probe.method {
        Method::Post => {
            let mut request = agent
                .post(url)
                .config()
                .timeout_global(Some(timeout))
                .build()
                .header("Origin", origin);
            if let Some(ct) = probe.content_type {
                request = request.header("Content-Type", ct.header());
            }
            request.send(probe.body.as_bytes())
        }
        Method::Options => agent
            .options(url)
            .config()
            .timeout_global(Some(timeout))
            .build()
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type")
            .call(),
    };
    let response: Response<Body> = match sent {
        Ok(r) => r,
        Err(e) => {
            let failure = transport_failure(e, https);
            return Observation {
                ms: elapsed(),
                timed_out: failure.is_none(),
                failure: Some(
                    failure.unwrap_or_else(|| format!("no answer within {} ms", probe.timeout_ms)),
                ),
                ..Observation::default()
            };
        }
    };
    let status = response.status().as_u16();
    let headers = headers(response.headers(), response.version());
    // At most one byte over the limit is read: enough for the battery to call the answer too large.
    let body = read_capped(response.into_body().into_reader()).ok();
    Observation {
        status: Some(status),
        body,
        ms: elapsed(),
        failure: None,
        timed_out: false,
        headers: Some(headers),
    }
}

fn headers(map: &HeaderMap, version: Version) -> Headers {
    let text = |name: &str| {
        map.get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let connection = text("connection").map(|c| c.to_ascii_lowercase());
    let keep_alive = match version {
        Version::HTTP_10 => connection
            .as_deref()
            .is_some_and(|c| c.contains("keep-alive")),
        _ => !connection.as_deref().is_some_and(|c| c.contains("close")),
    };
    Headers {
        allow_origin: text("access-control-allow-origin"),
        allow_headers: text("access-control-allow-headers"),
        keep_alive: Some(keep_alive),
    }
}
