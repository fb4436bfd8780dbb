//! The settings: format, preset (with the classic preset, the camp rules, first move and a course-format
//! entry's clock), tick, limits and the error policy, each field as typed. Under every policy a game that reaches the turn limit goes
//! against the side with more error ticks.

use super::form::{Field, SettingsForm};
use leptos::prelude::*;

/// One labelled input bound to a form field.
#[component]
fn Input(
    form: RwSignal<SettingsForm>,
    field: Field,
    label: &'static str,
    testid: &'static str,
) -> impl IntoView {
    view! {
        <label>
            <span>{label}</span>
            <input
                data-testid=testid
                inputmode="numeric"
                size="6"
                prop:value=move || form.with(|f| f.get(field).to_string())
                on:input=move |ev| form.update(|f| f.set(field, event_target_value(&ev)))
            />
        </label>
    }
}

/// One labelled select bound to a form field.
#[component]
fn Choice(
    form: RwSignal<SettingsForm>,
    field: Field,
    label: &'static str,
    testid: &'static str,
    options: &'static [(&'static str, &'static str)],
) -> impl IntoView {
    view! {
        <label>
            <span>{label}</span>
            <select
                data-testid=testid
                prop:value=move || form.with(|f| f.get(field).to_string())
                on:change=move |ev| form.update(|f| f.set(field, event_target_value(&ev)))
            >
                {options
                    .iter()
                    .map(|(value, text)| view! { <option value=*value>{*text}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}

#[component]
pub fn SettingsPanel(form: RwSignal<SettingsForm>) -> impl IntoView {
    let swiss = move || form.with(|f| f.format == "swiss");
    let counted = move || form.with(|f| f.policy != "lenient");
    // The course's camp rules and a chosen first mover are offered with the classic preset only.
    let classic = move || form.with(|f| f.preset == "classic");
    view! {
        <fieldset class="t-settings setup">
            <legend>"Settings"</legend>
            <Choice form field=Field::Format label="Format" testid="format"
                options=&[("round-robin", "round robin"), ("double", "double round robin"), ("swiss", "Swiss")] />
            <Show when=swiss>
                <Input form field=Field::Rounds label="Rounds" testid="rounds" />
            </Show>
            <Choice form field=Field::Preset label="Preset" testid="preset"
                options=&[("arena", "arena"), ("classic", "classic"), ("mini", "mini")] />
            <Show when=classic>
                <Choice form field=Field::CampRules label="Camp rules" testid="camp-rules"
                    options=&[("seed", "seed"), ("course", "course (USC CSCI 561)")] />
                <Choice form field=Field::FirstMover label="First move" testid="first-move"
                    options=&[("drawn", "drawn"), ("red", "red (Black)"), ("blue", "blue (White)")] />
                <Input form field=Field::ClockSeconds label="Course clock (s a game)" testid="clock" />
                <Input form field=Field::GraceSeconds label="Clock grace (s)" testid="grace" />
            </Show>
            <Input form field=Field::TickMs label="Tick (ms)" testid="tick" />
            <Input form field=Field::MaxTurns label="Turn limit (empty: the preset's)" testid="turns" />
            <Input form field=Field::Concurrency label="Games at once" testid="concurrency" />
            <Input form field=Field::PerEntry label="Games per entry at once" testid="per-entry" />
            <Choice form field=Field::Policy label="Errors" testid="policy"
                options=&[
                    ("consecutive", "consecutive: N errors in a row forfeit (default)"),
                    ("strict", "strict: N errors in a game forfeit"),
                    ("lenient", "lenient: an error loses the move"),
                ] />
            <Show when=counted>
                <Input form field=Field::StrictErrors label="N" testid="strict-errors" />
            </Show>
            <Input form field=Field::WithdrawAfter label="Withdraw after K silent games (empty: never)" testid="withdraw-after" />
            <Input form field=Field::Seed label="Seed" testid="seed" />
            <Input form field=Field::Milestones
                label="Milestones for grading (greedy:50, search-lite:50, search:25; empty: none)"
                testid="milestones" />
            <label class="check">
                <input
                    type="checkbox"
                    data-testid="code-only"
                    prop:checked=move || form.with(|f| f.code_only)
                    on:change=move |ev| form.update(|f| f.code_only = event_target_checked(&ev))
                />
                <span>"Code entries only (a final: no web AI a person could drive, house bots allowed)"</span>
            </label>
        </fieldset>
    }
}
