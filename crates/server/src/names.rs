//! Players' names and secret tokens.
//!
//! A name is what others see: trimmed, 1 to [`MAX_NAME_CHARS`] characters, letters, digits, spaces,
//! `_`, `-` and `.`; unique without regard to case ([`name_key`]). A token is what proves a player is who
//! they say: 32 random bytes in hex, given once; the server keeps only its SHA-256 ([`token_hash`]).

use sha2::{Digest, Sha256};
use std::fmt;

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// The longest text taken as a token before hashing; a real token has 64 hex digits.
pub const MAX_TOKEN_CHARS: usize = 128;

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong { chars: usize },
    BadChar { c: char },
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
    Ok(name.to_string())
}

/// The form names are compared in: trimmed and lower-cased, so "Ada" and "ADA " are the same name.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
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
