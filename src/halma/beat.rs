//! Run's beat. A page's own timers are slowed to about once a second (or less) while its tab is hidden;
//! a dedicated Worker's are not, so the beat comes from a tiny worker's `setInterval`, posted to the
//! page each tick length. Where no worker can start, the page's own interval stands in.

use gloo_timers::callback::Interval;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

/// The worker: it beats every `ms` it is sent.
const SCRIPT: &str =
    "let t;onmessage=e=>{clearInterval(t);t=setInterval(()=>postMessage(0),e.data)}";

/// A running beat; dropping it stops it.
pub enum Beat {
    Worker {
        worker: Worker,
        _on_beat: Closure<dyn FnMut(MessageEvent)>,
    },
    Page {
        _interval: Interval,
    },
}

impl Beat {
    /// Calls `on_beat` every `ms` milliseconds.
    pub fn start(ms: u32, on_beat: impl FnMut() + 'static) -> Beat {
        let mut on_beat = on_beat;
        match Self::worker(ms) {
            Ok((worker, url)) => {
                let _ = Url::revoke_object_url(&url);
                let closure = Closure::<dyn FnMut(MessageEvent)>::new(move |_| on_beat());
                worker.set_onmessage(Some(wasm_bindgen::JsCast::unchecked_ref(closure.as_ref())));
                Beat::Worker {
                    worker,
                    _on_beat: closure,
                }
            }
            Err(_) => Beat::Page {
                _interval: Interval::new(ms, on_beat),
            },
        }
    }

    fn worker(ms: u32) -> Result<(Worker, String), JsValue> {
        let options = BlobPropertyBag::new();
        options.set_type("text/javascript");
        let parts = js_sys::Array::of1(&JsValue::from_str(SCRIPT));
        let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
        let url = Url::create_object_url_with_blob(&blob)?;
        let worker = Worker::new(&url)?;
        worker.post_message(&JsValue::from(ms))?;
        Ok((worker, url))
    }
}

impl Drop for Beat {
    fn drop(&mut self) {
        if let Beat::Worker { worker, .. } = self {
            worker.set_onmessage(None);
            worker.terminate();
        }
    }
}

/// The note for a beat that came `gap_ms` after the previous one, with ticks of `tick_ms`: `None` while
/// it is within 1.5 tick lengths.
pub fn late_note(gap_ms: f64, tick_ms: u32) -> Option<String> {
    (gap_ms > 1.5 * f64::from(tick_ms)).then(|| {
        format!(
            "ticks run late: the browser slows timers in a hidden tab; {} ms instead of {tick_ms}",
            gap_ms.round() as u64
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_beat_over_one_and_a_half_ticks_is_late() {
        assert_eq!(late_note(1400.0, 1000), None);
        assert_eq!(late_note(1500.0, 1000), None);
        assert_eq!(
            late_note(1501.2, 1000).as_deref(),
            Some(
                "ticks run late: the browser slows timers in a hidden tab; 1501 ms instead of 1000"
            )
        );
    }
}
