//! One timer lent to tick after tick: a page's (or a game's) ticks share one [`Alarm`], so a tick makes
//! no JavaScript function and no timer registration of its own (issue 38).
//!
//! Each tick's [`TickWait`](crate::tick_wait::TickWait) takes the alarm over when it is made, and the
//! alarm's one callback wakes whichever wait holds it then. Who holds it is a [`Relay`], plain Rust
//! tested natively: a wait that no longer holds it (its tick cancelled, ended or dropped) can neither
//! set, clear nor be woken by the timer of the tick after it.

use crate::alarm::Alarm;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::task::Waker;

/// One timer for a page's or a game's ticks. Clones share it; the timer is cleared when the last goes.
#[derive(Clone, Default)]
pub struct TickAlarm(Rc<Shared>);

#[derive(Default)]
struct Shared {
    relay: RefCell<Relay>,
    /// Made the first time a tick sleeps, so a page that never plays makes none (and native tests,
    /// which have no browser, can make waits' alarms).
    alarm: RefCell<Option<Alarm>>,
}

impl TickAlarm {
    pub fn new() -> TickAlarm {
        TickAlarm::default()
    }

    /// A new tick's wait takes the timer over: a timer set for the wait before it is cleared, and that
    /// wait is no longer woken by it.
    pub(crate) fn take_over(&self) -> Lease {
        let (lease, was_set) = self.0.relay.borrow_mut().take_over();
        if was_set {
            self.clear();
        }
        lease
    }

    /// `lease`'s wait sleeps until `ms` milliseconds from now, when `waker` is woken; a wait that no
    /// longer holds the timer sets nothing (an answer, a hurry or a cancel still wakes it).
    pub(crate) fn set(&self, lease: Lease, waker: &Waker, ms: u32) {
        if !self.0.relay.borrow_mut().arm(lease, waker) {
            return;
        }
        let shared = Rc::downgrade(&self.0);
        self.0
            .alarm
            .borrow_mut()
            .get_or_insert_with(|| Alarm::new(move || ring(&shared)))
            .set(ms);
    }

    /// `lease`'s wait no longer needs the timer: cleared if it was set for that wait and has not gone
    /// off, left alone if another wait holds it now.
    pub(crate) fn release(&self, lease: Lease) {
        if self.0.relay.borrow_mut().disarm(lease) {
            self.clear();
        }
    }

    fn clear(&self) {
        if let Some(alarm) = &mut *self.0.alarm.borrow_mut() {
            alarm.cancel();
        }
    }
}

/// The alarm's callback: wakes the wait the timer was set for, if the alarm is still there.
fn ring(shared: &Weak<Shared>) {
    let Some(shared) = shared.upgrade() else {
        return;
    };
    let waker = shared.relay.borrow_mut().fire();
    if let Some(w) = waker {
        w.wake();
    }
}

/// Which wait holds the shared timer: the one that took it over last, by the number of its lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lease(u64);

/// Who a shared timer is for, and whether it is set: the hand-over of [`TickAlarm`], without the timer.
#[derive(Default)]
pub(crate) struct Relay {
    /// The lease of the wait that holds the timer now; each take-over makes a greater one.
    holder: u64,
    /// Whether the timer is set and has not gone off: only then is there anything to clear.
    set: bool,
    /// Whom the timer wakes when it goes off.
    waker: Option<Waker>,
}

impl Relay {
    /// A new wait takes the timer over: its lease, and whether a timer set for the wait before it must
    /// be cleared (its waker is forgotten either way).
    pub(crate) fn take_over(&mut self) -> (Lease, bool) {
        self.holder += 1;
        self.waker = None;
        (Lease(self.holder), std::mem::take(&mut self.set))
    }

    /// `lease`'s wait sets the timer to wake `waker`. Returns whether it may: false for a wait that no
    /// longer holds it.
    pub(crate) fn arm(&mut self, lease: Lease, waker: &Waker) -> bool {
        if lease.0 != self.holder {
            return false;
        }
        self.set = true;
        match &mut self.waker {
            Some(w) if w.will_wake(waker) => {}
            w => *w = Some(waker.clone()),
        }
        true
    }

    /// `lease`'s wait no longer needs the timer. Returns whether it must be cleared: set for this wait
    /// and not gone off yet (never for a wait that no longer holds it).
    pub(crate) fn disarm(&mut self, lease: Lease) -> bool {
        if lease.0 != self.holder {
            return false;
        }
        self.waker = None;
        std::mem::take(&mut self.set)
    }

    /// The timer went off: whom to wake, if a wait set it and still holds it.
    pub(crate) fn fire(&mut self) -> Option<Waker> {
        self.set = false;
        self.waker.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_waker::waker;

    #[test]
    fn the_timer_wakes_the_wait_that_set_it_once() {
        let mut relay = Relay::default();
        let (lease, was_set) = relay.take_over();
        assert!(!was_set, "nothing was set before the first wait");
        let (count, w) = waker();
        assert!(relay.arm(lease, &w));
        assert!(relay.arm(lease, &w), "set again for the same wait");
        relay.fire().expect("the holder is woken").wake();
        assert_eq!(count.woken(), 1);
        assert!(relay.fire().is_none(), "one wake a setting");
        assert!(
            !relay.disarm(lease),
            "a timer that went off has nothing to clear"
        );
    }

    #[test]
    fn a_wait_that_needs_no_timer_clears_its_own() {
        let mut relay = Relay::default();
        let (lease, _) = relay.take_over();
        let (count, w) = waker();
        assert!(relay.arm(lease, &w));
        assert!(relay.disarm(lease), "set and not gone off: cleared");
        assert!(!relay.disarm(lease), "cleared once");
        assert!(relay.fire().is_none());
        assert_eq!(count.woken(), 0);
    }

    #[test]
    fn a_new_wait_takes_the_timer_from_the_old() {
        let mut relay = Relay::default();
        let (old, _) = relay.take_over();
        let (old_count, old_w) = waker();
        assert!(relay.arm(old, &old_w));
        let (new, was_set) = relay.take_over();
        assert!(was_set, "the old wait's timer is cleared at the hand-over");
        assert_ne!(old, new);
        let (new_count, new_w) = waker();
        assert!(relay.arm(new, &new_w));
        // The old tick, cancelled or ended now, lets the timer go: the new tick's stays set.
        assert!(!relay.disarm(old));
        assert!(!relay.arm(old, &old_w), "nor can it set it again");
        relay.fire().expect("the new wait is woken").wake();
        assert_eq!((old_count.woken(), new_count.woken()), (0, 1));
    }

    #[test]
    fn a_new_wait_is_not_woken_for_the_old_ones_timer() {
        let mut relay = Relay::default();
        let (old, _) = relay.take_over();
        let (_, old_w) = waker();
        assert!(relay.arm(old, &old_w));
        // The new tick only awaits answers: it sets no timer, and the old one's was cleared.
        let (new, was_set) = relay.take_over();
        assert!(was_set);
        assert!(relay.fire().is_none(), "a late go-off wakes no one");
        assert!(!relay.disarm(new), "nothing set for the new wait");
    }
}
