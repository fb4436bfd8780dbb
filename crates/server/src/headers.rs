//! Security headers on every answer, and the rule for which pages may open the WebSocket.
//!
//! **Headers.** Every answer carries `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
//! `X-Frame-Options: DENY`, `Cache-Control: no-cache` (unless the answer set its own) and a
//! `Content-Security-Policy` ([`csp`]) that allows exactly what the app does: its own scripts and the
//! inline script of `index.html` that starts a page (by its SHA-256, computed when `index.html` is
//! served, so a rebuild needs no restart), WebAssembly (`'wasm-unsafe-eval'`), Web Workers from the same
//! origin and from `blob:` URLs, modules from `blob:` URLs (a JavaScript code player's files, imported
//! by its worker, which gets this same policy; only the page's own scripts can make such a URL), requests to any http(s) address (the Halma page POSTs to AIs at
//! addresses its user types) and to this server's own WebSocket; no plug-ins, no framing
//! (`frame-ancestors 'none'`). Styles may be inline (the components set `style` attributes).
//! `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: credentialless` make
//! the page cross-origin isolated, the condition a browser sets for measuring the page's workers'
//! memory (`performance.measureUserAgentSpecificMemory`, with which the page bounds a JavaScript code
//! player's memory, docs/code-players.md). `credentialless` rather than `require-corp`: the endpoint
//! doctor's `no-cors` request to a student's AI (how it tells a missing CORS header from silence) is
//! then sent without cookies and still answered, where `require-corp` would refuse its answer, which
//! carries no `Cross-Origin-Resource-Policy`. Web AIs are fetched with CORS, which either allows.
//!
//! **Origin.** A browser says in `Origin` which page opens a WebSocket; any page may try, since the
//! same-origin policy does not cover WebSockets. The upgrade is refused (`403`) when `Origin` is there
//! and its host and port differ from the `Host` the request was sent to, unless the origin is one of
//! [`crate::Config::allowed_origins`]. A request without `Origin` is not a browser's page and is
//! allowed: such a client can send any `Origin` it likes anyway.

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The inline scripts of a page, as CSP source expressions (`'sha256-…'`); a handler that serves a
/// page with inline scripts puts this in the answer's extensions, and [`security_headers`] allows them.
#[derive(Clone, Debug, Default)]
pub struct InlineScripts(pub Vec<String>);

/// The `'sha256-…'` of each inline `<script>` (one without `src`) in `html`.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    // Found in a lower-cased copy (same byte offsets), hashed from the original.
    let lower = html.to_ascii_lowercase();
    let mut hashes = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<script").map(|i| at + i) {
        let Some(open_end) = lower[start..].find('>').map(|i| start + i) else {
            break;
        };
        let Some(close) = lower[open_end..].find("</script").map(|i| open_end + i) else {
            break;
        };
        at = close;
        if lower[start..open_end].contains("src=") {
            continue;
        }
        let digest = Sha256::digest(&html.as_bytes()[open_end + 1..close]);
        hashes.push(format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        ));
    }
    hashes
}

/// Whether `host` (a `Host` header) is safe to write into a header: a name or address and a port.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// The Content-Security-Policy of an answer: `scripts` are the page's inline scripts' hashes, `host`
/// the `Host` the request was sent to (for the WebSocket's `ws://` and `wss://` addresses).
pub fn csp(scripts: &[String], host: Option<&str>) -> String {
    let mut script_src = String::from("'self' 'wasm-unsafe-eval' blob:");
    for s in scripts {
        script_src.push(' ');
        script_src.push_str(s);
    }
    let sockets = match host.filter(|h| plain_host(h)) {
        Some(h) => format!(" ws://{h} wss://{h}"),
        None => String::new(),
    };
    format!(
        "default-src 'self'; script-src {script_src}; worker-src 'self' blob:; \
         connect-src 'self' http: https:{sockets}; img-src 'self' data: blob:; \
         style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'; \
         frame-ancestors 'none'"
    )
}

/// Middleware: the security headers on every answer.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string);
    let mut response = next.run(request).await;
    let scripts = response
        .extensions_mut()
        .remove::<InlineScripts>()
        .unwrap_or_default();
    let policy = csp(&scripts.0, host.as_deref());
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        HeaderName::from_static("cross-origin-embedder-policy"),
        HeaderValue::from_static("credentialless"),
    );
    // The app's files keep their names from build to build (index.html loads them by name), so a
    // browser must check each time that its copy is current: a page's JavaScript from one build with its
    // wasm from another would not start. Unchanged files still come back as a short 304.
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&policy) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// The host and port of an origin (`http://example.org:8080` gives `example.org:8080`).
fn authority(origin: &str) -> Option<&str> {
    let (_, rest) = origin.split_once("://")?;
    Some(rest.trim_end_matches('/'))
}

/// Whether a WebSocket upgrade with these `Origin` and `Host` headers may go ahead; the refusal says
/// why, for the 403's body.
pub fn check_origin(
    origin: Option<&str>,
    host: Option<&str>,
    allowed: &[String],
) -> Result<(), String> {
    let Some(origin) = origin else {
        return Ok(());
    };
    let same_host = match (authority(origin), host) {
        (Some(a), Some(h)) => a.eq_ignore_ascii_case(h),
        _ => false,
    };
    let listed = allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin));
    if same_host || listed {
        return Ok(());
    }
    let shown: String = origin.chars().take(100).collect();
    Err(format!(
        "a page from {shown:?} may not open this server's WebSocket: only pages served by this \
         server (or origins its operator allows) may"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_are_hashed_and_external_ones_skipped() {
        let html = r#"<head><script type="module">import init from './a.js';</script>
            <script src="b.js"></script><SCRIPT>x</SCRIPT></head>"#;
        let hashes = inline_script_hashes(html);
        let hash = |text: &[u8]| {
            let digest = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text));
            format!("'sha256-{digest}'")
        };
        assert_eq!(hashes, [hash(b"import init from './a.js';"), hash(b"x")]);
        assert!(inline_script_hashes("<script>unterminated").is_empty());
    }

    #[test]
    fn the_policy_allows_what_the_app_needs_and_no_framing() {
        let p = csp(&["'sha256-abc'".into()], Some("127.0.0.1:8080"));
        for part in [
            "script-src 'self' 'wasm-unsafe-eval' blob: 'sha256-abc';",
            "worker-src 'self' blob:;",
            "connect-src 'self' http: https: ws://127.0.0.1:8080 wss://127.0.0.1:8080;",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(p.contains(part), "{part} in {p}");
        }
        let odd = csp(&[], Some("evil.example; script-src *"));
        assert!(odd.contains("connect-src 'self' http: https:;"), "{odd}");
    }

    #[test]
    fn the_origin_must_match_the_host_or_be_allowed() {
        assert!(check_origin(None, Some("a:1"), &[]).is_ok());
        assert!(check_origin(Some("http://a:1"), Some("a:1"), &[]).is_ok());
        assert!(check_origin(Some("https://Example.org"), Some("example.org"), &[]).is_ok());
        assert!(check_origin(Some("http://a:2"), Some("a:1"), &[]).is_err());
        assert!(check_origin(Some("null"), Some("a:1"), &[]).is_err());
        assert!(check_origin(Some("http://a:1"), None, &[]).is_err());
        let allowed = ["https://school.example/".to_string()];
        assert!(check_origin(Some("https://school.example"), Some("a:1"), &allowed).is_ok());
        let e = check_origin(Some("http://evil.example"), Some("a:1"), &allowed).unwrap_err();
        assert!(e.contains("evil.example"), "{e}");
    }
}
