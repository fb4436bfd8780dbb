//! An AI's files coming in (chosen files, a folder, a .zip, a link) and going out: which file is the
//! main one, which format it has, text or binary. Plain Rust, tested natively.

use super::ai::{CodeFile, Format, Lang, Source};

/// The most files one AI may hold, and the most bytes in all: a homework agent with its tables fits
/// easily, and the browser's storage (about 5 MB a site) keeps several.
pub const MAX_FILES: usize = 200;
pub const MAX_BYTES: usize = 2_000_000;

/// Files kept as text (shown in the editor); any other file, or one that is not UTF-8, is binary.
const TEXT_EXTENSIONS: [&str; 9] = ["py", "js", "mjs", "json", "txt", "csv", "md", "cfg", "ini"];

/// A file as read from the user's disk.
pub fn file_of(path: &str, bytes: &[u8]) -> CodeFile {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match std::str::from_utf8(bytes) {
        Ok(text) if TEXT_EXTENSIONS.contains(&ext.as_str()) => CodeFile::text(path, text),
        _ => CodeFile {
            path: path.to_string(),
            text: None,
            base64: Some(encode_base64(bytes)),
        },
    }
}

/// The bytes of a file, as written out again.
pub fn bytes_of(file: &CodeFile) -> Vec<u8> {
    match (&file.text, &file.base64) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(b64)) => decode_base64(b64).unwrap_or_default(),
        (None, None) => Vec::new(),
    }
}

/// A checked relative path: `/`-separated, no empty part, no `.` or `..`, no leading `/`, no
/// backslash or control character. A folder chosen in the browser arrives as `folder/file.py`: its
/// first part is dropped by the caller where every file shares it.
pub fn check_path(path: &str) -> Result<String, String> {
    let bad = || format!("{path:?} is not a file name an AI may hold");
    if path.is_empty() || path.len() > 200 || path.starts_with('/') {
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

/// Drops a first folder that every path shares (`bot/main.py`, `bot/lib.py` → `main.py`, `lib.py`).
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
        return Err(format!(
            "the files hold {} KB: an AI may hold at most {} KB",
            size.div_ceil(1000),
            MAX_BYTES / 1000
        ));
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
    Ok(Source {
        lang,
        format,
        main: main.path.clone(),
        files,
    })
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

pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
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
        let evil = vec![
            file_of("main.py", b"def move(r): pass"),
            file_of("x/../../y", b"1"),
        ];
        assert!(source_of(evil).is_err());
        let huge = vec![file_of("main.py", &vec![b'#'; MAX_BYTES + 1])];
        assert!(source_of(huge).unwrap_err().contains("KB"));
    }
}
