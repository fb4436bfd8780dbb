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
    /// Told when the module did not load: the calls asked so far are dropped, and the next one tries
    /// again.
    failed: StoredValue<Box<dyn Fn()>, LocalStorage>,
    /// The calls waiting for the module, while it loads, each with what follows it. A signal, so that a
    /// page can hold a button back while calls wait ([`InOrder::loading`]).
    waiting: RwSignal<Option<VecDeque<(A, Then)>>, LocalStorage>,
}

/// What the page does once a call is done (starting Run's beat once its first tick has begun).
pub type Then = Option<Box<dyn FnOnce()>>;

impl<A> Clone for InOrder<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for InOrder<A> {}

impl<A> InOrder<A> {
    pub fn new(split: Split<A, ()>, failed: impl Fn() + 'static) -> InOrder<A> {
        InOrder {
            split,
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
        leptos::task::spawn_local(async move {
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
        });
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
