//! A source with its hash: [`Source::sha256`] reads every byte of every file (a class's code is tens
//! of megabytes), so it is worked out once, when the code is read and checked, and carried beside the
//! files it describes. A player's label, a bundle's `"sha256"`, the standings and the grades all read
//! the one stored here.

use super::source::Source;
use std::ops::Deref;

/// A [`Source`] and its SHA-256 ([`Source::sha256`]), which it always matches: both are fixed when it
/// is made, and neither can be changed afterwards (a changed source is a new `HashedSource`).
///
/// It reads as the [`Source`] it holds (`hashed.lang`, `hashed.files`), and its own
/// [`sha256`](HashedSource::sha256) answers without hashing again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HashedSource {
    // The hash first, so comparing two sources stops at the hash where they differ.
    sha256: String,
    source: Source,
}

impl HashedSource {
    /// The source with its hash, worked out here.
    pub fn new(source: Source) -> HashedSource {
        HashedSource {
            sha256: source.sha256(),
            source,
        }
    }

    /// The files it holds.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The SHA-256 of its files, in hex, as [`Source::sha256`] worked it out when it was made.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// Its source, given up (to edit it, say: the edited source is hashed again).
    pub fn into_source(self) -> Source {
        self.source
    }
}

impl From<Source> for HashedSource {
    fn from(source: Source) -> HashedSource {
        HashedSource::new(source)
    }
}

impl Deref for HashedSource {
    type Target = Source;
    fn deref(&self) -> &Source {
        &self.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::code::{CodeFile, Format, Lang};
    use crate::halma::AiPlayer;
    use std::sync::Arc;

    fn source() -> Source {
        Source {
            lang: Lang::Python,
            format: Format::Course,
            main: "homework.py".into(),
            files: vec![
                CodeFile::text("homework.py", "print('hi')\n"),
                CodeFile::binary("table.pkl", b"\x80\x04pickle"),
            ],
        }
    }

    #[test]
    fn the_stored_hash_is_the_sources() {
        let hashed = HashedSource::new(source());
        assert_eq!(hashed.sha256(), source().sha256());
        assert_eq!(hashed.source(), &source());
        assert_eq!(*hashed, source());
        assert_eq!(HashedSource::from(source()), hashed);
        assert_eq!(hashed.clone().into_source(), source());
        let edited = HashedSource::new(source().with_main_text("print('bye')\n"));
        assert_ne!(edited.sha256(), hashed.sha256());
        assert_ne!(edited, hashed);
    }

    #[test]
    fn a_code_players_label_shows_the_stored_hash() {
        let hashed = HashedSource::new(source());
        let label = AiPlayer::Code(Arc::new(hashed.clone())).to_string();
        assert_eq!(
            label,
            format!("code:python:course:{}", &source().sha256()[..12])
        );
        assert_eq!(
            label,
            format!("code:python:course:{}", &hashed.sha256()[..12])
        );
        // The label reads the stored hash: it does not hash the files again.
        let stored = HashedSource {
            sha256: "0123456789abcdef".repeat(4),
            source: source(),
        };
        assert_eq!(
            AiPlayer::Code(Arc::new(stored)).to_string(),
            "code:python:course:0123456789ab"
        );
    }
}
