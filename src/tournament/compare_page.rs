//! The Compare page (`#/compare`), a module of its own (`src/bin/gridarena-compare.rs`): the form, the
//! live score with its interval, every counted game with its replay, and the positions where the two
//! players parted. The games are played by the tournament's clock ([`Control::for_compare`]: no pace,
//! nothing kept); what they show is read by [`super::compare`].

use super::compare::{self, Form, Standing};
use super::driver::{cores, Control};
use super::replay_view::{ReplayView, Watched};
use crate::code::store as kept;
use crate::notice::{tone_class, Line, Tone};
use crate::now_ms;
use gridarena_engine::compare::StopRule;
use gridarena_engine::halma::Preset;
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
    let ctl = Control::for_compare(notice);
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

    let start = move |_| {
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
    };
    let stop = move |_| {
        ctl.halt();
        playing.set(false);
        took_ms.set(Some(now_ms() - started_ms.get_untracked()));
        notice.set(Some(Line::new(
            Tone::Info,
            "Stopped: the games counted so far are below.",
        )));
    };
    let replay_at = move |number: usize, tick: usize| match run
        .with_untracked(|r| Watched::game(r.as_ref().map(|r| &r.tournament), number))
    {
        Ok(mut w) => {
            w.replay.seek(tick);
            watched.set(Some(w));
        }
        Err(why) => notice.set(Some(Line::new(Tone::Error, why))),
    };

    let field = move |key: &'static str, label: &'static str, list: Option<&'static str>| {
        let value = move || {
            form.with(|f| {
                f.fields()
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.to_string())
                    .unwrap_or_default()
            })
        };
        view! {
            <label>
                {label}
                <input
                    data-testid=format!("compare-{key}")
                    list=list
                    prop:value=value
                    on:input=move |ev| {
                        let text = event_target_value(&ev);
                        form.update(|f| *f = f.clone().with(key, text));
                    }
                />
            </label>
        }
    };
    let kept_players = kept::players();
    let builtins = ["builtin:search", "builtin:search-lite", "builtin:greedy"];
    let rate = move || {
        let n = standing.with(|s| s.as_ref().map_or(0, |s| s.tally.games()));
        took_ms.get().map(|ms| {
            format!(
                "{n} games in {:.1} s: {:.2} games per second.",
                ms / 1000.0,
                n as f64 * 1000.0 / ms.max(1.0)
            )
        })
    };

    view! {
        <section class="compare" aria-label="Compare">
            <h2>"Compare two AIs"</h2>
            <p class="hint">
                "Did my change help? A plays B, seats and first mover swapped every other game, the two games of a pair from one seed; the run stops early once A's score is shown to be above or below 50% (a 99% interval, read after each pair, and not before the game set below), or after the games. "
                "A player is a built-in (builtin:search), a web AI's address, or an AI kept in this browser (code:NAME, code:NAME@v2). The same run on the command line: "
                <code>{move || form.with(|f| format!("gridarena halma compare {} {} --games {} --min-games {} --seed {} --preset {}", f.a.trim(), f.b.trim(), f.games.trim(), f.min_games.trim(), f.seed.trim(), f.preset.trim()))}</code>
            </p>
            <datalist id="compare-players">
                {builtins.into_iter().map(|b| view! { <option value=b></option> }).collect_view()}
                {kept_players.into_iter().map(|c| view! { <option value=c.to_string()></option> }).collect_view()}
            </datalist>
            <datalist id="compare-presets">
                {Preset::ALL.into_iter().map(|p| view! { <option value=p.name()></option> }).collect_view()}
            </datalist>
            <div class="compare-form">
                {field("a", "Player A ", Some("compare-players"))}
                {field("b", "Player B ", Some("compare-players"))}
                {field("preset", "Preset ", Some("compare-presets"))}
                {field("games", "Games ", None)}
                {field("min-games", "No early stop before game ", None)}
                {field("concurrency", "At once ", None)}
                {field("seed", "Seed ", None)}
                <button data-testid="compare-start" on:click=start disabled=move || playing.get()>"Start"</button>
                <button data-testid="compare-stop" on:click=stop disabled=move || !playing.get()>"Stop"</button>
                <a data-testid="compare-link" href=move || form.with(link)>"Link to this setup"</a>
            </div>
            <p class="error" data-testid="compare-error" role="alert">{move || error.get()}</p>
            <p class="notice" role="status">
                {move || notice.get().map(|l| view! { <span class=tone_class(l.tone)>{l.text}</span> })}
            </p>
            <Show when=move || standing.with(Option::is_some)>
                <div class="compare-live" data-testid="compare-live">
                    <p data-testid="compare-score">{move || standing.get().map(|s| s.score_line())}</p>
                    <div class="compare-bar" aria-hidden="true" style="position:relative;height:12px;background:#eee;max-width:30em">
                        <div style=move || standing.get().map(|s| {
                            let i = s.tally.interval();
                            format!("position:absolute;top:0;bottom:0;left:{:.1}%;width:{:.1}%;background:#9bd", i.low * 100.0, (i.high - i.low) * 100.0)
                        }).unwrap_or_default()></div>
                        <div style="position:absolute;top:-2px;bottom:-2px;left:50%;border-left:1px solid #333"></div>
                        <div style=move || standing.get().and_then(|s| s.tally.share()).map(|p| {
                            format!("position:absolute;top:0;bottom:0;left:calc({:.1}% - 2px);width:4px;background:#036", p * 100.0)
                        }).unwrap_or_default()></div>
                    </div>
                    <p data-testid="compare-counts">
                        {move || standing.get().map(|s| format!("{} of at most {} games. {}.", s.tally.games(), s.planned, s.counts_line()))}
                    </p>
                    <p data-testid="compare-verdict" class="verdict">{move || standing.get().and_then(|s| s.verdict_line())}</p>
                    <p data-testid="compare-rate">{rate}</p>
                </div>
                <Show when=move || parted.with(|p| p.as_ref().is_some_and(|p| !p.is_empty()))>
                    <section class="compare-parted" aria-label="Where the answers differed">
                        <h3>"Where the two players' answers differed most"</h3>
                        <p class="hint">"The two games of a pair are one game until A and B, in the same seat of the same position, answer differently. Each pair's first such position, the pairs whose games then ended most differently for that seat first."</p>
                        <ol data-testid="compare-parted">
                            {move || parted.get().unwrap_or_default().into_iter().map(|d| {
                                let (a_game, b_game, tick) = (d.a_game() as usize, d.b_game() as usize, d.tick);
                                view! {
                                    <li data-testid="parted-line">
                                        {format!("Games {} and {}, turn {}, {}: A played {}, B played {}; {}. ",
                                            2 * d.pair + 1, 2 * d.pair + 2, d.tick, d.seat.name(),
                                            gridarena_engine::compare::answer_text(d.a.as_ref()), gridarena_engine::compare::answer_text(d.b.as_ref()),
                                            compare::swing_text(&d))}
                                        <button data-testid="parted-a" on:click=move |_| replay_at(a_game, tick)>"See A's game there"</button>
                                        " "
                                        <button data-testid="parted-b" on:click=move |_| replay_at(b_game, tick)>"See B's game there"</button>
                                    </li>
                                }
                            }).collect_view()}
                        </ol>
                    </section>
                </Show>
                <ReplayView watched notice />
                <table class="compare-games" data-testid="compare-games">
                    <thead><tr><th>"Game"</th><th>"A's seat"</th><th>"Result"</th><th>"Turns"</th><th>"How it ended"</th><th></th></tr></thead>
                    <tbody>
                        {move || standing.get().map(|s| s.rows).unwrap_or_default().into_iter().map(|g| {
                            let number = g.number;
                            view! {
                                <tr data-testid="compare-game">
                                    <td>{g.number + 1}</td>
                                    <td>{g.a_seat.name()}</td>
                                    <td>{g.outcome.name()}</td>
                                    <td>{g.ticks}</td>
                                    <td>{g.ending}</td>
                                    <td>{(g.ticks > 0).then(|| view! {
                                        <button data-testid="compare-replay" on:click=move |_| replay_at(number, 0)>"Replay"</button>
                                    })}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </Show>
        </section>
    }
}
