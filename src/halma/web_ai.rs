//! Web AI players: one HTTP POST per tick with the request JSON, cancelled at the deadline.
//!
//! The body goes out as `text/plain` by default, which makes the request a CORS "simple request": no
//! preflight on every tick, and seed-era PHP AIs that read the raw body keep working; a team may choose
//! `application/json` instead (see [`ContentType`]). Redirects are not followed
//! (the native runner does the same), so a redirect loop is one clear error. Whatever comes back is
//! only ever parsed by the engine's [`parse_response`] and shown as text, never as HTML.

use gloo_net::http::Request;
use gridarena_engine::halma::protocol::{
    parse_response, status_failure, ResponseError, MAX_RESPONSE_BYTES,
};
use gridarena_engine::halma::{Answer, ContentType, NoMove, Wire};
use web_sys::{AbortSignal, RequestRedirect, ResponseType};

/// The answer for a response with a status outside 200-299.
pub fn status_error(status: u16, text: &str, body: &[u8]) -> Answer {
    Answer::NoMove(NoMove::Failed(status_failure(status, text, body)))
}

/// Asks the web AI at `url` for its move, sending `body` as `text/plain`; [`ask_wire`] without the wire.
pub async fn ask(url: &str, body: String, signal: &AbortSignal, deadline_ms: u64) -> Answer {
    ask_wire(url, ContentType::TextPlain, body, signal, deadline_ms)
        .await
        .0
}

/// Asks the web AI at `url` for its move, sending `body` labelled `content_type`. `signal` aborts the
/// request at the deadline, `deadline_ms` is what the error then says. Returns the answer and what went
/// over the wire (status, the text read, the time it took).
pub async fn ask_wire(
    url: &str,
    content_type: ContentType,
    body: String,
    signal: &AbortSignal,
    deadline_ms: u64,
) -> (Answer, Wire) {
    let mut wire = Wire::sent(content_type, deadline_ms);
    let started = crate::now_ms();
    let answer = exchange(url, content_type, body, signal, deadline_ms, &mut wire).await;
    if !matches!(answer, Answer::NoMove(NoMove::TimedOut { .. })) && wire.status.is_some() {
        wire.ms = Some((crate::now_ms() - started).round() as u32);
    }
    (answer, wire)
}

async fn exchange(
    url: &str,
    content_type: ContentType,
    body: String,
    signal: &AbortSignal,
    deadline_ms: u64,
    wire: &mut Wire,
) -> Answer {
    let failed = |e: gloo_net::Error| -> Answer {
        match e {
            gloo_net::Error::JsError(js) if js.name == "AbortError" => {
                Answer::NoMove(NoMove::TimedOut {
                    after_ms: deadline_ms,
                })
            }
            // A fetch refused by the network and one refused by CORS look the same to the page.
            gloo_net::Error::JsError(js) if js.name == "TypeError" => {
                Answer::NoMove(NoMove::Failed(
                    "connection refused or blocked by CORS (the endpoint must answer with \
                 Access-Control-Allow-Origin)"
                        .to_string(),
                ))
            }
            other => Answer::NoMove(NoMove::Failed(other.to_string())),
        }
    };
    let request = Request::post(url)
        .header("Content-Type", content_type.header())
        .redirect(RequestRedirect::Manual)
        .abort_signal(Some(signal))
        .body(body);
    let request = match request {
        Ok(r) => r,
        Err(e) => return failed(e),
    };
    let response = match request.send().await {
        Ok(r) => r,
        Err(e) => return failed(e),
    };
    wire.status = Some(response.status());
    if response.type_() == ResponseType::Opaqueredirect {
        return Answer::NoMove(NoMove::Failed(
            "the endpoint answered with a redirect: redirects are not followed".to_string(),
        ));
    }
    if !response.ok() {
        // The body often says why (a framework's 415 page): show it in the inspector.
        let bytes = response.binary().await.unwrap_or_default();
        let body = &bytes[..bytes.len().min(MAX_RESPONSE_BYTES)];
        if !body.is_empty() {
            *wire = std::mem::take(wire).with_body(body);
        }
        return status_error(response.status(), &response.status_text(), body);
    }
    // Refuse an announced oversized body before reading it.
    let announced = response
        .headers()
        .get("content-length")
        .and_then(|l| l.trim().parse::<usize>().ok());
    if let Some(bytes) = announced.filter(|&b| b > MAX_RESPONSE_BYTES) {
        return Answer::NoMove(NoMove::Unreadable(ResponseError::TooLarge { bytes }));
    }
    match response.binary().await {
        Ok(bytes) => {
            let end = bytes.len().min(MAX_RESPONSE_BYTES);
            *wire = std::mem::take(wire).with_body(&bytes[..end]);
            Answer::from(parse_response(&bytes))
        }
        Err(e) => failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_error_names_the_status() {
        let Answer::NoMove(NoMove::Failed(why)) = status_error(500, "Internal Server Error", b"")
        else {
            panic!()
        };
        assert_eq!(why, "HTTP 500 Internal Server Error");
        assert!(
            matches!(status_error(404, "", b""), Answer::NoMove(NoMove::Failed(w)) if w == "HTTP 404")
        );
    }
}
