//! Which tick the inspector shows, plain Rust tested natively: the tick chosen (or the latest, when
//! none is), never past the game's latest, and where Prev, Next and a typed number lead.

/// The tick shown: the one `chosen`, else the `latest`, and never past the latest.
pub fn shown_tick(chosen: Option<u32>, latest: u32) -> u32 {
    chosen.unwrap_or(latest).min(latest)
}

/// The tick to choose for a wish of `k` when the game's latest tick is `latest`.
pub fn chosen_tick(k: u32, latest: u32) -> u32 {
    k.min(latest)
}

/// Prev from `shown`: the tick before, never below the first.
pub fn prev_tick(shown: u32) -> u32 {
    shown.saturating_sub(1).max(1)
}

/// Next from `shown` (then held to the latest by [`chosen_tick`]).
pub fn next_tick(shown: u32) -> u32 {
    shown.saturating_add(1)
}

/// The tick field's text, when it names a tick.
pub fn typed_tick(text: &str) -> Option<u32> {
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_tick_is_shown_unless_an_earlier_one_is_chosen() {
        assert_eq!(shown_tick(None, 9), 9);
        assert_eq!(shown_tick(Some(4), 9), 4);
        // A replay loaded after a choice has fewer ticks: its last is shown.
        assert_eq!(shown_tick(Some(12), 9), 9);
    }

    #[test]
    fn prev_next_and_a_typed_tick_stay_within_the_game() {
        assert_eq!(prev_tick(5), 4);
        assert_eq!(prev_tick(1), 1);
        assert_eq!(prev_tick(0), 1);
        assert_eq!(chosen_tick(next_tick(9), 9), 9);
        assert_eq!(chosen_tick(next_tick(3), 9), 4);
        assert_eq!(typed_tick(" 7 "), Some(7));
        assert_eq!(typed_tick("-1"), None);
        assert_eq!(typed_tick(""), None);
    }
}
