//! An AI's files in and out: import files, a folder or a .zip; export a .zip; share a link that
//! carries the code in the address's fragment (`#/code?ai=...`), compressed, so no server sees it.
//!
//! Zipping and the link's compression are fflate's, bundled into `dist/code/zip.js` and loaded when
//! first needed.

use super::ai::{CodeAi, CodeFile, Source};
use super::ai_list::ai_from_files;
use super::load_module;
use crate::notice::{Line, Tone};
use gridarena_engine::halma::code::source::{bytes_of, file_of};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};

/// The most bytes a chosen file or .zip may have.
const MAX_FILE_BYTES: usize = 20_000_000;

/// What a link carries.
#[derive(Serialize, Deserialize)]
struct Shared {
    name: String,
    source: Source,
}

/// Calls `name` in `code/zip.js` with `args`.
async fn zip_call(name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let module = load_module("code/zip.js").await?;
    let f: js_sys::Function = js_sys::Reflect::get(&module, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("code/zip.js has no {name}"))?;
    let list: js_sys::Array = args.iter().collect();
    f.apply(&JsValue::NULL, &list)
        .map_err(crate::ai_worker::js_error)
}

/// The packed AI in the address (`#/code?ai=...`), if there is one.
pub fn link_in_address() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let (_, query) = hash.split_once('?')?;
    web_sys::UrlSearchParams::new_with_str(query)
        .ok()?
        .get("ai")
}

/// Drops the link's code from the address once it is kept, so a reload does not import it again.
pub fn forget_link() {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some("#/code"));
    }
}

/// The AI a link carries, checked as an import is.
pub async fn from_link(packed: &str) -> Result<CodeAi, String> {
    let text = zip_call("unpackLink", &[JsValue::from_str(packed)])
        .await
        .map_err(|why| format!("the link's code could not be read: {why}"))?
        .as_string()
        .unwrap_or_default();
    ai_of_link(&text)
}

/// The AI in a link's unpacked text. A link is anyone's text: checked as a kept source is (file count,
/// names used once, base64 that decodes, a text main file), so a broken one is refused here with its
/// reason, not added to be found broken by its first game.
fn ai_of_link(text: &str) -> Result<CodeAi, String> {
    let shared: Shared = serde_json::from_str(text)
        .map_err(|e| format!("the link's code could not be read: {e}"))?;
    shared
        .source
        .check()
        .map_err(|why| format!("the link's code cannot be run: {why}"))?;
    CodeAi::new(&shared.name, shared.source)
}

/// The link that carries `ai`'s draft.
async fn link_of(ai: &CodeAi) -> Result<String, String> {
    let shared = Shared {
        name: ai.name.clone(),
        source: ai.draft.clone(),
    };
    let json = serde_json::to_string(&shared).map_err(|e| e.to_string())?;
    let packed = zip_call("packLink", &[JsValue::from_str(&json)])
        .await?
        .as_string()
        .unwrap_or_default();
    let location = web_sys::window().ok_or("no window")?.location();
    let base = location.href().map_err(|_| "no address")?;
    let base = base.split('#').next().unwrap_or_default().to_string();
    Ok(format!("{base}#/code?ai={packed}"))
}

/// The files of a .zip.
pub async fn unzip(bytes: &[u8]) -> Result<Vec<CodeFile>, String> {
    let array = js_sys::Uint8Array::from(bytes);
    let entries = zip_call("unzipFiles", &[array.into()]).await?;
    let entries: js_sys::Array = entries.dyn_into().map_err(|_| "unzipFiles gave no list")?;
    let mut files = Vec::new();
    for entry in entries.iter() {
        let path = js_sys::Reflect::get(&entry, &"path".into())
            .ok()
            .and_then(|p| p.as_string())
            .unwrap_or_default();
        let data = js_sys::Reflect::get(&entry, &"bytes".into()).unwrap_or(JsValue::UNDEFINED);
        let bytes = js_sys::Uint8Array::new(&data).to_vec();
        files.push(file_of(&path, &bytes));
    }
    Ok(files)
}

/// Reads the chosen files (with their folder path, for a folder) into an AI.
async fn import(list: Vec<web_sys::File>) -> Result<CodeAi, String> {
    let mut files = Vec::new();
    let mut name = String::new();
    for file in list {
        let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
            .ok()
            .and_then(|p| p.as_string())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| file.name());
        let bytes = crate::files::read(file, MAX_FILE_BYTES, "files").await?;
        if relative.to_ascii_lowercase().ends_with(".zip") {
            name = relative.clone();
            files.extend(unzip(&bytes).await?);
        } else {
            if name.is_empty() {
                name = relative.split('/').next().unwrap_or_default().to_string();
            }
            files.push(file_of(&relative, &bytes));
        }
    }
    let name = name.rsplit_once('.').map_or(name.clone(), |(stem, ext)| {
        if ["py", "js", "mjs", "zip"].contains(&ext) {
            stem.to_string()
        } else {
            name.clone()
        }
    });
    ai_from_files(&name, files)
}

#[component]
pub fn Transfer(
    on_import: Callback<CodeAi>,
    notice: RwSignal<Option<Line>>,
    current: Signal<Option<CodeAi>>,
) -> impl IntoView {
    let link = RwSignal::new(String::new());
    // Chromium, Firefox and Safari all read `webkitdirectory`: the input then takes a folder.
    let folder = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = folder.get() {
            let _ = input.set_attribute("webkitdirectory", "");
        }
    });
    let take = move |ev: leptos::ev::Event| {
        let files = crate::files::chosen_all(&ev);
        if files.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            match import(files).await {
                Ok(ai) => on_import.run(ai),
                Err(why) => {
                    notice.set(Some(Line::new(Tone::Error, format!("not imported: {why}"))))
                }
            }
        });
    };
    let export_zip = move |_| {
        let Some(ai) = current.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            let list = js_sys::Array::new();
            for f in &ai.draft.files {
                let entry = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&entry, &"path".into(), &f.path.as_str().into());
                let bytes = js_sys::Uint8Array::from(bytes_of(f).as_slice());
                let _ = js_sys::Reflect::set(&entry, &"bytes".into(), &bytes);
                list.push(&entry);
            }
            let done = match zip_call("zipFiles", &[list.into()]).await {
                Ok(zip) => {
                    let bytes = js_sys::Uint8Array::new(&zip).to_vec();
                    crate::files::download_bytes(
                        &format!("{}.zip", ai.name),
                        &bytes,
                        "application/zip",
                    )
                }
                Err(why) => Err(why),
            };
            if let Err(why) = done {
                notice.set(Some(Line::new(Tone::Error, format!("not exported: {why}"))));
            }
        });
    };
    let share = move |_| {
        let Some(ai) = current.get_untracked() else {
            return;
        };
        leptos::task::spawn_local(async move {
            match link_of(&ai).await {
                Ok(url) => link.set(url),
                Err(why) => notice.set(Some(Line::new(Tone::Error, format!("no link: {why}")))),
            }
        });
    };
    view! {
        <div class="transfer">
            <h3>"Import"</h3>
            <label class="load">
                <span>"Files or a .zip"</span>
                <input type="file" multiple data-testid="code-import" on:change=take />
            </label>
            <label class="load">
                <span>"A folder"</span>
                <input type="file" node_ref=folder data-testid="code-import-folder" on:change=take />
            </label>
            <Show when=move || current.with(Option::is_some)>
                <h3>"Export"</h3>
                <button type="button" data-testid="code-export" on:click=export_zip>"Download .zip"</button>
                <button type="button" data-testid="code-share" on:click=share>"Make a link"</button>
                <Show when=move || !link.with(String::is_empty)>
                    <p class="hint">"The code travels in the link itself: no server sees it."</p>
                    <input readonly class="share-link" data-testid="code-link" prop:value=move || link.get()
                        on:focus=move |ev| {
                            if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                i.select();
                            }
                        } />
                </Show>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn link(files: serde_json::Value, main: &str) -> String {
        json!({"name": "Ada", "source": {"lang": "python", "format": "function", "main": main, "files": files}})
            .to_string()
    }

    #[test]
    fn a_link_is_checked_as_a_kept_source_is() {
        let good = link(
            json!([{"path": "main.py", "text": "def move(r):\n    return None\n"}, {"path": "t.bin", "base64": "AAE="}]),
            "main.py",
        );
        let ai = ai_of_link(&good).unwrap();
        assert_eq!((ai.name.as_str(), ai.draft.files.len()), ("Ada", 2));

        let refused = |files, main: &str| ai_of_link(&link(files, main)).unwrap_err();
        let twice = refused(
            json!([{"path": "main.py", "text": "a"}, {"path": "Main.py", "text": "b"}]),
            "main.py",
        );
        assert!(twice.contains("is there twice"), "{twice}");
        let b64 = refused(
            json!([{"path": "main.py", "text": "a"}, {"path": "t.bin", "base64": "!!!"}]),
            "main.py",
        );
        assert!(b64.contains("\"t.bin\""), "{b64}");
        let binary_main = refused(json!([{"path": "main.py", "base64": "AAE="}]), "main.py");
        assert!(binary_main.contains("not a text file"), "{binary_main}");
        let many: Vec<_> = (0..=gridarena_engine::halma::code::source::MAX_FILES)
            .map(|i| json!({"path": format!("f{i}.py"), "text": ""}))
            .collect();
        let count = refused(json!(many), "f0.py");
        assert!(count.contains("at most"), "{count}");
        let path = refused(json!([{"path": "../main.py", "text": "a"}]), "../main.py");
        assert!(path.contains("not a file name"), "{path}");
        assert!(ai_of_link("not json").is_err());
    }
}
