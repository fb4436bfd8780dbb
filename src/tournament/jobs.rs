//! What the tournament page asks of its clock: start a tournament, resume one, call the roll.
//!
//! The clock ([`super::driver`]), the engine's tournament and the askers of web AIs and code entries
//! are most of the page's code, and the set-up view a teacher sees first needs none of them. So the
//! page's bin splits [`Job::run`] off its first download (`split_fn!`, `src/lazy.rs`); the page
//! preloads it once idle, and a click that needs it before then waits for it ([`Control::ask`]). The
//! Compare page's clock runs it directly ([`HERE`]).

use super::driver::{self, Control};
use super::form::SettingsForm;
use super::roll_call::Check;
use super::roster_list::RosterList;
use crate::lazy::Split;
use crate::notice::{Line, Tone};
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
    /// The roll call of `entries` (name, player and plan, in roster order): see [`driver::roll_call`].
    RollCall {
        entries: Vec<super::roll_call::Entry>,
        settings: Settings,
        checks: RwSignal<Vec<Check>>,
        calls: RwSignal<u64>,
    },
}

impl Job {
    /// Whether the job would replace the tournament on the clock: a new one, or one from a file.
    fn replaces(&self) -> bool {
        matches!(
            self,
            Job::Start { .. }
                | Job::Resume {
                    from: Kept::File { .. },
                    ..
                }
        )
    }

    /// Does the job on `ctl`'s clock; what goes wrong is said in its notice.
    ///
    /// A job that would replace a tournament already on the clock is refused rather than dropping it
    /// (and its save): Start is held back while jobs wait for the module ([`Control::asking`]), but a
    /// file chosen while the saved tournament was being resumed could still come after it.
    pub fn run(self, ctl: Control) {
        let say = move |tone, text: String| ctl.notice.set(Some(Line::new(tone, text)));
        if self.replaces() && ctl.run.with_untracked(Option::is_some) {
            return say(
                Tone::Error,
                "A tournament is already under way (the saved one was resumed): to start another, use New tournament first.".to_string(),
            );
        }
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

/// The argument of a split [`run`]: the clock and the job.
pub type Asked = (Control, Job);

/// Does the job asked: the function a page's bin splits off.
pub fn run((ctl, job): Asked) {
    job.run(ctl);
}

/// The jobs run at once, for a page that keeps the clock in its own module (the Compare page).
pub const HERE: Split<Asked, ()> = Split {
    load: |asked| {
        run(asked);
        Box::pin(std::future::ready(Ok(())))
    },
    preload: || Box::pin(std::future::ready(Ok(()))),
};
