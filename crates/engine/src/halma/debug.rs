//! What an AI was thinking: the optional `debug` field of an answer (docs/protocol.md, "Debug marks").
//!
//! An answer may carry, beside its move, a line of text and marks on squares for the arena to draw:
//!
//! ```json
//! {"from": {"x": 2, "y": 14}, "to": [{"x": 3, "y": 13}],
//!  "debug": {"text": "best of 31 moves: +4",
//!            "marks": [{"at": {"x": 3, "y": 13}, "color": "green", "label": "+4"},
//!                      {"from": {"x": 2, "y": 14}, "to": {"x": 4, "y": 12}, "color": "orange", "label": "+3"}]}}
//! ```
//!
//! The referee never reads it: a move is the same with or without it, so an old AI is unchanged. It is
//! read here, after the move, for drawing only, and it comes from code we do not control, so it is
//! capped (text, marks, labels), its colours come from a short list (nothing from it reaches a style
//! sheet), and what is wrong with it is a named warning: the good marks are kept, a bad one is dropped,
//! and the move always stands.

use super::protocol::json_kind;
use super::Square;
use serde_json::Value;

/// The most characters of `text` kept; the rest is cut with an ellipsis and a warning.
pub const MAX_TEXT_CHARS: usize = 300;
/// The most marks drawn; the rest are dropped with a warning.
pub const MAX_MARKS: usize = 64;
/// The most characters of a mark's label (a score, a rank): a square holds no more.
pub const MAX_LABEL_CHARS: usize = 6;
/// The most warnings said for one answer; a flood of bad marks says how many more there were.
const MAX_WARNINGS: usize = 5;

/// The colours a mark may have: named so the page's style decides their shade on either theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Green,
    Red,
    Blue,
    Yellow,
    Orange,
    Purple,
    Grey,
    White,
}

impl Colour {
    pub const ALL: [Colour; 8] = [
        Colour::Green,
        Colour::Red,
        Colour::Blue,
        Colour::Yellow,
        Colour::Orange,
        Colour::Purple,
        Colour::Grey,
        Colour::White,
    ];

    /// Its name in the protocol (and the page's CSS class suffix).
    pub fn name(self) -> &'static str {
        match self {
            Colour::Green => "green",
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Orange => "orange",
            Colour::Purple => "purple",
            Colour::Grey => "grey",
            Colour::White => "white",
        }
    }
}

/// What an answer's `debug` field asked to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Debug {
    /// A line shown under the board.
    pub text: Option<String>,
    pub marks: Vec<Mark>,
}

/// One mark on the board: a square highlighted (with an optional label), or an arrow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Square {
        at: Square,
        colour: Colour,
        label: Option<String>,
    },
    Arrow {
        from: Square,
        to: Square,
        colour: Colour,
        label: Option<String>,
    },
}

/// An answer's debug field as read: what to draw, and what was wrong with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugRead {
    /// `None` when the answer had no `debug` field, or nothing in it could be used.
    pub debug: Option<Debug>,
    /// One line per problem, each naming the field: shown beside the move as a warning, never an error.
    pub warnings: Vec<String>,
}

/// Reads the `debug` field of `answer` (the whole answer object) on a board of `size` squares a side.
/// Never fails: a missing field reads as nothing, a malformed one as warnings.
pub fn read(answer: &Value, size: u8) -> DebugRead {
    let mut out = DebugRead::default();
    let Some(field) = answer.as_object().and_then(|o| o.get("debug")) else {
        return out;
    };
    let warn = |out: &mut DebugRead, line: String| {
        if out.warnings.len() < MAX_WARNINGS {
            out.warnings.push(line);
        }
    };
    let obj = match field {
        Value::Null => return out,
        Value::Object(o) => o,
        other => {
            warn(
                &mut out,
                format!(
                    "\"debug\" is {}, not an object {{\"text\": ..., \"marks\": [...]}}: ignored",
                    json_kind(other)
                ),
            );
            return out;
        }
    };
    let mut debug = Debug::default();
    match obj.get("text") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => {
            let (text, cut) = capped(s, MAX_TEXT_CHARS);
            if cut {
                warn(
                    &mut out,
                    format!(
                        "\"debug.text\" has {} characters: the first {MAX_TEXT_CHARS} are shown",
                        s.chars().count()
                    ),
                );
            }
            debug.text = Some(text);
        }
        Some(other) => warn(
            &mut out,
            format!(
                "\"debug.text\" is {}, not a string: ignored",
                json_kind(other)
            ),
        ),
    }
    let mut dropped = 0usize;
    match obj.get("marks") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            if items.len() > MAX_MARKS {
                warn(
                    &mut out,
                    format!(
                        "\"debug.marks\" has {} marks: the first {MAX_MARKS} are drawn",
                        items.len()
                    ),
                );
            }
            for (i, item) in items.iter().take(MAX_MARKS).enumerate() {
                match mark(item, size) {
                    Ok(m) => debug.marks.push(m),
                    Err(why) => {
                        dropped += 1;
                        warn(&mut out, format!("\"debug.marks[{i}]\" {why}: not drawn"));
                    }
                }
            }
        }
        Some(other) => warn(
            &mut out,
            format!(
                "\"debug.marks\" is {}, not an array: ignored",
                json_kind(other)
            ),
        ),
    }
    if dropped > 0 && out.warnings.len() == MAX_WARNINGS {
        out.warnings
            .push(format!("{dropped} marks in all were not drawn"));
    }
    if debug.text.is_some() || !debug.marks.is_empty() {
        out.debug = Some(debug);
    }
    out
}

/// `s` cut to `max` characters (an ellipsis marks a cut), with control characters made spaces so a
/// line stays one line; and whether it was cut.
fn capped(s: &str, max: usize) -> (String, bool) {
    let clean = |c: char| if c.is_control() { ' ' } else { c };
    if s.chars().count() <= max {
        return (s.chars().map(clean).collect(), false);
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).map(clean).collect();
    t.push('…');
    (t, true)
}

/// One mark, or what is wrong with it (to follow its field name).
fn mark(item: &Value, size: u8) -> Result<Mark, String> {
    let Value::Object(o) = item else {
        return Err(format!("is {}, not an object", json_kind(item)));
    };
    let colour = match o.get("color").or_else(|| o.get("colour")) {
        None | Some(Value::Null) => Colour::Green,
        Some(Value::String(name)) => Colour::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let (shown, _) = capped(name, 20);
                let names: Vec<&str> = Colour::ALL.iter().map(|c| c.name()).collect();
                format!("has the colour {shown:?}, not one of {}", names.join(", "))
            })?,
        Some(other) => return Err(format!("has a colour that is {}", json_kind(other))),
    };
    let label = match o.get("label") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(capped(s, MAX_LABEL_CHARS).0),
        Some(Value::Number(n)) => Some(capped(&n.to_string(), MAX_LABEL_CHARS).0),
        Some(other) => return Err(format!("has a label that is {}", json_kind(other))),
    };
    let square = |field: &str| -> Result<Square, String> {
        let v = o.get(field).ok_or_else(|| format!("has no \"{field}\""))?;
        let xy = |axis: &str| {
            v.get(axis)
                .and_then(Value::as_i64)
                .and_then(|n| u8::try_from(n).ok())
                .filter(|&n| n < size)
        };
        match (v.is_object(), xy("x"), xy("y")) {
            (false, ..) => Err(format!(
                "has \"{field}\" that is {}, not a square {{\"x\":..,\"y\":..}}",
                json_kind(v)
            )),
            (true, Some(x), Some(y)) => Square::new(x, y)
                .ok_or_else(|| format!("has \"{field}\" off the {size}x{size} board")),
            _ => Err(format!(
                "has \"{field}\" {}: not a square of the {size}x{size} board",
                capped(&v.to_string(), 40).0
            )),
        }
    };
    if o.contains_key("at") {
        return Ok(Mark::Square {
            at: square("at")?,
            colour,
            label,
        });
    }
    if o.contains_key("from") || o.contains_key("to") {
        return Ok(Mark::Arrow {
            from: square("from")?,
            to: square("to")?,
            colour,
            label,
        });
    }
    Err("has neither \"at\" (a square) nor \"from\" and \"to\" (an arrow)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sq(x: u8, y: u8) -> Square {
        Square::new(x, y).unwrap()
    }

    #[test]
    fn an_answer_without_debug_reads_as_nothing() {
        assert_eq!(
            read(&json!({"from": {"x": 1, "y": 1}}), 16),
            DebugRead::default()
        );
        assert_eq!(read(&json!({"debug": null}), 16), DebugRead::default());
        assert_eq!(read(&json!([1, 2]), 16), DebugRead::default());
    }

    #[test]
    fn text_squares_and_arrows_are_read() {
        let r = read(
            &json!({"debug": {"text": "best: +4", "marks": [
                {"at": {"x": 3, "y": 13}, "color": "green", "label": "+4"},
                {"at": {"x": 0, "y": 0}},
                {"from": {"x": 2, "y": 14}, "to": {"x": 4, "y": 12}, "colour": "Orange", "label": 3},
            ]}}),
            16,
        );
        assert_eq!(r.warnings, Vec::<String>::new());
        let d = r.debug.unwrap();
        assert_eq!(d.text.as_deref(), Some("best: +4"));
        assert_eq!(
            d.marks,
            vec![
                Mark::Square {
                    at: sq(3, 13),
                    colour: Colour::Green,
                    label: Some("+4".into())
                },
                Mark::Square {
                    at: sq(0, 0),
                    colour: Colour::Green,
                    label: None
                },
                Mark::Arrow {
                    from: sq(2, 14),
                    to: sq(4, 12),
                    colour: Colour::Orange,
                    label: Some("3".into())
                },
            ]
        );
    }

    #[test]
    fn hostile_debug_fields_are_warnings_and_keep_what_is_good() {
        let cases: Vec<(Value, &str)> = vec![
            (json!("thinking"), "\"debug\" is a string"),
            (json!([1]), "\"debug\" is an array"),
            (json!({"text": 5}), "\"debug.text\" is a number"),
            (json!({"marks": {"at": 1}}), "\"debug.marks\" is an object"),
            (json!({"marks": [7]}), "\"debug.marks[0]\" is a number"),
            (
                json!({"marks": [{"at": {"x": 16, "y": 0}}]}),
                "not a square of the 16x16",
            ),
            (
                json!({"marks": [{"at": {"x": -1, "y": 0}}]}),
                "not a square",
            ),
            (
                json!({"marks": [{"at": {"x": 1.5, "y": 0}}]}),
                "not a square",
            ),
            (
                json!({"marks": [{"at": [1, 2]}]}),
                "is an array, not a square",
            ),
            (
                json!({"marks": [{"at": {"x": 1, "y": 1}, "color": "url(javascript:x)"}]}),
                "not one of green",
            ),
            (
                json!({"marks": [{"at": {"x": 1, "y": 1}, "color": 3}]}),
                "colour that is a number",
            ),
            (
                json!({"marks": [{"at": {"x": 1, "y": 1}, "label": {"a": 1}}]}),
                "label that is an object",
            ),
            (
                json!({"marks": [{"from": {"x": 1, "y": 1}}]}),
                "has no \"to\"",
            ),
            (json!({"marks": [{"colour": "red"}]}), "neither \"at\""),
        ];
        for (debug, said) in cases {
            let r = read(&json!({"from": {"x": 1, "y": 1}, "debug": debug}), 16);
            assert_eq!(r.warnings.len(), 1, "{debug}: {:?}", r.warnings);
            assert!(r.warnings[0].contains(said), "{debug}: {:?}", r.warnings);
            assert_eq!(r.debug, None, "{debug}");
        }
        // One bad mark among good ones: the good are drawn.
        let r = read(
            &json!({"debug": {"text": "ok", "marks": [{"at": {"x": 1, "y": 1}}, {"at": "x"}, {"at": {"x": 2, "y": 2}}]}}),
            16,
        );
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(r.debug.unwrap().marks.len(), 2);
    }

    #[test]
    fn huge_and_nested_debug_fields_are_capped() {
        let long = "x".repeat(10_000);
        let marks: Vec<Value> = (0..1000)
            .map(|i| json!({"at": {"x": i % 16, "y": (i / 16) % 16}, "label": long}))
            .collect();
        let r = read(&json!({"debug": {"text": long, "marks": marks}}), 16);
        let d = r.debug.unwrap();
        assert_eq!(d.text.as_ref().unwrap().chars().count(), MAX_TEXT_CHARS);
        assert_eq!(d.marks.len(), MAX_MARKS);
        for m in &d.marks {
            let Mark::Square { label, .. } = m else {
                panic!("{m:?}")
            };
            assert_eq!(label.as_ref().unwrap().chars().count(), MAX_LABEL_CHARS);
        }
        assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
        // A thousand bad marks say five things and how many there were.
        let bad: Vec<Value> = (0..1000).map(|_| json!("no")).collect();
        let r = read(&json!({"debug": {"marks": bad}}), 16);
        assert_eq!(r.warnings.len(), MAX_WARNINGS + 1, "{:?}", r.warnings);
        assert!(r.warnings[MAX_WARNINGS].contains("64 marks in all were not drawn"));
        // Deep nesting is the JSON reader's to refuse (serde_json stops at 128 levels); what it
        // accepts reads here without recursion.
        let mut deep = json!(1);
        for _ in 0..100 {
            deep = json!({"at": deep});
        }
        let r = read(&json!({"debug": {"marks": [deep]}}), 16);
        assert_eq!(r.warnings.len(), 1);
        // Control characters cannot break the message line.
        let r = read(&json!({"debug": {"text": "a\nb\u{1b}[2J"}}), 16);
        assert_eq!(r.debug.unwrap().text.unwrap(), "a b [2J");
    }
}
