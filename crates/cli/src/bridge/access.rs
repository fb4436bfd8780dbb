//! Who may ask the bridge: the pages allowed to call it (their `Origin`) and the names it may be
//! called by (the `Host`).
//!
//! A bridge runs a student's program with the student's rights, and its answers carry what the program
//! wrote. Any page the student visits can send a request to 127.0.0.1, so the bridge answers only
//! GridArena's page: pages served from this computer (`http://127.0.0.1:*`, `http://localhost:*`,
//! `http://[::1]:*`, as `scripts/serve.sh` and `trunk serve` serve it) and the origins given with
//! `--allow-origin`. A request without an `Origin` is no page's (curl, `gridarena halma probe`, a test):
//! browsers send one with every POST and every preflight, so it passes.
//!
//! Neither header keeps out another program, or another user of a shared computer: anything on this
//! machine can send any `Origin` and `Host` to 127.0.0.1. So the bridge's address carries a secret
//! ([`Key`]): it answers only requests whose path starts with it, and only the person who started the
//! bridge sees the address it prints.
//!
//! A page can also reach the bridge under a name of its own that it points at 127.0.0.1 (DNS
//! rebinding): its requests are then same-origin and carry no foreign `Origin` worth checking, but their
//! `Host` is that name. The bridge answers only the names of this computer's loopback (and the address
//! it was told to listen on), with its own port.

use gridarena_engine::halma::doctor::Address;
use std::net::IpAddr;

/// The rules one bridge applies.
#[derive(Clone, Debug)]
pub struct Access {
    /// The `--allow-origin` origins, normalised ([`page_origin`]).
    origins: Vec<String>,
    /// The `Host` names answered besides loopback's.
    hosts: Hosts,
    /// The port the bridge listens on.
    port: u16,
}

/// The `Host` names a bridge answers besides 127.0.0.1, localhost and [::1].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Hosts {
    /// None: it listens on loopback.
    Loopback,
    /// The address (or name) it listens on.
    Also(String),
    /// Any IP address: it listens on every interface (0.0.0.0, ::), and a name would be a rebinding.
    AnyAddress,
}

/// Why a request was refused: its HTTP status and the reason, for the answer and the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub why: String,
}

impl Access {
    /// The rules of a bridge listening on `listen:port` that also allows the pages at `origins`
    /// (normalised by [`page_origin`]).
    pub fn new(origins: Vec<String>, listen: &str, port: u16) -> Access {
        let listen = listen.trim().to_ascii_lowercase();
        let hosts = if matches!(listen.as_str(), "127.0.0.1" | "localhost" | "::1" | "[::1]") {
            Hosts::Loopback
        } else if matches!(listen.as_str(), "" | "0.0.0.0" | "::" | "[::]") {
            Hosts::AnyAddress
        } else if listen.contains(':') && !listen.starts_with('[') {
            Hosts::Also(format!("[{listen}]"))
        } else {
            Hosts::Also(listen)
        };
        Access {
            origins,
            hosts,
            port,
        }
    }

    /// Checks a request's `Host` header (as the client sent it) against this bridge's names and port.
    pub fn check_host(&self, host: Option<&str>) -> Result<(), Refusal> {
        let ours = host
            .and_then(|h| Address::parse(&format!("http://{h}")).ok())
            .filter(|a| !a.credentials && a.port == self.port && valid_host(&a.host))
            .is_some_and(|a| self.answers_host(&a.host));
        if ours {
            return Ok(());
        }
        let shown = host.map_or_else(|| "none".to_string(), |h| format!("{:?}", clip(h)));
        Err(Refusal {
            // 421 Misdirected Request: the request was meant for another server.
            status: 421,
            why: format!(
                "this bridge answers requests for 127.0.0.1:{port}, localhost:{port} or [::1]:{port}{also}, \
                 not for Host {shown}: a page reaching it under another name (DNS rebinding) is refused",
                port = self.port,
                also = match &self.hosts {
                    Hosts::Also(h) => format!(" or {h}:{}", self.port),
                    Hosts::AnyAddress => " or an IP address of this computer".to_string(),
                    Hosts::Loopback => String::new(),
                },
            ),
        })
    }

    fn answers_host(&self, host: &str) -> bool {
        is_loopback_name(host)
            || match &self.hosts {
                Hosts::Loopback => false,
                Hosts::Also(h) => h == host,
                Hosts::AnyAddress => ip(host).is_some(),
            }
    }

    /// Checks a request's `Origin` header: `Ok(Some(origin))` with the value to echo in
    /// `Access-Control-Allow-Origin` for an allowed page, `Ok(None)` for a request no page sent.
    pub fn check_origin<'a>(&self, origin: Option<&'a str>) -> Result<Option<&'a str>, Refusal> {
        let Some(origin) = origin else {
            return Ok(None);
        };
        let allowed = page_origin(origin).is_ok_and(|o| {
            Address::parse(&o).is_ok_and(|a| is_loopback_name(&a.host)) || self.origins.contains(&o)
        });
        if allowed {
            return Ok(Some(origin));
        }
        let shown = clip(origin);
        Err(Refusal {
            status: 403,
            why: format!(
                "this bridge answers GridArena's page only: pages served from this computer \
                 (http://127.0.0.1, http://localhost) and the origins given with --allow-origin, not \
                 a page from {shown:?}. If that is where your GridArena page is, start the bridge again \
                 with --allow-origin {shown}"
            ),
        })
    }
}

/// The bytes of a bridge's key: 128 bits, beyond guessing by requests.
const KEY_BYTES: usize = 16;

/// The secret first segment of a bridge's address's path. The page is given the whole address and
/// sends every request to it, so the key travels in each request's path and nowhere else (no header
/// the page would have to learn to send, no CORS preflight for one).
pub struct Key(String);

impl Key {
    /// A fresh key from the system's random source.
    pub fn new() -> std::io::Result<Key> {
        use std::io::Read;
        let mut bytes = [0u8; KEY_BYTES];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        Ok(Key(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The path the bridge answers under, as printed in its address: `/KEY/`.
    pub fn path(&self) -> String {
        format!("/{}/", self.0)
    }

    /// Checks a request's path: its first segment must be the key (the rest, and any query, are the
    /// page's business). Compared in constant time, so that the answer's timing tells nothing of how
    /// much of a guess was right.
    pub fn check_path(&self, path: &str) -> Result<(), Refusal> {
        let first = path
            .strip_prefix('/')
            .unwrap_or(path)
            .split('/')
            .next()
            .unwrap_or_default();
        if same_secret(self.0.as_bytes(), first.as_bytes()) {
            return Ok(());
        }
        // The path is not quoted: a near miss of the key has no place in a log.
        Err(Refusal {
            status: 403,
            why: "this bridge answers only at the address it printed when it started \
                  (http://HOST:PORT/KEY/, with a secret KEY so that no other program or user of this \
                  computer can run your program): this request's path does not start with its key. \
                  Give the page the printed address whole; a bridge started again prints a new one"
                .to_string(),
        })
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

/// Whether `given` is `secret`, in a time that depends on the secret's length only: every byte of the
/// secret is compared, whatever the first difference.
fn same_secret(secret: &[u8], given: &[u8]) -> bool {
    let mut diff = u8::from(secret.len() != given.len());
    for (i, s) in secret.iter().enumerate() {
        diff |= s ^ given.get(i).copied().unwrap_or(0);
    }
    std::hint::black_box(diff) == 0
}

/// The origin (`scheme://host[:port]`, as a browser's `Origin` header writes it) of a page's address or
/// of an origin, for `--allow-origin`: a page's full address may be given, its path is dropped.
pub fn page_origin(text: &str) -> Result<String, String> {
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    if !lower.starts_with("http://") && !lower.starts_with("https://") {
        return Err(format!(
            "{:?} is not a page's address: give its origin with its scheme, such as https://{}",
            clip(text),
            clip(lower.split('/').next().unwrap_or_default())
        ));
    }
    let a = Address::parse(text)?;
    if a.credentials || !valid_host(&a.host) {
        return Err(format!(
            "{:?} does not name a host a page comes from",
            clip(text)
        ));
    }
    let (scheme, default_port) = if a.https {
        ("https", 443)
    } else {
        ("http", 80)
    };
    Ok(if a.port == default_port {
        format!("{scheme}://{}", a.host)
    } else {
        format!("{scheme}://{}:{}", a.host, a.port)
    })
}

/// Whether `listen` (a `--host`) is this computer's loopback: nothing but this computer reaches it.
pub fn is_loopback(listen: &str) -> bool {
    let host = listen.trim().to_ascii_lowercase();
    host == "localhost" || ip(&host).is_some_and(|ip| ip.is_loopback())
}

/// 127.0.0.1, localhost and [::1]: the names of this computer a browser treats as itself.
fn is_loopback_name(host: &str) -> bool {
    matches!(host, "127.0.0.1" | "localhost" | "[::1]")
}

/// A host as a browser writes it: a name, an IPv4 address, or an IPv6 address in brackets.
fn valid_host(host: &str) -> bool {
    ip(host).is_some()
        || (!host.is_empty()
            && host.len() <= 253
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'))
}

/// `host` as an IP address, bracketed for IPv6 or not.
fn ip(host: &str) -> Option<IpAddr> {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.parse().ok()
}

/// At most 100 characters of outside text quoted in a message.
fn clip(text: &str) -> String {
    let mut chars = text.chars();
    let kept: String = chars.by_ref().take(100).collect();
    if chars.next().is_some() {
        format!("{kept}…")
    } else {
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowed_origin_is_written_as_browsers_write_it() {
        for (given, origin) in [
            (
                "https://class.example.org/gridarena/?red=x",
                "https://class.example.org",
            ),
            ("HTTPS://Class.Example.org:443", "https://class.example.org"),
            (
                "http://class.example.org:8080/",
                "http://class.example.org:8080",
            ),
            ("http://[::1]:80", "http://[::1]"),
        ] {
            assert_eq!(page_origin(given).as_deref(), Ok(origin), "{given}");
        }
        for bad in [
            "class.example.org",
            "ftp://x",
            "null",
            "http://user@x",
            "http://a b",
            "http://x:99999",
        ] {
            assert!(page_origin(bad).is_err(), "{bad}");
        }
        assert!(page_origin("class.example.org")
            .unwrap_err()
            .contains("https://class.example.org"));
    }

    #[test]
    fn only_this_computers_pages_and_the_given_origins_are_answered() {
        let access = Access::new(vec!["https://class.example.org".into()], "127.0.0.1", 8001);
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost",
            "http://[::1]:3000",
            "https://localhost:8443",
            "https://class.example.org",
        ] {
            assert_eq!(access.check_origin(Some(ok)), Ok(Some(ok)), "{ok}");
        }
        assert_eq!(access.check_origin(None), Ok(None));
        for foreign in [
            "https://evil.example",
            "null",
            "http://127.0.0.2:8080",
            "http://localhost.evil.example",
            "https://class.example.org:444",
            "http://class.example.org",
            "",
        ] {
            let refused = access.check_origin(Some(foreign)).unwrap_err();
            assert_eq!(refused.status, 403, "{foreign}");
            assert!(refused.why.contains("--allow-origin"), "{refused:?}");
        }
    }

    #[test]
    fn only_this_computers_names_with_the_bridges_port_are_answered() {
        let access = Access::new(Vec::new(), "127.0.0.1", 8001);
        for ok in [
            "127.0.0.1:8001",
            "localhost:8001",
            "LOCALHOST:8001",
            "[::1]:8001",
        ] {
            assert_eq!(access.check_host(Some(ok)), Ok(()), "{ok}");
        }
        for foreign in [
            None,
            Some(""),
            Some("evil.example:8001"),
            Some("127.0.0.1:8002"),
            Some("127.0.0.1"),
            Some("192.168.1.5:8001"),
            Some("x@127.0.0.1:8001"),
        ] {
            assert_eq!(
                access.check_host(foreign).unwrap_err().status,
                421,
                "{foreign:?}"
            );
        }
        // Port 80 may go unwritten.
        let access = Access::new(Vec::new(), "localhost", 80);
        assert_eq!(access.check_host(Some("localhost")), Ok(()));
        // Listening on an address, that address answers too; on every interface, any IP address.
        let other_loopback = Access::new(Vec::new(), "127.0.0.2", 8001);
        assert_eq!(other_loopback.check_host(Some("127.0.0.2:8001")), Ok(()));
        let lan = Access::new(Vec::new(), "192.168.1.5", 8001);
        assert_eq!(lan.check_host(Some("192.168.1.5:8001")), Ok(()));
        assert!(lan.check_host(Some("10.0.0.1:8001")).is_err());
        let any = Access::new(Vec::new(), "0.0.0.0", 8001);
        assert_eq!(any.check_host(Some("10.0.0.1:8001")), Ok(()));
        assert_eq!(any.check_host(Some("[fe80::1]:8001")), Ok(()));
        assert!(any.check_host(Some("rebound.example:8001")).is_err());
    }

    #[test]
    fn a_key_is_fresh_url_safe_and_only_it_opens_the_bridge() {
        let key = Key::new().expect("the system's random source");
        let other = Key::new().expect("the system's random source");
        assert_ne!(key.0, other.0, "two bridges, two keys");
        assert_eq!(key.0.len(), KEY_BYTES * 2);
        assert!(key.0.bytes().all(|b| b.is_ascii_hexdigit()), "{}", key.0);
        let path = key.path();
        for ok in [
            path.clone(),
            path.trim_end_matches('/').to_string(),
            format!("{path}move"),
        ] {
            assert_eq!(key.check_path(&ok), Ok(()), "{ok}");
        }
        let mut near = key.0.clone();
        near.pop();
        for bad in [
            "/".to_string(),
            String::new(),
            format!("/{near}/"),
            format!("/{near}x/"),
            format!("/{}0/", key.0),
            format!("/x/{}/", key.0),
            format!("/{}/", other.0),
        ] {
            let refusal = key.check_path(&bad).unwrap_err();
            assert_eq!(refusal.status, 403, "{bad}");
            assert!(
                !refusal.why.contains(&near),
                "the key leaked: {}",
                refusal.why
            );
        }
        assert_eq!(format!("{key:?}"), "Key(..)");
        assert!(same_secret(b"abc", b"abc"));
        for bad in [&b"abd"[..], b"ab", b"abcd", b""] {
            assert!(!same_secret(b"abc", bad));
        }
    }

    #[test]
    fn loopback_is_told_from_the_rest() {
        for yes in ["127.0.0.1", "localhost", "::1", "127.0.0.2", " LocalHost "] {
            assert!(is_loopback(yes), "{yes}");
        }
        for no in ["0.0.0.0", "::", "192.168.1.5", "example.org", ""] {
            assert!(!is_loopback(no), "{no}");
        }
    }
}
