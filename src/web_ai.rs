//! Web AI players: one HTTP POST per tick with the request JSON, cancelled at the deadline.
//!
//! The body goes out as `text/plain` by default, which makes the request a CORS "simple request": no
//! preflight on every tick, and seed-era PHP AIs that read the raw body keep working; a team may choose
//! `application/json` instead (see [`ContentType`]). Redirects are not followed
//! (the native runner does the same), so a redirect loop is one clear error. Whatever comes back is
//! only ever parsed by the engine's [`parse_response`] and shown as text, never as HTML.

use gridarena_engine::halma::protocol::{
    parse_response, status_failure, ResponseError, MAX_RESPONSE_BYTES,
};
use gridarena_engine::halma::{Answer, ContentType, NoMove, Wire};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

// The request in the browser's own words: a fetch and its few outcomes, written here rather than through
// an HTTP crate, whose request builder and error types would weigh on every page that plays web AIs.
// The fetches run in a small worker of their own: a class's web AIs at short ticks are hundreds of
// requests a second, and the browser's work for each (the request, CORS, reading the body, the abort)
// would otherwise take the page thread from drawing the boards. Where no worker starts, the page fetches.
#[wasm_bindgen(inline_js = "
async function post(url, type, body, signal, max) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body, redirect: 'manual', signal });
  if (r.type === 'opaqueredirect') return { status: r.status, text: r.statusText, redirect: true };
  const length = r.headers.get('content-length');
  const announced = /^\\s*\\d+\\s*$/.test(length ?? '') ? Number(length) : -1;
  if (r.ok && announced > max) return { status: r.status, text: r.statusText, announced };
  let bytes;
  try {
    bytes = await upTo(r.body, max + 1);
  } catch (e) {
    if (r.ok) throw e;
    bytes = new Uint8Array(0);
  }
  return { status: r.status, text: r.statusText, ok: r.ok, bytes };
}
// At most `limit` bytes of a body: one byte past the protocol's limit says it is too large, and a
// 10 MB answer is not downloaded and copied whole inside a 300 ms tick.
async function upTo(body, limit) {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  if (size >= limit) reader.cancel().catch(() => {});
  const bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
const WORKER = `${post}
${upTo}
const live = new Map();
onmessage = async ({ data: m }) => {
  if (m.abort !== undefined) return live.get(m.abort)?.abort();
  const stop = new AbortController();
  live.set(m.id, stop);
  try {
    const reply = await post(m.url, m.type, m.body, stop.signal, m.max);
    postMessage({ id: m.id, reply }, reply.bytes ? [reply.bytes.buffer] : []);
  } catch (e) {
    postMessage({ id: m.id, error: { name: String(e?.name ?? 'Error'), message: String(e?.message ?? e) } });
  } finally {
    live.delete(m.id);
  }
};`;
let worker;
let next = 0;
const pending = new Map();
function fetcher() {
  if (worker !== undefined) return worker;
  try {
    const source = URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' }));
    worker = new Worker(source);
    worker.onmessage = ({ data }) => {
      const waiting = pending.get(data.id);
      if (!waiting) return;
      pending.delete(data.id);
      if (data.error) waiting.reject(Object.assign(new Error(data.error.message), { name: data.error.name }));
      else waiting.resolve(data.reply);
    };
    // A worker that cannot run (a policy that forbids it): what it was given is fetched here, as is all
    // that follows.
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      worker = null;
      for (const [id, waiting] of pending) waiting.retry();
      pending.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}
export function web_ai_post(url, type, body, signal, max) {
  if (signal.aborted) return Promise.reject(new DOMException('the deadline passed', 'AbortError'));
  const absolute = new URL(url, document.baseURI).href;
  const w = fetcher();
  if (!w) return post(absolute, type, body, signal, max);
  return new Promise((resolve, reject) => {
    const id = next++;
    const retry = () => post(absolute, type, body, signal, max).then(resolve, reject);
    pending.set(id, { resolve, reject, retry });
    signal.addEventListener('abort', () => {
      if (!pending.delete(id)) return;
      worker?.postMessage({ abort: id });
      reject(new DOMException('the deadline passed', 'AbortError'));
    }, { once: true });
    w.postMessage({ id, url: absolute, type, body, max });
  });
}")]
extern "C" {
    /// POSTs `body` to `url`, redirects not followed: what came back (a status, its text and the body,
    /// or that it was a redirect or announced too large), or the fetch's exception (a `TypeError` for
    /// a refused connection or CORS, an `AbortError` at the deadline).
    #[wasm_bindgen(catch)]
    async fn web_ai_post(
        url: &str,
        content_type: &str,
        body: String,
        signal: &AbortSignal,
        max_bytes: f64,
    ) -> Result<JsValue, JsValue>;
}

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

/// A field of the fetch's reply object.
fn field(reply: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(reply, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

async fn exchange(
    url: &str,
    content_type: ContentType,
    body: String,
    signal: &AbortSignal,
    deadline_ms: u64,
    wire: &mut Wire,
) -> Answer {
    let limit = MAX_RESPONSE_BYTES as f64;
    let reply = match web_ai_post(url, content_type.header(), body, signal, limit).await {
        Ok(reply) => reply,
        Err(e) => {
            let name = field(&e, "name").as_string().unwrap_or_default();
            return match name.as_str() {
                "AbortError" => Answer::NoMove(NoMove::TimedOut {
                    after_ms: deadline_ms,
                }),
                // A fetch refused by the network and one refused by CORS look the same to the page.
                "TypeError" => Answer::NoMove(NoMove::Failed(
                    "connection refused or blocked by CORS (the endpoint must answer with \
                     Access-Control-Allow-Origin)"
                        .to_string(),
                )),
                _ => Answer::NoMove(NoMove::Failed(format!(
                    "{name}: {}",
                    crate::ai_worker::js_error(e)
                ))),
            };
        }
    };
    let status = field(&reply, "status").as_f64().unwrap_or_default() as u16;
    wire.status = Some(status);
    if field(&reply, "redirect").is_truthy() {
        return Answer::NoMove(NoMove::Failed(
            "the endpoint answered with a redirect: redirects are not followed".to_string(),
        ));
    }
    // An announced oversized body is refused before it is read.
    if let Some(bytes) = field(&reply, "announced").as_f64() {
        return Answer::NoMove(NoMove::Unreadable(ResponseError::TooLarge {
            bytes: bytes as usize,
        }));
    }
    let bytes = js_sys::Uint8Array::new(&field(&reply, "bytes")).to_vec();
    let kept = &bytes[..bytes.len().min(MAX_RESPONSE_BYTES)];
    if !field(&reply, "ok").is_truthy() {
        // The body often says why (a framework's 415 page): show it in the inspector.
        if !kept.is_empty() {
            *wire = std::mem::take(wire).with_body(kept);
        }
        let text = field(&reply, "text").as_string().unwrap_or_default();
        return status_error(status, &text, kept);
    }
    *wire = std::mem::take(wire).with_body(kept);
    Answer::from(parse_response(&bytes))
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
