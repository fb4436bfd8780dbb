//! `gridarena halma probe URL`: the endpoint doctor on the command line, the same battery as the page's
//! "Test this AI" button, with an exit status a student's own tests can check.

use crate::io::Failure;
use gridarena_cli::probe::examine;
use gridarena_engine::halma::doctor::{Client, Settings, DEFAULT_ORIGIN};
use gridarena_engine::halma::ContentType;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

pub const ABOUT: &str = "\
Test a web AI the way the arena will call it, and say how to fix what is wrong.

Sends a battery of requests (about 30, one at a time) and reports each check as PASS, FAIL, NOTE (worth
knowing, not a failure) or SKIP, with the fix in plain words:
- the address: what a browser refuses before sending (blocked ports, user:password@, 0.0.0.0, an http
  AI called from an https page, see --origin);
- something answers; Access-Control-Allow-Origin on a move and on an error answer;
- a text/plain body and an application/json body, and the OPTIONS preflight the browser sends before a
  JSON one (only the team's own content type, --content-type, can fail; the other is a note);
- a legal move in four positions: the start, a mid-game with damaged pieces, a position where only a
  chain of two jumps wins, a nearly finished game, with the referee's reason for an illegal one;
- a request with a field the AI does not know, and one with timeLimitMs 1;
- the answer time over 20 requests against the tick (--tick-ms), and whether the connection is kept open.";

pub const AFTER: &str = "\
Exit status:
  0  every check passed (notes and skipped checks do not fail)
  1  a check failed (the report says which, and what to do)
  2  usage: an unknown option or value

Examples:
  gridarena halma probe http://127.0.0.1:8001/
  gridarena halma probe http://127.0.0.1:5000/move --content-type json --tick-ms 500
  gridarena halma probe http://127.0.0.1:8001/ --json > report.json";

#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// The AI's address, as typed into the arena page
    #[arg(value_name = "URL")]
    url: String,
    /// How the team's requests are labelled: text (text/plain, the default) or json (application/json)
    #[arg(long, value_name = "TYPE", default_value = "text", value_parser = |s: &str| s.parse::<ContentType>())]
    content_type: ContentType,
    /// The tick length in milliseconds that answers must beat
    #[arg(long, value_name = "N", default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(1..=600_000))]
    tick_ms: u64,
    /// The page the AI will be called from (its Origin), for the CORS and mixed-content checks
    #[arg(long, value_name = "URL", default_value = DEFAULT_ORIGIN)]
    origin: String,
    /// Print the report as JSON instead of text
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ProbeArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let settings = Settings {
        url: args.url.clone(),
        content_type: args.content_type,
        tick_ms: args.tick_ms,
        origin: args.origin.trim().trim_end_matches('/').to_string(),
        client: Client::Native,
    };
    let terminal = std::io::stderr().is_terminal();
    let report = examine(settings, |probe, (sent, left)| {
        if terminal {
            eprint!(
                "\r\x1b[Krequest {} of {}: {}",
                sent + 1,
                sent + left + 1,
                probe.purpose
            );
        }
    });
    if terminal {
        eprint!("\r\x1b[K");
    }
    let text = if args.json {
        let mut json =
            serde_json::to_string_pretty(&report).map_err(|e| Failure::Internal(e.to_string()))?;
        json.push('\n');
        json
    } else {
        gridarena_cli::terminal::printable(&report.to_text()).into_owned()
    };
    out.write_all(text.as_bytes()).map_err(Failure::Output)?;
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
