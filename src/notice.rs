//! A line of text a page shows its user, and how it is styled.

use leptos::prelude::*;

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

    /// A view model's answer as the message line shows it: a refusal as an error, and a success as a
    /// result when it ended the game (`over`), else as information.
    pub fn answer(said: Result<String, String>, over: bool) -> Line {
        match said {
            Ok(text) if over => Line::new(Tone::Result, text),
            Ok(text) => Line::new(Tone::Info, text),
            Err(why) => Line::new(Tone::Error, why),
        }
    }
}

/// Runs one of a view model's operations on the model in `model`, redrawing what reads it, and returns
/// its answer for the message line. The pages' handlers are all this one step.
pub fn run<T: Send + Sync + 'static>(
    model: RwSignal<T>,
    op: impl FnOnce(&mut T) -> Result<String, String>,
) -> Result<String, String> {
    model
        .try_update(op)
        .unwrap_or_else(|| Err("the page has been closed".to_string()))
}

/// The CSS class of a tone (style/main.css).
pub fn tone_class(t: Tone) -> &'static str {
    match t {
        Tone::Info => "info",
        Tone::Error => "error",
        Tone::Result => "result",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_an_error_a_result_or_information() {
        assert_eq!(
            Line::answer(Err("no".into()), true),
            Line::new(Tone::Error, "no")
        );
        assert_eq!(
            Line::answer(Ok("won".into()), true),
            Line::new(Tone::Result, "won")
        );
        assert_eq!(
            Line::answer(Ok("moved".into()), false),
            Line::new(Tone::Info, "moved")
        );
    }
}
