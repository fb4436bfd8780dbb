//! Doing what the tournament page asks of its clock ([`Job`]): start a tournament, resume one, call
//! the roll.
//!
//! The clock ([`super::driver`]), the engine's tournament and the askers of web AIs and code entries
//! are most of the page's code, and the set-up view a teacher sees first needs none of them. So the
//! page's bin splits [`run`] off its first download (`split_fn!`, `src/lazy.rs`); the page preloads it
//! once idle, and a click that needs it before then waits for it
//! ([`Control::ask`](driver::Control::ask)). The Compare page's clock runs it directly ([`HERE`]).

use super::driver::{self, Asked};
use super::form::SettingsForm;
use super::job::{Job, Kept};
use crate::lazy::Split;
use crate::notice::{Line, Tone};
use gridarena_engine::tournament::event::Tournament;
use leptos::prelude::*;

/// Does the job asked on its clock ([`Asked`]); what goes wrong is said in the clock's notice. The
/// function a page's bin splits off.
///
/// A job that would replace a tournament already on the clock is refused rather than dropping it
/// (and its save): Start is held back while jobs wait for the module ([`Control::asking`](driver::Control::asking)), but a
/// file chosen while the saved tournament was being resumed could still come after it.
pub fn run((ctl, job): Asked) {
    let say = move |tone, text: String| ctl.notice.set(Some(Line::new(tone, text)));
    if job.replaces() && ctl.run.with_untracked(Option::is_some) {
        return say(
            Tone::Error,
            "A tournament is already under way (the saved one was resumed): to start another, use New tournament first.".to_string(),
        );
    }
    match job {
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

/// The jobs run at once, for a page that keeps the clock in its own module (the Compare page).
pub const HERE: Split<Asked, ()> = Split {
    load: |asked| {
        run(asked);
        Box::pin(std::future::ready(Ok(())))
    },
    preload: || Box::pin(std::future::ready(Ok(()))),
};
