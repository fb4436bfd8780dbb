//! Records and replays: download the live game's record, load one, and scrub through it.

use super::arena_model::{loaded_notice, record_download};
use super::messages::{Line, Tone};
use super::replay::Replay;
use super::scrubber::Scrubber;
use super::session::Session;
use crate::files;
use gridarena_engine::halma::record::MAX_RECORD_BYTES;
use leptos::prelude::*;

/// Download record or, while a record is watched, the turn slider and the way back; always Load record.
#[component]
pub fn ReplayBar(
    session: RwSignal<Session>,
    /// The record being watched; while set, the board and the controls belong to it.
    replay: RwSignal<Option<Replay>>,
    running: RwSignal<bool>,
    notice: RwSignal<Option<Line>>,
) -> impl IntoView {
    let error = move |text: String| {
        notice.set(Some(Line {
            tone: Tone::Error,
            text,
        }))
    };
    let download = move || {
        let saved = session
            .with_untracked(record_download)
            .and_then(|(name, text)| files::download(&name, &text, "application/x-ndjson"));
        if let Err(why) = saved {
            error(why);
        }
    };
    let load = move |ev: leptos::ev::Event| {
        let Some(file) = files::chosen(&ev) else {
            return;
        };
        running.set(false);
        leptos::task::spawn_local(async move {
            let name = file.name();
            let loaded = files::read(file, MAX_RECORD_BYTES, "records")
                .await
                .and_then(|bytes| Replay::load(&name, &bytes).map_err(|e| format!("{name}: {e}")));
            match loaded {
                Ok(r) => {
                    notice.set(Some(loaded_notice(&r)));
                    replay.set(Some(r));
                }
                Err(why) => error(why),
            }
        });
    };
    // A new live game from the tick shown: the record's position, rules and turn count, the setup's
    // players (typically the student's current AI in place of the one that lost).
    let continue_here = move || {
        let Some((game, preset, at)) = replay.with_untracked(|r| {
            let r = r.as_ref()?;
            let record = r.record();
            let preset = record.header().preset;
            Some((record.game(r.at())?, preset, r.at()))
        }) else {
            return;
        };
        running.set(false);
        session.update(|s| {
            let preset = preset.unwrap_or(s.preset());
            *s = s.continued(preset, game);
        });
        replay.set(None);
        notice.set(Some(Line {
            tone: Tone::Info,
            text: format!(
                "A new game from tick {at} of the record, with the players chosen below: Step or Run to play on."
            ),
        }));
    };
    let at = move || replay.with(|r| r.as_ref().map_or(0, Replay::at));
    let ticks = move || replay.with(|r| r.as_ref().map_or(0, Replay::ticks));

    view! {
        <div class="replay" role="group" aria-label="Records and replays">
            <Show
                when=move || replay.with(Option::is_some)
                fallback=move || {
                    view! {
                        <button
                            data-testid="download"
                            disabled=move || session.with(|s| !s.has_record())
                            on:click=move |_| download()
                        >
                            "Download record"
                        </button>
                    }
                }
            >
                <Scrubber
                    at=at
                    ticks=ticks
                    on_seek=move |k| replay.update(|r| if let Some(r) = r { r.seek(k) })
                />
                <button
                    data-testid="continue-here"
                    title="A new game from the position shown, with the players chosen in the setup"
                    on:click=move |_| continue_here()
                >
                    "Continue from here"
                </button>
                <button
                    data-testid="leave-replay"
                    on:click=move |_| {
                        running.set(false);
                        replay.set(None);
                        notice.set(None);
                    }
                >
                    "Back to the live game"
                </button>
            </Show>
            <label class="load">
                <span>"Load record"</span>
                <input type="file" accept=".jsonl,.json,.txt,application/x-ndjson" data-testid="load" on:change=load />
            </label>
        </div>
    }
}
