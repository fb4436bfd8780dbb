//! Copying a text to the clipboard, and where the browser refuses, the text shown selected to copy by
//! hand.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// Writes `text` to the clipboard; when the browser refuses, `fallback` gets it to show selected.
pub fn copy(text: String, said: RwSignal<String>, fallback: RwSignal<Option<String>>) {
    let write = web_sys::window().and_then(|w| {
        let navigator = js_sys::Reflect::get(&w, &"navigator".into()).ok()?;
        let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok()?;
        let f: js_sys::Function = js_sys::Reflect::get(&clipboard, &"writeText".into())
            .ok()?
            .dyn_into()
            .ok()?;
        let promise = f.call1(&clipboard, &JsValue::from_str(&text)).ok()?;
        promise.dyn_into::<js_sys::Promise>().ok()
    });
    let Some(promise) = write else {
        fallback.set(Some(text));
        return;
    };
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => {
                said.set("Copied.".to_string());
                fallback.set(None);
            }
            Err(_) => fallback.set(Some(text)),
        }
    });
}

/// The text the clipboard refused, shown selected in a box to copy by hand; nothing while there is none.
#[component]
pub fn CopyFallback(fallback: RwSignal<Option<String>>) -> impl IntoView {
    view! {
        {move || {
            fallback
                .get()
                .map(|text| {
                    view! {
                        <textarea
                            readonly
                            data-testid="inspector-copy-fallback"
                            aria-label="The clipboard was refused: copy this text"
                            on:focus=move |ev| {
                                let el: web_sys::Element = event_target(&ev);
                                if let Ok(f) = js_sys::Reflect::get(&el, &"select".into()) {
                                    let _ = f.unchecked_into::<js_sys::Function>().call0(&el);
                                }
                            }
                            prop:value=text
                        ></textarea>
                        <p>"The clipboard was refused: the text is above, select it and copy."</p>
                    }
                })
        }}
    }
}
