//! An AI's files: its language, its format, which file runs, and the files themselves (text, or binary
//! data kept as base64). The page's editor, a roster's code entries, a tournament bundle and the CLI
//! all hold the same [`Source`], checked the same way, so an entry the page accepts plays in the CLI.
//!
//! Files come from a student's disk, a link or a roster file, so every path and size is checked before
//! anything writes them into a folder or hands them to an interpreter.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The most files one AI may hold.
pub const MAX_FILES: usize = 200;
/// The most bytes one AI's files may hold in all (binary files counted as the bytes they stand for): a
/// course agent with a 1.25 MB pickled table beside its script fits, and a class of 40 such entries
/// stays within [`crate::tournament::roster::MAX_CODE_BYTES`].
pub const MAX_BYTES: usize = 2_000_000;
/// The longest file path, in bytes.
pub const MAX_PATH_BYTES: usize = 200;

/// Files kept as text (shown in the editor); any other file, or one that is not UTF-8, is binary.
const TEXT_EXTENSIONS: [&str; 9] = ["py", "js", "mjs", "json", "txt", "csv", "md", "cfg", "ini"];

/// The language an AI is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Python,
    JavaScript,
}

impl Lang {
    /// The name the worker, the editor and a roster use.
    pub fn key(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lang::Python => "Python",
            Lang::JavaScript => "JavaScript",
        })
    }
}

/// How an AI is asked for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `move(request)` returns the web protocol's answer; module state lasts a game.
    Function,
    /// The course's homework script (seed 003): `input.txt` in, `output.txt` out, run once per move.
    Course,
}

impl Format {
    pub fn key(self) -> &'static str {
        match self {
            Format::Function => "function",
            Format::Course => "course",
        }
    }
}

/// One file of an AI: text, or binary data kept as base64 (a pickled table, say).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CodeFile {
    /// Relative, `/`-separated: `main.py`, `lib/tables.py`.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
}

impl CodeFile {
    pub fn text(path: &str, text: &str) -> CodeFile {
        CodeFile {
            path: path.to_string(),
            text: Some(text.to_string()),
            base64: None,
        }
    }

    /// A binary file, kept as base64.
    pub fn binary(path: &str, bytes: &[u8]) -> CodeFile {
        CodeFile {
            path: path.to_string(),
            text: None,
            base64: Some(encode_base64(bytes)),
        }
    }

    /// Its size in bytes as an interpreter receives it (base64 counted as the bytes it stands for).
    pub fn size(&self) -> usize {
        self.text.as_ref().map_or(0, String::len)
            + self.base64.as_ref().map_or(0, |b| b.len() / 4 * 3)
    }
}

/// What a player runs: one version of an AI's files.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Source {
    pub lang: Lang,
    pub format: Format,
    /// The file that is run (function format: the module that defines `move`).
    pub main: String,
    pub files: Vec<CodeFile>,
}

impl Source {
    /// The main file's text, if it is a text file.
    pub fn main_text(&self) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path == self.main)
            .and_then(|f| f.text.as_deref())
    }

    /// A copy with the main file's text replaced (what the editor changes).
    pub fn with_main_text(&self, text: &str) -> Source {
        let mut source = self.clone();
        match source.files.iter_mut().find(|f| f.path == source.main) {
            Some(f) => *f = CodeFile::text(&source.main, text),
            None => source.files.insert(0, CodeFile::text(&source.main, text)),
        }
        source
    }

    /// The bytes its files hold, as an interpreter receives them.
    pub fn size(&self) -> usize {
        self.files.iter().map(CodeFile::size).sum()
    }

    /// Whether it can be run as it stands: at most [`MAX_FILES`] files and [`MAX_BYTES`] bytes, every
    /// path checked and used once, binary files readable, and a text main file in its language (the
    /// course format is Python's).
    pub fn check(&self) -> Result<(), String> {
        if self.files.len() > MAX_FILES {
            return Err(format!(
                "{} files: an AI may hold at most {MAX_FILES}",
                self.files.len()
            ));
        }
        let size = self.size();
        if size > MAX_BYTES {
            return Err(too_large(size));
        }
        let mut paths = std::collections::BTreeSet::new();
        for f in &self.files {
            check_path(&f.path)?;
            if !paths.insert(f.path.to_lowercase()) {
                return Err(format!(
                    "{:?} is there twice (file names are compared ignoring case, as on Windows and macOS)",
                    f.path
                ));
            }
            match (&f.text, &f.base64) {
                (Some(_), None) => {}
                (None, Some(b64)) => {
                    decode_base64(b64).map_err(|why| format!("{:?}: {why}", f.path))?;
                }
                _ => return Err(format!("{:?} must hold either text or base64 data", f.path)),
            }
        }
        if self.main_text().is_none() {
            return Err(format!(
                "the main file {:?} is not one of the files, or not a text file",
                self.main
            ));
        }
        let ext_ok = match self.lang {
            Lang::Python => self.main.ends_with(".py"),
            Lang::JavaScript => self.main.ends_with(".js") || self.main.ends_with(".mjs"),
        };
        if !ext_ok {
            return Err(format!(
                "the main file {:?} is not a {} file",
                self.main, self.lang
            ));
        }
        if self.lang == Lang::JavaScript && self.format == Format::Course {
            return Err("the course format is Python's: a JavaScript AI uses the function format, move(request)".to_string());
        }
        Ok(())
    }

    /// The SHA-256 of what it runs, in hex: its language, format and main file, then each file (sorted
    /// by path) as its path and its bytes, each part preceded by its length. Two sources with the same
    /// hash play the same, so a standings table can show which code was played and a re-run can check it.
    pub fn sha256(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        let mut part = |bytes: &[u8]| {
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(bytes);
        };
        part(self.lang.key().as_bytes());
        part(self.format.key().as_bytes());
        part(self.main.as_bytes());
        let mut files: Vec<&CodeFile> = self.files.iter().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        for f in files {
            part(f.path.as_bytes());
            part(&bytes_of(f));
        }
        hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

fn too_large(size: usize) -> String {
    format!(
        "the files hold {} KB: an AI may hold at most {} KB",
        size.div_ceil(1000),
        MAX_BYTES / 1000
    )
}

/// A file as read from a disk: text where its extension says so and it is UTF-8, else binary.
pub fn file_of(path: &str, bytes: &[u8]) -> CodeFile {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match std::str::from_utf8(bytes) {
        Ok(text) if TEXT_EXTENSIONS.contains(&ext.as_str()) => CodeFile::text(path, text),
        _ => CodeFile::binary(path, bytes),
    }
}

/// The bytes of a file, as written out again (a checked source's base64 always decodes).
pub fn bytes_of(file: &CodeFile) -> Vec<u8> {
    match (&file.text, &file.base64) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(b64)) => decode_base64(b64).unwrap_or_default(),
        (None, None) => Vec::new(),
    }
}

/// A checked relative path: `/`-separated, no empty part, no `.` or `..`, no leading `/`, no
/// backslash, colon or control character, at most [`MAX_PATH_BYTES`]. Such a path stays inside the
/// folder it is written into on every system.
pub fn check_path(path: &str) -> Result<String, String> {
    let bad = || format!("{path:?} is not a file name an AI may hold");
    if path.is_empty() || path.len() > MAX_PATH_BYTES || path.starts_with('/') {
        return Err(bad());
    }
    if path
        .chars()
        .any(|c| c.is_control() || c == '\\' || c == ':')
    {
        return Err(bad());
    }
    if path
        .split('/')
        .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Err(bad());
    }
    Ok(path.to_string())
}

/// Drops a first folder that every path shares (`bot/main.py`, `bot/lib.py` → `main.py`, `lib.py`): a
/// folder chosen in a browser, or a .zip of one, arrives so.
pub fn strip_common_folder(files: &mut [CodeFile]) {
    let first = |p: &str| p.split_once('/').map(|(f, _)| f.to_string());
    let Some(folder) = files.first().and_then(|f| first(&f.path)) else {
        return;
    };
    if files
        .iter()
        .all(|f| first(&f.path).as_deref() == Some(folder.as_str()))
    {
        for f in files.iter_mut() {
            f.path = f.path[folder.len() + 1..].to_string();
        }
    }
}

/// Makes an AI's source from its files: the main file is `main.py` or `main.js` where there is one,
/// else the only Python or JavaScript file at the top, else one that defines `move`. A Python main
/// file that defines no `move` is a course homework script.
pub fn source_of(mut files: Vec<CodeFile>) -> Result<Source, String> {
    if files.is_empty() {
        return Err("no files were chosen".to_string());
    }
    if files.len() > MAX_FILES {
        return Err(format!(
            "{} files: an AI may hold at most {MAX_FILES}",
            files.len()
        ));
    }
    strip_common_folder(&mut files);
    for f in &mut files {
        f.path = check_path(&f.path)?;
    }
    let size: usize = files.iter().map(CodeFile::size).sum();
    if size > MAX_BYTES {
        return Err(too_large(size));
    }
    let is_code = |f: &CodeFile, ext: &str| f.path.ends_with(ext) && f.text.is_some();
    let defines_move = |f: &CodeFile| {
        f.text
            .as_deref()
            .is_some_and(|t| t.contains("def move(") || t.contains("function move("))
    };
    let top = |f: &&CodeFile| !f.path.contains('/');
    let main = ["main.py", "main.js"]
        .iter()
        .find_map(|m| files.iter().find(|f| f.path == *m))
        .or_else(|| {
            let code: Vec<&CodeFile> = files
                .iter()
                .filter(top)
                .filter(|f| is_code(f, ".py") || is_code(f, ".js") || is_code(f, ".mjs"))
                .collect();
            match code.as_slice() {
                [one] => Some(*one),
                several => several.iter().copied().find(|f| defines_move(f)),
            }
        })
        .ok_or("no main file: name it main.py or main.js")?;
    let lang = if main.path.ends_with(".py") {
        Lang::Python
    } else {
        Lang::JavaScript
    };
    let format = match lang {
        Lang::Python if !defines_move(main) => Format::Course,
        _ => Format::Function,
    };
    let source = Source {
        lang,
        format,
        main: main.path.clone(),
        files,
    };
    source.check()?;
    Ok(source)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn encode_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Reads standard base64 (padding optional); whitespace (a line-wrapped export) is skipped.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end().trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        if c.is_ascii_whitespace() {
            continue;
        }
        let v = ALPHABET
            .iter()
            .position(|&a| a == c)
            .ok_or_else(|| format!("{:?} is not base64", char::from(c)))?;
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for bytes in [&b""[..], b"a", b"ab", b"abc", b"\x00\xff\x10pickle\x80"] {
            let text = encode_base64(bytes);
            assert_eq!(decode_base64(&text).unwrap(), bytes, "{text}");
        }
        assert_eq!(encode_base64(b"Man"), "TWFu");
        assert_eq!(encode_base64(b"Ma"), "TWE=");
        assert_eq!(decode_base64("TW\nFu\n").unwrap(), b"Man");
        assert!(decode_base64("a$b").is_err());
    }

    #[test]
    fn the_main_file_and_the_format_are_found() {
        let func = file_of("bot/main.py", b"def move(request):\n    return None\n");
        let table = file_of("bot/table.pkl", b"\x80\x04\x95");
        let helper = file_of("bot/lib/helper.py", b"X = 1\n");
        let source = source_of(vec![func, table.clone(), helper]).unwrap();
        assert_eq!(
            (source.main.as_str(), source.format),
            ("main.py", Format::Function)
        );
        assert_eq!(source.files[1].path, "table.pkl");
        assert!(source.files[1].base64.is_some());
        assert_eq!(bytes_of(&source.files[1]), b"\x80\x04\x95");
        assert_eq!(source.files[2].path, "lib/helper.py");

        let course = file_of(
            "halma_course.py",
            b"open('output.txt','w').write('E 0,0 1,1')\n",
        );
        let source = source_of(vec![course]).unwrap();
        assert_eq!(source.format, Format::Course);
        let js = file_of("bot.js", b"export function move(r) { return null; }");
        let two = file_of("util.js", b"export const x = 1;");
        let source = source_of(vec![two, js]).unwrap();
        assert_eq!(
            (source.main.as_str(), source.lang),
            ("bot.js", Lang::JavaScript)
        );
        assert!(source_of(vec![table]).is_err());
        assert!(source_of(Vec::new()).is_err());
    }

    #[test]
    fn hostile_paths_and_sizes_are_refused() {
        for bad in [
            "../x.py",
            "/etc/passwd",
            "a//b.py",
            "a\\b.py",
            "./a.py",
            "c:x.py",
            "",
        ] {
            assert!(check_path(bad).is_err(), "{bad}");
        }
        assert!(check_path(&"a/".repeat(120)).is_err());
        let evil = vec![
            file_of("main.py", b"def move(r): pass"),
            file_of("x/../../y", b"1"),
        ];
        assert!(source_of(evil).is_err());
        let huge = vec![file_of("main.py", &vec![b'#'; MAX_BYTES + 1])];
        assert!(source_of(huge).unwrap_err().contains("KB"));
    }

    fn python(main: &str, files: Vec<CodeFile>) -> Source {
        Source {
            lang: Lang::Python,
            format: Format::Course,
            main: main.to_string(),
            files,
        }
    }

    #[test]
    fn a_source_is_checked_as_a_whole() {
        let ok = python("hw.py", vec![CodeFile::text("hw.py", "print(1)")]);
        assert_eq!(ok.check(), Ok(()));
        let cases = [
            (python("hw.py", vec![]), "not one of the files"),
            (
                python("hw.py", vec![CodeFile::binary("hw.py", b"\x00")]),
                "not a text file",
            ),
            (
                python("hw.js", vec![CodeFile::text("hw.js", "x")]),
                "not a Python file",
            ),
            (
                python(
                    "hw.py",
                    vec![CodeFile::text("hw.py", "x"), CodeFile::text("HW.py", "y")],
                ),
                "twice",
            ),
            (
                python(
                    "hw.py",
                    vec![
                        CodeFile::text("hw.py", "x"),
                        CodeFile {
                            path: "t.bin".into(),
                            text: None,
                            base64: Some("!!".into()),
                        },
                    ],
                ),
                "not base64",
            ),
            (
                python(
                    "hw.py",
                    vec![CodeFile {
                        path: "hw.py".into(),
                        text: Some("x".into()),
                        base64: Some("eA==".into()),
                    }],
                ),
                "either text or base64",
            ),
        ];
        for (source, says) in cases {
            let e = source.check().unwrap_err();
            assert!(e.contains(says), "{says}: {e}");
        }
        let js_course = Source {
            lang: Lang::JavaScript,
            format: Format::Course,
            main: "a.js".into(),
            files: vec![CodeFile::text("a.js", "x")],
        };
        assert!(js_course.check().unwrap_err().contains("course format"));
    }

    #[test]
    fn the_hash_follows_what_runs_not_the_order_of_the_files() {
        let a = python(
            "hw.py",
            vec![
                CodeFile::text("hw.py", "print(1)"),
                CodeFile::binary("t.pkl", b"\x80"),
            ],
        );
        let mut b = a.clone();
        b.files.reverse();
        assert_eq!(a.sha256(), b.sha256());
        assert_eq!(a.sha256().len(), 64);
        let changed = a.with_main_text("print(2)");
        assert_ne!(a.sha256(), changed.sha256());
        let mut renamed = a.clone();
        renamed.files[1].path = "u.pkl".into();
        assert_ne!(a.sha256(), renamed.sha256());
        // Text and binary spellings of the same bytes are the same file.
        let mut spelled = a.clone();
        spelled.files[0] = CodeFile::binary("hw.py", b"print(1)");
        assert_eq!(a.sha256(), spelled.sha256());
    }
}
