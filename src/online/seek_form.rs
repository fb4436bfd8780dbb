//! Finding a game: the board size and colour wanted, then the waiting line with Cancel until the server
//! pairs the seek.

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
    send: Callback<ClientMsg>,
) -> impl IntoView {
    let size = RwSignal::new(u32::from(BoardSize::NINE.get()));
    let color = RwSignal::new(ColorPref::Any);
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
            </SubmitForm>
        }
    };
    view! {
        <Show when=move || waiting.with(Option::is_some) fallback=form>
            <p class="waiting" data-testid="online-waiting">
                {move || waiting.get()}
                <button data-testid="online-cancel" on:click=move |_| send.run(ClientMsg::Cancel)>"Cancel"</button>
            </p>
        </Show>
    }
}
