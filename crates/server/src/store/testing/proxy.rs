//! A TCP proxy between a test's clients and PostgreSQL's TCP port, whose link can fail on demand as a
//! network or a database does: [`Link::Silent`] (a partition: nothing gets through and nothing is
//! closed, so a client learns of it only by its own timeouts) and [`Link::Cut`] (the database went
//! away: every connection is closed at once and new ones are closed as soon as they are accepted).
//! The server's partition test and the CLI's queue tests share it.
//!
//! It runs on the tokio runtime [`Proxy::start`] is called in; that runtime must keep running while
//! the proxy is used (a multi-threaded one, for a caller that is not async itself).

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// What the proxy does with the bytes and connections it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// Forwards both ways.
    Forwarding,
    /// Forwards nothing and closes nothing: bytes wait in the proxy (and in the sockets' buffers) as
    /// they would in a network that silently drops them, and go on when it forwards again. A
    /// connection opened meanwhile hangs, as a SYN into nowhere would.
    Silent,
    /// Closes every connection, and each new one as soon as it is accepted, until it forwards again.
    Cut,
}

/// The proxy: clients connect to [`Proxy::addr`], it connects each to the upstream address.
pub struct Proxy {
    pub addr: SocketAddr,
    link: watch::Sender<Link>,
}

impl Proxy {
    /// A proxy to `upstream` on a free port of 127.0.0.1, forwarding.
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port on 127.0.0.1 for the proxy");
        let addr = listener.local_addr().expect("the proxy's address");
        let (link, rx) = watch::channel(Link::Forwarding);
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let mut rx = rx.clone();
                tokio::spawn(async move {
                    if !flowing(&mut rx).await {
                        return;
                    }
                    let Ok(server) = TcpStream::connect(upstream).await else {
                        return;
                    };
                    let (client_read, client_write) = client.into_split();
                    let (server_read, server_write) = server.into_split();
                    tokio::join!(
                        pump(client_read, server_write, rx.clone()),
                        pump(server_read, client_write, rx)
                    );
                });
            }
        });
        Proxy { addr, link }
    }

    /// Sets what the link does from now on.
    pub fn set(&self, link: Link) {
        self.link.send_replace(link);
    }

    /// `url` (a PostgreSQL URL whose database is on the upstream) through this proxy: its user and
    /// database, this proxy's address.
    pub fn url_for(&self, url: &str) -> String {
        let config: tokio_postgres::Config = url.parse().expect("a PostgreSQL URL");
        format!(
            "postgresql://{}@{}/{}",
            config.get_user().unwrap_or("postgres"),
            self.addr,
            config.get_dbname().unwrap_or("postgres")
        )
    }
}

/// Where the cluster of `url` takes TCP connections. A URL naming a socket directory is taken to
/// be `scripts/pg-cluster.sh`'s cluster, which listens on 127.0.0.1 at the same port.
pub async fn tcp_of(url: &str) -> SocketAddr {
    let config: tokio_postgres::Config = url.parse().expect("a PostgreSQL URL");
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) => host.clone(),
        _ => "127.0.0.1".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    tokio::net::lookup_host((host.as_str(), port))
        .await
        .ok()
        .and_then(|mut a| a.next())
        .unwrap_or_else(|| panic!("no address for {host}:{port}"))
}

/// Waits while the link is silent; whether it forwards (false: it is cut).
async fn flowing(rx: &mut watch::Receiver<Link>) -> bool {
    match rx.wait_for(|l| *l != Link::Silent).await {
        Ok(l) => *l == Link::Forwarding,
        Err(_) => false,
    }
}

/// Copies `from` to `to` while forwarding; a chunk read as the link goes silent waits for its end.
/// Ends, closing `to`, at the end of `from` or when the link is cut.
async fn pump(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, mut rx: watch::Receiver<Link>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        if !flowing(&mut rx).await {
            break;
        }
        let mut cut = rx.clone();
        let n = tokio::select! {
            read = from.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            },
            _ = cut.wait_for(|l| *l == Link::Cut) => break,
        };
        if !flowing(&mut rx).await || to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}
