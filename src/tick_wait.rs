//! A tick's wait, awaitable: the engine's [`TickClock`] with the browser's time and one timer.
//!
//! Every page that plays ticks (the arena, the tournament and Compare) sends a tick's requests, tells
//! this each answer as it lands, and awaits [`TickWait::over`]; the rule of when the tick ends is the
//! engine's, so the page and the command line cannot drift. The wait sleeps until the clock's next
//! moment or the next answer, whichever is first: nothing polls.

use crate::alarm::Alarm;
use crate::now_ms;
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
    /// Made on the first sleep, set again for each.
    alarm: Option<Alarm>,
    cancelled: bool,
}

impl TickWait {
    /// The wait of a tick that begins now, timed by `clock` (its sides asked already).
    pub fn new(clock: TickClock) -> TickWait {
        TickWait(Rc::new(RefCell::new(Inner {
            clock,
            started: now_ms(),
            waker: None,
            alarm: None,
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

    /// Resolves when the tick's time is up, with the milliseconds it lasted; `None` once cancelled.
    pub fn over(&self) -> Over {
        Over(self.clone())
    }

    fn wake(&self) {
        let waker = self.0.borrow_mut().waker.take();
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// The future of [`TickWait::over`].
pub struct Over(TickWait);

impl Future for Over {
    type Output = Option<f64>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<f64>> {
        let wait = &self.0;
        let elapsed = wait.elapsed_ms();
        let mut inner = wait.0.borrow_mut();
        if inner.cancelled {
            if let Some(alarm) = &mut inner.alarm {
                alarm.cancel();
            }
            return Poll::Ready(None);
        }
        match inner.clock.next(elapsed as u64) {
            Next::End => {
                if let Some(alarm) = &mut inner.alarm {
                    alarm.cancel();
                }
                Poll::Ready(Some(elapsed))
            }
            Next::WakeAt { at_ms } => {
                inner.waker = Some(cx.waker().clone());
                // The timer rounds up: woken a millisecond early, the tick would only sleep again.
                let ms = (at_ms as f64 - elapsed)
                    .ceil()
                    .clamp(0.0, f64::from(i32::MAX)) as u32;
                let handle = Rc::downgrade(&wait.0);
                inner
                    .alarm
                    .get_or_insert_with(|| {
                        Alarm::new(move || {
                            let waker = handle
                                .upgrade()
                                .and_then(|inner| inner.borrow_mut().waker.take());
                            if let Some(w) = waker {
                                w.wake();
                            }
                        })
                    })
                    .set(ms.max(1));
                Poll::Pending
            }
        }
    }
}
