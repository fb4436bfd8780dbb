//! Sends one of the battery's probes with `fetch` and tells what came back, the way a page sees it:
//! no response headers across origins, an opaque answer in `no-cors` mode, and a refused connection or a
//! CORS refusal both only as "TypeError: Failed to fetch". Redirects are not followed, as in a game (a
//! `no-cors` request must follow them, so it does). Whatever the answer is, it is only ever kept as bytes
//! for the engine to judge, and shown as text.

use crate::now_ms;
use gloo_net::http::{Method as HttpMethod, RequestBuilder};
use gloo_timers::callback::Timeout;
use gridarena_engine::halma::doctor::{Method, Observation, Probe};
use gridarena_engine::halma::MAX_RESPONSE_BYTES;
use web_sys::{AbortController, RequestMode, RequestRedirect, ResponseType};

/// What stopped a request before a response arrived.
struct Failure {
    why: String,
    aborted: bool,
}

impl From<gloo_net::Error> for Failure {
    fn from(e: gloo_net::Error) -> Failure {
        match e {
            gloo_net::Error::JsError(js) => Failure {
                aborted: js.name == "AbortError",
                why: format!("{}: {}", js.name, js.message),
            },
            other => Failure {
                why: other.to_string(),
                aborted: false,
            },
        }
    }
}

/// Sends `probe` to `url` and waits for all of its answer, or for its time-out.
pub async fn send(url: &str, probe: &Probe) -> Observation {
    let started = now_ms();
    let Ok(controller) = AbortController::new() else {
        return Observation {
            failure: Some("this browser cannot cancel requests (no AbortController)".into()),
            ..Observation::default()
        };
    };
    let signal = controller.signal();
    let timeout_ms = u32::try_from(probe.timeout_ms).unwrap_or(u32::MAX);
    // Dropped when the answer is in, which cancels it.
    let _timer = Timeout::new(timeout_ms, move || controller.abort());
    let outcome = exchange(url, probe, &signal).await;
    let ms = now_ms() - started;
    match outcome {
        Ok((status, body)) => Observation {
            status: Some(status),
            body,
            ms,
            ..Observation::default()
        },
        Err(f) => Observation {
            failure: Some(if f.aborted {
                format!("no answer within {} ms", probe.timeout_ms)
            } else {
                f.why
            }),
            timed_out: f.aborted,
            ms,
            ..Observation::default()
        },
    }
}

/// The status and body of the answer to `probe`.
async fn exchange(
    url: &str,
    probe: &Probe,
    signal: &web_sys::AbortSignal,
) -> Result<(u16, Option<Vec<u8>>), Failure> {
    let method = match probe.method {
        Method::Post => HttpMethod::POST,
        Method::Options => HttpMethod::OPTIONS,
    };
    let mut builder = RequestBuilder::new(url)
        .method(method)
        .abort_signal(Some(signal));
    builder = if probe.no_cors {
        builder.mode(RequestMode::NoCors)
    } else {
        builder.redirect(RequestRedirect::Manual)
    };
    if let Some(ct) = probe.content_type {
        builder = builder.header("Content-Type", ct.header());
    }
    let request = match probe.method {
        Method::Post => builder.body(probe.body.clone())?,
        Method::Options => builder.build()?,
    };
    let response = request.send().await?;
    match response.type_() {
        ResponseType::Opaque => return Ok((0, None)),
        ResponseType::Opaqueredirect => {
            return Err(Failure {
                why:
                    "the endpoint answered with a redirect, which a game does not follow: give the \
                      address it redirects to"
                        .into(),
                aborted: false,
            })
        }
        _ => {}
    }
    let status = response.status();
    // An announced oversized body is refused unread.
    let announced = response
        .headers()
        .get("content-length")
        .and_then(|l| l.trim().parse::<usize>().ok());
    if announced.is_some_and(|b| b > MAX_RESPONSE_BYTES) {
        return Ok((status, None));
    }
    let body = response.binary().await?;
    Ok((status, Some(body)))
}
