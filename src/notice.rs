//! A line of text a page shows its user, and how it is styled.

/// How a line is styled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
    Result,
}

/// One line of a message field or notice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub tone: Tone,
    pub text: String,
}

impl Line {
    pub fn new(tone: Tone, text: impl Into<String>) -> Line {
        Line {
            tone,
            text: text.into(),
        }
    }
}

/// The CSS class of a tone (style/main.css).
pub fn tone_class(t: Tone) -> &'static str {
    match t {
        Tone::Info => "info",
        Tone::Error => "error",
        Tone::Result => "result",
    }
}
