//! A PostgreSQL for tests: [`fresh_database`] gives each test a new, empty database, so tests run in
//! parallel without seeing each other.
//!
//! The cluster is `GRIDARENA_TEST_PG` when it is set (a `postgres://` URL; `scripts/pg-cluster.sh start`
//! prints one, and `scripts/test.sh` sets it for the whole run). Otherwise the first call starts a
//! throwaway cluster for this test process: `initdb` into a fresh directory under the temp dir, then
//! `postgres` (unix socket in that directory only, no TCP; `fsync=off`) under a small `sh` that holds
//! a pipe from this process and, at its end of file, stops postgres and deletes the directory. The
//! pipe closes when this process ends, however it ends (a panic, kill -9), so no cluster outlives its
//! tests. As root (initdb and postgres refuse to run as root) both run as the `postgres` user, which
//! Debian's `postgresql` package creates.
//!
//! It also holds [`OPENING`], the moves the online tests play, and [`proxy`], a TCP proxy whose link to
//! PostgreSQL can go silent or be cut. Other crates' tests use it through the `test-support` feature:
//! `gridarena-server = { path = "../server", features = ["test-support"] }` under `[dev-dependencies]`.

pub mod proxy;

use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tokio_postgres::error::SqlState;
use tokio_postgres::NoTls;

/// Ten quiet moves on 9x9, Black's mirroring White's through the centre: enough for a game to count in
/// the records ([`crate::policy::MIN_RATED_MOVES`]), and an even position. The games of the server's
/// and the CLI's tests play it.
pub const OPENING: [&str; 10] = ["C3", "G7", "C7", "G3", "D4", "F6", "D6", "F4", "E3", "E7"];

/// The variable naming a cluster to use instead of starting one.
pub const ENV: &str = "GRIDARENA_TEST_PG";

/// A cluster this process started, kept until the process ends.
struct Cluster {
    url: String,
    _postgres: Option<(Child, ChildStdin)>,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();

/// The URL of the test cluster's `postgres` database, starting the cluster on first use. Panics (it is
/// for tests) when there is none to be had, saying why.
pub fn cluster_url() -> String {
    let cluster = CLUSTER.get_or_init(|| match std::env::var(ENV) {
        Ok(url) if !url.is_empty() => Ok(Cluster {
            url,
            _postgres: None,
        }),
        _ => start(),
    });
    match cluster {
        Ok(c) => c.url.clone(),
        Err(e) => panic!("no PostgreSQL for the tests: {e}"),
    }
}

/// A new empty database on the test cluster; its URL.
pub async fn fresh_database() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // One CREATE DATABASE at a time: each copies template1.
    static CREATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let base = cluster_url();
    let _one = CREATING.lock().await;
    let (client, connection) = tokio_postgres::connect(&base, NoTls)
        .await
        .unwrap_or_else(|e| panic!("cannot reach the test cluster {base}: {e}"));
    let driver = tokio::spawn(connection);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() % 1_000_000);
    let name = loop {
        let name = format!(
            "t_{}_{stamp}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        match client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
        {
            Ok(()) => break name,
            Err(e) if e.code() == Some(&SqlState::DUPLICATE_DATABASE) => continue,
            Err(e) => panic!("CREATE DATABASE {name} on {base}: {e:?}"),
        }
    };
    drop(client);
    let _ = driver.await;
    with_dbname(&base, &name)
}

/// `url` naming database `db` instead of its own.
pub fn with_dbname(url: &str, db: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgresql", url));
    let (main, query) = match rest.split_once('?') {
        Some((main, query)) => (main, format!("?{query}")),
        None => (rest, String::new()),
    };
    let authority = main.split_once('/').map_or(main, |(a, _)| a);
    format!("{scheme}://{authority}/{db}{query}")
}

/// The directory holding `initdb` and `postgres`: Debian's newest under /usr/lib/postgresql, else the
/// one on PATH.
fn bin_dir() -> Result<PathBuf, String> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    found.sort();
    if let Some((_, bin)) = found.pop() {
        return Ok(bin);
    }
    std::env::var_os("PATH")
        .and_then(|p| {
            std::env::split_paths(&p)
                .find(|d| d.join("initdb").exists() && d.join("postgres").exists())
        })
        .ok_or_else(|| {
            "initdb not found: install PostgreSQL (apt-get install postgresql), or set \
             GRIDARENA_TEST_PG (scripts/pg-cluster.sh start prints it)"
                .to_string()
        })
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `program` as the `postgres` user when this process is root.
fn as_postgres(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Runs postgres until its standard input closes, then stops it and deletes the cluster's directory.
/// Arguments: the bin directory, the cluster directory, the port (it names the socket).
const SUPERVISOR: &str = r#"
"$1/postgres" -D "$2/data" -p "$3" -k "$2" -c listen_addresses= -c fsync=off \
  -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 \
  </dev/null >"$2/log" 2>&1 &
pid=$!
cat >/dev/null
kill -INT "$pid" 2>/dev/null
wait "$pid"
rm -rf "$2"
"#;

fn start() -> Result<Cluster, String> {
    let bin = bin_dir()?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!("gridarena-pg-{}-{nanos}", std::process::id()));
    std::fs::create_dir(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let fail = |what: String| {
        let _ = std::fs::remove_dir_all(&dir);
        Err(what)
    };
    if is_root() {
        let chown = Command::new("chown")
            .arg("postgres:postgres")
            .arg(&dir)
            .output();
        match chown {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                return fail(format!(
                    "chown postgres {}: {} (is Debian's postgresql installed?)",
                    dir.display(),
                    String::from_utf8_lossy(&o.stderr).trim()
                ))
            }
            Err(e) => return fail(format!("chown: {e}")),
        }
    }
    let initdb = as_postgres(&bin.join("initdb"))
        .arg("-D")
        .arg(dir.join("data"))
        .args([
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        ])
        .output();
    match initdb {
        Ok(o) if o.status.success() => {}
        Ok(o) => return fail(format!("initdb: {}", String::from_utf8_lossy(&o.stderr))),
        Err(e) => return fail(format!("initdb: {e}")),
    }
    // A port nobody uses names the socket; there is no TCP listener.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))?;
    let spawned = as_postgres(Path::new("/bin/sh"))
        .args(["-c", SUPERVISOR, "sh"])
        .arg(&bin)
        .arg(&dir)
        .arg(port.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return fail(format!("cannot start postgres: {e}")),
    };
    let Some(stdin) = child.stdin.take() else {
        return fail("no pipe to postgres's supervisor".into());
    };
    let started = Instant::now();
    loop {
        let ready = as_postgres(&bin.join("pg_isready"))
            .arg("-q")
            .arg("-h")
            .arg(&dir)
            .args(["-p", &port.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            break;
        }
        if started.elapsed() > Duration::from_secs(30) || matches!(child.try_wait(), Ok(Some(_))) {
            let log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
            drop(stdin);
            return Err(format!("postgres did not start: {log}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(Cluster {
        url: format!(
            "postgresql://postgres@/postgres?host={}&port={port}",
            dir.display()
        ),
        _postgres: Some((child, stdin)),
    })
}

#[cfg(test)]
mod tests {
    use super::{bin_dir, cluster_url, with_dbname, ENV};
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// The child process of [`a_killed_test_process_leaves_no_cluster`]: starts a cluster, says where,
    /// and waits to be killed.
    #[test]
    #[ignore = "run by a_killed_test_process_leaves_no_cluster in a child process"]
    fn cluster_holder() {
        if std::env::var_os("GRIDARENA_CLUSTER_HOLDER").is_none() {
            return;
        }
        println!("cluster {}", cluster_url());
        std::thread::sleep(Duration::from_secs(60));
    }

    /// Processes whose command line mentions `needle`.
    fn processes_naming(needle: &str) -> usize {
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .filter(|cmd| String::from_utf8_lossy(cmd).contains(needle))
            .count()
    }

    #[test]
    fn a_killed_test_process_leaves_no_cluster() {
        if bin_dir().is_err() && std::env::var_os(ENV).is_some() {
            eprintln!("no local PostgreSQL binaries: the tests use {ENV} only");
            return;
        }
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "store::testing::tests::cluster_holder",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("GRIDARENA_CLUSTER_HOLDER", "1")
            .env_remove(ENV)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let line = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok)
            .find(|l| l.contains("cluster "));
        let Some(line) = line else {
            let _ = child.kill();
            panic!("the child started no cluster");
        };
        let dir = line
            .split("host=")
            .nth(1)
            .and_then(|rest| rest.split('&').next())
            .unwrap()
            .to_owned();
        assert!(std::path::Path::new(&dir).exists());
        assert!(processes_naming(&dir) > 0, "no postgres runs in {dir}");
        child.kill().unwrap(); // SIGKILL: nothing of the child's runs after it
        child.wait().unwrap();
        let started = Instant::now();
        while std::path::Path::new(&dir).exists() || processes_naming(&dir) > 0 {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{dir} or its postgres outlived the killed test process"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    #[test]
    fn a_url_names_another_database() {
        assert_eq!(
            with_dbname("postgresql://postgres@/postgres?host=/tmp/x&port=5", "t_1"),
            "postgresql://postgres@/t_1?host=/tmp/x&port=5"
        );
        assert_eq!(
            with_dbname("postgres://u:p@db.example:5432", "t_2"),
            "postgres://u:p@db.example:5432/t_2"
        );
    }
}
