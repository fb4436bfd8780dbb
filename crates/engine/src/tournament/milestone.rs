//! Milestones for grading, as the bot leagues set boss bots: every entry plays each milestone's built-in
//! AI twice (seats swapped, the same seed) and passes it by scoring at least its share.
//!
//! Milestone games are games of the tournament (scheduled, played, saved in the bundle and replayed like
//! any other), but they are not part of the standings: the table ranks the class among itself, and the
//! milestones say, entry by entry, which strengths it beats. A milestone's AI is numbered after the
//! roster ([`super::event::Tournament::milestone_entry`]).

use super::EntryId;
use crate::halma::ai::BuiltIn;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The most milestones a tournament takes: each adds two games per entry.
pub const MAX_MILESTONES: usize = 8;

/// A built-in AI every entry plays twice, and the share of the points that passes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Milestone {
    pub bot: BuiltIn,
    /// The share of the points against `bot` that passes, in percent (1 to 100): 50 is "at least even".
    pub pass_percent: u32,
}

impl Milestone {
    /// Whether `half_points` out of `games` games pass it.
    pub fn passed(&self, half_points: u32, games: u32) -> bool {
        games > 0
            && u64::from(half_points) * 100 >= u64::from(self.pass_percent) * 2 * u64::from(games)
    }
}

impl fmt::Display for Milestone {
    /// `greedy:50`: the bot's name and the share that passes, as the CLI takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.bot.name(), self.pass_percent)
    }
}

impl FromStr for Milestone {
    type Err = String;
    /// `greedy:50`, or `greedy` for 50%.
    fn from_str(s: &str) -> Result<Milestone, String> {
        let s = s.trim();
        let spec = s.strip_prefix("builtin:").unwrap_or(s);
        let (bot, percent) = spec.split_once(':').unwrap_or((spec, "50"));
        let bot = bot.trim().parse::<BuiltIn>()?;
        let pass_percent = percent
            .trim()
            .trim_end_matches('%')
            .parse::<u32>()
            .ok()
            .filter(|p| (1..=100).contains(p))
            .ok_or_else(|| {
                format!(
                    "{s:?}: the share that passes is a percentage from 1 to 100, as in greedy:50"
                )
            })?;
        Ok(Milestone { bot, pass_percent })
    }
}

impl Serialize for Milestone {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Milestone {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Milestone, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// Milestones from a list such as `greedy:50, search-lite:50, search:25` (commas or spaces between).
pub fn parse_list(text: &str) -> Result<Vec<Milestone>, String> {
    let list: Vec<Milestone> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    check(&list)?;
    Ok(list)
}

/// At most [`MAX_MILESTONES`], each bot once.
pub fn check(list: &[Milestone]) -> Result<(), String> {
    if list.len() > MAX_MILESTONES {
        return Err(format!(
            "{} milestones: a tournament takes at most {MAX_MILESTONES}",
            list.len()
        ));
    }
    for (i, m) in list.iter().enumerate() {
        if list[..i].iter().any(|o| o.bot == m.bot) {
            return Err(format!(
                "{} is a milestone twice: give each built-in AI once",
                m.bot
            ));
        }
    }
    Ok(())
}

/// How one entry fared against one milestone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MilestoneResult {
    pub milestone: Milestone,
    pub entry: EntryId,
    /// Its games against the milestone's AI that have finished (of two).
    pub games: u32,
    pub half_points: u32,
    /// Whether both games are done and the points reach the share.
    pub passed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milestones_read_back_and_bad_ones_say_why() {
        let list = parse_list("greedy:50, search-lite:25% builtin:search:10").unwrap();
        let text: Vec<String> = list.iter().map(Milestone::to_string).collect();
        assert_eq!(text, ["greedy:50", "search-lite:25", "search:10"]);
        assert_eq!("greedy".parse::<Milestone>().unwrap().pass_percent, 50);
        for (bad, says) in [
            ("deep:50", "unknown built-in AI"),
            ("greedy:0", "from 1 to 100"),
            ("greedy:101", "from 1 to 100"),
            ("greedy:50 greedy:75", "twice"),
        ] {
            let e = parse_list(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_share_passes_at_or_above_it() {
        let m: Milestone = "greedy:50".parse().unwrap();
        assert!(m.passed(2, 2), "a win and a loss is half the points");
        assert!(!m.passed(1, 2), "a draw and a loss is a quarter");
        assert!(!m.passed(0, 0));
        let all: Milestone = "search:100".parse().unwrap();
        assert!(all.passed(4, 2) && !all.passed(3, 2));
    }
}
