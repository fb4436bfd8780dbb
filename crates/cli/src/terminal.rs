//! Text from outside shown on a terminal: a program's stderr, a web AI's error, a roster's names, a
//! bridged page's game id. Control characters in it could clear the screen, move the cursor over what
//! was printed before, retitle the window or reverse what follows (bidirectional overrides), so every
//! place that prints such text prints it through [`printable`] or [`printable_line`].

use std::borrow::Cow;

/// `text` with every control character except newline and tab written out visibly: `\r`, `\u{1b}`.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// `text` as one line: as [`printable`], newlines written out too, so nobody can forge a log line.
pub fn printable_line(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\t')
}

fn escape(text: &str, kept: impl Fn(char) -> bool) -> Cow<'_, str> {
    let hidden = |c: char| !kept(c) && (c.is_control() || is_bidi_control(c));
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\r' if hidden(c) => shown.push_str("\\r"),
            '\n' if hidden(c) => shown.push_str("\\n"),
            c if hidden(c) => shown.extend(c.escape_unicode()),
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

/// The explicit embeddings, overrides and isolates, which reorder what a terminal shows.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_written_out_and_plain_text_is_kept() {
        assert!(matches!(
            printable("plain\ttext\nline 2 é"),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            printable("a\u{1b}[2J\u{1b}]0;x\u{7}\rb\u{9b}c\u{7f}\u{202e}d\n"),
            "a\\u{1b}[2J\\u{1b}]0;x\\u{7}\\rb\\u{9b}c\\u{7f}\\u{202e}d\n"
        );
        assert_eq!(printable_line("game\nred: forged"), "game\\nred: forged");
    }
}
