//! The two players' panels: name, stones captured, and the move clock of the player to move.

use super::session::{title, GoSession, MOVE_LIMIT_MS};
use gridarena_engine::go::Color;
use leptos::prelude::*;

/// A clock reading: "4:59"; whole seconds, rounded up, so it shows 0:00 only when time is up.
pub fn clock_text(ms: f64) -> String {
    let s = (ms.max(0.0) / 1000.0).ceil() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// Under this much time left a clock is shown as urgent.
const URGENT_MS: f64 = 30_000.0;

#[component]
pub fn Players(
    session: RwSignal<GoSession>,
    now: RwSignal<f64>,
    #[prop(into)] thinking: Signal<bool>,
) -> impl IntoView {
    let panel = move |c: Color| {
        let to_move =
            Memo::new(move |_| session.with(|s| !s.game().is_over() && s.game().to_move() == c));
        let running = Memo::new(move |_| to_move.get() && session.with(GoSession::clock_running));
        let clock = move || {
            if !running.get() {
                return (clock_text(MOVE_LIMIT_MS), false);
            }
            let left = session.with(|s| s.clock_left(now.get())).unwrap_or(0.0);
            (clock_text(left), left < URGENT_MS)
        };
        // A clock that is not counting says so: before the first move both wait.
        let clock_class = move || match (running.get(), clock().1) {
            (false, _) => "clock waiting",
            (true, true) => "clock urgent",
            (true, false) => "clock",
        };
        let class = move || {
            let mut class = String::from("go-player");
            class.push_str(if c == Color::Black {
                " black"
            } else {
                " white"
            });
            if to_move.get() {
                class.push_str(" to-move");
            }
            class
        };
        // Between two people the colour is the name; otherwise "Black: You".
        let name = move || {
            let name = session.with(|s| s.player_name(c));
            (name != title(c)).then(|| format!(": {name}"))
        };
        let captures = move || session.with(|s| s.game().captures(c));
        let thinks = move || {
            (to_move.get() && thinking.get() && session.with(|s| s.ai_color() == Some(c)))
                .then_some(" thinking…")
        };
        view! {
            <div class=class data-testid=format!("player-{}", c.name())>
                <span class="swatch" aria-hidden="true"></span>
                <span class="name">{title(c)} {name}</span>
                <span class="thinking">{thinks}</span>
                <span class="captures">"captured " <b data-testid="captures">{captures}</b></span>
                <span
                    class=clock_class
                    role="timer"
                    aria-label=format!("{} move clock", title(c))
                    data-testid="clock"
                >
                    {move || clock().0}
                </span>
            </div>
        }
    };
    view! { <div class="go-players">{panel(Color::Black)} {panel(Color::White)}</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_in_minutes_and_seconds_rounded_up() {
        assert_eq!(clock_text(MOVE_LIMIT_MS), "5:00");
        assert_eq!(clock_text(299_001.0), "5:00");
        assert_eq!(clock_text(299_000.0), "4:59");
        assert_eq!(clock_text(1.0), "0:01");
        assert_eq!(clock_text(0.0), "0:00");
        assert_eq!(clock_text(-5.0), "0:00");
    }
}
