//! Tournaments between Halma AIs: who meets whom in each round, and how the finished games rank the
//! entries.
//!
//! Plain rules with no clock and no I/O, so the page and `gridarena halma tournament` pair and rank a
//! tournament identically: the front-ends only play the games (each through [`crate::halma::GameLoop`])
//! and hand the results back.

pub mod code_entry;
pub mod event;
pub mod game;
pub mod grades;
pub mod milestone;
pub mod pairing;
pub mod plan;
pub mod rating;
pub mod roster;
pub mod settings;
pub mod standings;
pub mod table;

/// The most entries a tournament takes, for its schedule and its table alike. A classroom has 5 to 40;
/// the bound keeps every table small (the Swiss search keeps an entries-by-entries table of meetings),
/// so a hostile entry count cannot make either allocate without bound.
pub const MAX_ENTRIES: usize = 512;

/// An entry's place in the roster: entries are numbered from 0 in roster order.
pub type EntryId = usize;

/// One game of a round: who plays red (the first team) and who plays blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pairing {
    pub red: EntryId,
    pub blue: EntryId,
}

/// How a finished game counts for the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    RedWins,
    BlueWins,
    Draw,
}

/// A finished game: its pairing and how it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Finished {
    pub pairing: Pairing,
    pub score: Score,
}
