//! The moves besides a click on the board: Pass, Resign (confirmed first), Undo, and a move typed as text
//! for keyboards and screen readers. Each button hands an [`Action`] to the page.

use super::session::Action;
use crate::widgets::SubmitForm;
use leptos::prelude::*;

#[component]
pub fn Actions(
    /// Whether a person at the screen moves now.
    human_turn: Memo<bool>,
    can_undo: Memo<bool>,
    over: Memo<bool>,
    /// Whether "Resign this game?" is asked; the page clears it when anything else happens.
    confirm_resign: RwSignal<bool>,
    on_act: Callback<Action>,
    /// The text typed into "Play at".
    on_typed: Callback<String>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let submit = Callback::new(move |()| {
        on_typed.run(typed.get_untracked());
        typed.set(String::new());
    });
    let resign = move || {
        view! {
            <button data-testid="resign" disabled=move || over.get() on:click=move |_| confirm_resign.set(true)>
                "Resign"
            </button>
        }
    };
    view! {
        <div class="go-actions" role="group" aria-label="Moves">
            <button data-testid="pass" disabled=move || !human_turn.get() on:click=move |_| on_act.run(Action::Pass)>
                "Pass"
            </button>
            <Show when=move || confirm_resign.get() fallback=resign>
                <span class="confirm">
                    "Resign this game? "
                    <button data-testid="resign-yes" on:click=move |_| on_act.run(Action::Resign)>"Yes, resign"</button>
                    <button data-testid="resign-no" on:click=move |_| confirm_resign.set(false)>"No"</button>
                </span>
            </Show>
            <button data-testid="undo" disabled=move || !can_undo.get() on:click=move |_| on_act.run(Action::Undo)>
                "Undo"
            </button>
            <SubmitForm class="typed" on_submit=submit>
                <label>
                    <span>"Play at"</span>
                    <input
                        type="text"
                        size="5"
                        placeholder="D4"
                        autocomplete="off"
                        data-testid="typed-move"
                        aria-label="Play at a point (such as D4) or pass"
                        prop:value=move || typed.get()
                        on:input=move |ev| typed.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit" disabled=move || !human_turn.get()>"Play"</button>
            </SubmitForm>
        </div>
    }
}
