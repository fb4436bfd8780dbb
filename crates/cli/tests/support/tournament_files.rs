//! The files of a `gridarena halma tournament` test: its folder, its roster, the run and its bundle.
//! Needs `mod run;` (support/run.rs) beside it in the test crate. Each test crate uses a part of it.
#![allow(dead_code)]

use crate::run;
use gridarena_engine::tournament::event::Tournament;
use std::path::{Path, PathBuf};

/// A folder of its own under the system's temporary folder, emptied first.
pub fn temp_dir(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridarena-{test}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dir/roster.json` holding `entries`.
pub fn roster_file(dir: &Path, entries: &[serde_json::Value]) -> PathBuf {
    let path = dir.join("roster.json");
    std::fs::write(&path, serde_json::json!({ "entries": entries }).to_string()).unwrap();
    path
}

/// `gridarena halma tournament ROSTER OPTIONS... --out OUT` as arguments.
pub fn tournament_args(roster: &Path, options: &str, out: &Path) -> Vec<String> {
    let mut args = vec![
        "halma".to_string(),
        "tournament".to_string(),
        roster.display().to_string(),
    ];
    args.extend(options.split_whitespace().map(String::from));
    args.extend(["--out".to_string(), out.display().to_string()]);
    args
}

/// Runs `gridarena` with `args` to its end.
pub fn gridarena(args: &[String]) -> run::Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run::run(&args, "", None)
}

/// The tournament in `out`'s bundle.
pub fn bundle(out: &Path) -> Tournament {
    Tournament::from_bundle(&std::fs::read_to_string(out.join("bundle.json")).unwrap()).unwrap()
}
