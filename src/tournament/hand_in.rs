//! Code entries, taken the ways a teacher receives homework: files, a folder or .zip files dropped on
//! the roster or chosen, and a student's code link pasted (the "Write an AI" page's "Make a link").
//! [`super::handed_in`] sorts the files into entries; each is read as the editor reads an import.

use super::handed_in::{group, Group};
use super::roster_list::RosterList;
use crate::code::transfer;
use crate::notice::{self, Line, Tone};
use crate::widgets::SubmitForm;
use gridarena_engine::halma::code::source::{file_of, source_of};
use gridarena_engine::halma::code::Source;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The largest file read: a .zip of one student's homework is a few megabytes.
const MAX_FILE_BYTES: usize = 20_000_000;

#[wasm_bindgen(inline_js = "
export async function dropped_files(event) {
  // The entries must be taken while the drop event lasts, before anything is awaited.
  const items = [...(event.dataTransfer?.items ?? [])];
  const entries = items.map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  const files = [...(event.dataTransfer?.files ?? [])];
  const out = [];
  async function walk(entry, path) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      out.push({ path: path + file.name, file });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const e of batch) await walk(e, path + entry.name + '/');
      }
    }
  }
  if (entries.length) {
    for (const e of entries) await walk(e, '');
  } else {
    for (const file of files) out.push({ path: file.name, file });
  }
  return out;
}")]
extern "C" {
    /// The files of a drop, each `{path, file}`, folders walked (a path then starts with the folder).
    #[wasm_bindgen(catch)]
    fn dropped_files(event: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// Reads `files` (each with its path: its folders, where a folder was chosen or dropped) and makes an
/// entry of each group; returns each group's name and its code, or why it is not code.
async fn entries_of(files: Vec<(String, web_sys::File)>) -> Vec<(String, Result<Source, String>)> {
    let mut chosen = Vec::new();
    let mut unread = Vec::new();
    for (path, file) in files {
        match crate::files::read(file, MAX_FILE_BYTES, "files").await {
            Ok(bytes) => chosen.push((path, bytes)),
            Err(why) => unread.push((path, Err(why))),
        }
    }
    let mut made = Vec::new();
    for g in group(chosen) {
        let name = g.name().to_string();
        let source = match g {
            Group::Files { files, .. } => source_of(
                files
                    .iter()
                    .map(|(path, bytes)| file_of(path, bytes))
                    .collect(),
            ),
            Group::Zip { bytes, .. } => match transfer::unzip(&bytes).await {
                Ok(files) => source_of(files),
                Err(why) => Err(format!("the .zip could not be read: {why}")),
            },
        };
        made.push((name, source));
    }
    made.extend(unread);
    made
}

/// The files an input holds, with their folder paths where it took a folder; the input is cleared.
fn input_files(ev: &leptos::ev::Event) -> Vec<(String, web_sys::File)> {
    crate::files::chosen_all(ev)
        .into_iter()
        .map(|file| {
            let path = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
                .ok()
                .and_then(|p| p.as_string())
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| file.name());
            (path, file)
        })
        .collect()
}

/// The files of a drop.
async fn drop_files(event: JsValue) -> Result<Vec<(String, web_sys::File)>, String> {
    let promise = dropped_files(&event).map_err(crate::ai_worker::js_error)?;
    let list = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(crate::ai_worker::js_error)?;
    let list: js_sys::Array = list.dyn_into().map_err(|_| "the drop gave no files")?;
    Ok(list
        .iter()
        .filter_map(|item| {
            let path = js_sys::Reflect::get(&item, &"path".into())
                .ok()?
                .as_string()?;
            let file = js_sys::Reflect::get(&item, &"file".into())
                .ok()?
                .dyn_into::<web_sys::File>()
                .ok()?;
            Some((path, file))
        })
        .collect())
}

/// The packed code of a code link (`…#/code?ai=...`), or of the packed text alone.
fn packed_of(link: &str) -> Option<String> {
    let link = link.trim();
    let Some((_, fragment)) = link.split_once('#') else {
        return (!link.is_empty() && !link.contains(char::is_whitespace)).then(|| link.to_string());
    };
    let (_, query) = fragment.split_once('?')?;
    web_sys::UrlSearchParams::new_with_str(query)
        .ok()?
        .get("ai")
}

/// Where homework comes in: a drop zone over the whole roster (`dropping` lights it up), file and
/// folder inputs, and a field for a code link.
#[component]
pub fn HandIn(
    roster: RwSignal<RosterList>,
    notice: RwSignal<Option<Line>>,
    dropping: RwSignal<bool>,
    /// Set by the roster's drop zone: the files of a drop, still to read.
    dropped: RwSignal<Option<JsValue>, LocalStorage>,
) -> impl IntoView {
    let busy = RwSignal::new(false);
    let add = move |files: Vec<(String, web_sys::File)>| {
        if files.is_empty() {
            return;
        }
        busy.set(true);
        spawn_local(async move {
            let made = entries_of(files).await;
            busy.set(false);
            notice.set(Some(Line::answer(
                notice::run(roster, |r| r.add_code(made)),
                false,
            )));
        });
    };
    Effect::new(move |_| {
        if let Some(event) = dropped.get() {
            dropped.set(None);
            dropping.set(false);
            busy.set(true);
            spawn_local(async move {
                match drop_files(event).await {
                    Ok(files) if !files.is_empty() => add(files),
                    Ok(_) => busy.set(false),
                    Err(why) => {
                        busy.set(false);
                        notice.set(Some(Line::new(
                            Tone::Error,
                            format!("Nothing was added: {why}"),
                        )));
                    }
                }
            });
        }
    });
    let folder = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = folder.get() {
            // Chromium, Firefox and Safari all read `webkitdirectory`: the input then takes a folder.
            let _ = input.set_attribute("webkitdirectory", "");
        }
    });
    let link = RwSignal::new(String::new());
    let take_link = Callback::new(move |()| {
        let Some(packed) = packed_of(&link.get_untracked()) else {
            notice.set(Some(Line::new(
                Tone::Error,
                "That is not a code link: paste the whole link the \"Write an AI\" page made (it holds #/code?ai=).",
            )));
            return;
        };
        spawn_local(async move {
            let said = match transfer::from_link(&packed).await {
                Ok(ai) => notice::run(roster, |r| r.add_code(vec![(ai.name, Ok(ai.draft))])),
                Err(why) => Err(format!("The link's code was not added: {why}")),
            };
            if said.is_ok() {
                link.set(String::new());
            }
            notice.set(Some(Line::answer(said, false)));
        });
    });
    view! {
        <div class="t-hand-in" class:dropping=move || dropping.get() data-testid="hand-in">
            <p class="hint">
                "Code entries: drop students' files, folders or .zip files on the roster, or choose them here. "
                "One entry per file; a folder of sub-folders or .zip files gives one entry each; a folder of "
                "one student's files (a script and its data) is one entry."
            </p>
            <div class="t-files">
                <label class="load">
                    <span>"Code files or .zip"</span>
                    <input type="file" multiple data-testid="code-files" on:change=move |ev| add(input_files(&ev)) />
                </label>
                <label class="load">
                    <span>"A folder"</span>
                    <input type="file" node_ref=folder data-testid="code-folder" on:change=move |ev| add(input_files(&ev)) />
                </label>
                <Show when=move || busy.get()>
                    <span class="hint" data-testid="hand-in-busy">"reading…"</span>
                </Show>
            </div>
            <SubmitForm class="setup" label="Add a student's code link" on_submit=take_link>
                <label>
                    <span>"A student's code link"</span>
                    <input data-testid="code-link-in" placeholder="https://…#/code?ai=…" bind:value=link />
                </label>
                <button data-testid="code-link-add">"Add"</button>
            </SubmitForm>
        </div>
    }
}
