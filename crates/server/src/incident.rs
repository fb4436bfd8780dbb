//! Failures a client must hear of but not see: the details (a database error, a path) go to the server's
//! log under a number, and the client gets the number, which an administrator can look up.

use std::fmt::Display;
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT: AtomicU64 = AtomicU64::new(1);

/// Logs `detail` of a failure while doing `what`, and returns the words for the client:
/// "internal error (logged as E12)".
pub fn report(what: &str, detail: &dyn Display) -> String {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    eprintln!("E{n}: {what}: {detail}");
    format!("internal error (logged as E{n})")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_client_gets_a_number_and_no_detail() {
        let a = super::report("storing a move", &"disk I/O error at /srv/db.sqlite3");
        let b = super::report("storing a move", &"again");
        assert!(a.starts_with("internal error (logged as E"), "{a}");
        assert!(!a.contains("/srv"));
        assert_ne!(a, b, "each failure has its own number");
    }
}
