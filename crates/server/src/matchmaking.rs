//! The queue of players waiting for a game, and how two requests are paired.
//!
//! Rules (docs/online.md): the oldest compatible request of the same size is taken; black pairs with
//! white or any, white with black or any, any with any (colours at random). A player waits in one queue
//! at a time, so a new request replaces the old one; a player is never paired with themself.

use gridarena_engine::go::online::ColorPref;
use std::collections::VecDeque;

/// One player's request for a game; `data` is what the server needs to reach them.
#[derive(Clone, Debug)]
pub struct Seek<T> {
    pub player: i64,
    pub conn: u64,
    pub size: u8,
    pub color: ColorPref,
    pub data: T,
}

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

/// The waiting requests, oldest first.
#[derive(Debug)]
pub struct Queue<T> {
    entries: VecDeque<Seek<T>>,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue {
            entries: VecDeque::new(),
        }
    }
}

impl<T> Queue<T> {
    /// Takes a request: drops the player's earlier one, then pairs it with the oldest compatible waiting
    /// request and returns `(waiting one, this one, waiting one plays Black)`; or queues it and returns
    /// `None`.
    pub fn seek(&mut self, seek: Seek<T>, coin: bool) -> Option<(Seek<T>, Seek<T>, bool)> {
        self.cancel_player(seek.player);
        let found = self.entries.iter().position(|w| {
            w.size == seek.size
                && w.player != seek.player
                && pair_colors(w.color, seek.color, coin).is_some()
        });
        match found.and_then(|i| self.entries.remove(i)) {
            Some(waiting) => {
                let waiting_black = pair_colors(waiting.color, seek.color, coin).unwrap_or(coin);
                Some((waiting, seek, waiting_black))
            }
            None => {
                self.entries.push_back(seek);
                None
            }
        }
    }

    /// Removes a player's request; whether there was one.
    pub fn cancel_player(&mut self, player: i64) -> bool {
        let before = self.entries.len();
        self.entries.retain(|w| w.player != player);
        self.entries.len() != before
    }

    /// Removes the requests made on a connection that closed.
    pub fn leave_conn(&mut self, conn: u64) {
        self.entries.retain(|w| w.conn != conn);
    }

    /// How many are waiting.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nobody waits.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ColorPref::*;

    fn s(player: i64, size: u8, color: ColorPref) -> Seek<()> {
        Seek {
            player,
            conn: player as u64,
            size,
            color,
            data: (),
        }
    }

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

    #[test]
    fn the_oldest_compatible_request_of_the_same_size_is_taken() {
        let mut q = Queue::default();
        assert!(q.seek(s(1, 9, Black), false).is_none());
        assert!(q.seek(s(2, 13, White), false).is_none());
        assert!(q.seek(s(3, 9, White), false).is_some());
        assert_eq!(q.len(), 1);
        assert!(q.seek(s(4, 9, White), false).is_none());
        let (w, me, w_black) = q.seek(s(5, 13, Any), false).unwrap();
        assert_eq!((w.player, me.player, w_black), (2, 5, false));
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn a_new_request_replaces_the_old_and_nobody_plays_themself() {
        let mut q = Queue::default();
        assert!(q.seek(s(1, 9, Any), true).is_none());
        assert!(q.seek(s(1, 9, Any), true).is_none());
        assert_eq!(q.len(), 1);
        assert!(q.seek(s(1, 19, Black), true).is_none());
        assert_eq!(q.len(), 1);
        assert!(q.cancel_player(1));
        assert!(!q.cancel_player(1));
        assert!(q.is_empty());
        q.seek(s(7, 9, Any), true);
        q.leave_conn(7);
        assert!(q.is_empty());
    }
}
