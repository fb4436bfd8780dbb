//! The doctor's form: the AI's address, the content type its team sends, the tick length, and the
//! "Test this AI" button. The values live in the page's signals, which a link fills.

use crate::widgets::SubmitForm;
use gridarena_engine::halma::ContentType;
use leptos::prelude::*;

#[component]
pub fn DoctorForm(
    /// The AI's address as typed.
    url: RwSignal<String>,
    /// The content type the team sends.
    content_type: RwSignal<ContentType>,
    /// The tick length as typed, in milliseconds.
    tick: RwSignal<String>,
    /// Whether a battery is running (the button waits for it).
    running: Signal<bool>,
    on_test: Callback<()>,
) -> impl IntoView {
    let choose = move |ev| {
        if let Ok(ty) = event_target_value(&ev).parse::<ContentType>() {
            content_type.set(ty);
        }
    };
    view! {
        <SubmitForm class="setup doctor-form" label="The AI to test" on_submit=on_test>
            <label class="doctor-url">
                "Address "
                <input
                    type="text"
                    data-testid="doctor-url"
                    placeholder="http://127.0.0.1:8001/"
                    spellcheck="false"
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))
                />
            </label>
            <label>
                "Body sent as "
                <select data-testid="doctor-type" on:change=choose>
                    {ContentType::ALL
                        .into_iter()
                        .map(|ty| {
                            view! {
                                <option value=ty.key() selected=move || content_type.get() == ty>
                                    {ty.header()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Tick "
                <input
                    type="text"
                    inputmode="numeric"
                    size="6"
                    data-testid="doctor-tick"
                    prop:value=move || tick.get()
                    on:input=move |ev| tick.set(event_target_value(&ev))
                />
                " ms"
            </label>
            <button type="submit" data-testid="doctor-run" disabled=move || running.get()>
                "Test this AI"
            </button>
        </SubmitForm>
    }
}
