//! A finished game replayed with the arena's replay model and board, and its record offered as a
//! download (the arena page's "Load record" opens it).

use super::table;
use crate::files;
use crate::halma::board::Board;
use crate::halma::replay::Replay;
use crate::halma::scrubber::Scrubber;
use crate::notice::{tone_class, Line};
use gridarena_engine::tournament::event::Tournament;
use leptos::prelude::*;

/// A game being replayed: the replay, and its record file (name, text) for the download.
#[derive(Clone, Debug)]
pub struct Watched {
    pub replay: Replay,
    pub file: (String, String),
}

impl Watched {
    /// Finished game `number` of `t`, from its record, at its start.
    pub fn game(t: Option<&Tournament>, number: usize) -> Result<Watched, String> {
        let (name, text) = table::record(t.ok_or("No tournament.")?, number)?;
        let replay = Replay::load(&name, text.as_bytes()).map_err(|e| e.to_string())?;
        Ok(Watched {
            replay,
            file: (name, text),
        })
    }
}

#[component]
pub fn ReplayView(
    watched: RwSignal<Option<Watched>>,
    notice: RwSignal<Option<Line>>,
) -> impl IntoView {
    let board = Memo::new(move |_| {
        watched.with(|w| w.as_ref().map(|w| w.replay.board()).unwrap_or_default())
    });
    let at = move || watched.with(|w| w.as_ref().map_or(0, |w| w.replay.at()));
    let ticks = move || watched.with(|w| w.as_ref().map_or(0, |w| w.replay.ticks()));
    let lines = move || watched.with(|w| w.as_ref().map(|w| w.replay.lines()).unwrap_or_default());
    let arena_link = move || watched.with(|w| w.as_ref().and_then(|w| w.replay.arena_link()));
    let seek = move |k: usize| {
        watched.update(|w| {
            if let Some(w) = w {
                w.replay.seek(k)
            }
        })
    };
    let download = move |_| {
        let file = watched.with_untracked(|w| w.as_ref().map(|w| w.file.clone()));
        if let Some((name, text)) = file {
            if let Err(e) = files::download(&name, &text, "application/x-ndjson") {
                notice.set(Some(Line::new(crate::notice::Tone::Error, e)));
            }
        }
    };
    view! {
        <Show when=move || watched.with(Option::is_some)>
            <section class="t-replay" data-testid="replay-view" aria-label="Replay">
                <ul class="messages" data-testid="replay-lines">
                    {move || lines().into_iter().map(|l| view! { <li class=tone_class(l.tone)>{l.text}</li> }).collect_view()}
                </ul>
                <div class="t-board"><Board view=board /></div>
                <div class="replay" role="group" aria-label="Replay controls">
                    <button data-testid="replay-back" on:click=move |_| seek(at().saturating_sub(1))>"◀ Back"</button>
                    <Scrubber at=at ticks=ticks on_seek=seek />
                    <button data-testid="replay-step" on:click=move |_| seek(at() + 1)>"Step ▶"</button>
                    <button data-testid="download-record" on:click=download>"Download record"</button>
                    {move || {
                        arena_link()
                            .map(|href| {
                                view! {
                                    <a
                                        data-testid="continue-in-arena"
                                        href=href
                                        target="_blank"
                                        title="Opens this position in the arena's position editor: play on from it with your current AI"
                                    >
                                        "Continue in the arena"
                                    </a>
                                }
                            })
                    }}
                    <button data-testid="close-replay" on:click=move |_| watched.set(None)>"Close"</button>
                </div>
            </section>
        </Show>
    }
}
