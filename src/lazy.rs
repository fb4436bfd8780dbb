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
use std::future::Future;
use std::pin::Pin;
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

/// What a split part's load gives: its view, or that its module did not load.
pub type Loading = Pin<Box<dyn Future<Output = Result<AnyView, SplitLoaderError>>>>;

/// What a split part's preload gives: that its module is in, or that it did not load.
pub type Preloading = Pin<Box<dyn Future<Output = Result<(), SplitLoaderError>>>>;

/// A part of a page split off its module: `load` loads it (once) and renders it with its props;
/// `preload` only loads it, for a part a click will show. Made by [`split_part!`](crate::split_part).
pub struct Split<P: 'static> {
    pub load: fn(P) -> Loading,
    pub preload: fn() -> Preloading,
}

impl<P> Clone for Split<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for Split<P> {}

/// Declares `$name: Split<$props>`, the component `$component` as a part split off the page's module,
/// named `$module` in `dist/split/<page>/`.
///
/// A split point is a root of every module it is linked into, so it is declared in the page's own bin
/// (`src/bin/`), never in the library: there it would carry the part into every page.
#[macro_export]
macro_rules! split_part {
    ($module:ident, $name:ident, $component:path, $props:path) => {
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            #[::leptos::wasm_split::wasm_split($module, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload))]
            pub fn part(
                props: $props,
            ) -> Result<::leptos::prelude::AnyView, ::leptos::wasm_split::SplitLoaderError> {
                Ok(::leptos::prelude::IntoAny::into_any($component(props)))
            }
        }
        const $name: $crate::lazy::Split<$props> = $crate::lazy::Split {
            load: |props| Box::pin($module::part(props)),
            preload: || Box::pin($module::preload()),
        };
    };
}

/// Loads a part once the page is idle, so a click that shows it later finds it in. A failed load is
/// left to the part's [`LazyPart`] to say and retry.
pub fn preload<P>(part: Split<P>) {
    leptos::task::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(when_idle()).await;
        let _ = (part.preload)().await;
    });
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
