//! The message field: GridWorld's place for everything the referee says, one line per paragraph, the
//! latest tick at the top and earlier ones below, with a filter by team and for errors.

use super::messages::{Block, Filter};
use crate::notice::tone_class;
use gridarena_engine::halma::Team;
use leptos::html::Div;
use leptos::prelude::*;
use web_sys::{Element, HtmlElement};

/// How many ticks' blocks the field shows until its reader asks for the older ones: about three screens
/// of the field beside the board, six above it (four lines a tick). Each tick adds a block at the top
/// and moves every block under it down, and each block shown costs the tick its move: with the whole
/// log (300 ticks) that cost more than the rest of the tick (issue 16), and 40 blocks still cost about
/// 0.2 ms a tick more than 10 (issue 38).
pub const SHOWN_AT_FIRST: usize = 10;

/// How many blocks the page should hand the field: one more than it shows, so it knows there are older
/// ones, or all once `all` (the reader asked for them) is set. Asking the log for only these spares a
/// tick the copy of the whole log.
pub fn blocks_wanted(all: bool) -> usize {
    if all {
        usize::MAX
    } else {
        SHOWN_AT_FIRST + 1
    }
}

/// The lines shown, one block a tick, the latest at the top, and the filter the page reads them through;
/// `all` says the reader asked for every tick the log keeps (see [`blocks_wanted`]).
///
/// One effect writes the blocks, as the board and the time chart are written: a tick adds its block at
/// the top and drops the oldest, and the other blocks stay where they are. A keyed list's diff of the
/// shown blocks and a view built for the new one cost the tick about 0.15 ms, more than the browser's
/// own work for the block (issue 38).
#[component]
pub fn MessageField(
    lines: Memo<Vec<Block>>,
    filter: RwSignal<Filter>,
    all: RwSignal<bool>,
) -> impl IntoView {
    // A memo, so the button below comes and goes once, not with every tick.
    let more = Memo::new(move |_| !all.get() && lines.with(Vec::len) > SHOWN_AT_FIRST);
    let field = NodeRef::<Div>::new();
    let shown = StoredValue::new_local(Vec::<(u64, u64)>::new());
    Effect::new(move |_| {
        let Some(field) = field.get() else {
            return;
        };
        let limit = if all.get() {
            usize::MAX
        } else {
            SHOWN_AT_FIRST
        };
        lines.with(|l| {
            let blocks = &l[..l.len().min(limit)];
            shown.update_value(|shown| write_blocks(&field, shown, blocks));
        });
    });
    view! {
        <div class="message-panel">
            <div class="message-filter" role="group" aria-label="Message filter">
                <select
                    data-testid="messages-team"
                    aria-label="Show the lines of"
                    on:change=move |ev| {
                        let team = event_target_value(&ev).parse::<Team>().ok();
                        filter.update(|f| f.team = team);
                    }
                >
                    <option value="all">"All teams"</option>
                    <option value="red">"red"</option>
                    <option value="blue">"blue"</option>
                </select>
                <label>
                    <input
                        type="checkbox"
                        data-testid="messages-errors"
                        on:change=move |ev| filter.update(|f| f.errors_only = event_target_checked(&ev))
                    />
                    "Errors only"
                </label>
            </div>
            <div
                class="messages"
                role="log"
                aria-live="polite"
                aria-label="Message field"
                data-testid="messages"
                node_ref=field
            ></div>
            // Outside the log, which a screen reader reads out as it changes.
            {move || {
                more.get()
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                class="older"
                                data-testid="messages-older"
                                on:click=move |_| all.set(true)
                            >
                                {format!("Show older ticks (the field shows the latest {SHOWN_AT_FIRST})")}
                            </button>
                        }
                    })
            }}
        </div>
    }
}

/// Brings `field` from the blocks it shows (`shown`, their keys, top first) to `blocks`: blocks new at
/// the top are added and those gone from the bottom removed where the rest stayed in order (a tick),
/// otherwise every block is written again (another filter, the older ticks asked for, a new game).
fn write_blocks(field: &HtmlElement, shown: &mut Vec<(u64, u64)>, blocks: &[Block]) {
    let keys: Vec<(u64, u64)> = blocks.iter().map(Block::key).collect();
    if keys == *shown {
        return;
    }
    let Some(document) = field.owner_document() else {
        return;
    };
    let (added, kept) = kept_below(shown, &keys);
    if added + kept == keys.len() {
        for _ in kept..shown.len() {
            if let Some(last) = field.last_element_child() {
                last.remove();
            }
        }
        let top = field.first_child();
        for block in &blocks[..added] {
            if let Some(el) = block_element(&document, block) {
                let _ = field.insert_before(&el, top.as_ref());
            }
        }
    } else {
        field.set_text_content(None);
        for block in blocks {
            if let Some(el) = block_element(&document, block) {
                let _ = field.append_child(&el);
            }
        }
    }
    *shown = keys;
}

/// How `keys` follows `shown`: the number of keys new at the top, and how many of `shown`'s first keys
/// come after them unchanged. A tick's new list reads `(1, n - 1)` (or `(1, n)` before the field is
/// full); where they do not add up to `keys.len()`, the list changed otherwise.
fn kept_below(shown: &[(u64, u64)], keys: &[(u64, u64)]) -> (usize, usize) {
    let added = shown
        .first()
        .and_then(|first| keys.iter().position(|k| k == first))
        .unwrap_or(keys.len());
    let kept = keys[added..]
        .iter()
        .zip(shown)
        .take_while(|(k, s)| k == s)
        .count();
    (added, kept)
}

/// A block's element: a `div.tick-lines` with a paragraph a line, each classed by its tone. The text is
/// set as text, never as markup: an AI's error message is quoted in it.
fn block_element(document: &web_sys::Document, block: &Block) -> Option<Element> {
    let el = document.create_element("div").ok()?;
    el.set_class_name("tick-lines");
    for line in block.lines.iter() {
        let p = document.create_element("p").ok()?;
        p.set_class_name(tone_class(line.tone));
        p.set_text_content(Some(&line.text));
        el.append_child(&p).ok()?;
    }
    Some(el)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_adds_at_the_top_and_anything_else_writes_the_field_again() {
        let k = |n: u64| (n, n * 7);
        let shown: Vec<_> = (1..=10).rev().map(k).collect();
        // A tick: 11 at the top, 1 dropped from the bottom.
        let next: Vec<_> = (2..=11).rev().map(k).collect();
        assert_eq!(kept_below(&shown, &next), (1, 9));
        // Before the field is full nothing is dropped; two ticks at once add two.
        let five = &shown[5..];
        assert_eq!(kept_below(five, &[&[k(6)][..], five].concat()), (1, 5));
        assert_eq!(kept_below(&shown[2..], &shown), (2, 8));
        // The first block: nothing was shown.
        assert_eq!(kept_below(&[], &[k(1)]), (1, 0));
        // A new game: none of the shown blocks stays, every one is new. The same block numbers with
        // other lines (another game's) are other keys.
        let other: Vec<_> = (20..=29).rev().map(k).collect();
        assert_eq!(kept_below(&shown, &other), (10, 0));
        let relined: Vec<_> = (1..=10).rev().map(|n| (n, n * 3)).collect();
        assert_eq!(kept_below(&shown, &relined), (10, 0));
        // A block gone from the middle (another filter), or older ones below (all asked for), is no
        // tick: the field is written again.
        let mut gap = shown.clone();
        gap.remove(4);
        let (added, kept) = kept_below(&shown, &gap);
        assert_ne!(added + kept, gap.len());
        let older: Vec<_> = (1..=20).rev().map(k).collect();
        let (added, kept) = kept_below(&older[..10], &older);
        assert_ne!(added + kept, older.len());
    }
}
