//! A team's player choice: the built-in AIs, a human, the AIs written on the "Write an AI" page and kept
//! in this browser, or a web AI with its URL.

use super::messages::{Line, Tone};
use super::player::Player;
use gridarena_engine::halma::protocol::check_ai_url;
use gridarena_engine::halma::{ContentType, Team};
use leptos::prelude::*;

/// Where a new web AI points until the user types another address: the Python starter's default.
const DEFAULT_WEB_URL: &str = "http://127.0.0.1:8001/";

/// The menu and, for a web AI, its URL field. `on_change` receives each valid choice; an invalid URL is
/// reported through `notice` and changes nothing.
#[component]
pub fn PlayerPicker(
    team: Team,
    /// The team's current player.
    #[prop(into)]
    current: Signal<Player>,
    on_change: Callback<Player>,
    notice: RwSignal<Option<Line>>,
    /// How the web AI's requests are labelled.
    content_type: RwSignal<ContentType>,
    /// The tick length, which the doctor page's link carries.
    tick_ms: RwSignal<u32>,
) -> impl IntoView {
    // The URL field's text, kept while another player is chosen so switching back restores it.
    let url = RwSignal::new(match current.get_untracked() {
        Player::Web(u) => u,
        _ => DEFAULT_WEB_URL.to_string(),
    });
    // "web" is chosen in the menu: the URL field shows even before a valid address is in it.
    let web_chosen = RwSignal::new(matches!(current.get_untracked(), Player::Web(_)));
    Effect::new(move |_| {
        if let Player::Web(u) = current.get() {
            web_chosen.set(true);
            url.set(u);
        }
    });
    let apply_url = move || match check_ai_url(&url.get_untracked()) {
        Ok(u) => on_change.run(Player::Web(u)),
        Err(why) => notice.set(Some(Line {
            tone: Tone::Error,
            text: format!("{team} web AI: {why}"),
        })),
    };
    let name = team.name();
    // The AIs kept in this browser, each as its draft and its saved versions; the current one too, if a
    // link names one that is not kept here (the tick then says so).
    let mut kept: Vec<Player> = crate::code::store::players()
        .into_iter()
        .map(Player::Code)
        .collect();
    if let p @ Player::Code(_) = current.get_untracked() {
        if !kept.contains(&p) {
            kept.push(p);
        }
    }
    let code_options = (!kept.is_empty()).then(|| {
        view! {
            <optgroup label="Your AIs (kept in this browser)">
                {kept
                    .into_iter()
                    .map(|p| view! { <option value=p.to_string()>{p.describe()}</option> })
                    .collect_view()}
            </optgroup>
        }
    });
    view! {
        <span class=format!("player {name} team-{name}")>
            <label>
                <span class="team-name">{name}</span>
                <select
                    data-testid=format!("player-{name}")
                    aria-label=format!("Player for {name}")
                    prop:value=move || {
                        if web_chosen.get() { Player::WEB_CHOICE.to_string() } else { current.get().menu_value() }
                    }
                    on:change=move |ev| {
                        let value = event_target_value(&ev);
                        if value == Player::WEB_CHOICE {
                            web_chosen.set(true);
                            apply_url();
                        } else if let Ok(p) = value.parse::<Player>() {
                            web_chosen.set(false);
                            on_change.run(p);
                        }
                    }
                >
                    {Player::all()
                        .into_iter()
                        .map(|p| view! { <option value=p.to_string()>{p.describe()}</option> })
                        .collect_view()}
                    {code_options}
                    <option value=Player::WEB_CHOICE>"Web AI (URL)"</option>
                </select>
            </label>
            <a class="write-ai" href="#/code" data-testid=format!("write-ai-{name}")>"Write an AI"</a>
            <Show when=move || web_chosen.get()>
                <input
                    type="url"
                    class="web-url"
                    data-testid=format!("url-{name}")
                    aria-label=format!("Web AI address for {name}")
                    placeholder=DEFAULT_WEB_URL
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))
                    on:change=move |_| apply_url()
                    on:keydown=move |ev| {
                        // Enter takes the address; it must not also submit the form (a new game).
                        if ev.key() == "Enter" {
                            ev.prevent_default();
                            apply_url();
                        }
                    }
                />
                <select
                    data-testid=format!("type-{name}")
                    aria-label=format!("Content type of {name}'s requests")
                    prop:value=move || content_type.get().key()
                    on:change=move |ev| {
                        if let Ok(c) = event_target_value(&ev).parse::<ContentType>() {
                            content_type.set(c);
                        }
                    }
                >
                    {ContentType::ALL
                        .into_iter()
                        .map(|c| view! { <option value=c.key()>{c.header()}</option> })
                        .collect_view()}
                </select>
                <a
                    data-testid=format!("doctor-{name}")
                    target="_blank"
                    rel="noopener"
                    href=move || doctor_link(&url.get(), content_type.get(), tick_ms.get())
                >
                    "Test this AI"
                </a>
            </Show>
        </span>
    }
}

/// The doctor page's link for the web AI at `url`.
fn doctor_link(url: &str, content_type: ContentType, tick_ms: u32) -> String {
    format!(
        "#/doctor?url={}&type={}&tick={tick_ms}",
        js_sys::encode_uri_component(url),
        content_type.key()
    )
}
