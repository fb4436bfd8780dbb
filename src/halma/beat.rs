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
/// it is within half a tick length (and at least 100 ms, so a short tick's ordinary jitter is not news)
/// of on time. The cause named depends on whether the tab was `hidden` (the browser throttles it) or in
/// view (the page or the machine is too busy to keep up).
pub fn late_note(gap_ms: f64, tick_ms: u32, hidden: bool) -> Option<String> {
    let cause = if hidden {
        "the browser slows timers in a hidden tab"
    } else {
        "the page is too busy to keep up (a slow machine, or a shorter tick than the board can draw)"
    };
    (gap_ms > f64::from(tick_ms) + (f64::from(tick_ms) / 2.0).max(100.0)).then(|| {
        format!(
            "ticks run late: {cause}; {} ms instead of {tick_ms}",
            gap_ms.round() as u64
        )
    })
}

/// On-time beats in a row after which a late note is taken down: it stays long enough to be read, and a
/// single hiccup does not leave a warning up for the rest of the game.
pub const ON_TIME_TO_CLEAR: u32 = 20;

/// Whether the page's tab is hidden now (a minimised window, another tab in front).
pub fn tab_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_beat_over_one_and_a_half_ticks_and_100_ms_is_late() {
        assert_eq!(late_note(1400.0, 1000, true), None);
        assert_eq!(late_note(1500.0, 1000, false), None);
        assert_eq!(
            late_note(1501.2, 1000, true).as_deref(),
            Some(
                "ticks run late: the browser slows timers in a hidden tab; 1501 ms instead of 1000"
            )
        );
    }

    #[test]
    fn a_late_beat_in_view_blames_a_busy_page_not_a_hidden_tab() {
        assert_eq!(
            late_note(200.0, 100, false),
            None,
            "100 ms of jitter is not late"
        );
        let note = late_note(260.0, 100, false).unwrap();
        assert!(
            note.starts_with("ticks run late: the page is too busy"),
            "{note}"
        );
        assert!(note.ends_with("260 ms instead of 100"), "{note}");
    }
}
