//! A built-in AI's thinking, as every page asks for it: jobs go to a Web Worker of its own (see
//! [`crate::ai_worker`]) and each reply to whoever asked, in order; where no worker can run, the page's
//! own thread answers instead (slower, still correct). The Halma arena and tournament (through
//! [`crate::halma::asker`]) and the Go and HyperChess AI players all think through it.

use crate::ai_worker::{AiWorker, Reply};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};
use std::time::Duration;

type OnReply = Box<dyn FnOnce(String)>;

thread_local! {
    /// Set once the browser refused to start a worker (no Web Workers, or a policy that forbids them):
    /// every thinker on the page answers on the page thread from then on, and says so once.
    static NO_WORKERS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// How many of its workers in a row may fail (their AI module did not load, or they stopped) before a
/// thinker answers on the page thread for good. One failure is often the network's, for a moment: the
/// next job starts a fresh worker, and a lesson's built-in AIs do not spend the rest of it on the page's
/// thread. A worker that answers clears the count; a module that never loads is not fetched again for
/// every job.
const GIVE_UP_AFTER: u32 = 3;

/// One AI's thinker: one worker, started on the first job. Clones share it.
#[derive(Clone)]
pub struct Thinker {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    /// The AI module that answers the jobs (`gridarena-ai-halma`).
    module: &'static str,
    worker: Option<AiWorker>,
    /// The jobs given to the worker and not answered yet, oldest first (a worker answers in order),
    /// each with who waits for its reply.
    queue: VecDeque<(String, OnReply)>,
    /// How many of this thinker's workers have failed since one last answered.
    failures: u32,
}

impl Thinker {
    /// A thinker whose worker answers a job with the AI module `module`.
    pub fn new(module: &'static str) -> Thinker {
        Thinker {
            inner: Rc::new(RefCell::new(Inner {
                module,
                worker: None,
                queue: VecDeque::new(),
                failures: 0,
            })),
        }
    }

    /// Gives `job` to the worker, starting one if needed; `on_reply` gets the reply, always after this
    /// returns.
    pub fn ask(&self, job: String, on_reply: impl FnOnce(String) + 'static) {
        let on_reply: OnReply = Box::new(on_reply);
        if self.given_up() || !self.has_worker() {
            self.answer_here(job, on_reply);
            return;
        }
        let posted = {
            let mut inner = self.inner.borrow_mut();
            let posted = inner.worker.as_ref().map(|w| w.post(&job));
            if matches!(posted, Some(Ok(()))) {
                inner.queue.push_back((job.clone(), on_reply));
                return;
            }
            posted
        };
        if let Some(Err(why)) = posted {
            self.worker_failed(&why);
        }
        self.answer_here(job, on_reply);
    }

    /// Drops every job not answered yet: their replies never come. A worker still thinking is
    /// terminated (the only way to stop it), and a fresh one starts at once, so it loads the AI module
    /// while the AI waits for its next job: started by that job instead, at short ticks its load alone
    /// would miss the deadline again, and the AI would never move again.
    pub fn stop(&self) {
        let (worker, queue) = {
            let mut inner = self.inner.borrow_mut();
            if inner.queue.is_empty() {
                return;
            }
            (inner.worker.take(), std::mem::take(&mut inner.queue))
        };
        drop(worker);
        drop(queue);
        if !self.given_up() {
            self.has_worker();
        }
    }

    /// Whether this thinker answers on the page thread for good.
    fn given_up(&self) -> bool {
        NO_WORKERS.get() || self.inner.borrow().failures >= GIVE_UP_AFTER
    }

    /// Whether a worker is there to take a job, starting one if none is.
    fn has_worker(&self) -> bool {
        if self.inner.borrow().worker.is_some() {
            return true;
        }
        let weak = Rc::downgrade(&self.inner);
        let module = self.inner.borrow().module;
        match AiWorker::spawn(module, move |reply| on_worker_reply(&weak, reply)) {
            Ok(worker) => {
                self.inner.borrow_mut().worker = Some(worker);
                true
            }
            // The browser does not start workers at all: no thinker on the page will have one.
            Err(why) => {
                if !NO_WORKERS.replace(true) {
                    leptos::logging::warn!(
                        "built-in AIs think on the page thread: no worker could start: {why}"
                    );
                }
                false
            }
        }
    }

    /// A worker that took jobs failed: it goes, and the next job starts another, unless this was the
    /// last failure in a row this thinker allows.
    fn worker_failed(&self, why: &str) {
        let failures = {
            let mut inner = self.inner.borrow_mut();
            inner.failures += 1;
            inner.failures
        };
        if failures == GIVE_UP_AFTER {
            leptos::logging::warn!(
                "built-in AIs think on the page thread: {failures} of their workers failed, the last: {why}"
            );
        } else if failures < GIVE_UP_AFTER {
            leptos::logging::warn!("an AI's worker failed ({why}): the next job starts another");
        }
        // Dropping a worker from inside its own callback is safe: wasm-bindgen keeps the running closure.
        let worker = self.inner.borrow_mut().worker.take();
        drop(worker);
    }

    /// Answers `job` on the page thread, a moment from now, so the page draws what it just changed first.
    fn answer_here(&self, job: String, on_reply: OnReply) {
        let module = self.inner.borrow().module;
        leptos::prelude::set_timeout(
            move || {
                wasm_bindgen_futures::spawn_local(async move {
                    on_reply(crate::ai_worker::answer_here(module, &job).await);
                })
            },
            Duration::from_millis(30),
        );
    }
}

fn on_worker_reply(weak: &Weak<RefCell<Inner>>, reply: Reply) {
    let Some(inner) = weak.upgrade() else { return };
    let thinker = Thinker { inner };
    match reply {
        Reply::Answer(text) => {
            let oldest = {
                let mut inner = thinker.inner.borrow_mut();
                inner.failures = 0;
                inner.queue.pop_front()
            };
            if let Some((_, on_reply)) = oldest {
                on_reply(text);
            }
        }
        // What the worker was given is answered here instead, and so is all that follows.
        Reply::Failed(why) => {
            thinker.worker_failed(&why);
            let queue = std::mem::take(&mut thinker.inner.borrow_mut().queue);
            for (job, on_reply) in queue {
                thinker.answer_here(job, on_reply);
            }
        }
    }
}
