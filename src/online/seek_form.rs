//! Finding a game: the board size and colour wanted, then the waiting line with Cancel until the server
//! pairs the seek. Where the server has an AI player (the house), a second button plays it at once, on
//! the form and from the waiting line, for whoever finds nobody to play.

use super::lobby::color_pref;
use crate::widgets::{BoardSizeSelect, SubmitForm};
use gridarena_engine::go::online::{ClientMsg, ColorPref};
use gridarena_engine::go::BoardSize;
use leptos::prelude::*;

#[component]
pub fn SeekForm(
    /// The waiting line while the seek is in the queue.
    #[prop(into)]
    waiting: Signal<Option<String>>,
    /// The server's AI player's name, when it takes games.
    #[prop(into)]
    house: Signal<Option<String>>,
    send: Callback<ClientMsg>,
) -> impl IntoView {
    let size = RwSignal::new(u32::from(BoardSize::NINE.get()));
    let color = RwSignal::new(ColorPref::Any);
    let play_house = move |testid: &'static str, label: &'static str| {
        house.get().map(|name| {
            view! {
                <button
                    type="button"
                    data-testid=testid
                    title="The server's own AI: the game starts at once and counts on the leaderboard"
                    on:click=move |_| {
                        send.run(ClientMsg::House { size: size.get_untracked(), color: color.get_untracked() });
                    }
                >
                    {format!("{label} {name}")}
                </button>
            }
        })
    };
    let form = move || {
        view! {
            <SubmitForm
                class="setup"
                label="Find a game"
                on_submit=Callback::new(move |()| {
                    send.run(ClientMsg::Seek { size: size.get_untracked(), color: color.get_untracked() });
                })
            >
                <BoardSizeSelect testid="online-size" on_change=Callback::new(move |n| size.set(n)) />
                <label>
                    <span>"Colour"</span>
                    <select
                        data-testid="online-color"
                        on:change=move |ev| color.set(color_pref(&event_target_value(&ev)))
                    >
                        <option value="any">"Either"</option>
                        <option value="black">"Black"</option>
                        <option value="white">"White"</option>
                    </select>
                </label>
                <button type="submit" data-testid="online-seek">"Find a game"</button>
                {move || play_house("online-house", "Play")}
            </SubmitForm>
        }
    };
    view! {
        <Show when=move || waiting.with(Option::is_some) fallback=form>
            <p class="waiting" data-testid="online-waiting">
                {move || waiting.get()}
                <button data-testid="online-cancel" on:click=move |_| send.run(ClientMsg::Cancel)>"Cancel"</button>
                {move || play_house("online-waiting-house", "or play")}
            </p>
        </Show>
    }
}
