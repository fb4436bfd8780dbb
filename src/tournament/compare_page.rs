//! The Compare page (`#/compare`), a module of its own (`src/bin/gridarena-compare.rs`): the form, the
//! live score with its interval, every counted game with its replay, and the positions where the two
//! players parted. The games are played by the tournament's clock ([`Control::for_compare`]: no pace,
//! nothing kept); what they show is read by [`super::compare`].

use super::compare::{Form, Standing};
use super::compare_form::CompareForm;
use super::compare_games::CompareGames;
use super::compare_live::CompareLive;
use super::compare_parted::CompareParted;
use super::compare_text::command_line;
use super::driver::{cores, Control};
use super::jobs;
use super::replay_view::{ReplayView, Watched};
use crate::code::store as kept;
use crate::notice::{tone_class, Line, Tone};
use crate::now_ms;
use gridarena_engine::compare::StopRule;
use leptos::prelude::*;

/// The form as the address gives it (`#/compare?a=...&b=...`), over the defaults.
fn linked_form() -> Form {
    let form = Form::new(cores());
    let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else {
        return form;
    };
    let Some((_, query)) = hash.split_once('?') else {
        return form;
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(query) else {
        return form;
    };
    let keys: Vec<&str> = form.fields().iter().map(|(k, _)| *k).collect();
    keys.into_iter()
        .fold(form.clone(), |f, key| match params.get(key) {
            Some(value) => f.with(key, value),
            None => f,
        })
}

/// The address of the page with `form`'s setup.
fn link(form: &Form) -> String {
    let query: Vec<String> = form
        .fields()
        .iter()
        .map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v))))
        .collect();
    format!("#/compare?{}", query.join("&"))
}

#[component]
pub fn ComparePage() -> impl IntoView {
    let notice = RwSignal::new(None::<Line>);
    let ctl = Control::for_compare(notice, jobs::HERE);
    let form = RwSignal::new(linked_form());
    let error = RwSignal::new(None::<String>);
    let started_ms = RwSignal::new(0.0);
    // Milliseconds from Start to the run's end, once over.
    let took_ms = RwSignal::new(None::<f64>);
    let playing = RwSignal::new(false);
    let watched = RwSignal::new(None::<Watched>);
    let run = ctl.run;
    // The stop rule of the run on the page, from its form when it started.
    let rule = RwSignal::new(StopRule::default());

    let finished =
        Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, |r| r.tournament.finished_count())));
    let standing = Memo::new(move |_| {
        let _ = finished.get();
        run.with_untracked(|r| {
            r.as_ref()
                .map(|r| Standing::of(&r.tournament, rule.get_untracked()))
        })
    });
    let parted = Memo::new(move |_| {
        let s = standing.get()?;
        s.over
            .then(|| {
                run.with_untracked(|r| {
                    r.as_ref().map(|r| {
                        s.divergences(&r.tournament, gridarena_engine::compare::TOP_DIVERGENCES)
                    })
                })
            })
            .flatten()
    });
    // The run ends when the rule says so, or at its last game.
    Effect::new(move |_| {
        // Read first, so the effect follows the standing even before a run starts.
        let over = standing.with(|s| s.as_ref().is_some_and(|s| s.over));
        if over && playing.get_untracked() {
            ctl.halt();
            playing.set(false);
            took_ms.set(Some(now_ms() - started_ms.get_untracked()));
        }
    });

    let on_start = Callback::new(move |()| {
        let checked = form.with_untracked(|f| f.check(kept::source_of));
        let t = checked.and_then(|setup| {
            let stop = setup.rule;
            setup.tournament().map(|t| (t, stop))
        });
        match t {
            Err(why) => error.set(Some(why)),
            Ok((t, stop)) => {
                rule.set(stop);
                error.set(None);
                watched.set(None);
                took_ms.set(None);
                started_ms.set(now_ms());
                playing.set(true);
                if let Some(w) = web_sys::window() {
                    let address = form.with_untracked(link);
                    if let Ok(history) = w.history() {
                        let _ = history.replace_state_with_url(
                            &wasm_bindgen::JsValue::NULL,
                            "",
                            Some(&address),
                        );
                    }
                }
                ctl.play(t);
            }
        }
    });
    let on_stop = Callback::new(move |()| {
        ctl.halt();
        playing.set(false);
        took_ms.set(Some(now_ms() - started_ms.get_untracked()));
        notice.set(Some(Line::new(
            Tone::Info,
            "Stopped: the games counted so far are below.",
        )));
    });
    let replay_at = Callback::new(move |(number, tick): (usize, usize)| {
        match run.with_untracked(|r| Watched::game(r.as_ref().map(|r| &r.tournament), number)) {
            Ok(mut w) => {
                w.replay.seek(tick);
                watched.set(Some(w));
            }
            Err(why) => notice.set(Some(Line::new(Tone::Error, why))),
        }
    });

    view! {
        <section class="compare" aria-label="Compare">
            <h2>"Compare two AIs"</h2>
            <p class="hint">
                "Did my change help? A plays B, seats and first mover swapped every other game, the two games of a pair from one seed; the run stops early once A's score is shown to be above or below 50% (a 99% interval, read after each pair, and not before the game set below), or after the games. "
                "A player is a built-in (builtin:search), a web AI's address, or an AI kept in this browser (code:NAME, code:NAME@v2). The same run on the command line: "
                <code>{move || form.with(command_line)}</code>
            </p>
            <CompareForm form playing on_start on_stop link />
            <p class="error" data-testid="compare-error" role="alert">{move || error.get()}</p>
            <p class="notice" role="status">
                {move || notice.get().map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })}
            </p>
            <Show when=move || standing.with(Option::is_some)>
                <CompareLive standing took_ms />
                <CompareParted parted replay_at />
                <ReplayView watched notice />
                <CompareGames standing replay_at />
            </Show>
        </section>
    }
}
