//! A tick's wait, awaitable: the engine's [`TickClock`] with the browser's time and one timer.
//!
//! Every page that plays ticks (the arena, the tournament and Compare) sends a tick's requests, tells
//! this each answer as it lands, and awaits [`TickWait::over`]; the rule of when the tick ends is the
//! engine's, so the page and the command line cannot drift. The wait sleeps until the clock's next
//! moment or the next answer, whichever is first: nothing polls. Its timer is the caller's
//! [`TickAlarm`], one for all of a page's or a game's ticks, lent to each tick's wait in turn.

use crate::now_ms;
use crate::tick_alarm::{Lease, TickAlarm};
use gridarena_engine::halma::tick_clock::{Next, TickClock};
use gridarena_engine::halma::Team;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// One tick's wait. Clones share it: the answers' callbacks hold one, the driver awaits another.
#[derive(Clone)]
pub struct TickWait(Rc<RefCell<Inner>>);

struct Inner {
    clock: TickClock,
    /// When the tick began (`performance.now()`).
    started: f64,
    /// The driver waiting for the tick's end, woken by an answer, a hurry, a cancel or the timer.
    waker: Option<Waker>,
    /// The page's or the game's timer, taken over when the wait was made, and `lease` saying so: once
    /// the next tick's wait takes it, this one neither sets nor clears it.
    alarm: TickAlarm,
    lease: Lease,
    cancelled: bool,
}

impl Drop for Inner {
    /// A wait given up while its timer is set does not leave it to go off for nothing.
    fn drop(&mut self) {
        self.alarm.release(self.lease);
    }
}

impl TickWait {
    /// The wait of a tick that begins now, timed by `clock` (its sides asked already), sleeping on
    /// `alarm`: it takes the timer over from the tick before, whose wait must be over or cancelled by
    /// then (a wait that lost the timer is woken only by an answer, a hurry or a cancel).
    pub fn new(clock: TickClock, alarm: &TickAlarm) -> TickWait {
        let lease = alarm.take_over();
        TickWait(Rc::new(RefCell::new(Inner {
            clock,
            started: now_ms(),
            waker: None,
            alarm: alarm.clone(),
            lease,
            cancelled: false,
        })))
    }

    /// Whether `other` is this same wait (a clone of it).
    pub fn same(&self, other: &TickWait) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// Milliseconds since the tick began.
    pub fn elapsed_ms(&self) -> f64 {
        (now_ms() - self.0.borrow().started).max(0.0)
    }

    /// When the tick began (`performance.now()`).
    pub fn started(&self) -> f64 {
        self.0.borrow().started
    }

    /// `team`'s answer is in: the tick may end now.
    pub fn answered(&self, team: Team) {
        self.0.borrow_mut().clock.answered(team);
        self.wake();
    }

    /// From now on the tick ends as soon as its answers are in.
    pub fn hurry(&self) {
        self.0.borrow_mut().clock.hurry();
        self.wake();
    }

    /// The tick is abandoned: [`TickWait::over`] gives `None`.
    pub fn cancel(&self) {
        self.0.borrow_mut().cancelled = true;
        self.wake();
    }

    /// Whether any asked side is still waited for.
    pub fn awaiting(&self) -> bool {
        let elapsed = self.elapsed_ms() as u64;
        self.0.borrow().clock.awaiting(elapsed)
    }

    /// Resolves when the tick's time is up, or once it is cancelled.
    pub fn over(&self) -> Over {
        Over {
            wait: self.clone(),
            at_ms: None,
        }
    }

    /// [`TickWait::over`], or [`Woken::Reached`] once `at_ms` have passed since the tick began, if that
    /// is sooner: a driver that must act within the tick (stop the sides cut at the tick while another
    /// plays on on its clock) wakes there, and then awaits the rest.
    pub fn over_or_at(&self, at_ms: u64) -> Over {
        Over {
            wait: self.clone(),
            at_ms: Some(at_ms),
        }
    }

    fn wake(&self) {
        let waker = self.0.borrow_mut().waker.take();
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// What a tick's wait woke for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Woken {
    /// The tick's time is up: it lasted this many milliseconds.
    Over(f64),
    /// The moment asked of [`TickWait::over_or_at`] came first; the tick goes on.
    Reached,
    /// The tick was abandoned.
    Cancelled,
}

/// The future of [`TickWait::over`] and [`TickWait::over_or_at`].
pub struct Over {
    wait: TickWait,
    at_ms: Option<u64>,
}

impl Future for Over {
    type Output = Woken;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Woken> {
        let wait = &self.wait;
        let elapsed = wait.elapsed_ms();
        let mut inner = wait.0.borrow_mut();
        let next = inner.clock.next(elapsed as u64);
        let woken = match next {
            _ if inner.cancelled => Woken::Cancelled,
            Next::End => Woken::Over(elapsed),
            Next::WakeAt { .. } | Next::Await
                if self.at_ms.is_some_and(|at| elapsed >= at as f64) =>
            {
                Woken::Reached
            }
            // Only an answer ends the tick (a side with no cut of the host's), or the caller's time.
            Next::Await if self.at_ms.is_none() => {
                inner.waker = Some(cx.waker().clone());
                inner.alarm.release(inner.lease);
                return Poll::Pending;
            }
            Next::WakeAt { .. } | Next::Await => {
                let at_ms = match next {
                    Next::WakeAt { at_ms } => self.at_ms.map_or(at_ms, |at| at.min(at_ms)),
                    _ => self.at_ms.unwrap_or_default(),
                };
                inner.waker = Some(cx.waker().clone());
                // The timer rounds up: woken a millisecond early, the tick would only sleep again.
                let ms = (at_ms as f64 - elapsed)
                    .ceil()
                    .clamp(0.0, f64::from(i32::MAX)) as u32;
                inner.alarm.set(inner.lease, cx.waker(), ms.max(1));
                return Poll::Pending;
            }
        };
        // Over: neither the timer nor a late answer has anyone to wake.
        inner.waker = None;
        inner.alarm.release(inner.lease);
        Poll::Ready(woken)
    }
}
