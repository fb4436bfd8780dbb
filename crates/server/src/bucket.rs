//! A token bucket: the one rate limit behind both the WebSocket's per-connection limit ([`crate::ws`])
//! and the HTTP API's per-address limit ([`crate::http`]).
//!
//! The bucket holds at most `burst` tokens and gains `rate` a second; each request takes one. Time is
//! passed in, so the arithmetic is tested without waiting.

use std::time::{Duration, Instant};

/// A token bucket.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl TokenBucket {
    /// A full bucket: `burst` requests at once, then `rate` a second.
    pub fn full(rate: f64, burst: f64, now: Instant) -> TokenBucket {
        TokenBucket {
            tokens: burst,
            last: now,
            rate,
            burst,
        }
    }

    fn refill(&mut self, now: Instant) {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long until the next token.
    pub fn wait(&self) -> Duration {
        let missing = (1.0 - self.tokens).max(0.0);
        Duration::try_from_secs_f64(missing / self.rate).unwrap_or(Duration::MAX)
    }

    /// Whether the bucket has refilled completely by `now`, so that forgetting it changes nothing.
    pub fn is_full(&self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + dt * self.rate >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate() {
        let t0 = Instant::now();
        let mut b = TokenBucket::full(20.0, 3.0, t0);
        assert!(b.take(t0) && b.take(t0) && b.take(t0));
        assert!(!b.take(t0));
        assert_eq!(b.wait(), Duration::from_millis(50));
        assert!(!b.take(t0 + Duration::from_millis(40)));
        assert!(b.take(t0 + Duration::from_millis(60)));
        assert!(!b.is_full(t0 + Duration::from_millis(100)));
        assert!(b.is_full(t0 + Duration::from_millis(300)));
        // An earlier instant (clocks read out of order by two threads) takes nothing back.
        assert!(!b.take(t0));
    }
}
