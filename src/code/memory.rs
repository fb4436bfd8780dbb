//! The page's own measure of a JavaScript player's memory (docs/code-players.md, "Memory").
//!
//! A Python player's heap is WebAssembly memory that its worker refuses to grow past the limit while
//! the move runs. A JavaScript player's objects live in its worker's JavaScript heap, which nothing in
//! the worker can cap, and the worker shares its realm with the student's code, so a number it
//! reported would be the code's to choose. The page measures instead, with the one measure a browser
//! gives a page of its workers' memory: `performance.measureUserAgentSpecificMemory()`. What it gives,
//! as measured in Chromium 156 (headless, a 2-core machine):
//!
//! - It exists only where the page is cross-origin isolated (served with `Cross-Origin-Opener-Policy:
//!   same-origin` and `Cross-Origin-Embedder-Policy: credentialless`, as `gridarena serve` and `trunk
//!   serve` do, or `require-corp`); elsewhere the page measures nothing ([`measurable`]) and says so
//!   ([`note`]).
//! - Each answer comes 10 to 20 s after the call (the browser measures at its next garbage collection,
//!   or when that has not come, later), one entry per worker, named by the worker's address: each code
//!   worker's address ends with a fragment of its own ([`worker_tag`]) that its code cannot change.
//! - A worker busy in a move that does not yield to its event loop is left out of the answer (the
//!   browser asks each worker on its own thread, as a task, and gives up after 60 s): such a move is
//!   measured once it has ended. A move that awaits (a timer, a message) is measured while it runs.
//!
//! So this bounds what a player keeps from move to move and what a move that awaits grows, found 10 to
//! 20 s late; one move that computes without pausing is bounded only by its deadline (a tight loop
//! allocated about 1 GB a second, and the tab died at about 3.7 GB of JavaScript arrays in one worker,
//! the browser's heap limit).
//!
//! One measurement is in flight at a time for all the watched workers of the page: [`watch`] adds a
//! worker, dropping its [`Watch`] removes it, and the loop stops when none is left.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The shortest time between the starts of two measurements, in milliseconds: a browser that answers
/// at once (Chromium run with `--enable-blink-features=ForceEagerMeasureMemory` answers in 15 to
/// 60 ms) is not asked without pause.
const MIN_GAP_MS: f64 = 500.0;

#[wasm_bindgen(inline_js = "
export function memory_measurable() {
  return globalThis.crossOriginIsolated === true
    && typeof globalThis.performance?.measureUserAgentSpecificMemory === 'function';
}
export function measure_workers() {
  return performance.measureUserAgentSpecificMemory().then((r) => r.breakdown.flatMap((entry) => {
    const mine = entry.attribution.filter((a) => a.scope === 'DedicatedWorkerGlobalScope');
    return mine.map((a) => [String(a.url), entry.bytes / entry.attribution.length]);
  }));
}")]
extern "C" {
    fn memory_measurable() -> bool;
    /// Each dedicated worker's address and bytes, as `[[url, bytes], ...]`.
    #[wasm_bindgen(catch)]
    fn measure_workers() -> Result<js_sys::Promise, JsValue>;
}

/// Whether this page can measure its workers' memory: it is cross-origin isolated and the browser has
/// `performance.measureUserAgentSpecificMemory` (Chromium 89 and later).
pub fn measurable() -> bool {
    !REFUSED.with(Cell::get) && web_sys::window().is_some() && memory_measurable()
}

/// What the page tells its user of a code player's memory, once, where the limits are described.
pub fn note(limit_mb: u32) -> String {
    let python = format!(
        "Memory: a player may use {limit_mb} MB. Python: an allocation past it fails while the move \
         runs (out of memory)."
    );
    if measurable() {
        format!(
            "{python} JavaScript: the browser measures each player's worker every 10 to 20 s, and a \
             worker past it is ended (out of memory); a move that computes without pausing is measured \
             only once it ends, so its deadline is its bound."
        )
    } else {
        format!(
            "{python} JavaScript: not measured here. This page is not cross-origin isolated (its host \
             does not send the Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers that \
             gridarena serve sends), and without that a browser tells a page nothing of a worker's \
             memory: a JavaScript player that grows without bound can take the tab down."
        )
    }
}

/// A fragment of its own for each code worker's address, so that the browser's measure names it.
pub fn worker_tag() -> String {
    thread_local! { static NEXT: Cell<u64> = const { Cell::new(0) }; }
    let n = NEXT.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    format!("code-player-{n}")
}

type OnOver = Rc<dyn Fn(f64)>;

struct Watched {
    key: u64,
    /// The worker's address ends with `#` and this.
    tag: String,
    limit_bytes: f64,
    on_over: OnOver,
}

#[derive(Default)]
struct Registry {
    next_key: u64,
    watched: Vec<Watched>,
    running: bool,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::default();
    /// The browser refused a measurement: the page measures no more, and says so ([`note`]).
    static REFUSED: Cell<bool> = const { Cell::new(false) };
}

/// A watched worker; dropping it stops the watch.
pub struct Watch {
    key: u64,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let key = self.key;
        REGISTRY.with(|r| r.borrow_mut().watched.retain(|w| w.key != key));
    }
}

/// Watches the worker whose address ends with `#tag`: once the browser measures it past `limit_mb`,
/// `on_over` gets the bytes measured (once; the watch then ends). `None` where the page cannot measure.
pub fn watch(tag: &str, limit_mb: u32, on_over: impl Fn(f64) + 'static) -> Option<Watch> {
    if !measurable() {
        return None;
    }
    let (key, start) = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.next_key += 1;
        let key = r.next_key;
        r.watched.push(Watched {
            key,
            tag: tag.to_string(),
            limit_bytes: f64::from(limit_mb) * 1_048_576.0,
            on_over: Rc::new(on_over),
        });
        let start = !r.running;
        r.running = true;
        (key, start)
    });
    if start {
        wasm_bindgen_futures::spawn_local(measure_while_watched());
    }
    Some(Watch { key })
}

/// The bytes measured for the worker whose address ends with `#tag`, `None` where it is not in the
/// answer (a worker busy in a move that does not yield).
fn bytes_of(measured: &[(String, f64)], tag: &str) -> Option<f64> {
    let fragment = format!("#{tag}");
    let mut found = None;
    for (url, bytes) in measured {
        if url.ends_with(&fragment) {
            *found.get_or_insert(0.0) += bytes;
        }
    }
    found
}

/// The watched workers measured past their limit, taken out of the registry.
fn over_limit(registry: &mut Registry, measured: &[(String, f64)]) -> Vec<(OnOver, f64)> {
    let mut over = Vec::new();
    registry
        .watched
        .retain(|w| match bytes_of(measured, &w.tag) {
            Some(bytes) if bytes > w.limit_bytes => {
                over.push((w.on_over.clone(), bytes));
                false
            }
            _ => true,
        });
    over
}

async fn measure_once() -> Result<Vec<(String, f64)>, String> {
    let promise = measure_workers().map_err(crate::ai_worker::js_error)?;
    let value = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(crate::ai_worker::js_error)?;
    let pairs: js_sys::Array = value.dyn_into().map_err(crate::ai_worker::js_error)?;
    Ok(pairs
        .iter()
        .filter_map(|pair| {
            let pair: js_sys::Array = pair.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_f64()?))
        })
        .collect())
}

async fn sleep_ms(ms: f64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Measures, one measurement at a time, while any worker is watched; hands each worker found past its
/// limit to its `on_over` (outside the registry's borrow: it may drop watches or add new ones).
async fn measure_while_watched() {
    loop {
        let idle = REGISTRY.with(|r| {
            let mut r = r.borrow_mut();
            if r.watched.is_empty() {
                r.running = false;
            }
            !r.running
        });
        if idle {
            return;
        }
        let started = crate::now_ms();
        let measured = match measure_once().await {
            Ok(measured) => measured,
            Err(_) => {
                // The browser refused (it should not, once measurable): no more watches are made, and
                // the page's note says that JavaScript players are not measured.
                REFUSED.with(|r| r.set(true));
                REGISTRY.with(|r| r.borrow_mut().running = false);
                return;
            }
        };
        let over = REGISTRY.with(|r| over_limit(&mut r.borrow_mut(), &measured));
        for (on_over, bytes) in over {
            on_over(bytes);
        }
        let waited = crate::now_ms() - started;
        if waited < MIN_GAP_MS {
            sleep_ms(MIN_GAP_MS - waited).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_is_known_by_its_fragment_and_taken_out_once_over() {
        let measured = vec![
            (
                "http://h/sub/code/worker.js#code-player-1".to_string(),
                300.0 * 1_048_576.0,
            ),
            (
                "http://h/sub/code/worker.js#code-player-12".to_string(),
                2000.0 * 1_048_576.0,
            ),
            (
                "http://h/sub/code/worker.js#code-player-12".to_string(),
                1.0,
            ),
        ];
        assert_eq!(
            bytes_of(&measured, "code-player-1"),
            Some(300.0 * 1_048_576.0)
        );
        assert_eq!(bytes_of(&measured, "code-player-2"), None);
        assert_eq!(
            bytes_of(&measured, "code-player-12"),
            Some(2000.0 * 1_048_576.0 + 1.0)
        );
        let heard: Rc<RefCell<Vec<String>>> = Rc::default();
        let mut registry = Registry::default();
        for (key, tag) in [
            (1, "code-player-1"),
            (2, "code-player-12"),
            (3, "code-player-9"),
        ] {
            let heard = heard.clone();
            registry.watched.push(Watched {
                key,
                tag: tag.into(),
                limit_bytes: 1024.0 * 1_048_576.0,
                on_over: Rc::new(move |bytes| heard.borrow_mut().push(format!("{tag} {bytes}"))),
            });
        }
        let over = over_limit(&mut registry, &measured);
        assert_eq!(over.len(), 1);
        for (on_over, bytes) in over {
            on_over(bytes);
        }
        assert_eq!(
            *heard.borrow(),
            [format!("code-player-12 {}", 2000.0 * 1_048_576.0 + 1.0)]
        );
        let left: Vec<u64> = registry.watched.iter().map(|w| w.key).collect();
        assert_eq!(left, [1, 3]);
        assert_ne!(worker_tag(), worker_tag());
    }
}
