//! A bell a task awaits instead of looking again and again: whoever changes what it waits for rings it.
//!
//! The tournament's games wait for a resume after a pause and for a free seat in the code players' pool;
//! they used to poll (every 50 and 200 ms). Now the pause button, a seat given back and a tournament
//! replaced ring the bell, and each waiting task looks once more only then.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// Clones share one bell.
#[derive(Clone, Default)]
pub struct Bell(Rc<RefCell<Rings>>);

#[derive(Default)]
struct Rings {
    /// How often it has rung: a wait resolves once this passes what it saw when it began.
    count: u64,
    waiting: Vec<Waker>,
}

impl Bell {
    pub fn new() -> Bell {
        Bell::default()
    }

    /// Wakes every task waiting for the next ring.
    pub fn ring(&self) {
        let waiting = {
            let mut rings = self.0.borrow_mut();
            rings.count = rings.count.wrapping_add(1);
            std::mem::take(&mut rings.waiting)
        };
        for w in waiting {
            w.wake();
        }
    }

    /// Resolves at the next ring after this call.
    pub fn rung(&self) -> Rung {
        Rung {
            bell: self.clone(),
            seen: self.0.borrow().count,
        }
    }
}

/// The future of [`Bell::rung`].
pub struct Rung {
    bell: Bell,
    seen: u64,
}

impl Future for Rung {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut rings = self.bell.0.borrow_mut();
        if rings.count != self.seen {
            return Poll::Ready(());
        }
        if !rings.waiting.iter().any(|w| w.will_wake(cx.waker())) {
            rings.waiting.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_waker::waker;

    #[test]
    fn a_wait_resolves_at_the_next_ring_only() {
        let bell = Bell::new();
        bell.ring();
        let mut rung = Box::pin(bell.rung());
        let (count, waker) = waker();
        let mut cx = Context::from_waker(&waker);
        assert!(
            rung.as_mut().poll(&mut cx).is_pending(),
            "a ring before it began"
        );
        assert!(rung.as_mut().poll(&mut cx).is_pending());
        bell.ring();
        assert_eq!(count.woken(), 1, "woken once, however often polled");
        assert!(rung.as_mut().poll(&mut cx).is_ready());
    }
}
