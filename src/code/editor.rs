//! The code editor: CodeMirror 6, bundled at build time into `dist/code/editor.js` (from
//! `web/editor.mjs`) and imported only when the "Write an AI" page opens.

use super::ai::Lang;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// An editor mounted in the page; the handle `mountEditor` returned.
pub struct Editor {
    handle: JsValue,
    _on_change: Closure<dyn FnMut(String)>,
}

impl Editor {
    /// Mounts an editor holding `doc` into `parent`; `on_change` gets the whole text after each change.
    pub async fn mount(
        parent: &web_sys::HtmlElement,
        doc: &str,
        lang: Lang,
        on_change: impl FnMut(String) + 'static,
    ) -> Result<Editor, String> {
        let module = super::load_module("code/editor.js").await?;
        let mount: js_sys::Function = js_sys::Reflect::get(&module, &"mountEditor".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or("code/editor.js has no mountEditor")?;
        let on_change = Closure::<dyn FnMut(String)>::new(on_change);
        let args = js_sys::Array::of4(
            parent,
            &JsValue::from_str(doc),
            &JsValue::from_str(lang.key()),
            on_change.as_ref(),
        );
        let handle = mount
            .apply(&JsValue::NULL, &args)
            .map_err(|e| format!("the editor did not start: {}", describe(&e)))?;
        Ok(Editor {
            handle,
            _on_change: on_change,
        })
    }

    fn call(&self, method: &str, args: &[JsValue]) -> JsValue {
        let Some(f) = js_sys::Reflect::get(&self.handle, &method.into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        else {
            return JsValue::UNDEFINED;
        };
        let list: js_sys::Array = args.iter().collect();
        f.apply(&self.handle, &list).unwrap_or(JsValue::UNDEFINED)
    }

    /// Replaces the whole text (another AI or version opened).
    pub fn set_text(&self, text: &str) {
        self.call("setText", &[JsValue::from_str(text)]);
    }

    pub fn set_language(&self, lang: Lang) {
        self.call("setLanguage", &[JsValue::from_str(lang.key())]);
    }

    /// Highlights a line (where a syntax error or an exception is); 0 clears it.
    pub fn mark_line(&self, line: u32) {
        self.call("markLine", &[JsValue::from(line)]);
    }
}

impl Drop for Editor {
    fn drop(&mut self) {
        self.call("destroy", &[]);
    }
}

fn describe(e: &JsValue) -> String {
    crate::ai_worker::js_error(e.clone())
}
