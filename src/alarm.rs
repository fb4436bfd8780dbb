//! A timer set again and again with one callback, for a loop that sets one every tick.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &js_sys::Function, ms: i32) -> i32;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(handle: i32);
}

/// One timer whose callback is made into a JavaScript function once. A `gloo` `Timeout` makes a new
/// function for each timer and registers it for clean-up, and dropping it unregisters it: for a timer
/// set and cancelled every tick that cost the page about 40 µs a tick (issue 38).
pub struct Alarm {
    callback: Closure<dyn FnMut()>,
    /// The timer last set, which may have gone off already: clearing one that has does nothing.
    last: Option<i32>,
}

impl Alarm {
    /// An alarm that calls `f` each time it goes off; nothing is set yet.
    pub fn new(f: impl FnMut() + 'static) -> Alarm {
        Alarm {
            callback: Closure::new(f),
            last: None,
        }
    }

    /// Goes off in `ms` milliseconds (at most `i32::MAX`; the browser fires longer ones at once),
    /// instead of when it was set for before.
    pub fn set(&mut self, ms: u32) {
        self.cancel();
        let ms = i32::try_from(ms).unwrap_or(i32::MAX);
        self.last = Some(set_timeout(self.callback.as_ref().unchecked_ref(), ms));
    }

    /// Does not go off, if it was set.
    pub fn cancel(&mut self) {
        if let Some(handle) = self.last.take() {
            clear_timeout(handle);
        }
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        self.cancel();
    }
}
