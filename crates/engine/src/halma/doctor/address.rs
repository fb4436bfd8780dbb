//! What a browser makes of an AI's address before any request leaves: the refusals that show up on the
//! page only as "request failed", worded with their fix.

use crate::halma::protocol::check_ai_url;

/// Ports the Fetch standard blocks ("bad ports"): a page's request to one of them fails at once.
const BAD_PORTS: &[u16] = &[
    1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
    103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
    512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
    995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
    6669, 6679, 6697, 10080,
];

/// The parts of an http(s) address the browser's rules look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub https: bool,
    /// Lower case, brackets kept for IPv6.
    pub host: String,
    /// The port, given or implied by the scheme.
    pub port: u16,
    /// Whether a user name or password precedes the host.
    pub credentials: bool,
}

impl Address {
    /// Reads `url` (checked first with the page's rule, [`check_ai_url`]).
    pub fn parse(url: &str) -> Result<Address, String> {
        let url = check_ai_url(url)?;
        let lower = url.to_ascii_lowercase();
        let https = lower.starts_with("https://");
        let rest = &lower[if https { 8 } else { 7 }..];
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let (credentials, host_port) = match authority.rsplit_once('@') {
            Some((_, hp)) => (true, hp),
            None => (false, authority),
        };
        // An IPv6 host is bracketed, and its colons are not the port's.
        let (host, port) = match host_port.rfind(':') {
            Some(i) if !host_port[i..].contains(']') => {
                (&host_port[..i], Some(&host_port[i + 1..]))
            }
            _ => (host_port, None),
        };
        if host.is_empty() {
            return Err(format!("{url:?} names no host"));
        }
        let port = match port {
            None | Some("") => {
                if https {
                    443
                } else {
                    80
                }
            }
            Some(p) => p
                .parse::<u16>()
                .map_err(|_| format!("{url:?}: {p:?} is not a port number (0 to 65535)"))?,
        };
        Ok(Address {
            https,
            host: host.to_string(),
            port,
            credentials,
        })
    }

    /// Whether the host is this computer. Browsers treat it as secure even over http.
    pub fn is_loopback(&self) -> bool {
        self.host == "localhost"
            || self.host.ends_with(".localhost")
            || self.host.starts_with("127.")
            || self.host == "[::1]"
    }

    /// Whether the host is on a private network (or this computer).
    pub fn is_private(&self) -> bool {
        let octets: Vec<u8> = self.host.split('.').map_while(|o| o.parse().ok()).collect();
        self.is_loopback()
            || matches!(octets[..], [10, _, _, _] | [192, 168, _, _])
            || matches!(octets[..], [172, b, _, _] if (16..32).contains(&b))
            || self.host.ends_with(".local")
    }
}

/// What the browser will do with `url` from a page at `page` (its origin or address, if known): `Ok` with
/// what was found, or `Err` with what is wrong and the fix. `notes` collects warnings that do not stop a
/// request.
pub fn browser_verdict(
    url: &str,
    page: Option<&str>,
    notes: &mut Vec<String>,
) -> Result<String, (String, String)> {
    let addr = Address::parse(url).map_err(|why| {
        (
            why,
            "Type the full address of your AI's endpoint, for example http://127.0.0.1:8001/"
                .to_string(),
        )
    })?;
    if addr.credentials {
        return Err((
            "the address holds a user name or password (user:pass@host): browsers refuse to send such a request".into(),
            "Remove the user name and password from the address; if your endpoint needs a secret, read it from the path or a query parameter".into(),
        ));
    }
    if BAD_PORTS.contains(&addr.port) {
        return Err((
            format!("port {} is on the browsers' list of blocked ports (it belongs to another protocol)", addr.port),
            "Run your AI on another port, such as 8001".into(),
        ));
    }
    if addr.host == "0.0.0.0" || addr.host == "[::]" {
        return Err((
            format!("{} is the address a server listens on, not one to call: browsers refuse it", addr.host),
            format!("Use http://127.0.0.1:{}/ for an AI on this computer, or the computer's network address for one elsewhere", addr.port),
        ));
    }
    let page_https = page.is_some_and(|p| p.trim().to_ascii_lowercase().starts_with("https://"));
    if page_https && !addr.https && !addr.is_loopback() {
        return Err((
            "this page is served over https and the AI over http: the browser blocks the request (mixed content)".into(),
            "Serve your AI over https, or open GridArena over http (./scripts/serve.sh serves it on http://127.0.0.1:8080)".into(),
        ));
    }
    let page_public = page.is_some_and(|p| Address::parse(p).is_ok_and(|a| !a.is_private()));
    if page_public && addr.is_private() {
        notes.push(
            "this page comes from the internet and your AI is on your own computer or network: Chrome may ask \
             whether the page may reach it; allow it"
                .into(),
        );
    }
    let scheme = if addr.https { "https" } else { "http" };
    Ok(format!("{scheme} to {} port {}", addr.host, addr.port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(url: &str, page: Option<&str>) -> Result<String, (String, String)> {
        browser_verdict(url, page, &mut Vec::new())
    }

    #[test]
    fn addresses_are_read_with_their_implied_ports() {
        let a = Address::parse("HTTP://User:pw@Example.org/x").unwrap();
        assert_eq!(
            (a.host.as_str(), a.port, a.credentials, a.https),
            ("example.org", 80, true, false)
        );
        assert_eq!(Address::parse("https://[::1]:8443/").unwrap().port, 8443);
        assert_eq!(Address::parse("https://[::1]/").unwrap().port, 443);
        assert!(Address::parse("http://h:99999/").is_err());
        assert!(Address::parse("ftp://h/").is_err());
        assert!(Address::parse("http://10.1.2.3:80/").unwrap().is_private());
        assert!(!Address::parse("http://172.32.0.1/").unwrap().is_private());
    }

    #[test]
    fn what_browsers_refuse_is_named_with_its_fix() {
        assert_eq!(
            verdict("http://127.0.0.1:8001/", None),
            Ok("http to 127.0.0.1 port 8001".into())
        );
        let (why, fix) = verdict("http://127.0.0.1:6000/", None).unwrap_err();
        assert!(
            why.contains("port 6000") && fix.contains("8001"),
            "{why} {fix}"
        );
        assert!(verdict("http://a:b@127.0.0.1:8001/", None)
            .unwrap_err()
            .0
            .contains("password"));
        assert!(verdict("http://0.0.0.0:5000/", None)
            .unwrap_err()
            .1
            .contains("127.0.0.1:5000"));
        let (why, _) = verdict(
            "http://ai.example.org/",
            Some("https://gridarena.example.org/"),
        )
        .unwrap_err();
        assert!(why.contains("mixed content"));
        // Loopback is secure enough for browsers, and an http page may call anything.
        assert!(verdict(
            "http://localhost:8001/",
            Some("https://gridarena.example.org/")
        )
        .is_ok());
        assert!(verdict("http://ai.example.org/", Some("http://127.0.0.1:8080/")).is_ok());
        let mut notes = Vec::new();
        browser_verdict(
            "http://192.168.1.5:8001/",
            Some("https://gridarena.example.org/"),
            &mut notes,
        )
        .unwrap_err();
        browser_verdict(
            "https://192.168.1.5:8001/",
            Some("https://gridarena.example.org/"),
            &mut notes,
        )
        .unwrap();
        assert_eq!(notes.len(), 1);
    }
}
