//! A waker that counts its wakes, for the native tests of the page's own futures ([`crate::bell`],
//! [`crate::tick_alarm`]): whether a wait was woken, and how often.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Wake, Waker};

pub struct Count(AtomicUsize);

impl Wake for Count {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Count {
    /// How often it was woken.
    pub fn woken(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A fresh counter and a waker that counts on it.
pub fn waker() -> (Arc<Count>, Waker) {
    let count = Arc::new(Count(AtomicUsize::new(0)));
    (count.clone(), Waker::from(count))
}
