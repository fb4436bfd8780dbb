//! Parts of a page that its first board does not show, kept out of the page's first download.
//!
//! A function marked `#[wasm_split(name, ...)]` is a split point: `scripts/split.sh`, a step of
//! `trunk build`, cuts everything only it reaches out of the page's wasm into a module of its own
//! (`dist/split/`), loaded the first time the function is called. [`LazyPart`] calls one once the page
//! is idle after its first board, says what is loading until it is in, and names a failed load with a
//! button to try again; the part then works exactly as if it had been there from the start, sharing the
//! page's signals and memory. A build that is not split (a native test, a bin the step leaves whole)
//! calls the function directly.

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function when_idle() {
  return new Promise((go) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => go(), { timeout: 500 });
    else setTimeout(go, 50);
  });
}")]
extern "C" {
    /// Resolves once the page has nothing else to do (at most half a second after it is asked).
    fn when_idle() -> js_sys::Promise;
}

/// What calling a split function gives: its result (a part's view), or that its module did not load.
pub type Loading<R = AnyView> = Pin<Box<dyn Future<Output = Result<R, SplitLoaderError>>>>;

/// What a split part's preload gives: that its module is in, or that it did not load.
pub type Preloading = Pin<Box<dyn Future<Output = Result<(), SplitLoaderError>>>>;

/// A function split off the page's module: `load` loads its module (once) and calls it with its
/// argument; `preload` only loads it, for a part a click will want. Most are parts of the page (a
/// component, `R` its view, made by [`split_part!`](crate::split_part)); others are work the page
/// asks for (made by [`split_fn!`](crate::split_fn)).
pub struct Split<A: 'static, R: 'static = AnyView> {
    pub load: fn(A) -> Loading<R>,
    pub preload: fn() -> Preloading,
}

impl<A, R> Clone for Split<A, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A, R> Copy for Split<A, R> {}

/// Declares `$name: Split<$arg, $out>`, the function `|$x: $arg| -> $out $body` split off the page's
/// module, named `$module` in `dist/split/<page>/`.
///
/// A split point is a root of every module it is linked into, so it is declared in the page's own bin
/// (`src/bin/`), never in the library: there it would carry the part into every page.
#[macro_export]
macro_rules! split_fn {
    ($module:ident, $name:ident, |$x:ident: $arg:ty| -> $out:ty $body:block) => {
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            // A body of one expression is still given in braces, as a closure's would be.
            #[allow(unused_braces)]
            #[::leptos::wasm_split::wasm_split($module, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload))]
            pub fn split(
                $x: $arg,
            ) -> Result<$out, ::leptos::wasm_split::SplitLoaderError> {
                Ok($body)
            }
        }
        const $name: $crate::lazy::Split<$arg, $out> = $crate::lazy::Split {
            load: |x| Box::pin($module::split(x)),
            preload: || Box::pin($module::preload()),
        };
    };
}

/// Declares `$name: Split<$props>`, the component `$component` as a part split off the page's module,
/// named `$module` in `dist/split/<page>/` (see [`split_fn!`](crate::split_fn)).
#[macro_export]
macro_rules! split_part {
    ($module:ident, $name:ident, $component:path, $props:ty) => {
        $crate::split_fn!(
            $module,
            $name,
            |props: $props| -> ::leptos::prelude::AnyView {
                ::leptos::prelude::IntoAny::into_any($component(props))
            }
        );
    };
}

/// Loads a part once the page is idle, so a click that shows it later finds it in. A failed load is
/// left to the part's [`LazyPart`] to say and retry.
pub fn preload<A, R>(part: Split<A, R>) {
    leptos::task::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(when_idle()).await;
        let _ = (part.preload)().await;
    });
}

/// Calls a split function in the order it is asked, at once where its module is in: the arena asks its
/// clock for a reset and then a step, the tournament page for a resume and then a start, and neither may
/// overtake the other while the module loads. The first call loads the module; calls asked meanwhile
/// wait behind it and run as soon as it is in.
pub struct InOrder<A: 'static> {
    split: Split<A, ()>,
    /// Runs the task that waits for the module: the page's `spawn_local`; a test's own, which it polls.
    spawn: Spawn,
    /// Told when the module did not load: the calls asked so far are dropped, and the next one tries
    /// again.
    failed: StoredValue<Box<dyn Fn()>, LocalStorage>,
    /// The calls waiting for the module, while it loads, each with what follows it. A signal, so that a
    /// page can hold a button back while calls wait ([`InOrder::loading`]).
    waiting: RwSignal<Option<VecDeque<(A, Then)>>, LocalStorage>,
}

/// What the page does once a call is done (starting Run's beat once its first tick has begun).
pub type Then = Option<Box<dyn FnOnce()>>;

/// Starts a task on the page's thread.
type Spawn = fn(Pin<Box<dyn Future<Output = ()>>>);

impl<A> Clone for InOrder<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for InOrder<A> {}

impl<A> InOrder<A> {
    pub fn new(split: Split<A, ()>, failed: impl Fn() + 'static) -> InOrder<A> {
        InOrder::with_spawn(split, failed, |task| leptos::task::spawn_local(task))
    }

    fn with_spawn(split: Split<A, ()>, failed: impl Fn() + 'static, spawn: Spawn) -> InOrder<A> {
        InOrder {
            split,
            spawn,
            failed: StoredValue::new_local(Box::new(failed)),
            waiting: RwSignal::new_local(None),
        }
    }

    /// Whether calls wait for the module now (reactive).
    pub fn loading(self) -> bool {
        self.waiting.with(Option::is_some)
    }

    pub fn call(self, arg: A) {
        self.call_then(arg, None);
    }

    /// Calls with `arg`, and then does `then`: at once where the module is in, else once it is (never
    /// where it does not load). A call that `then` makes waits behind those asked while the module loaded.
    pub fn call_then(self, arg: A, then: Then) {
        let first = self.waiting.try_update_untracked(|w| match w {
            Some(w) => {
                w.push_back((arg, then));
                None
            }
            None => Some((arg, then)),
        });
        let Some(Some((arg, then))) = first else {
            return;
        };
        let mut call = (self.split.load)(arg);
        // Once the module is in, the call is done in this first poll; only a load has to wait.
        match call.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(())) => {
                if let Some(then) = then {
                    then();
                }
                return;
            }
            Poll::Ready(Err(_)) => return self.failed.with_value(|failed| failed()),
            Poll::Pending => {}
        }
        self.waiting.set(Some(VecDeque::new()));
        (self.spawn)(Box::pin(async move {
            let loaded = call.await.is_ok();
            if let (true, Some(then)) = (loaded, then) {
                then();
            }
            let Some(Some(queued)) = self.waiting.try_update(Option::take) else {
                return;
            };
            if loaded {
                queued
                    .into_iter()
                    .for_each(|(arg, then)| self.call_then(arg, then));
            } else {
                self.failed.with_value(|failed| failed());
            }
        }));
    }

    /// Loads the module once the page is idle, so the first call finds it in.
    pub fn preload(self) {
        preload(self.split);
    }
}

/// A split part's loader: its [`Split::load`], called with the signals it needs.
pub type Load = Box<dyn Fn() -> Loading>;

/// Loads a split part once the page is idle and shows it, or what is loading, or why it did not load.
#[component]
pub fn LazyPart(
    /// What the part is, for the line shown while it loads ("the replay bar").
    what: &'static str,
    /// Calls the split function.
    load: Load,
    /// Loads at once rather than when the page is idle: for a part shown by a click.
    #[prop(optional)]
    at_once: bool,
) -> impl IntoView {
    let part = RwSignal::new_local(None::<Result<(), ()>>);
    let slot = StoredValue::new_local(None::<AnyView>);
    let load = StoredValue::new_local(load);
    // The part's view is made when its module is in, in a task: under this component's owner, so its
    // signals live as long as the place it fills (a click on Try again has no owner of its own).
    let owner = Owner::current().unwrap_or_default();
    let start = move || {
        part.set(None);
        owner.with(|| {
            leptos::task::spawn_local_scoped(async move {
                if !at_once {
                    let _ = wasm_bindgen_futures::JsFuture::from(when_idle()).await;
                }
                let Some(future) = load.try_with_value(|load| load()) else {
                    return;
                };
                match future.await {
                    Ok(view) => {
                        slot.set_value(Some(view));
                        part.set(Some(Ok(())));
                    }
                    Err(_) => part.set(Some(Err(()))),
                }
            })
        });
    };
    start();
    move || match part.get() {
        None => view! {
            <p class="lazy-loading" role="status" data-testid="lazy-loading">
                "Loading " {what} "…"
            </p>
        }
        .into_any(),
        Some(Ok(())) => slot
            .try_update_value(Option::take)
            .flatten()
            .unwrap_or_else(|| ().into_any()),
        Some(Err(())) => view! {
            <p class="lazy-failed" role="alert" data-testid="lazy-failed">
                {format!("Error, {what} did not load (the network or the server refused it). ")}
                <button on:click={
                    let start = start.clone();
                    move |_| start()
                }>"Try again"</button>
            </p>
        }
        .into_any(),
    }
}

#[cfg(test)]
mod tests {
    //! [`InOrder`] against a fake module: the split function's real loader (`LazySplitLoader`, which a
    //! `#[wasm_split]` function awaits before it runs), with the page's JavaScript loader replaced by
    //! [`fake_load`], which holds each load until the test answers it. The tasks `InOrder` starts are
    //! kept and polled by the test ([`run_tasks`]).

    use super::*;
    use leptos::wasm_split::rt::{ensure_loaded, LazySplitLoader, LoadCallbackFn};
    use std::cell::{Cell, RefCell};
    use std::ffi::c_void;
    use std::rc::Rc;

    type Task = Pin<Box<dyn Future<Output = ()>>>;

    thread_local! {
        /// The fake module's loader: a fresh one for each test ([`in_order`]).
        static LOADER: Cell<Option<&'static LazySplitLoader>> = const { Cell::new(None) };
        /// The loads asked and not yet answered, as the loader's callback and its data.
        static LOADS: RefCell<Vec<(LoadCallbackFn, usize)>> = const { RefCell::new(Vec::new()) };
        /// What the split function ran, in order.
        static RAN: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
        /// The tasks `InOrder` started.
        static TASKS: RefCell<Vec<Task>> = RefCell::new(Vec::new());
    }

    /// The page's JavaScript loader, faked: the load is answered later by [`answer_load`].
    unsafe extern "C" fn fake_load(done: LoadCallbackFn, data: *const c_void) {
        LOADS.with(|loads| loads.borrow_mut().push((done, data as usize)));
    }

    /// Answers the one load in flight: the module loaded, or did not.
    fn answer_load(loaded: bool) {
        let mut loads = LOADS.with(|loads| std::mem::take(&mut *loads.borrow_mut()));
        assert_eq!(loads.len(), 1, "one load is in flight");
        let (done, data) = loads.remove(0);
        // SAFETY: the callback and data the loader gave `fake_load`, called once.
        unsafe { done(data as *const c_void, loaded) };
    }

    fn loads_in_flight() -> usize {
        LOADS.with(|loads| loads.borrow().len())
    }

    /// The split function: awaits its module as a `#[wasm_split]` function does, then records `arg`.
    fn run_part(arg: u32) -> Loading<()> {
        let loader = LOADER.with(Cell::get);
        Box::pin(async move {
            let loader = loader.expect("in_order() sets the module up");
            ensure_loaded(Pin::static_ref(loader)).await?;
            RAN.with(|ran| ran.borrow_mut().push(arg));
            Ok(())
        })
    }

    fn ran() -> Vec<u32> {
        RAN.with(|ran| ran.borrow().clone())
    }

    /// Polls the started tasks until none makes progress.
    fn run_tasks() {
        loop {
            let tasks = TASKS.with(|tasks| std::mem::take(&mut *tasks.borrow_mut()));
            let before = tasks.len();
            let mut left = Vec::new();
            for mut task in tasks {
                if task
                    .as_mut()
                    .poll(&mut Context::from_waker(Waker::noop()))
                    .is_pending()
                {
                    left.push(task);
                }
            }
            let done = before - left.len();
            TASKS.with(|tasks| {
                // Tasks started while these ran come after them.
                let started = std::mem::replace(&mut *tasks.borrow_mut(), left);
                tasks.borrow_mut().extend(started);
            });
            if done == 0 {
                return;
            }
        }
    }

    /// An `InOrder` over a fresh fake module, not loaded, and how often it was told the module did not
    /// load.
    fn in_order() -> (InOrder<u32>, Rc<Cell<u32>>) {
        // SAFETY: `fake_load` calls its callback exactly once per call, from `answer_load`.
        let loader = Box::leak(Box::new(unsafe { LazySplitLoader::new(fake_load) }));
        LOADER.with(|l| l.set(Some(loader)));
        LOADS.with(|loads| loads.borrow_mut().clear());
        RAN.with(|ran| ran.borrow_mut().clear());
        TASKS.with(|tasks| tasks.borrow_mut().clear());
        let split = Split {
            load: run_part,
            preload: || Box::pin(async { Ok(()) }),
        };
        let failures = Rc::new(Cell::new(0));
        let told = failures.clone();
        let spawn: Spawn = |task| TASKS.with(|tasks| tasks.borrow_mut().push(task));
        let order = InOrder::with_spawn(split, move || told.set(told.get() + 1), spawn);
        (order, failures)
    }

    #[test]
    fn calls_asked_while_the_module_loads_late_run_in_order_once_it_is_in() {
        let (order, failures) = in_order();
        let then_ran = Rc::new(Cell::new(false));
        let flag = then_ran.clone();
        order.call_then(1, Some(Box::new(move || flag.set(true))));
        order.call(2);
        order.call(3);
        run_tasks();
        assert_eq!(
            ran(),
            Vec::<u32>::new(),
            "nothing runs before the module is in"
        );
        assert!(order.loading());
        assert!(!then_ran.get());
        assert_eq!(loads_in_flight(), 1, "one load for all three calls");

        answer_load(true);
        run_tasks();
        assert_eq!(ran(), [1, 2, 3]);
        assert!(then_ran.get());
        assert!(!order.loading());
        assert_eq!(failures.get(), 0);

        // The module is in: a call runs at once, with no task to wait for and no load.
        order.call(4);
        assert_eq!(ran(), [1, 2, 3, 4]);
        assert_eq!(loads_in_flight(), 0);
    }

    #[test]
    fn a_call_made_by_a_then_waits_behind_the_calls_asked_while_the_module_loaded() {
        let (order, _) = in_order();
        order.call_then(1, Some(Box::new(move || order.call(10))));
        order.call(2);
        answer_load(true);
        run_tasks();
        assert_eq!(ran(), [1, 2, 10]);
    }

    #[test]
    fn a_module_that_fails_to_load_drops_the_waiting_calls_and_the_next_call_loads_it_again() {
        let (order, failures) = in_order();
        let then_ran = Rc::new(Cell::new(false));
        let flag = then_ran.clone();
        order.call_then(1, Some(Box::new(move || flag.set(true))));
        order.call(2);
        answer_load(false);
        run_tasks();
        assert_eq!(ran(), Vec::<u32>::new());
        assert_eq!(failures.get(), 1, "the page is told once");
        assert!(
            !then_ran.get(),
            "what follows a call that never ran does not run"
        );
        assert!(!order.loading(), "nothing waits any more");

        // The next call tries again, and this time the module comes in (late).
        order.call(3);
        order.call(4);
        assert_eq!(loads_in_flight(), 1);
        run_tasks();
        assert_eq!(ran(), Vec::<u32>::new());
        answer_load(true);
        run_tasks();
        assert_eq!(ran(), [3, 4]);
        assert_eq!(failures.get(), 1);
    }
}
