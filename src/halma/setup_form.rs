//! The new-game form: each team's player (switched at once), the preset and the seed (applied by New
//! game), and what is being played.

use super::arena_model::{game_info, preset_label, turn_text};
use super::messages::Line;
use super::player::Player;
use super::player_picker::PlayerPicker;
use super::session::Session;
use gridarena_engine::halma::{CampRules, ContentType, Preset, Team, Teams};
use leptos::prelude::*;

/// The form; New game sends the seed field's text to `on_new_game`.
#[component]
pub fn SetupForm(
    session: RwSignal<Session>,
    /// The live game's players, as the pickers show them.
    players: Memo<Teams<Player>>,
    /// The preset the next New game sets up.
    preset_choice: RwSignal<Preset>,
    /// The camp rules of the next New game (offered with the classic preset only).
    camp_rules_choice: RwSignal<CampRules>,
    /// The team that opens the next New game; `None` draws it from the seed (classic preset only).
    first_choice: RwSignal<Option<Team>>,
    notice: RwSignal<Option<Line>>,
    /// Each team's content type for web requests.
    content_types: Teams<RwSignal<ContentType>>,
    tick_ms: RwSignal<u32>,
    /// The turn-limit field's text (empty: the preset's own), checked by New game.
    turns_text: RwSignal<String>,
    on_new_game: Callback<String>,
) -> impl IntoView {
    let seed_text = RwSignal::new(String::new());
    let player_picker = move |team: Team| {
        view! {
            <PlayerPicker
                team=team
                current=Signal::derive(move || players.with(|p| p[team].clone()))
                on_change=Callback::new(move |p: Player| {
                    session.update(|s| s.set_player(team, p));
                    notice.set(None);
                })
                notice=notice
                content_type=content_types[team]
                tick_ms=tick_ms
            />
        }
    };
    // Not `widgets::SubmitForm`: its `Children` erase this large form into an `AnyView`, which cost the
    // arena, the start page, 4.5 KB gzipped (203,078 against 198,567 bytes) and put it over its 200 KB budget.
    view! {
        <form
            class="setup"
            aria-label="New game"
            on:submit=move |ev| {
                ev.prevent_default();
                on_new_game.run(seed_text.get_untracked());
            }
        >
            {player_picker(Team::Red)}
            {player_picker(Team::Blue)}
            <label>
                <span>"Preset"</span>
                <select
                    data-testid="preset"
                    aria-label="Preset"
                    prop:value=move || preset_choice.get().name()
                    on:change=move |ev| {
                        if let Ok(p) = event_target_value(&ev).parse::<Preset>() {
                            preset_choice.set(p);
                        }
                    }
                >
                    {Preset::ALL
                        .into_iter()
                        .map(|p| view! { <option value=p.name()>{preset_label(p)}</option> })
                        .collect_view()}
                </select>
            </label>
            {move || (preset_choice.get() == Preset::Classic).then(|| view! {
                <label>
                    <span>"Camp rules"</span>
                    <select
                        data-testid="camp-rules"
                        aria-label="Camp rules"
                        prop:value=move || camp_rules_choice.get().name()
                        on:change=move |ev| {
                            if let Ok(c) = event_target_value(&ev).parse::<CampRules>() {
                                camp_rules_choice.set(c);
                            }
                        }
                    >
                        <option value="seed">"seed"</option>
                        <option value="course">"course (USC CSCI 561)"</option>
                    </select>
                </label>
                <label>
                    <span>"First move"</span>
                    <select
                        data-testid="first-move"
                        aria-label="First move (the course's Black is red, top-left; White is blue)"
                        prop:value=move || first_choice.get().map_or("drawn", Team::name)
                        on:change=move |ev| {
                            first_choice.set(event_target_value(&ev).parse::<Team>().ok());
                        }
                    >
                        <option value="drawn">"drawn"</option>
                        <option value="red">"red (Black)"</option>
                        <option value="blue">"blue (White)"</option>
                    </select>
                </label>
            })}
            <label>
                <span>"Seed"</span>
                <input
                    type="text"
                    inputmode="numeric"
                    data-testid="seed"
                    aria-label="Seed (empty for a random one)"
                    placeholder="random"
                    prop:value=move || seed_text.get()
                    on:input=move |ev| seed_text.set(event_target_value(&ev))
                />
            </label>
            <label>
                <span>"Turn limit"</span>
                <input
                    type="text"
                    inputmode="numeric"
                    data-testid="turn-limit"
                    aria-label="Turn limit, 1 to 100000 (empty for the preset's)"
                    placeholder=move || preset_choice.get().rules().turn_limit.to_string()
                    prop:value=move || turns_text.get()
                    on:input=move |ev| turns_text.set(event_target_value(&ev))
                />
            </label>
            <button type="submit" data-testid="new-game">"New game"</button>
            <span class="game-info" data-testid="game-info">
                {move || session.with(game_info)}
                <span class="game-turn">{move || session.with(turn_text)}</span>
            </span>
        </form>
    }
}
