//! What the tournament page asks of its clock: start a tournament, resume one, call the roll.
//!
//! The clock ([`super::driver`]), the engine's tournament and the askers of web AIs and code entries
//! are most of the page's code, and the set-up view a teacher sees first needs none of them. So the
//! page's bin splits [`Job::run`] off its first download (`split_fn!`, `src/lazy.rs`); the page
//! preloads it once idle, and a click that needs it before then waits for it ([`Control::ask`]). The
//! Compare page's clock runs it directly ([`here`]).

use super::driver::{self, Control};
use super::form::SettingsForm;
use super::roll_call::Check;
use super::roster_list::RosterList;
use crate::lazy::Loading;
use crate::notice::{Line, Tone};
use gridarena_engine::halma::AiPlayer;
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::roster::Roster;
use gridarena_engine::tournament::settings::Settings;
use leptos::prelude::*;

/// Where a resumed tournament comes from.
pub enum Kept {
    /// The browser's storage, at the page's start.
    Stored,
    /// A bundle file the teacher chose, by its name; its roster replaces the page's.
    File {
        name: String,
        roster: RwSignal<RosterList>,
    },
}

/// One thing the page asks of the clock.
pub enum Job {
    /// A new tournament of `roster` with `settings`.
    Start { roster: Roster, settings: Settings },
    /// A tournament read back from its bundle (`text`, still to be checked); `form` takes its settings.
    Resume {
        text: String,
        from: Kept,
        form: RwSignal<SettingsForm>,
    },
    /// The roll call of `entries` (name and player, in roster order): see [`driver::roll_call`].
    RollCall {
        entries: Vec<(String, AiPlayer)>,
        settings: Settings,
        checks: RwSignal<Vec<Check>>,
        calls: RwSignal<u64>,
    },
}

impl Job {
    /// Does the job on `ctl`'s clock; what goes wrong is said in its notice.
    pub fn run(self, ctl: Control) {
        let say = move |tone, text: String| ctl.notice.set(Some(Line::new(tone, text)));
        match self {
            Job::Start { roster, settings } => match Tournament::new(roster, settings) {
                Ok(t) => {
                    ctl.notice.set(None);
                    ctl.play(t);
                }
                Err(e) => say(Tone::Error, format!("The tournament cannot start: {e}")),
            },
            Job::Resume { text, from, form } => match (Tournament::from_bundle(&text), from) {
                (Ok(t), from) => {
                    form.set(SettingsForm::from_settings(t.settings()));
                    let said = match from {
                        Kept::Stored => None,
                        Kept::File { name, roster } => {
                            roster.update(|r| r.take(t.roster().clone()));
                            Some(format!(
                                "Resumed {name}: {} of {} games already played.",
                                t.finished_count(),
                                t.total_games()
                            ))
                        }
                    };
                    ctl.play(t);
                    if let Some(said) = said {
                        say(Tone::Info, said);
                    }
                }
                (Err(why), Kept::Stored) => say(
                    Tone::Error,
                    format!("The saved tournament could not be resumed: {why}. Starting a new one replaces it."),
                ),
                (Err(why), Kept::File { name, .. }) => say(Tone::Error, format!("{name}: {why}")),
            },
            Job::RollCall {
                entries,
                settings,
                checks,
                calls,
            } => driver::roll_call(ctl, entries, settings, checks, calls),
        }
    }
}

/// The argument of a split [`Job::run`]: the clock and the job.
pub type Asked = (Control, Job);

/// Runs the job at once, for a page that keeps the clock in its own module.
pub fn here((ctl, job): Asked) -> Loading<()> {
    job.run(ctl);
    Box::pin(std::future::ready(Ok(())))
}
