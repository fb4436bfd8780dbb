//! How two requests for a game are paired.
//!
//! Rules (docs/online.md): the oldest compatible request of the same size is taken; black pairs with
//! white or any, white with black or any, any with any (colours at random). A player waits in one queue
//! at a time, so a new request replaces the old one; a player is never paired with themself. The queue
//! itself is the store's ([`crate::store::Store::seek`]), so that instances share it.

use gridarena_engine::go::online::ColorPref;

/// Whether requests with these preferences can be paired, and if so whether the first plays Black
/// (`coin` decides any/any).
pub fn pair_colors(first: ColorPref, second: ColorPref, coin: bool) -> Option<bool> {
    use ColorPref::*;
    match (first, second) {
        (Black, White) | (Black, Any) | (Any, White) => Some(true),
        (White, Black) | (White, Any) | (Any, Black) => Some(false),
        (Any, Any) => Some(coin),
        (Black, Black) | (White, White) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ColorPref::*;

    #[test]
    fn colours_pair_as_documented() {
        assert_eq!(pair_colors(Black, White, false), Some(true));
        assert_eq!(pair_colors(White, Any, true), Some(false));
        assert_eq!(pair_colors(Any, Black, true), Some(false));
        assert_eq!(pair_colors(Any, Any, true), Some(true));
        assert_eq!(pair_colors(Any, Any, false), Some(false));
        assert_eq!(pair_colors(Black, Black, true), None);
        assert_eq!(pair_colors(White, White, true), None);
    }
}
