//! The code entries' interpreters, reused across games and capped in number.
//!
//! A Python entry's seat holds a Pyodide of its own (30-60 MB), and starting one takes seconds, so a
//! tournament keeps the seats it opened: a game takes an idle seat of its entry's code where there is
//! one (the seat then starts the new game with a fresh namespace and folder), else opens one. At most
//! [`Pool::cap`] seats live at once: past it, the least recently used idle seat is closed, and a game
//! that finds every seat busy waits for one. A game takes the seats of both its code entries at once or
//! none, so two games can never each hold one seat and wait for the other's.
//!
//! Plain data over any seat type, tested natively; the page's seats are [`crate::code::seat::Seat`]s.

use std::collections::VecDeque;

/// The seats kept when the browser does not say how much memory the machine has.
pub const DEFAULT_CAP: usize = 8;
/// The most seats kept at once, whatever the machine.
pub const MAX_CAP: usize = 16;

/// How many seats may live at once on a machine with `device_memory_gb` (the browser's
/// `navigator.deviceMemory`, rounded down and at most 8 by the browser): two per GB, at least two (one
/// game of two code entries), at most [`MAX_CAP`]; [`DEFAULT_CAP`] when the browser does not say.
pub fn cap_for(device_memory_gb: Option<f64>) -> usize {
    match device_memory_gb {
        Some(gb) if gb.is_finite() && gb > 0.0 => ((gb * 2.0).floor() as usize).clamp(2, MAX_CAP),
        _ => DEFAULT_CAP,
    }
}

/// The default number of games at once for a roster with code entries on a machine with `cores`
/// logical cores (`navigator.hardwareConcurrency`): one core for the page, one game on each other core.
pub fn games_for(cores: Option<u32>) -> u32 {
    cores
        .filter(|&c| c > 0)
        .unwrap_or(4)
        .saturating_sub(1)
        .max(1)
}

/// A seat as a game holds it: the pool's number for it, and the seat itself, or `None` when the game
/// must open it (and then hand it over with [`Pool::fill`]).
#[derive(Debug)]
pub struct Taken<S> {
    pub id: u64,
    pub seat: Option<S>,
}

struct Slot<S> {
    id: u64,
    key: String,
    /// `None` while the game that reserved the slot opens the seat.
    seat: Option<S>,
    busy: bool,
    /// When it was last given back, on the pool's own clock.
    used: u64,
}

/// The seats of a tournament's code entries, keyed by their code (its SHA-256: two entries with the
/// same code play the same, and a seat always starts a game afresh).
pub struct Pool<S> {
    cap: usize,
    slots: Vec<Slot<S>>,
    clock: u64,
    next_id: u64,
}

impl<S: Clone> Pool<S> {
    /// A pool of at most `cap` seats (at least 2).
    pub fn new(cap: usize) -> Pool<S> {
        Pool {
            cap: cap.max(2),
            slots: Vec::new(),
            clock: 0,
            next_id: 0,
        }
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Seats alive (or being opened).
    pub fn live(&self) -> usize {
        self.slots.len()
    }

    /// Seats in a game.
    pub fn busy(&self) -> usize {
        self.slots.iter().filter(|s| s.busy).count()
    }

    /// Takes a seat for each of `keys` (a game's code entries), all or none. An idle seat of the same
    /// key is reused; others are reserved for the caller to open, closing the least recently used idle
    /// seats to stay within the cap. Returns the seats, in the order of `keys`, and the closed seats (to
    /// drop); `None` when there is no room (every seat is busy), and then nothing changed.
    pub fn take(&mut self, keys: &[&str]) -> Option<(Vec<Taken<S>>, Vec<S>)> {
        if keys.len() > self.cap {
            return None;
        }
        let mut chosen: Vec<Option<usize>> = Vec::with_capacity(keys.len());
        for key in keys {
            let idle = self.slots.iter().enumerate().position(|(i, s)| {
                !s.busy && s.key == *key && s.seat.is_some() && !chosen.contains(&Some(i))
            });
            chosen.push(idle);
        }
        let to_open = chosen.iter().filter(|c| c.is_none()).count();
        let to_close = (self.slots.len() + to_open).saturating_sub(self.cap);
        let mut idle: Vec<usize> = (0..self.slots.len())
            .filter(|i| !self.slots[*i].busy && !chosen.contains(&Some(*i)))
            .collect();
        if idle.len() < to_close {
            return None;
        }
        idle.sort_by_key(|&i| self.slots[i].used);
        let mut closing: Vec<usize> = idle[..to_close].to_vec();
        let mut taken = Vec::with_capacity(keys.len());
        for (key, c) in keys.iter().zip(&chosen) {
            match c {
                Some(i) => {
                    let slot = &mut self.slots[*i];
                    slot.busy = true;
                    taken.push(Taken {
                        id: slot.id,
                        seat: slot.seat.clone(),
                    });
                }
                None => {
                    self.next_id += 1;
                    taken.push(Taken {
                        id: self.next_id,
                        seat: None,
                    });
                    self.slots.push(Slot {
                        id: self.next_id,
                        key: key.to_string(),
                        seat: None,
                        busy: true,
                        used: 0,
                    });
                }
            }
        }
        // Highest index first, so the indices left stay right.
        closing.sort_unstable_by(|a, b| b.cmp(a));
        let closed = closing
            .into_iter()
            .filter_map(|i| self.slots.remove(i).seat)
            .collect();
        Some((taken, closed))
    }

    /// Hands over the seat a game opened for the slot `id` it reserved.
    pub fn fill(&mut self, id: u64, seat: S) {
        if let Some(slot) = self.slots.iter_mut().find(|s| s.id == id) {
            slot.seat = Some(seat);
        }
    }

    /// A game is done with seat `id`: it stays open, idle, for the next game of its code.
    pub fn give_back(&mut self, id: u64) {
        self.clock += 1;
        let now = self.clock;
        match self.slots.iter_mut().find(|s| s.id == id) {
            Some(slot) if slot.seat.is_some() => {
                slot.busy = false;
                slot.used = now;
            }
            // Reserved and never opened: nothing to keep.
            Some(_) => self.slots.retain(|s| s.id != id),
            None => {}
        }
    }

    /// Closes every seat (the tournament is over or replaced); returns them, to drop.
    pub fn clear(&mut self) -> Vec<S> {
        self.slots.drain(..).filter_map(|s| s.seat).collect()
    }
}

/// How long the page keeps code answers' times for the wall's verdict.
const SAMPLES: usize = 24;

/// What the wall says of the machine: whether the teacher's machine, not a student's code, holds the
/// games up. Fed with every code answer's time and the pool's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Strain {
    /// The latest code answers: milliseconds from asking to the answer, and the tick length then.
    answers: VecDeque<(f64, u64)>,
    /// Games waiting for a seat.
    pub waiting_for_seats: usize,
}

/// The machine a tournament runs on, as the wall's verdict reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Games in progress.
    pub games: usize,
    /// Logical cores.
    pub cores: u32,
    /// The pool's cap.
    pub cap: usize,
}

impl Strain {
    /// Records a code answer that took `elapsed_ms` with a tick of `tick_ms`.
    pub fn answered(&mut self, elapsed_ms: f64, tick_ms: u64) {
        if self.answers.len() == SAMPLES {
            self.answers.pop_front();
        }
        self.answers.push_back((elapsed_ms, tick_ms));
    }

    /// The median of the latest answers' share of their tick, once there are enough of them.
    fn median_share(&self) -> Option<f64> {
        if self.answers.len() < SAMPLES / 2 {
            return None;
        }
        let mut shares: Vec<f64> = self
            .answers
            .iter()
            .map(|&(ms, tick)| ms / tick.max(1) as f64)
            .collect();
        shares.sort_by(f64::total_cmp);
        Some(shares[shares.len() / 2])
    }

    /// What to tell the teacher, if the machine is the bottleneck: games wait for an interpreter, or
    /// code answers take most of the tick while every core has a game. One slow entry does not move
    /// the median of all code answers; a machine that is too busy slows them all.
    pub fn verdict(&self, m: Machine) -> Option<String> {
        if self.waiting_for_seats > 0 {
            return Some(format!(
                "This machine is the bottleneck, not the students' code: {} game{} wait{} for an \
                 interpreter, as {} are open (the most this machine's memory allows). Fewer games at \
                 once would not wait.",
                self.waiting_for_seats,
                if self.waiting_for_seats == 1 { "" } else { "s" },
                if self.waiting_for_seats == 1 { "s" } else { "" },
                m.cap
            ));
        }
        let share = self.median_share()?;
        let cores_busy = m.games as u32 + 1 >= m.cores.max(2);
        (share >= 0.6 && cores_busy).then(|| {
            format!(
                "This machine is the bottleneck, not the students' code: code answers take {}% of the \
                 tick (the median of the last {}) with a game on each of its {} cores. Play fewer games \
                 at once, or raise the tick length.",
                (share * 100.0).round(),
                self.answers.len(),
                m.cores
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_and_games_follow_the_machine() {
        assert_eq!(cap_for(None), DEFAULT_CAP);
        assert_eq!(cap_for(Some(f64::NAN)), DEFAULT_CAP);
        assert_eq!(cap_for(Some(0.5)), 2, "one game of two code entries");
        assert_eq!(cap_for(Some(4.0)), 8);
        assert_eq!(cap_for(Some(8.0)), 16);
        assert_eq!(cap_for(Some(64.0)), MAX_CAP);
        assert_eq!(games_for(Some(8)), 7);
        assert_eq!(games_for(Some(1)), 1);
        assert_eq!(games_for(Some(0)), 3);
        assert_eq!(games_for(None), 3);
    }

    #[test]
    fn seats_are_reused_by_their_code_and_the_least_recently_used_idle_one_closed() {
        let mut pool: Pool<&str> = Pool::new(3);
        // A game of a and b: both opened.
        let (taken, closed) = pool.take(&["a", "b"]).unwrap();
        assert!(closed.is_empty() && taken.iter().all(|t| t.seat.is_none()));
        pool.fill(taken[0].id, "seat-a");
        pool.fill(taken[1].id, "seat-b");
        assert_eq!((pool.live(), pool.busy()), (2, 2));
        // Another game of a: a's seat is busy, so a second one opens.
        let (second, _) = pool.take(&["a"]).unwrap();
        assert!(second[0].seat.is_none());
        pool.fill(second[0].id, "seat-a2");
        // Full, every seat busy: a game of c waits, and nothing changed.
        assert!(pool.take(&["c"]).is_none());
        assert_eq!((pool.live(), pool.busy()), (3, 3));
        pool.give_back(taken[1].id); // b, idle first
        pool.give_back(second[0].id); // a2
                                      // a is reused (the idle one); c needs a seat, and b, idle longest, is closed.
        let (next, closed) = pool.take(&["a", "c"]).unwrap();
        assert_eq!(next[0].seat, Some("seat-a2"));
        assert!(next[1].seat.is_none());
        assert_eq!(closed, vec!["seat-b"]);
        assert_eq!((pool.live(), pool.busy()), (3, 3));
        // A reserved slot given back unopened is forgotten.
        pool.give_back(next[1].id);
        assert_eq!(pool.live(), 2);
        assert_eq!(pool.clear().len(), 2);
        assert_eq!(pool.live(), 0);
    }

    #[test]
    fn a_game_takes_both_seats_or_none() {
        let mut pool: Pool<u32> = Pool::new(2);
        let (one, _) = pool.take(&["a"]).unwrap();
        pool.fill(one[0].id, 1);
        // Room for one more seat, but the game needs two new ones.
        assert!(pool.take(&["b", "c"]).is_none());
        assert_eq!((pool.live(), pool.busy()), (1, 1));
        // Two seats of the same code are two seats.
        pool.give_back(one[0].id);
        let (two, closed) = pool.take(&["a", "a"]).unwrap();
        assert!(closed.is_empty());
        assert_eq!(two[0].seat, Some(1));
        assert!(two[1].seat.is_none());
        assert!(pool.take(&["a", "b", "c"]).is_none(), "more than the cap");
        assert_eq!(Pool::<u8>::new(0).cap(), 2);
    }

    #[test]
    fn the_wall_blames_the_machine_only_when_it_is_the_machine() {
        let busy = Machine {
            games: 3,
            cores: 4,
            cap: 8,
        };
        let mut s = Strain::default();
        assert_eq!(s.verdict(busy), None);
        // Slow answers with every core busy.
        for _ in 0..SAMPLES {
            s.answered(420.0, 500);
        }
        assert!(s.verdict(busy).unwrap().contains("84% of the tick"));
        // The same answers with cores to spare: a slow entry, not the machine.
        let spare = Machine { games: 1, ..busy };
        assert_eq!(s.verdict(spare), None);
        // One slow entry among quick ones does not move the median.
        for i in 0..SAMPLES {
            s.answered(if i % 4 == 0 { 500.0 } else { 20.0 }, 500);
        }
        assert_eq!(s.verdict(busy), None);
        s.waiting_for_seats = 2;
        assert!(s
            .verdict(spare)
            .unwrap()
            .contains("2 games wait for an interpreter, as 8 are open"));
    }
}
