//! The tournament page: set up (roster, settings, roll call) until a tournament starts, then the running
//! view (controls, the wall, standings, crosstable, finished games and their replays). A stored
//! tournament resumes on load; the roster comes from the link, else from the browser's storage.

use super::crosstable_view::Crosstable;
use super::driver::{Asked, Control};
use super::form::SettingsForm;
use super::games_list::GamesList;
use super::job::{Job, Kept};
use super::replay_view::{ReplayView, Watched};
use super::roll_call::Check;
use super::roll_call_panel::RollCallPanel;
use super::roster_list::RosterList;
use super::roster_panel::RosterPanel;
use super::runner::Run;
use super::settings_panel::SettingsPanel;
use super::standings_view::StandingsTable;
use super::wall::Wall;
use super::{store, table, table_pace};
use crate::files;
use crate::lazy::{LazyPart, Split};
use crate::notice::{tone_class, Line, Tone};
use crate::widgets::{Chosen, FileInput};
use gridarena_engine::halma::Preset;
use gridarena_engine::tournament::event::MAX_BUNDLE_BYTES;
use gridarena_engine::tournament::grades;
use gridarena_engine::tournament::settings::Settings;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The roster the page opens with: the link's, else the stored one (`kept`); and what to say of the link
/// (what was wrong with it, or the program entries it may not bring). A link that is the stored roster
/// without its programs is the page's own (written by [`store::save_roster`]): the stored roster,
/// programs and all, is then kept.
fn initial_roster(kept: Option<String>) -> (RosterList, Option<Line>) {
    let mut stored = RosterList::default();
    if let Some(t) = kept {
        let _ = stored.import("storage", t.as_bytes());
    }
    let Some(text) = store::linked_roster() else {
        return (stored, None);
    };
    let mut linked = RosterList::default();
    match linked.import_link(text.as_bytes()) {
        Ok(_) if linked.link() == stored.link() => (stored, None),
        Ok(note) => (linked, note.map(|n| Line::new(Tone::Error, n))),
        Err(why) => (
            stored,
            Some(Line::new(
                Tone::Error,
                format!("The roster in the link was not loaded: {why}"),
            )),
        ),
    }
}

/// The settings a classroom starts from: the small board and a short tick, so a round fits a lesson.
fn classroom_settings() -> SettingsForm {
    SettingsForm::from_settings(&Settings {
        preset: Preset::Mini,
        tick_ms: 500,
        ..Settings::default()
    })
}

/// What an export button saves.
#[derive(Clone, Copy)]
enum Export {
    Standings,
    /// One row per entry: milestones, errors by kind, the code's hash (docs/tournament.md).
    Grades,
    Bundle,
}

/// The tournament page. `running_view` is the tournament in progress or over ([`Running`]) and `jobs`
/// the clock that starts, resumes and plays it and calls the roll ([`super::jobs::run`]), both split off the
/// page's module by its bin (`src/lazy.rs`): a tournament starts with a click, so the first download is
/// the roster and the settings, and the rest loads once the page is idle.
#[component]
pub fn TournamentPage(running_view: Split<RunningProps>, jobs: Split<Asked, ()>) -> impl IntoView {
    let notice = RwSignal::new(None::<Line>);
    let roster = RwSignal::new(RosterList::default());
    // Until the stored roster is read, nothing is saved over it.
    let loaded = RwSignal::new(false);
    Effect::new(move |_| {
        if !loaded.get() {
            return;
        }
        let (json, link) = roster.with(|r| (r.compact(), r.link()));
        spawn_local(async move {
            if let Err(why) = store::save_roster(json, link).await {
                notice.set(Some(Line::new(
                    Tone::Error,
                    format!("The roster could not be kept in this browser: {why}. Export it to keep it."),
                )));
            }
        });
    });
    let form = RwSignal::new(classroom_settings());
    // Code entries run on this machine: the games at once follow its cores once the roster has code.
    Effect::new(move |_| {
        let code = roster.with(RosterList::has_code);
        form.update(|f| f.suggest_concurrency(code, super::driver::cores()));
    });
    let checks = RwSignal::new(Vec::<Check>::new());
    let ctl = Control::new(notice, jobs);
    crate::lazy::preload(running_view);
    ctl.preload_jobs();
    spawn_local(async move {
        let (list, said) = initial_roster(store::stored_roster().await);
        if said.is_some() {
            notice.set(said);
        }
        roster.set(list);
        loaded.set(true);
        if let Some(text) = store::stored_bundle().await {
            ctl.ask(Job::Resume {
                text,
                from: Kept::Stored,
                form,
            });
        }
    });
    let running = move || ctl.run.with(Option::is_some);

    view! {
        <section class="tournament" aria-label="Tournament">
            <p class="notice" data-testid="t-notice" role="status">
                {move || notice.get().map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })}
            </p>
            <Show
                when=running
                fallback=move || view! {
                    <div class="t-setup">
                        <p class="hint">"Two AIs only, to see whether one is stronger? "<a href="#/compare" data-testid="to-compare">"Compare them"</a>" plays them against each other until the games show it."</p>
                        <RosterPanel roster notice />
                        <SettingsPanel form />
                        <RollCallPanel roster form checks ctl />
                        <ResumeFile roster form ctl />
                    </div>
                }
            >
                <LazyPart
                    what="the tournament's view"
                    load=Box::new(move || (running_view.load)(RunningProps { ctl }))
                    at_once=true
                />
            </Show>
        </section>
    }
}

/// Continues a tournament from its exported bundle: the page's "Export tournament (JSON)" on another
/// machine, or the CLI's `bundle.json`. The bundle carries the roster, code included, the settings
/// and every finished game, so it needs nothing else.
#[component]
fn ResumeFile(
    roster: RwSignal<RosterList>,
    form: RwSignal<SettingsForm>,
    ctl: Control,
) -> impl IntoView {
    let read = Callback::new(move |file: Chosen| {
        let Chosen { name, bytes } = file;
        let text = bytes
            .and_then(|b| String::from_utf8(b).map_err(|_| format!("{name} is not a text file.")));
        match text {
            Ok(text) => ctl.ask(Job::Resume {
                text,
                from: Kept::File { name, roster },
                form,
            }),
            Err(why) => ctl.notice.set(Some(Line::new(Tone::Error, why))),
        }
    });
    view! {
        <div class="t-files t-resume">
            <FileInput
                label="Resume a tournament (JSON, from this page or gridarena's bundle.json)"
                testid="resume-bundle"
                max_bytes=MAX_BUNDLE_BYTES
                what="tournaments"
                accept=".json,application/json"
                on_read=read
            />
        </div>
    }
}

/// The tournament in progress or over.
#[component]
pub fn Running(ctl: Control) -> impl IntoView {
    let run = ctl.run;
    let watched = RwSignal::new(None::<Watched>);
    let shown = table_pace::shown_finished(run);
    let say_error = move |text: String| ctl.notice.set(Some(Line::new(Tone::Error, text)));
    let replay = Callback::new(move |number: usize| {
        match run.with_untracked(|r| Watched::game(r.as_ref().map(|r| &r.tournament), number)) {
            Ok(w) => watched.set(Some(w)),
            Err(why) => say_error(why),
        }
    });
    let status = move || {
        run.with(|r| {
            let Some(r) = r else { return String::new() };
            let t = &r.tournament;
            let games = format!(
                "{} of {} games finished",
                t.finished_count(),
                t.total_games()
            );
            if r.is_over() {
                return format!("The tournament is over: {games}.");
            }
            match t.current_round() {
                Some(round) => format!(
                    "Round {} of {}: {games}.",
                    round + 1,
                    t.rounds_scheduled().max(round + 1)
                ),
                None => format!("{games}."),
            }
        })
    };
    let over = move || run.with(|r| r.as_ref().is_some_and(Run::is_over));
    let export = move |what: Export| {
        let file = run.with_untracked(|r| {
            let t = &r.as_ref()?.tournament;
            Some(match what {
                Export::Standings => table::csv(t).map(|text| ("standings.csv", text, "text/csv")),
                Export::Grades => grades::to_csv(t)
                    .map(|text| ("grades.csv", text, "text/csv"))
                    .map_err(|e| e.to_string()),
                Export::Bundle => Ok(("tournament.json", t.to_bundle(), "application/json")),
            })
        });
        if let Some(file) = file {
            if let Err(e) = file.and_then(|(name, text, mime)| files::download(name, &text, mime)) {
                say_error(e);
            }
        }
    };
    let new_tournament = move |_| {
        let sure = web_sys::window()
            .and_then(|w| {
                w.confirm_with_message(
                    "Stop this tournament and forget its results? Export them first to keep them.",
                )
                .ok()
            })
            .unwrap_or(false);
        if sure {
            watched.set(None);
            ctl.clear();
        }
    };
    let skip = move |_| {
        let round = run.with_untracked(|r| r.as_ref().and_then(|r| r.tournament.current_round()));
        ctl.fast_round.set(round);
    };
    view! {
        <div class="t-controls" role="group" aria-label="Tournament controls">
            <p class="t-status" data-testid="t-status" aria-live="polite">{status}</p>
            <button data-testid="pause" disabled=over on:click=move |_| ctl.toggle_pause()>
                {move || if ctl.paused.get() { "Resume" } else { "Pause" }}
            </button>
            <button data-testid="skip-round" disabled=over on:click=skip>"Skip to the end of the round"</button>
            <button data-testid="export-csv" on:click=move |_| export(Export::Standings)>"Export standings (CSV)"</button>
            <button data-testid="export-grades" on:click=move |_| export(Export::Grades)>"Export grades (CSV)"</button>
            <button data-testid="export-bundle" on:click=move |_| export(Export::Bundle)>"Export tournament (JSON)"</button>
            <button data-testid="new-tournament" on:click=new_tournament>"New tournament"</button>
        </div>
        <ul class="t-log" data-testid="t-log">
            {move || ctl.log.get().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
        </ul>
        <Wall ctl />
        <ReplayView watched notice=ctl.notice />
        <div class="t-tables">
            <StandingsTable run shown />
            <Crosstable run shown />
        </div>
        <GamesList run shown on_replay=replay />
    }
}
