//! What the page keeps between visits: the roster (in localStorage and in the page's link, which wins,
//! as the arena's player setup does) and the tournament in progress (its engine bundle, saved after
//! every finished game so a reload resumes it).

/// The localStorage keys.
const ROSTER: &str = "gridarena.tournament.roster";
const BUNDLE: &str = "gridarena.tournament.bundle";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `value`; the error says why not (most often: the browser's storage is full).
fn set(key: &str, value: &str) -> Result<(), String> {
    let storage = storage().ok_or("this browser keeps no local storage here")?;
    storage.set_item(key, value).map_err(|_| {
        format!(
            "the browser refused to store {} KB (its storage for this site is full)",
            value.len().div_ceil(1000)
        )
    })
}

pub fn stored_roster() -> Option<String> {
    get(ROSTER)
}

/// Keeps the roster (`json`, all of it) and puts `link` (the roster as a link may carry it: no program
/// entries) in the page's address.
pub fn save_roster(json: &str, link: &str) {
    let _ = set(ROSTER, json);
    // The link follows the roster, so copying the address shares it.
    if let Some(window) = web_sys::window() {
        let Ok(params) = web_sys::UrlSearchParams::new() else {
            return;
        };
        params.append("roster", link);
        let hash = format!("#/tournament?{}", String::from(params.to_string()));
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash));
        }
    }
}

/// The roster the link carries (`#/tournament?roster=...`), as text still to be checked.
pub fn linked_roster() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let (_, query) = hash.split_once('?')?;
    web_sys::UrlSearchParams::new_with_str(query)
        .ok()?
        .get("roster")
}

pub fn stored_bundle() -> Option<String> {
    get(BUNDLE)
}

pub fn save_bundle(bundle: &str) -> Result<(), String> {
    set(BUNDLE, bundle)
}

pub fn clear_bundle() {
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
