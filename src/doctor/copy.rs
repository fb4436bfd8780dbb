//! "Copy report": the report as text on the clipboard, or, where the page may not write there, in a
//! text box to copy by hand.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Writes `text` to the clipboard; `Err` where the browser has none or refuses.
async fn write_clipboard(text: &str) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let navigator = js_sys::Reflect::get(&window, &"navigator".into())?;
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())?;
    let write =
        js_sys::Reflect::get(&clipboard, &"writeText".into())?.dyn_into::<js_sys::Function>()?;
    let promise = write
        .call1(&clipboard, &text.into())?
        .dyn_into::<js_sys::Promise>()?;
    JsFuture::from(promise).await.map(|_| ())
}

#[component]
pub fn CopyReport(
    /// The report as text.
    text: String,
) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    let shown = text.clone();
    let copy = move |_| {
        let text = text.clone();
        leptos::task::spawn_local(async move {
            let ok = write_clipboard(&text).await.is_ok();
            copied.try_set(Some(ok));
        });
    };
    view! {
        <div class="doctor-copy">
            <button data-testid="doctor-copy" on:click=copy>"Copy report"</button>
            <Show when=move || copied.get() == Some(true)>
                <span class="info" data-testid="doctor-copied">"Copied."</span>
            </Show>
            <Show when=move || copied.get() == Some(false)>
                <p class="info">"The browser would not copy it: select the text below and copy it."</p>
                <textarea data-testid="doctor-copy-text" readonly rows="12" prop:value=shown.clone()></textarea>
            </Show>
        </div>
    }
}
