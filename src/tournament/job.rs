//! What the tournament page asks of its clock ([`Job`]): start a tournament, resume one, call the roll.
//! A value of its own, apart from the clock that holds the jobs asked ([`super::driver::Control`]) and
//! the code that does them ([`super::jobs`]), so the page can ask without carrying either.

use super::form::SettingsForm;
use super::roll_call::Check;
use super::roster_list::RosterList;
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
    /// The roll call of `entries` (name, player and plan, in roster order): see [`super::driver::roll_call`].
    RollCall {
        entries: Vec<super::roll_call::Entry>,
        settings: Settings,
        checks: RwSignal<Vec<Check>>,
        calls: RwSignal<u64>,
    },
}

impl Job {
    /// Whether the job would replace the tournament on the clock: a new one, or one from a file.
    pub fn replaces(&self) -> bool {
        matches!(
            self,
            Job::Start { .. }
                | Job::Resume {
                    from: Kept::File { .. },
                    ..
                }
        )
    }
}
