//! The "Write an AI" page's signals and what its buttons do to them: the AIs kept in this browser, the
//! one chosen, the file in the editor, the line at the top. The changes themselves are
//! [`super::ai_list`]'s (plain, tested natively); this moves them into signals, keeps the list in
//! localStorage and keeps the editor showing the chosen file.

use super::ai::{CodeAi, Format, Lang};
use super::ai_list;
use super::editor::Editor;
use super::store;
use crate::notice::{Line, Tone};
use gloo_timers::callback::Timeout;
use leptos::html::Div;
use leptos::prelude::*;

/// How long after the last key typed the AIs are kept, in milliseconds.
const KEEP_TYPING_MS: u32 = 400;

/// The page's signals. Copy: every handler takes its own.
#[derive(Clone, Copy)]
pub struct CodeState {
    pub ais: RwSignal<Vec<CodeAi>>,
    /// The chosen AI's name.
    pub selected: RwSignal<Option<String>>,
    /// The file the editor shows, of the chosen AI.
    pub editing: RwSignal<String>,
    pub notice: RwSignal<Option<Line>>,
    editor: StoredValue<Option<Editor>, LocalStorage>,
    /// The keeping that waits for the typing to pause.
    typed: StoredValue<Option<Timeout>, LocalStorage>,
    /// A list that did not read is not written over: the page says why and keeps its hands off.
    writable: bool,
}

impl CodeState {
    /// The page's state from the list kept in this browser.
    pub fn load() -> CodeState {
        let notice = RwSignal::new(None::<Line>);
        let (loaded, writable) = match store::load() {
            Ok(ais) => (ais, true),
            Err(why) => {
                notice.set(Some(Line::new(Tone::Error, why)));
                (Vec::new(), false)
            }
        };
        let selected = RwSignal::new(loaded.first().map(|ai| ai.name.clone()));
        CodeState {
            ais: RwSignal::new(loaded),
            selected,
            editing: RwSignal::new(String::new()),
            notice,
            editor: StoredValue::new_local(None),
            typed: StoredValue::new_local(None),
            writable,
        }
    }

    /// The chosen AI (tracked).
    pub fn current(self) -> Option<CodeAi> {
        let name = self.selected.get()?;
        self.ais.with(|a| ai_list::find(a, &name).cloned())
    }

    fn info(self, text: String) {
        self.notice.set(Some(Line::new(Tone::Info, text)));
    }

    /// Keeps the list in localStorage now.
    pub fn keep(self) {
        self.typed.set_value(None);
        if self.writable {
            if let Err(why) = self.ais.with_untracked(|a| store::save(a)) {
                self.notice.set(Some(Line::new(Tone::Error, why)));
            }
        }
    }

    /// Typing is kept a moment after the last key, not at every key: the whole list is one stored text
    /// (a pickled table makes it megabytes), and writing it per keystroke would make typing lag. Leaving
    /// the page keeps what is pending at once ([`CodeState::keep_on_leaving`]).
    fn keep_soon(self) {
        let timer = Timeout::new(KEEP_TYPING_MS, move || {
            // This very timer: not dropped while it runs.
            if let Some(Some(running)) = self.typed.try_update_value(Option::take) {
                running.forget();
            }
            self.keep();
        });
        self.typed.set_value(Some(timer));
    }

    /// Keeps pending typing when the page is left; for as long as the page is shown.
    pub fn keep_on_leaving(self) {
        let pending = window_event_listener(leptos::ev::pagehide, move |_| {
            if self.typed.with_value(Option::is_some) {
                self.keep();
            }
        });
        on_cleanup(move || pending.remove());
    }

    /// The editor shows the chosen file of the chosen AI.
    pub fn show(self) {
        let Some(ai) = self
            .selected
            .get_untracked()
            .and_then(|n| self.ais.with_untracked(|a| ai_list::find(a, &n).cloned()))
        else {
            return;
        };
        let (path, text) = ai_list::shown_file(&ai, &self.editing.get_untracked());
        self.editing.set(path);
        self.editor.with_value(|e| {
            if let Some(e) = e {
                e.set_language(ai.draft.lang);
                e.set_text(&text);
                e.mark_line(0);
            }
        });
    }

    /// A typed change goes into the draft at once, and into localStorage once typing pauses.
    fn edited(self, text: String) {
        let (Some(name), path) = (self.selected.get_untracked(), self.editing.get_untracked())
        else {
            return;
        };
        let mut changed = false;
        self.ais
            .update(|a| changed = ai_list::set_text(a, &name, &path, text));
        if changed {
            self.keep_soon();
        }
    }

    /// Mounts the editor in `host` once it is on the page, showing the chosen AI's main file.
    pub fn mount_editor(self, host: NodeRef<Div>) {
        Effect::new(move |_| {
            let Some(parent) = host.get() else { return };
            let ai = self.current();
            let (text, lang) = ai.as_ref().map_or((String::new(), Lang::Python), |ai| {
                (
                    ai.draft.main_text().unwrap_or_default().to_string(),
                    ai.draft.lang,
                )
            });
            if self.editor.with_value(Option::is_some) {
                return;
            }
            leptos::task::spawn_local(async move {
                let element: &web_sys::HtmlElement = &parent;
                match Editor::mount(element, &text, lang, move |t| self.edited(t)).await {
                    Ok(e) => {
                        self.editor.set_value(Some(e));
                        self.show();
                    }
                    Err(why) => self.notice.set(Some(Line::new(
                        Tone::Error,
                        format!("the editor could not load: {why}"),
                    ))),
                }
            });
        });
    }

    /// Adds `ai` (made, imported or from a link) under a free name and chooses it; `said` is how.
    pub fn add(self, ai: CodeAi, said: &str) {
        let mut name = String::new();
        self.ais.update(|a| name = ai_list::add(a, ai));
        self.keep();
        self.choose(name.clone());
        self.info(format!("{said} as {name:?}."));
    }

    pub fn choose(self, name: String) {
        self.selected.set(Some(name));
        self.editing.set(String::new());
        self.show();
    }

    /// Keeps the chosen AI's draft as its next version.
    pub fn save_version(self) {
        let Some(name) = self.selected.get_untracked() else {
            return;
        };
        let mut n = None;
        self.ais
            .update(|a| n = ai_list::save_version(a, &name, js_sys::Date::now() as u64));
        self.keep();
        self.info(format!("Saved {name} v{}.", n.unwrap_or_default()));
    }

    /// Deletes the chosen AI, once its author confirms.
    pub fn delete(self) {
        let Some(name) = self.selected.get_untracked() else {
            return;
        };
        let sure = window()
            .confirm_with_message(&format!(
                "Delete {name} and all its versions from this browser?"
            ))
            .unwrap_or(false);
        if !sure {
            return;
        }
        let mut next = None;
        self.ais.update(|a| next = ai_list::delete(a, &name));
        self.keep();
        self.selected.set(next);
        self.editing.set(String::new());
        self.show();
        self.info(format!("Deleted {name}."));
    }

    pub fn set_format(self, format: Format) {
        let Some(name) = self.selected.get_untracked() else {
            return;
        };
        self.ais.update(|a| ai_list::set_format(a, &name, format));
        self.keep();
    }
}
