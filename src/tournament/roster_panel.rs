//! The roster: add one entry, paste many, hand in code (dropped on the roster, chosen, or a code link),
//! remove, open a code entry's code, import and export the roster file.

use super::code_view::CodeView;
use super::hand_in::HandIn;
use super::roster_list::{is_program, RosterList, MAX_ROSTER_FILE};
use crate::files;
use crate::notice::{self, Line};
use crate::widgets::{Chosen, FileInput, SubmitForm};
use leptos::prelude::*;

#[component]
pub fn RosterPanel(roster: RwSignal<RosterList>, notice: RwSignal<Option<Line>>) -> impl IntoView {
    let say = move |said| notice.set(Some(Line::answer(said, false)));
    let name = RwSignal::new(String::new());
    let player = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let add = Callback::new(move |()| {
        let said = notice::run(roster, |r| {
            r.add(&name.get_untracked(), &player.get_untracked())
        });
        if said.is_ok() {
            name.set(String::new());
        }
        say(said);
    });
    let paste = Callback::new(move |()| {
        let said = notice::run(roster, |r| r.paste(&pasted.get_untracked()));
        if said.is_ok() {
            pasted.set(String::new());
        }
        say(said);
    });
    let import = Callback::new(move |file: Chosen| {
        let Chosen { name, bytes } = file;
        say(bytes.and_then(|b| notice::run(roster, |r| r.import(&name, &b))));
    });
    let export = move |_| {
        let (json, note) = roster.with_untracked(|r| (r.to_json(), r.export_note()));
        match files::download("roster.json", &json, "application/json") {
            Err(e) => say(Err(e)),
            // Never silently: a roster that leaves with commands in it says which.
            Ok(()) => {
                if let Some(note) = note {
                    say(Ok(note));
                }
            }
        }
    };
    // The code entry whose code is open, by name.
    let open = RwSignal::new(None::<String>);
    let rows = move || {
        roster.with(|r| {
            r.entries()
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let summary = r.summary(e);
                    let name = e.name.clone();
                    view! {
                        <li>
                            <span class="t-name">{e.name.clone()}</span>
                            {match summary {
                                Some(c) => view! {
                                    <span class="t-code" data-testid="code-summary" title=c.sha256.clone()>
                                        {format!("{} · {} · {} · ", c.lang, c.format, c.size())}
                                        <code data-testid="code-hash">{c.short_hash().to_string()}</code>
                                    </span>
                                    <button data-testid="open-code" on:click=move |_| open.set(Some(name.clone()))>
                                        "Code"
                                    </button>
                                }
                                    .into_any(),
                                None => view! { <code>{e.player.clone()}</code> }.into_any(),
                            }}
                            {is_program(e).then(|| view! {
                                <span
                                    class="t-program"
                                    data-testid="program-mark"
                                    title="A command a computer would run: the page cannot; gridarena halma tournament runs it only with --allow-programs"
                                >
                                    "program"
                                </span>
                            })}
                            <button
                                data-testid="remove-entry"
                                on:click=move |_| say(notice::run(roster, |r| r.remove(i)))
                            >
                                "Remove"
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let code_view = move || {
        let name = open.get()?;
        let source = roster.with(|r| {
            r.entries()
                .iter()
                .find(|e| e.name == name)
                .and_then(|e| e.code.clone())
        })?;
        Some(view! { <CodeView name source on_close=Callback::new(move |()| open.set(None)) /> })
    };
    // The whole roster takes a drop of homework.
    let dropping = RwSignal::new(false);
    let dropped = RwSignal::new_local(None::<wasm_bindgen::JsValue>);
    let over = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dropping.set(true);
    };
    let drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let event: &wasm_bindgen::JsValue = ev.as_ref();
        dropped.set(Some(event.clone()));
    };
    let link_note = move || {
        roster.with(|r| r.has_code()).then(|| view! {
            <p class="hint" data-testid="roster-link-note">
                "This roster holds code, too much for the page's link: the address no longer carries it. "
                "It is kept in this browser; to share it, export the roster file."
            </p>
        })
    };
    view! {
        <fieldset
            class="t-roster"
            on:dragover=over
            on:dragleave=move |_| dropping.set(false)
            on:drop=drop
        >
            <legend>"Roster (" {move || roster.with(|r| r.entries().len())} " entries)"</legend>
            <ol data-testid="roster">{rows}</ol>
            {code_view}
            <HandIn roster notice dropping dropped />
            <SubmitForm class="setup" label="Add one entry" on_submit=add>
                <label>
                    <span>"Name"</span>
                    <input data-testid="entry-name" bind:value=name />
                </label>
                <label>
                    <span>"Player"</span>
                    <input
                        data-testid="entry-player"
                        list="house-bots"
                        placeholder="http://… or builtin:greedy"
                        bind:value=player
                    />
                </label>
                <datalist id="house-bots">
                    <option value="builtin:greedy">"house bot: greedy"</option>
                    <option value="builtin:search">"house bot: search"</option>
                </datalist>
                <button data-testid="add-entry">"Add"</button>
            </SubmitForm>
            <SubmitForm class="setup paste" label="Paste many entries" on_submit=paste>
                <label>
                    <span>"Paste lines: name, then URL or builtin:greedy"</span>
                    <textarea data-testid="paste" rows="4" bind:value=pasted></textarea>
                </label>
                <button data-testid="paste-add">"Add these"</button>
            </SubmitForm>
            <div class="t-files">
                <FileInput
                    label="Import roster"
                    testid="import-roster"
                    max_bytes=MAX_ROSTER_FILE
                    what="rosters"
                    accept=".json,application/json"
                    on_read=import
                />
                <button data-testid="export-roster" on:click=export>"Export roster"</button>
            </div>
            {link_note}
        </fieldset>
    }
}
