//! A timer for the tick's own timeouts, with its callback made once.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A `setTimeout` callback made once and armed again for each tick. A tick arms two (Step's busy look
/// and the deadline): a fresh closure for each cost the page a Rust box and a JS function a tick, and
/// one that outlived its tick still ran, as a task of its own, to find nothing to do. A disarmed or
/// dropped timer does not run.
pub struct Timer {
    callback: Closure<dyn Fn()>,
    pending: Option<i32>,
}

impl Timer {
    pub fn new(callback: impl Fn() + 'static) -> Timer {
        Timer {
            callback: Closure::new(callback),
            pending: None,
        }
    }

    /// Runs the callback `ms` milliseconds from now, in place of a run still pending.
    pub fn arm(&mut self, ms: u64) {
        self.disarm();
        let ms = i32::try_from(ms).unwrap_or(i32::MAX);
        self.pending = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(
                self.callback.as_ref().unchecked_ref(),
                ms,
            )
            .ok()
        });
    }

    /// The pending run, if any, will not happen. (A handle whose run is over clears nothing.)
    pub fn disarm(&mut self) {
        if let (Some(handle), Some(w)) = (self.pending.take(), web_sys::window()) {
            w.clear_timeout_with_handle(handle);
        }
    }
}

impl Drop for Timer {
    /// The page left the arena: the callback goes, so its run must not come.
    fn drop(&mut self) {
        self.disarm();
    }
}
