//! `gridarena halma tournament --milestone ...`: every entry plays each milestone's built-in AI twice,
//! and `grades.csv` says, entry by entry, what it passed and how it answered.

#[path = "support/run.rs"]
mod run;

use std::net::TcpListener;

#[test]
fn milestones_are_graded_in_grades_csv_and_on_stdout() {
    let dir = std::env::temp_dir().join(format!("gridarena-grades-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A port nothing listens on: the entry there never answers.
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let roster = dir.join("roster.json");
    let text = serde_json::json!({"entries": [
        {"name": "Greedy", "player": "builtin:greedy"},
        {"name": "Search", "player": "builtin:search"},
        {"name": "Closed", "player": format!("http://127.0.0.1:{closed}/")},
    ]});
    std::fs::write(&roster, text.to_string()).unwrap();
    let out = dir.join("out");
    let args = [
        "halma",
        "tournament",
        roster.to_str().unwrap(),
        "--preset",
        "mini",
        "--tick-ms",
        "200",
        "--max-turns",
        "60",
        "--seed",
        "3",
        "--milestone",
        "greedy:50",
        "--milestone",
        "search-lite:50",
        "--out",
        out.to_str().unwrap(),
    ];
    let done = run::run(&args, "", None);
    assert_eq!(done.code, 0, "{done:?}");
    // 3 class games and 2 milestones x 2 seats x 3 entries.
    assert!(
        done.stdout.contains("15 games; files in"),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout
            .contains("milestones: Search: 2 of 2 passed (greedy, search-lite)"),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout.contains("milestones: Closed: 0 of 2 passed"),
        "{}",
        done.stdout
    );
    let grades = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let lines: Vec<&str> = grades.lines().collect();
    assert_eq!(
        lines[0],
        "name,code_sha256,milestones_passed,greedy:50,search-lite:50,games,wins,draws,losses,points,errors,error_kinds,median_ms,withdrawn"
    );
    assert!(
        lines[2].starts_with("Search,,2,pass (2 of 2),pass (2 of 2),2,2,0,0,2,0,,"),
        "{grades}"
    );
    let closed_row: Vec<&str> = lines[3].split(',').collect();
    assert_eq!(
        &closed_row[..10],
        [
            "Closed",
            "",
            "0",
            "fail (0 of 2)",
            "fail (0 of 2)",
            "2",
            "0",
            "0",
            "2",
            "0"
        ],
        "{grades}"
    );
    assert!(closed_row[11].starts_with("request_failed "), "{grades}");
    // The class's own table leaves the milestone games out.
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    assert!(!standings.contains("milestone"), "{standings}");
    let _ = std::fs::remove_dir_all(&dir);
}
