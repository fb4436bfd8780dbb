//! The "Write an AI" page (`#/code`): the AIs kept in this browser, an editor, saved versions, Test on
//! fixed positions, Play in the arena, and files, .zip and links in and out.
//!
//! Every change to the code is kept at once (the draft), so a reload loses nothing; "Save version"
//! keeps a numbered copy that the arena can play against the draft.

use super::ai::{CodeAi, CodeFile, CodeRef, Format, Lang, Source};
use super::ask_panel::{position_in_address, AskPanel};
use super::editor::Editor;
use super::memory;
use super::new_ai::NewAiForm;
use super::store;
use super::test_panel::TestPanel;
use super::transfer::{self, Transfer};
use super::worker::MAX_MEMORY_MB;
use crate::notice::{tone_class, Line, Tone};
use gridarena_engine::halma::code::source::source_of;
use leptos::html::Div;
use leptos::prelude::*;

/// The opponents "Play" offers besides the AIs kept here.
const BUILT_IN_OPPONENTS: [(&str, &str); 2] = [
    ("builtin:greedy", "Built-in AI: greedy"),
    ("builtin:search", "Built-in AI: search"),
];

/// The page.
/// How long after the last key typed the AIs are kept, in milliseconds.
const KEEP_TYPING_MS: u32 = 400;

#[component]
pub fn CodePage() -> impl IntoView {
    let notice = RwSignal::new(None::<Line>);
    // A list that did not read is not written over: the page says why and keeps its hands off.
    let (loaded, load_error) = match store::load() {
        Ok(ais) => (ais, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    if let Some(why) = &load_error {
        notice.set(Some(Line::new(Tone::Error, why.clone())));
    }
    let writable = load_error.is_none();
    let ais = RwSignal::new(loaded);
    let selected = RwSignal::new(ais.with_untracked(|a| a.first().map(|ai| ai.name.clone())));
    // The file the editor shows, of the selected AI.
    let editing = RwSignal::new(String::new());
    let editor: StoredValue<Option<Editor>, LocalStorage> = StoredValue::new_local(None);
    let host = NodeRef::<Div>::new();

    // Typing is kept a moment after the last key, not at every key: the whole list is one stored text
    // (a pickled table makes it megabytes), and writing it per keystroke would make typing lag. Leaving
    // the page keeps what is pending at once.
    let typed: StoredValue<Option<gloo_timers::callback::Timeout>, LocalStorage> =
        StoredValue::new_local(None);
    let keep = move || {
        typed.set_value(None);
        if writable {
            if let Err(why) = ais.with_untracked(|a| store::save(a)) {
                notice.set(Some(Line::new(Tone::Error, why)));
            }
        }
    };
    let keep_soon = move || {
        let timer = gloo_timers::callback::Timeout::new(KEEP_TYPING_MS, move || {
            // This very timer: not dropped while it runs.
            if let Some(Some(running)) = typed.try_update_value(Option::take) {
                running.forget();
            }
            keep();
        });
        typed.set_value(Some(timer));
    };
    let pending = window_event_listener(leptos::ev::pagehide, move |_| {
        if typed.with_value(Option::is_some) {
            keep();
        }
    });
    on_cleanup(move || pending.remove());
    let current = move || {
        selected
            .get()
            .and_then(|name| ais.with(|a| a.iter().find(|ai| ai.name == name).cloned()))
    };
    // The editor shows the chosen file of the chosen AI.
    let show = move || {
        let Some(ai) = selected
            .get_untracked()
            .and_then(|n| ais.with_untracked(|a| a.iter().find(|ai| ai.name == n).cloned()))
        else {
            return;
        };
        let path = editing.get_untracked();
        let file = ai
            .draft
            .files
            .iter()
            .find(|f| f.path == path && f.text.is_some())
            .or_else(|| ai.draft.files.iter().find(|f| f.path == ai.draft.main));
        let (path, text) = file.map_or_else(
            || (ai.draft.main.clone(), String::new()),
            |f| (f.path.clone(), f.text.clone().unwrap_or_default()),
        );
        editing.set(path);
        editor.with_value(|e| {
            if let Some(e) = e {
                e.set_language(ai.draft.lang);
                e.set_text(&text);
                e.mark_line(0);
            }
        });
    };
    // A typed change goes into the draft at once.
    let edited = move |text: String| {
        let (Some(name), path) = (selected.get_untracked(), editing.get_untracked()) else {
            return;
        };
        let mut changed = false;
        ais.update(|a| {
            if let Some(ai) = a.iter_mut().find(|ai| ai.name == name) {
                if let Some(f) = ai.draft.files.iter_mut().find(|f| f.path == path) {
                    if f.text.as_deref() != Some(text.as_str()) {
                        f.text = Some(text);
                        changed = true;
                    }
                }
            }
        });
        if changed {
            keep_soon();
        }
    };
    Effect::new(move |_| {
        let Some(parent) = host.get() else { return };
        let ai = current();
        let (text, lang) = ai.as_ref().map_or((String::new(), Lang::Python), |ai| {
            (
                ai.draft.main_text().unwrap_or_default().to_string(),
                ai.draft.lang,
            )
        });
        if editor.with_value(Option::is_some) {
            return;
        }
        leptos::task::spawn_local(async move {
            let element: &web_sys::HtmlElement = &parent;
            match Editor::mount(element, &text, lang, edited).await {
                Ok(e) => {
                    editor.set_value(Some(e));
                    show();
                }
                Err(why) => notice.set(Some(Line::new(
                    Tone::Error,
                    format!("the editor could not load: {why}"),
                ))),
            }
        });
    });

    let add = move |mut ai: CodeAi, said: String| {
        let taken: Vec<String> = ais.with_untracked(|a| a.iter().map(|a| a.name.clone()).collect());
        ai.name = free_name(&ai.name, &taken);
        let name = ai.name.clone();
        ais.update(|a| a.push(ai));
        keep();
        selected.set(Some(name.clone()));
        editing.set(String::new());
        show();
        notice.set(Some(Line::new(Tone::Info, format!("{said} as {name:?}."))));
    };
    let on_new = Callback::new(move |ai: CodeAi| add(ai, "Made a new AI".to_string()));
    let on_import = Callback::new(move |ai: CodeAi| add(ai, "Imported".to_string()));

    // A code link (`#/code?ai=...`) is taken once, then dropped from the address.
    if let Some(packed) = transfer::link_in_address() {
        leptos::task::spawn_local(async move {
            match transfer::from_link(&packed).await {
                Ok(ai) => add(ai, "Opened the AI from the link".to_string()),
                Err(why) => notice.set(Some(Line::new(Tone::Error, why))),
            }
            transfer::forget_link();
        });
    }

    let save_version = move |_| {
        let Some(name) = selected.get_untracked() else {
            return;
        };
        let mut n = 0;
        ais.update(|a| {
            if let Some(ai) = a.iter_mut().find(|ai| ai.name == name) {
                n = ai.save_version(js_sys::Date::now() as u64);
            }
        });
        keep();
        notice.set(Some(Line::new(Tone::Info, format!("Saved {name} v{n}."))));
    };
    let delete = move |_| {
        let Some(name) = selected.get_untracked() else {
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
        ais.update(|a| a.retain(|ai| ai.name != name));
        keep();
        selected.set(ais.with_untracked(|a| a.first().map(|ai| ai.name.clone())));
        editing.set(String::new());
        show();
        notice.set(Some(Line::new(Tone::Info, format!("Deleted {name}."))));
    };
    let choose = move |name: String| {
        selected.set(Some(name));
        editing.set(String::new());
        show();
    };
    let set_format = move |format: Format| {
        let Some(name) = selected.get_untracked() else {
            return;
        };
        ais.update(|a| {
            if let Some(ai) = a.iter_mut().find(|ai| ai.name == name) {
                ai.draft.format = format;
            }
        });
        keep();
    };

    // A position the arena's inspector sent to ask about.
    let asking = position_in_address().map(|read| match read {
        Ok(asking) => view! { <AskPanel asking=asking ais=ais /> }.into_any(),
        Err(why) => view! { <p class="error" data-testid="ask-result">{why}</p> }.into_any(),
    });
    let opponent = RwSignal::new(BUILT_IN_OPPONENTS[0].0.to_string());
    let play_link = move || {
        let ai = current()?;
        let me = CodeRef {
            name: ai.name.clone(),
            version: None,
        };
        Some(arena_link(
            &me.to_string(),
            &opponent.get(),
            ai.draft.format,
        ))
    };
    let opponents = move || {
        let mut list: Vec<(String, String)> = BUILT_IN_OPPONENTS
            .iter()
            .map(|(v, l)| (v.to_string(), l.to_string()))
            .collect();
        ais.with(|a| {
            for player in a.iter().flat_map(CodeAi::players) {
                let label = match player.version {
                    Some(n) => format!("{} v{n}", player.name),
                    None => format!("{} (draft)", player.name),
                };
                list.push((player.to_string(), label));
            }
        });
        list
    };

    view! {
        <section class="code-page" data-testid="code-page">
            <aside class="code-list">
                <h2>"Your AIs"</h2>
                <p class="hint">"Kept in this browser only: export an AI to keep it elsewhere."</p>
                <ul data-testid="code-ais">
                    <For each=move || ais.get() key=|ai| ai.name.clone() let:ai>
                        {
                            let name = ai.name.clone();
                            let (n, label) = (name.clone(), describe(&ai));
                            view! {
                                <li>
                                    <button
                                        type="button"
                                        class:chosen=move || selected.get().as_deref() == Some(n.as_str())
                                        data-testid="code-ai"
                                        on:click=move |_| choose(name.clone())
                                    >
                                        {label}
                                    </button>
                                </li>
                            }
                        }
                    </For>
                </ul>
                <NewAiForm on_new=on_new notice=notice />
                <Transfer on_import=on_import notice=notice current=Signal::derive(current) />
            </aside>
            <div class="code-main">
                <p class=move || notice.with(|n| n.as_ref().map_or("notice", |l| tone_class(l.tone)).to_string())
                   data-testid="code-notice" role="status">
                    {move || notice.with(|n| n.as_ref().map(|l| l.text.clone()).unwrap_or_default())}
                </p>
                {asking}
                <Show
                    when=move || selected.with(Option::is_some)
                    fallback=|| view! { <p class="hint">"Make an AI on the left to begin: choose a starter and press Create."</p> }
                >
                    <div class="code-head">
                        <h2 data-testid="code-title">{move || current().map(|ai| ai.name).unwrap_or_default()}</h2>
                        <label>
                            <span>"Format"</span>
                            <select
                                data-testid="code-format"
                                prop:value=move || current().map(|ai| ai.draft.format.key()).unwrap_or_default()
                                on:change=move |ev| match event_target_value(&ev).as_str() {
                                    "course" => set_format(Format::Course),
                                    _ => set_format(Format::Function),
                                }
                            >
                                <option value="function">"move(request)"</option>
                                <option value="course" disabled=move || current().is_some_and(|ai| ai.draft.lang != Lang::Python)>
                                    "course homework (input.txt, output.txt)"
                                </option>
                            </select>
                        </label>
                        <FileTabs ais=ais selected=selected editing=editing on_open=Callback::new(move |_| show()) />
                    </div>
                </Show>
                <div class="editor" node_ref=host data-testid="editor"></div>
                <Show when=move || selected.with(Option::is_some)>
                    <div class="code-actions">
                        <button type="button" data-testid="code-save" on:click=save_version>"Save version"</button>
                        <label>
                            <span>"Play against"</span>
                            <select data-testid="code-opponent" on:change=move |ev| opponent.set(event_target_value(&ev))>
                                {move || opponents()
                                    .into_iter()
                                    .map(|(value, label)| {
                                        let chosen = value == opponent.get_untracked();
                                        view! { <option value=value selected=chosen>{label}</option> }
                                    })
                                    .collect_view()}
                            </select>
                        </label>
                        <a class="button" data-testid="code-play" href=move || play_link().unwrap_or_default()>"Play in the arena"</a>
                        <button type="button" class="danger" data-testid="code-delete" on:click=delete>"Delete"</button>
                    </div>
                    <Versions current=Signal::derive(current) opponent=opponent />
                    <TestPanel source=Signal::derive(move || current().map(|ai| ai.draft)) />
                </Show>
                <p class="hint" data-testid="code-limits">{memory::note(MAX_MEMORY_MB)}</p>
            </div>
        </section>
    }
}

/// The selected AI's files: the editor shows the chosen text file; binary files are listed.
#[component]
fn FileTabs(
    ais: RwSignal<Vec<CodeAi>>,
    selected: RwSignal<Option<String>>,
    editing: RwSignal<String>,
    on_open: Callback<()>,
) -> impl IntoView {
    let files = move || {
        let name = selected.get()?;
        ais.with(|a| {
            a.iter()
                .find(|ai| ai.name == name)
                .map(|ai| (ai.draft.main.clone(), ai.draft.files.clone()))
        })
    };
    view! {
        <ul class="code-files" data-testid="code-files">
            {move || files().map(|(main, list)| {
                list.into_iter().map(|f: CodeFile| {
                    let path = f.path.clone();
                    let label = if f.path == main { format!("{} (main)", f.path) } else { f.path.clone() };
                    let p = path.clone();
                    let text = f.text.is_some();
                    view! {
                        <li>
                            <button
                                type="button"
                                disabled=!text
                                title=if text { "Open in the editor" } else { "A binary file: kept as it is" }
                                class:chosen=move || editing.get() == p
                                on:click=move |_| {
                                    editing.set(path.clone());
                                    on_open.run(());
                                }
                            >
                                {label}
                                {(!text).then(|| format!(" ({} bytes)", f.size()))}
                            </button>
                        </li>
                    }
                }).collect_view()
            })}
        </ul>
    }
}

/// The saved versions, newest first, each playable against the opponent chosen.
#[component]
fn Versions(current: Signal<Option<CodeAi>>, opponent: RwSignal<String>) -> impl IntoView {
    view! {
        <details class="versions" data-testid="code-versions">
            <summary>{move || format!("Saved versions ({})", current.with(|c| c.as_ref().map_or(0, |ai| ai.versions.len())))}</summary>
            <ul>
                {move || current.get().map(|ai| {
                    ai.versions.iter().rev().map(|v| {
                        let me = CodeRef { name: ai.name.clone(), version: Some(v.n) };
                        let format = v.source.format;
                        let label = format!("v{} · saved {}", v.n, saved_at(v.saved_ms));
                        let draft = format!("code:{}", ai.name);
                        let vs_draft = arena_link(&draft, &me.to_string(), format);
                        let compared = compare_link(&draft, &me.to_string());
                        view! {
                            <li>
                                {label}
                                " "
                                <a href=move || arena_link(&me.to_string(), &opponent.get(), format)>"play against the opponent"</a>
                                " · "
                                <a href=vs_draft>"the draft against it"</a>
                                " · "
                                <a data-testid="compare-version" href=compared>"Compare the draft with it..."</a>
                            </li>
                        }
                    }).collect_view()
                })}
            </ul>
        </details>
    }
}

/// What the list shows of an AI: its name, language and format.
fn describe(ai: &CodeAi) -> String {
    let lang = match ai.draft.lang {
        Lang::Python => "Python",
        Lang::JavaScript => "JavaScript",
    };
    let format = match ai.draft.format {
        Format::Function => "",
        Format::Course => ", course",
    };
    format!("{} ({lang}{format})", ai.name)
}

/// The arena's link for `red` against `blue`; a course-format AI plays the classic game under the
/// course's camp rules, which is the only game its files describe.
fn arena_link(red: &str, blue: &str, format: Format) -> String {
    let enc = |s: &str| String::from(js_sys::encode_uri_component(s));
    let preset = match format {
        Format::Function => "preset=arena".to_string(),
        Format::Course => "preset=classic&camp=course&first=red".to_string(),
    };
    // The arena reads its setup from the query, before any fragment: this address replaces both.
    format!("?red={}&blue={}&{preset}", enc(red), enc(blue))
}

/// The Compare page's link for `a` against `b` (the draft against a saved version, say).
fn compare_link(a: &str, b: &str) -> String {
    let enc = |s: &str| String::from(js_sys::encode_uri_component(s));
    format!("#/compare?a={}&b={}", enc(a), enc(b))
}

/// A date and time the way the browser writes them for its user.
fn saved_at(ms: u64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
    String::from(date.to_locale_string("default", &wasm_bindgen::JsValue::UNDEFINED))
}

/// `name`, or `name 2`, `name 3`... where `name` is taken.
pub fn free_name(name: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == name) {
        return name.to_string();
    }
    (2..)
        .map(|n| format!("{name} {n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_else(|| name.to_string())
}

/// A new AI made from files (an import or a link).
pub fn ai_from_files(name: &str, files: Vec<CodeFile>) -> Result<CodeAi, String> {
    let source: Source = source_of(files)?;
    let stem = name.trim_end_matches(".zip");
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .take(super::ai::MAX_NAME_CHARS)
        .collect();
    CodeAi::new(
        if clean.trim().is_empty() {
            "Imported"
        } else {
            &clean
        },
        source,
    )
}
