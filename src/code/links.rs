//! The links the "Write an AI" page gives out: to the arena, to play an AI, and to the Compare page.

use super::ai::Format;

/// `s` as a query value.
fn enc(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

/// The arena's link for `red` against `blue`; a course-format AI plays the classic game under the
/// course's camp rules, which is the only game its files describe.
pub fn arena_link(red: &str, blue: &str, format: Format) -> String {
    let preset = match format {
        Format::Function => "preset=arena".to_string(),
        Format::Course => "preset=classic&camp=course&first=red".to_string(),
    };
    // The arena reads its setup from the query, before any fragment: this address replaces both.
    format!("?red={}&blue={}&{preset}", enc(red), enc(blue))
}

/// The Compare page's link for `a` against `b` (the draft against a saved version, say).
pub fn compare_link(a: &str, b: &str) -> String {
    format!("#/compare?a={}&b={}", enc(a), enc(b))
}
