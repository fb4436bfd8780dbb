//! What the page keeps between visits: the roster and the tournament in progress (its engine bundle,
//! saved after every finished game so a reload resumes it).
//!
//! Both are kept in the browser's IndexedDB: a roster with code entries is tens of megabytes (a class of
//! 30 with 1.25 MB tables), past what localStorage holds (5 MB a site). The page's link carries a
//! roster without code too, and wins over the stored one, as the arena's player setup does; a roster
//! with code is too big for a link, which then carries none. What an older page kept in localStorage is
//! read once and moved.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
let opened;
function db() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open('gridarena-tournament', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('kept');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('the storage is held by another tab of this page'));
  });
  return opened;
}
function done(request, value) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(value === undefined ? request.result : value);
    request.onerror = () => reject(request.error);
  });
}
export async function kept_get(key) {
  const value = await done((await db()).transaction('kept').objectStore('kept').get(key));
  return typeof value === 'string' ? value : undefined;
}
export async function kept_put(key, value) {
  await done((await db()).transaction('kept', 'readwrite').objectStore('kept').put(value, key), null);
}
export async function kept_delete(key) {
  await done((await db()).transaction('kept', 'readwrite').objectStore('kept').delete(key), null);
}")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn kept_get(key: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn kept_put(key: &str, value: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn kept_delete(key: &str) -> Result<js_sys::Promise, JsValue>;
}

/// The keys, in IndexedDB and (an older page's) localStorage.
const ROSTER: &str = "gridarena.tournament.roster";
const BUNDLE: &str = "gridarena.tournament.bundle";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

async fn settle(promise: Result<js_sys::Promise, JsValue>) -> Result<JsValue, String> {
    let promise = promise.map_err(crate::ai_worker::js_error)?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(crate::ai_worker::js_error)
}

/// What is kept under `key`: IndexedDB's, else what an older page kept in localStorage (moved now).
async fn get(key: &str) -> Option<String> {
    if let Ok(Some(text)) = settle(kept_get(key)).await.map(|v| v.as_string()) {
        return Some(text);
    }
    let old = storage()?.get_item(key).ok().flatten()?;
    if put(key, &old).await.is_ok() {
        if let Some(s) = storage() {
            let _ = s.remove_item(key);
        }
    }
    Some(old)
}

/// Keeps `value` under `key`; the error says why not (most often: the browser's storage is full).
async fn put(key: &str, value: &str) -> Result<(), String> {
    settle(kept_put(key, value))
        .await
        .map(|_| ())
        .map_err(|why| {
            format!(
                "the browser refused to store {} KB ({why})",
                value.len().div_ceil(1000)
            )
        })
}

pub async fn stored_roster() -> Option<String> {
    get(ROSTER).await
}

/// Keeps the roster (`json`, all of it), and puts `link` (the roster as a link may carry it: no program
/// entries) in the page's address, or nothing where the roster is too big for a link (`None`).
pub async fn save_roster(json: String, link: Option<String>) -> Result<(), String> {
    // The link follows the roster, so copying the address shares it.
    if let Some(window) = web_sys::window() {
        let hash = match link {
            Some(link) => web_sys::UrlSearchParams::new().ok().map(|params| {
                params.append("roster", &link);
                format!("#/tournament?{}", String::from(params.to_string()))
            }),
            None => Some("#/tournament".to_string()),
        };
        if let (Some(hash), Ok(history)) = (hash, window.history()) {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&hash));
        }
    }
    put(ROSTER, &json).await
}

/// The roster the link carries (`#/tournament?roster=...`), as text still to be checked.
pub fn linked_roster() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let (_, query) = hash.split_once('?')?;
    web_sys::UrlSearchParams::new_with_str(query)
        .ok()?
        .get("roster")
}

pub async fn stored_bundle() -> Option<String> {
    get(BUNDLE).await
}

pub async fn save_bundle(bundle: &str) -> Result<(), String> {
    put(BUNDLE, bundle).await
}

pub async fn clear_bundle() {
    let _ = settle(kept_delete(BUNDLE)).await;
    if let Some(s) = storage() {
        let _ = s.remove_item(BUNDLE);
    }
}

/// The page's protocol (`https:`), which decides whether an `http:` AI can be fetched at all.
pub fn page_protocol() -> String {
    web_sys::window()
        .and_then(|w| w.location().protocol().ok())
        .unwrap_or_default()
}
