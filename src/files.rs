//! Saving a file to the user's disk and reading one back: the pages' only file I/O.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Offers `text` as a download named `name`, of media type `mime`.
pub fn download(name: &str, text: &str, mime: &str) -> Result<(), String> {
    offer(name, &JsValue::from_str(text), mime)
}

/// Offers `bytes` as a download named `name`, of media type `mime`.
pub fn download_bytes(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    offer(name, &js_sys::Uint8Array::from(bytes), mime)
}

fn offer(name: &str, data: &JsValue, mime: &str) -> Result<(), String> {
    let fail = |e: JsValue| format!("the download failed: {e:?}");
    let parts = js_sys::Array::of1(data);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "could not make a download link".to_string())?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // The click has started the download; the URL is no longer needed.
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Reads a chosen file's bytes, refusing a file over `max_bytes` before reading it; `what` names the
/// kind of file in that message ("records").
pub async fn read(file: web_sys::File, max_bytes: usize, what: &str) -> Result<Vec<u8>, String> {
    let size = file.size();
    if size > max_bytes as f64 {
        return Err(format!(
            // Whole megabytes: formatting fractions would add kilobytes of float code to the page.
            "{} is {} MB: {what} larger than {} MB are not loaded",
            file.name(),
            (size / 1e6).ceil() as u64,
            max_bytes.div_ceil(1_000_000)
        ));
    }
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("could not read {}: {e:?}", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// The file chosen in a file input's change event. The input is cleared, so that choosing the same file
/// again fires another change event.
pub fn chosen(ev: &web_sys::Event) -> Option<web_sys::File> {
    let input: web_sys::HtmlInputElement = ev.target()?.dyn_into().ok()?;
    let file = input.files().and_then(|f| f.get(0));
    input.set_value("");
    file
}

/// Every file the input of `ev` holds (several, or a folder's), the input cleared for the next choice.
pub fn chosen_all(ev: &web_sys::Event) -> Vec<web_sys::File> {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return Vec::new();
    };
    let list = input.files();
    let files = (0..list.as_ref().map_or(0, web_sys::FileList::length))
        .filter_map(|i| list.as_ref()?.get(i))
        .collect();
    input.set_value("");
    files
}
