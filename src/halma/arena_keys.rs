//! The arena's keyboard: S steps, Space runs or stops, Enter confirms a human move, Escape drops it.

use leptos::prelude::*;

/// Listens on the window; keys typed into a field or with a modifier are left alone. The caller removes
/// the handle on cleanup.
pub fn arena_keys(
    running: RwSignal<bool>,
    playable: Signal<bool>,
    on_step: Callback<()>,
    on_confirm: Callback<()>,
    on_cancel: Callback<()>,
) -> WindowListenerHandle {
    window_event_listener(leptos::ev::keydown, move |ev| {
        let in_field = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| {
                matches!(
                    el.tag_name().as_str(),
                    "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"
                )
            });
        if in_field || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        match ev.key().as_str() {
            "s" | "S" if !running.get_untracked() => on_step.run(()),
            " " => {
                ev.prevent_default();
                running.update(|r| *r = !*r && playable.get_untracked());
            }
            "Enter" => on_confirm.run(()),
            "Escape" => on_cancel.run(()),
            _ => {}
        }
    })
}
