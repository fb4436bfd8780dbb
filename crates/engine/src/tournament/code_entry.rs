//! A roster entry that is code: a student's handed-in AI, carried whole in the roster (and so in every
//! bundle), so a tournament needs nothing but its file to be played, resumed or checked again.
//!
//! ```json
//! {"name": "Ada", "code": {"language": "python", "format": "course", "main": "homework.py",
//!   "files": {"homework.py": "import pickle ...", "distances.pkl": {"base64": "gASV..."}}}}
//! ```
//!
//! A file is its text, or `{"base64": ...}` for binary data. `format` defaults to `function`. An
//! exported entry also carries `"sha256"`, the hash of what it runs ([`Source::sha256`]); a roster that
//! gives one is checked against it, so a bundle whose code was edited afterwards is refused rather than
//! replayed with other code. The JSON Schema is `docs/schema/roster.schema.json`.

use crate::halma::code::source::{encode_base64, Source};
use crate::halma::code::{CodeFile, Format, HashedSource, Lang};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The `"code"` member of a roster entry, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CodeJson {
    language: Lang,
    #[serde(default = "function")]
    format: Format,
    main: String,
    files: Files,
    #[serde(default)]
    sha256: Option<String>,
}

fn function() -> Format {
    Format::Function
}

impl CodeJson {
    /// The source it describes, checked as the page checks an import, with its hash (worked out here,
    /// once), checked against the one it gives if it gives one.
    pub(super) fn source(self) -> Result<HashedSource, String> {
        let source = Source {
            lang: self.language,
            format: self.format,
            main: self.main,
            files: self.files.0,
        };
        source.check()?;
        let source = HashedSource::new(source);
        if let Some(expected) = self.sha256 {
            let actual = source.sha256();
            if !expected.eq_ignore_ascii_case(actual) {
                return Err(format!(
                    "its files do not match their recorded sha256 ({} recorded, {} now): the code was changed after it was recorded",
                    short(&expected),
                    short(actual)
                ));
            }
        }
        Ok(source)
    }
}

/// The first 12 characters of a hash, as the standings show it.
pub fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// The files, in the order written; a path given twice is refused (a JSON object may repeat a key,
/// and silently keeping one of the two would play code nobody chose).
struct Files(Vec<CodeFile>);

/// One file's value: its text, or binary data.
#[derive(Deserialize)]
#[serde(untagged)]
enum FileJson {
    Text(String),
    Binary { base64: String },
}

impl<'de> Deserialize<'de> for Files {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Files, D::Error> {
        struct FilesVisitor;
        impl<'de> Visitor<'de> for FilesVisitor {
            type Value = Files;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object from file names to their text or {\"base64\": \"...\"}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Files, A::Error> {
                let mut files: Vec<CodeFile> = Vec::new();
                while let Some((path, value)) = map.next_entry::<String, FileJson>()? {
                    if files.iter().any(|f| f.path == path) {
                        return Err(serde::de::Error::custom(format!(
                            "the file {path:?} is given twice"
                        )));
                    }
                    files.push(match value {
                        FileJson::Text(text) => CodeFile::text(&path, &text),
                        FileJson::Binary { base64 } => CodeFile {
                            path,
                            text: None,
                            base64: Some(base64),
                        },
                    });
                }
                Ok(Files(files))
            }
        }
        d.deserialize_map(FilesVisitor)
    }
}

/// A source written as a roster entry's `"code"`, with its hash (the stored one: not worked out again).
pub(super) struct CodeOut<'a>(pub &'a HashedSource);

impl Serialize for CodeOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let source = self.0;
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("language", &source.lang)?;
        map.serialize_entry("format", &source.format)?;
        map.serialize_entry("main", &source.main)?;
        map.serialize_entry("files", &FilesOut(&source.files))?;
        map.serialize_entry("sha256", source.sha256())?;
        map.end()
    }
}

struct FilesOut<'a>(&'a [CodeFile]);

impl Serialize for FilesOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Binary<'a> {
            base64: &'a str,
        }
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for f in self.0 {
            match (&f.text, &f.base64) {
                (Some(text), _) => map.serialize_entry(&f.path, text)?,
                (None, Some(b64)) => map.serialize_entry(&f.path, &Binary { base64: b64 })?,
                (None, None) => map.serialize_entry(
                    &f.path,
                    &Binary {
                        base64: &encode_base64(&[]),
                    },
                )?,
            }
        }
        map.end()
    }
}
