//! What both databases share: how a colour preference is spelled in the queue, which requests can pair,
//! and the rules that turn a game's stored state into a refusal.

use super::{MoveRefusal, StoreError};
use crate::matchmaking::pair_colors;
use gridarena_engine::go::online::ColorPref;

/// A colour preference as the `seeks` table spells it.
pub(super) fn color_word(c: ColorPref) -> &'static str {
    match c {
        ColorPref::Black => "black",
        ColorPref::White => "white",
        ColorPref::Any => "any",
    }
}

/// The preference a `seeks` row holds.
pub(super) fn color_from_word(word: &str) -> Result<ColorPref, StoreError> {
    match word {
        "black" => Ok(ColorPref::Black),
        "white" => Ok(ColorPref::White),
        "any" => Ok(ColorPref::Any),
        other => Err(StoreError(format!("unknown colour {other:?} in seeks"))),
    }
}

/// The waiting preferences a request with preference `c` pairs with ([`pair_colors`]), as three words
/// for `color IN (?, ?, ?)` (repeated when fewer).
pub(super) fn partners(c: ColorPref) -> [&'static str; 3] {
    let ok = |w: ColorPref| pair_colors(w, c, false).is_some();
    let words: Vec<&'static str> = [ColorPref::Black, ColorPref::White, ColorPref::Any]
        .into_iter()
        .filter(|&w| ok(w))
        .map(color_word)
        .collect();
    let word = |i: usize| words.get(i).or(words.last()).copied().unwrap_or("any");
    [word(0), word(1), word(2)]
}

/// Why move `number` cannot follow a game that is `finished`, holds `stored` moves and must be moved by
/// `deadline`, at `now`; `None`: it can.
pub(super) fn move_refusal(
    finished: bool,
    stored: i64,
    deadline: i64,
    number: u32,
    now: i64,
) -> Option<MoveRefusal> {
    if finished {
        Some(MoveRefusal::Over)
    } else if stored + 1 != i64::from(number) {
        Some(MoveRefusal::OutOfStep {
            stored: u32::try_from(stored).unwrap_or(u32::MAX),
        })
    } else if deadline < now {
        Some(MoveRefusal::TooLate)
    } else {
        None
    }
}

/// Per-size records as [`super::RecordRow::by_size`] shows them: 9, 13 and 19 always, then any other.
pub(super) fn by_size(rows: impl IntoIterator<Item = (i64, i64, i64)>) -> Vec<(u8, u32, u32)> {
    let mut by_size: Vec<(u8, u32, u32)> = vec![(9, 0, 0), (13, 0, 0), (19, 0, 0)];
    for (size, wins, losses) in rows {
        let size = u8::try_from(size).unwrap_or(0);
        let (wins, losses) = (count(wins), count(losses));
        match by_size.iter_mut().find(|e| e.0 == size) {
            Some(e) => {
                e.1 = wins;
                e.2 = losses;
            }
            None => by_size.push((size, wins, losses)),
        }
    }
    by_size
}

/// A stored count as a `u32` (a negative one, which no code writes, is 0).
pub(super) fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// A connection id as the database keeps it (a 64-bit signed integer, bit for bit).
pub(super) fn conn_to_db(conn: u64) -> i64 {
    i64::from_ne_bytes(conn.to_ne_bytes())
}

/// A connection id back from the database.
pub(super) fn conn_from_db(conn: i64) -> u64 {
    u64::from_ne_bytes(conn.to_ne_bytes())
}

/// The players (id, name, stored key; in id order) whose stored key is not `key(name)`, each with its
/// new key. A name whose new key an earlier player already holds (two look-alike names registered
/// before keys caught look-alikes) keeps a key of its own, `key#id`: the older player keeps the name's
/// key, and neither account is lost.
pub(super) fn rekeyed(
    players: &[(i64, String, String)],
    key: fn(&str) -> String,
) -> Vec<(i64, String)> {
    let mut taken = std::collections::HashSet::new();
    let mut wanted = Vec::with_capacity(players.len());
    for (id, name, _) in players {
        let mut k = key(name);
        if !taken.insert(k.clone()) {
            k = format!("{k}#{id}");
            taken.insert(k.clone());
        }
        wanted.push(k);
    }
    players
        .iter()
        .zip(wanted)
        .filter(|((_, _, old), new)| old != new)
        .map(|((id, _, _), new)| (*id, new))
        .collect()
}
