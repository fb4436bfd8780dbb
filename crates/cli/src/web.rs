//! Web AI players for the headless runner: one HTTP POST per tick, cut at the tick's deadline.
//!
//! The request is what the browser page sends (`src/web_ai.rs`), so an AI cannot tell the two
//! apart: the request JSON as the body with `Content-Type: text/plain` (a CORS "simple request" in the
//! browser, the raw body that seed-era PHP AIs read) unless the team asked for `application/json`,
//! redirects not followed, at most [`MAX_RESPONSE_BYTES`] of the answer read. Each reply carries what
//! went over the wire ([`Wire`]: status, time, the answer's text), for `--trace` and records. Every way the exchange can go wrong becomes an
//! [`Answer::NoMove`] with a cause an AI author can act on; nothing here panics on what a server sends.
//!
//! One [`WebAi`] per team, used from one thread at a time: a call returns by the deadline, so a team never
//! has more than one request in flight. Its agent keeps the connection open between ticks (as the
//! browser does), and a connection whose answer was cut short or refused is closed, not reused.

use gridarena_engine::halma::protocol::{
    check_ai_url, parse_response, status_failure, ResponseError, MAX_RESPONSE_BYTES,
};
use gridarena_engine::halma::{Answer, ContentType, NoMove, Wire};
use std::io::{ErrorKind, Read};
use std::time::{Duration, Instant};
use ureq::http::Uri;
use ureq::Agent;

/// Checks a web AI's URL: the page's rule (`protocol::check_ai_url`), then what the HTTP client needs
/// on top (a parsable URI with a real port). Returns it trimmed.
pub fn check_url(text: &str) -> Result<String, String> {
    let url = check_ai_url(text)?;
    let url = url.as_str();
    let uri = url
        .parse::<Uri>()
        .map_err(|e| format!("{url:?} is not a valid web address: {e}"))?;
    if uri.host().is_none_or(str::is_empty) {
        return Err(format!("{url:?} names no host"));
    }
    // The URI parser takes any digits as a port; 99999 would only fail later as an unknown host.
    let port = uri
        .authority()
        .and_then(|a| a.as_str().rsplit_once(':'))
        .map(|(_, port)| port)
        .filter(|p| p.bytes().all(|b| b.is_ascii_digit()));
    if let Some(port) = port {
        if port.parse::<u16>().is_err() {
            return Err(format!(
                "{url:?}: port {port} is not a port number (0 to 65535)"
            ));
        }
    }
    Ok(url.to_string())
}

/// What one request to a web AI came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The team's answer for the referee.
    pub answer: Answer,
    /// How long the AI took, when it answered in time with an HTTP response (whatever its status or
    /// body); `None` when it timed out or the connection failed.
    pub latency: Option<Duration>,
    /// What went over the wire, for a web AI; `None` for a built-in AI.
    pub wire: Option<Wire>,
}

/// A web AI: its URL and a connection pool of its own.
#[derive(Debug)]
pub struct WebAi {
    url: String,
    https: bool,
    agent: Agent,
}

impl WebAi {
    /// A player for the AI at `url` (checked with [`check_url`]). How its requests are labelled is the
    /// match's word ([`gridarena_engine::halma::Match::content_type`]), given with each request.
    pub fn new(url: &str) -> Result<WebAi, String> {
        let url = check_url(url)?;
        let agent = agent(concat!("gridarena/", env!("CARGO_PKG_VERSION")));
        let https = url.to_ascii_lowercase().starts_with("https://");
        Ok(WebAi { url, https, agent })
    }

    /// The URL, as it is labelled in records.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends `body` labelled `content_type` and reads the answer, giving up at `deadline`; `tick_ms` is
    /// what a time-out says and the time limit the wire record keeps (the body's `timeLimitMs`).
    pub fn ask(
        &self,
        body: &str,
        content_type: ContentType,
        deadline: Instant,
        tick_ms: u64,
    ) -> Reply {
        let sent_wire = Wire::sent(content_type, tick_ms);
        let timed_out = || Reply {
            answer: Answer::NoMove(NoMove::TimedOut { after_ms: tick_ms }),
            latency: None,
            wire: Some(sent_wire.clone()),
        };
        let start = Instant::now();
        let remaining = deadline.saturating_duration_since(start);
        if remaining.is_zero() {
            return timed_out();
        }
        let sent = self
            .agent
            .post(&self.url)
            .config()
            .timeout_global(Some(remaining))
            .build()
            .header("Content-Type", content_type.header())
            .send(body);
        let response = match sent {
            Ok(r) => r,
            Err(e) => {
                return match transport_failure(e, self.https) {
                    Some(why) => Reply {
                        answer: Answer::NoMove(NoMove::Failed(why)),
                        latency: None,
                        wire: Some(sent_wire.clone()),
                    },
                    None => timed_out(),
                }
            }
        };
        let status = response.status();
        let mut wire = Wire {
            status: Some(status.as_u16()),
            ..sent_wire.clone()
        };
        // When the verdict was settled: on the status line for an error status, else on the whole body.
        let mut settled = None;
        let answer = if status.is_redirection() {
            Answer::NoMove(NoMove::Failed(format!(
                "HTTP {}: redirects are not followed",
                status.as_u16()
            )))
        } else if !status.is_success() {
            // The error page is often the clearest word on what went wrong (a framework's "415
            // Unsupported Media Type"), so what arrives of it by the deadline is kept; it never changes
            // the verdict or the latency, which the status settled.
            settled = Some(Instant::now());
            let bytes = read_what_arrives(response.into_body().into_reader());
            if !bytes.is_empty() {
                wire = wire.with_body(&bytes);
            }
            let reason = status.canonical_reason().unwrap_or_default();
            Answer::NoMove(NoMove::Failed(status_failure(
                status.as_u16(),
                reason,
                &bytes,
            )))
        } else {
            let body = response.into_body();
            let announced = body.content_length();
            let read = read_capped(body.into_reader());
            if let Ok(bytes) = &read {
                wire = wire.with_body(&bytes[..bytes.len().min(MAX_RESPONSE_BYTES)]);
            }
            match read {
                Ok(bytes) if bytes.len() > MAX_RESPONSE_BYTES => {
                    // Announced sizes are reported as such; otherwise all that is known is "more".
                    let size = announced
                        .and_then(|n| usize::try_from(n).ok())
                        .unwrap_or(bytes.len());
                    Answer::NoMove(NoMove::Unreadable(ResponseError::TooLarge {
                        bytes: size.max(bytes.len()),
                    }))
                }
                Ok(bytes) => Answer::from(parse_response(&bytes)),
                Err(e) if is_timeout(&e) => return timed_out(),
                Err(e) => Answer::NoMove(NoMove::Failed(format!(
                    "the connection broke while reading the answer: {}",
                    io_cause(&e)
                ))),
            }
        };
        let settled = settled.unwrap_or_else(Instant::now);
        let latency = settled.saturating_duration_since(start);
        // ureq cuts at the deadline; this makes "late" mean exactly what it means on the page.
        if settled > deadline {
            return timed_out();
        }
        wire.ms = Some(u32::try_from(latency.as_millis()).unwrap_or(u32::MAX));
        Reply {
            answer,
            latency: Some(latency),
            wire: Some(wire),
        }
    }
}

/// An HTTP client that talks to an AI as the browser page does: the status is ours to judge, a redirect
/// is an error (as it is in the browser), and one connection is kept open between requests.
pub(crate) fn agent(user_agent: &str) -> Agent {
    Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .user_agent(user_agent)
        .max_idle_connections(1)
        .max_idle_connections_per_host(1)
        .build()
        .into()
}

/// Reads at most [`MAX_RESPONSE_BYTES`] of an error page, keeping what arrived when the read fails or
/// is cut at the deadline (a server may announce more than it sends).
fn read_what_arrives(reader: impl Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let limit = u64::try_from(MAX_RESPONSE_BYTES).unwrap_or(u64::MAX);
    // On an error, read_to_end has still appended everything read before it.
    let _ = reader.take(limit).read_to_end(&mut bytes);
    bytes
}

/// Reads at most [`MAX_RESPONSE_BYTES`] + 1 bytes: enough to know a body is too large, never more.
pub(crate) fn read_capped(reader: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(512);
    let limit = u64::try_from(MAX_RESPONSE_BYTES).map_or(u64::MAX, |n| n + 1);
    reader.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Why a request got no response, or `None` when the deadline cut it.
pub(crate) fn transport_failure(e: ureq::Error, https: bool) -> Option<String> {
    use ureq::Error;
    Some(match e {
        Error::Timeout(_) => return None,
        Error::Io(io) if is_timeout(&io) => return None,
        // rustls reports a bad certificate or a server that does not speak TLS as invalid data.
        Error::Io(io) if https && io.kind() == ErrorKind::InvalidData => format!("TLS error: {io}"),
        Error::Io(io) => io_cause(&io),
        Error::HostNotFound => "host not found (the DNS lookup failed)".to_string(),
        Error::ConnectionFailed => "the connection failed".to_string(),
        Error::BadUri(u) => format!("bad web address: {u}"),
        Error::Protocol(p) => format!("the server's answer is not valid HTTP/1.1: {p}"),
        Error::LargeResponseHeader(..) => "the server's response headers are too large".to_string(),
        Error::Tls(why) => format!("TLS error: {why}"),
        Error::Rustls(r) => format!("TLS error: {r}"),
        Error::TooManyRedirects | Error::RedirectFailed => {
            "the server answered with a redirect: redirects are not followed".to_string()
        }
        other => other.to_string(),
    })
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock)
        || matches!(
            e.get_ref()
                .and_then(|inner| inner.downcast_ref::<ureq::Error>()),
            Some(ureq::Error::Timeout(_))
        )
}

/// A network error as a short cause: "connection refused", "connection reset", ...
fn io_cause(e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::ConnectionRefused => "connection refused".to_string(),
        ErrorKind::ConnectionReset => "connection reset by the server".to_string(),
        ErrorKind::ConnectionAborted => "connection aborted".to_string(),
        ErrorKind::UnexpectedEof => "the server closed the connection before answering".to_string(),
        ErrorKind::NotConnected => "not connected".to_string(),
        ErrorKind::AddrNotAvailable => "address not available".to_string(),
        ErrorKind::HostUnreachable => "host unreachable".to_string(),
        ErrorKind::NetworkUnreachable => "network unreachable".to_string(),
        ErrorKind::BrokenPipe => "the server closed the connection (broken pipe)".to_string(),
        // The standard library's resolver failing: "failed to lookup address information: ...".
        _ if e.to_string().contains("lookup address") => format!("host not found: {e}"),
        _ => format!("network error: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_addresses_with_a_host_are_taken() {
        assert_eq!(
            check_url(" http://127.0.0.1:8001/ "),
            Ok("http://127.0.0.1:8001/".into())
        );
        assert!(check_url("HTTPS://ai.example.org/move").is_ok());
        for good in [
            "http://[::1]:8001/",
            "http://u:p@host/",
            "http://host:65535/x?y=1",
        ] {
            assert!(check_url(good).is_ok(), "{good:?}");
        }
        // The shared rule is tested in the engine; these are the client's own refusals, and one shared one.
        for bad in ["ftp://x", "http://[::1/", "http://a:99999/", "http://a:/"] {
            assert!(check_url(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn nothing_listening_is_connection_refused() {
        // Bind a port, then free it: nothing listens there now.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let ai = WebAi::new(&format!("http://127.0.0.1:{port}/")).expect("a valid URL");
        let reply = ai.ask(
            "{}",
            ContentType::TextPlain,
            Instant::now() + Duration::from_secs(2),
            2000,
        );
        assert_eq!(
            reply.answer,
            Answer::NoMove(NoMove::Failed("connection refused".into()))
        );
        assert_eq!(reply.latency, None);
        // Sent as text/plain with the tick's limit; no status, no time, no body.
        assert_eq!(reply.wire, Some(Wire::sent(ContentType::TextPlain, 2000)));
        let reply = ai.ask(
            "{}",
            ContentType::Json,
            Instant::now() + Duration::from_secs(2),
            300,
        );
        assert_eq!(reply.wire, Some(Wire::sent(ContentType::Json, 300)));
    }

    #[test]
    fn a_past_deadline_times_out_without_a_request() {
        let ai = WebAi::new("http://127.0.0.1:9/").expect("a valid URL");
        let reply = ai.ask("{}", ContentType::TextPlain, Instant::now(), 5);
        assert_eq!(
            reply.answer,
            Answer::NoMove(NoMove::TimedOut { after_ms: 5 })
        );
        assert_eq!(reply.wire, Some(Wire::sent(ContentType::TextPlain, 5)));
    }
}
