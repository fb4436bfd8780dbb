//! Players' names and secret tokens.
//!
//! A name is what others see: trimmed, 1 to [`MAX_NAME_CHARS`] characters, letters, digits, spaces,
//! `_`, `-` and `.`, in one script (`Аda` with a Cyrillic `А` is refused). Names are unique up to case
//! and look-alikes ([`name_key`]): `Ada`, `ADA`, `Ａｄａ` (full-width) and `Αda`-like names written in
//! another script are one name. A token is what proves a player is who they say: 32 random bytes in
//! hex, given once; the server keeps only its SHA-256 ([`token_hash`]).
//!
//! Look-alikes are Unicode's own list (UTS #39, "confusables", through the `unicode-security` crate),
//! not a table of ours: a name's key is its *skeleton*, the string every look-alike of it maps to.

use sha2::{Digest, Sha256};
use std::fmt;
use unicode_normalization::UnicodeNormalization;
use unicode_script::{Script, UnicodeScript};
use unicode_security::MixedScript;

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// The longest text taken as a token before hashing; a real token has 64 hex digits.
pub const MAX_TOKEN_CHARS: usize = 128;

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong {
        chars: usize,
    },
    BadChar {
        c: char,
    },
    /// Letters of more than one script, named (`["Latin", "Cyrillic"]`).
    MixedScripts {
        scripts: Vec<&'static str>,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => f.write_str("a name needs at least one character"),
            NameError::TooLong { chars } => write!(
                f,
                "a name has at most {MAX_NAME_CHARS} characters (this one has {chars})"
            ),
            NameError::BadChar { c } if c.is_control() => write!(
                f,
                "a name may not hold control characters (U+{:04X}); use letters, digits, spaces, _ - .",
                *c as u32
            ),
            NameError::BadChar { c } => write!(
                f,
                "a name may hold only letters, digits, spaces, _ - and . (not {c:?})"
            ),
            NameError::MixedScripts { scripts } => write!(
                f,
                "a name is written in one script, but this one mixes {}: letters that look \
                 alike in two scripts would let one player pass for another",
                scripts.join(" and ")
            ),
        }
    }
}

impl std::error::Error for NameError {}

/// Checks a name and returns it trimmed.
pub fn validate_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.')))
    {
        return Err(NameError::BadChar { c });
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(NameError::TooLong { chars });
    }
    if !name.is_single_script() {
        let mut scripts = Vec::new();
        for c in name.chars() {
            let script = c.script();
            let name = script.full_name();
            if !matches!(script, Script::Common | Script::Inherited) && !scripts.contains(&name) {
                scripts.push(name);
            }
        }
        return Err(NameError::MixedScripts { scripts });
    }
    Ok(name.to_string())
}

/// The form names are compared in, so that names that look alike are one name: compatibility forms
/// folded (NFKC: full-width `Ａ` is `A`), then the UTS #39 skeleton (Cyrillic `А` and Greek `Α` are
/// `A`, `0` is `O`, `l`, `I` and `1` are one), lower-cased, and the skeleton again (a lower-case
/// letter has its own look-alikes: `m` is `rn`). "Ada", " ADA", "Аda" and "Ａｄａ" have one key.
pub fn name_key(name: &str) -> String {
    let folded: String = name.trim().nfkc().collect();
    let lower: String = unicode_security::skeleton(&folded)
        .flat_map(char::to_lowercase)
        .collect();
    unicode_security::skeleton(&lower).collect()
}

/// A new token: 32 bytes from the operating system's random source, as 64 lower-case hex digits.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// What the database keeps of a token: the SHA-256 of its text.
pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Lower-case hex digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// A random number below `n` (n > 0) from the operating system's random source; 0 if it fails.
pub fn random_below(n: u32) -> u32 {
    let mut bytes = [0u8; 4];
    if getrandom::fill(&mut bytes).is_err() || n == 0 {
        return 0;
    }
    u32::from_le_bytes(bytes) % n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(validate_name("  Ada ").unwrap(), "Ada");
        assert_eq!(validate_name("Jean-Luc_2.0 x").unwrap(), "Jean-Luc_2.0 x");
        assert_eq!(validate_name("Åsa").unwrap(), "Åsa");
        assert_eq!(validate_name("   "), Err(NameError::Empty));
        assert_eq!(
            validate_name(&"a".repeat(21)),
            Err(NameError::TooLong { chars: 21 })
        );
        assert!(validate_name(&"é".repeat(20)).is_ok());
        assert_eq!(
            validate_name("a\u{7}b"),
            Err(NameError::BadChar { c: '\u{7}' })
        );
        assert!(validate_name("<b>x</b>").is_err());
        assert!(validate_name("a&b").is_err());
    }

    #[test]
    fn keys_ignore_case() {
        assert_eq!(name_key(" ADA"), name_key("ada"));
        assert_eq!(name_key("Tom"), name_key("TOM"));
    }

    #[test]
    fn names_mixing_scripts_are_refused_with_the_scripts_named() {
        // Cyrillic А, then Latin "da".
        let e = validate_name("\u{410}da").unwrap_err();
        assert_eq!(
            e,
            NameError::MixedScripts {
                scripts: vec!["Cyrillic", "Latin"]
            }
        );
        assert!(e.to_string().contains("Cyrillic and Latin"), "{e}");
        // Greek Ο in a Latin name.
        assert!(validate_name("B\u{39f}b").is_err());
        // One script each, with digits, spaces and punctuation (common to all): fine.
        for name in [
            "Ада 2",
            "Σωκράτης_1",
            "Ada-Lovelace.3",
            "山田 太郎",
            "やまだ",
            "Ａｄａ",
        ] {
            assert!(validate_name(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn look_alikes_share_a_key() {
        let ada = name_key("Ada");
        for alike in [
            "ada",
            " ADA ",
            "\u{410}da",                // Cyrillic capital А
            "\u{ff21}\u{ff44}\u{ff41}", // full-width Ａｄａ
        ] {
            assert_eq!(name_key(alike), ada, "{alike:?}");
        }
        // Wholly Cyrillic or Greek names that look Latin collide with the Latin name.
        assert_eq!(name_key("\u{422}\u{41e}\u{420}"), name_key("TOP")); // Cyrillic ТОР
        assert_eq!(name_key("\u{391}\u{392}\u{395}"), name_key("ABE")); // Greek ΑΒΕ
        assert_eq!(name_key("B0b"), name_key("Bob"));
        assert_eq!(name_key("Al"), name_key("AI"));
        assert_eq!(name_key("Tom"), name_key("Torn"));
        // Names that differ to the eye keep apart.
        assert_ne!(name_key("Ada"), name_key("Adam"));
        assert_ne!(name_key("Ann"), name_key("Anna"));
        assert_ne!(name_key("\u{434}"), name_key("d"), "Cyrillic д is not d");
    }

    #[test]
    fn tokens_are_64_hex_digits_and_hash_to_32_bytes() {
        let t = new_token().unwrap();
        assert_eq!(t.len(), 64);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(token_hash(&t).len(), 32);
        assert_ne!(new_token().unwrap(), t);
        assert_eq!(hex(&[0, 255, 16]), "00ff10");
    }
}
