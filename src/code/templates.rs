//! The starters a new AI begins from: each plays legal, greedy Halma, with comments that say where to
//! improve it. The course starter is the repository's own homework agent, unchanged.

use super::ai::{CodeFile, Format, Lang, Source};

/// A starter the "new AI" form offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Template {
    /// The form's value.
    pub key: &'static str,
    pub label: &'static str,
    pub lang: Lang,
    pub format: Format,
    pub main: &'static str,
    pub text: &'static str,
}

pub const TEMPLATES: [Template; 3] = [
    Template {
        key: "python",
        label: "Python: move(request)",
        lang: Lang::Python,
        format: Format::Function,
        main: "main.py",
        text: include_str!("../../ai/page/halma_function.py"),
    },
    Template {
        key: "course",
        label: "Python: course homework (input.txt, output.txt; classic preset)",
        lang: Lang::Python,
        format: Format::Course,
        main: "halma_course.py",
        text: include_str!("../../ai/course/halma_course.py"),
    },
    Template {
        key: "javascript",
        label: "JavaScript: export function move(request)",
        lang: Lang::JavaScript,
        format: Format::Function,
        main: "main.js",
        text: include_str!("../../ai/page/halma_function.js"),
    },
];

impl Template {
    pub fn by_key(key: &str) -> Option<Template> {
        TEMPLATES.into_iter().find(|t| t.key == key)
    }

    pub fn source(&self) -> Source {
        Source {
            lang: self.lang,
            format: self.format,
            main: self.main.to_string(),
            files: vec![CodeFile::text(self.main, self.text)],
        }
    }
}
