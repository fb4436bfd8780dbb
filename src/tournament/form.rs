//! The settings form: every field as typed, read into the engine's [`Settings`] (which checks the ranges)
//! only when the tournament starts, so a half-typed number is never an error while typing.

use gridarena_engine::halma::code::ClockSettings;
use gridarena_engine::halma::play::{Policy, DEFAULT_CONSECUTIVE_ERRORS};
use gridarena_engine::halma::{CampRules, Preset, Team};
use gridarena_engine::tournament::milestone::parse_list;
use gridarena_engine::tournament::pairing::Format;
use gridarena_engine::tournament::settings::Settings;

/// A form field: which one, for the components' inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Format,
    Rounds,
    Preset,
    TickMs,
    MaxTurns,
    Concurrency,
    PerEntry,
    Policy,
    StrictErrors,
    WithdrawAfter,
    Seed,
    CampRules,
    FirstMover,
    ClockSeconds,
    GraceSeconds,
    Milestones,
}

/// The settings as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsForm {
    /// `round-robin`, `double` or `swiss`.
    pub format: String,
    pub rounds: String,
    pub preset: String,
    pub tick_ms: String,
    /// Empty keeps the preset's limit.
    pub max_turns: String,
    pub concurrency: String,
    pub per_entry: String,
    /// `consecutive`, `strict` or `lenient`.
    pub policy: String,
    /// The N of `consecutive` and `strict`, one field for both, so switching keeps what was typed.
    pub strict_errors: String,
    /// Empty never withdraws.
    pub withdraw_after: String,
    pub seed: String,
    /// `seed` or `course`; read with the classic preset only, as the field is shown there alone.
    pub camp_rules: String,
    /// `drawn`, `red` or `blue`; read with the classic preset only.
    pub first_mover: String,
    /// A course-format entry's clock, seconds a game; read with the classic preset only, the one a
    /// course-format entry plays.
    pub clock_seconds: String,
    /// Its grace, in seconds; read with the classic preset only.
    pub grace_seconds: String,
    /// Code entries only (and house bots): no web AI, no program.
    pub code_only: bool,
    /// `greedy:50, search-lite:50`: built-in AIs every entry plays twice, for grading.
    pub milestones: String,
}

impl Default for SettingsForm {
    fn default() -> SettingsForm {
        SettingsForm::from_settings(&Settings::default())
    }
}

fn number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{what}: {:?} is not a whole number.", text.trim()))
}

/// Seconds as typed (fractions allowed), in whole milliseconds; the settings check the range.
fn millis(what: &str, text: &str) -> Result<u64, String> {
    seconds_to_millis(text.trim())
        .ok_or_else(|| format!("{what}: {:?} is not a number of seconds.", text.trim()))
}

/// `text`, decimal seconds such as `42`, `42.5` or `.25`, in milliseconds rounded to the nearest (half
/// up). Read digit by digit rather than through `f64`: the float parser is 6 KB of the tournament page's
/// first download, for two fields.
fn seconds_to_millis(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    let seconds: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut ms = 0;
    let mut places = fraction.bytes().map(|b| u64::from(b - b'0'));
    for scale in [100, 10, 1] {
        ms += scale * places.next().unwrap_or(0);
    }
    let up = u64::from(places.next().is_some_and(|d| d >= 5));
    seconds.checked_mul(1000)?.checked_add(ms + up)
}

/// `d` in decimal seconds to the millisecond, as a person types them: `42.5`, `300`, `0.25`. (Its
/// whole and its milliseconds apart: `Duration::as_millis`, a `u128`, would bring 128-bit division and
/// printing to the page.)
fn seconds_text(d: std::time::Duration) -> String {
    let (seconds, rest) = (d.as_secs(), d.subsec_millis());
    if rest == 0 {
        return seconds.to_string();
    }
    let fraction = format!("{rest:03}");
    format!("{seconds}.{}", fraction.trim_end_matches('0'))
}

fn optional<T: std::str::FromStr>(what: &str, text: &str) -> Result<Option<T>, String> {
    match text.trim() {
        "" => Ok(None),
        t => number(what, t).map(Some),
    }
}

impl SettingsForm {
    pub fn from_settings(s: &Settings) -> SettingsForm {
        let (format, rounds) = match s.format {
            Format::RoundRobin => ("round-robin", 5),
            Format::Double => ("double", 5),
            Format::Swiss { rounds } => ("swiss", rounds),
        };
        let (policy, errors) = match s.policy {
            Policy::Lenient => ("lenient", DEFAULT_CONSECUTIVE_ERRORS),
            Policy::Strict { errors } => ("strict", errors),
            Policy::Consecutive { errors } => ("consecutive", errors),
        };
        SettingsForm {
            format: format.to_string(),
            rounds: rounds.to_string(),
            preset: s.preset.name().to_string(),
            tick_ms: s.tick_ms.to_string(),
            max_turns: s.max_turns.map(|t| t.to_string()).unwrap_or_default(),
            concurrency: s.concurrency.to_string(),
            per_entry: s.per_entry.to_string(),
            policy: policy.to_string(),
            strict_errors: errors.to_string(),
            withdraw_after: s.withdraw_after.map(|k| k.to_string()).unwrap_or_default(),
            seed: s.seed.to_string(),
            camp_rules: s.camp_rules.name().to_string(),
            first_mover: s.first_mover.map_or("drawn", Team::name).to_string(),
            clock_seconds: seconds_text(s.clock.total),
            grace_seconds: seconds_text(s.clock.grace),
            code_only: s.code_only,
            milestones: s
                .milestones
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    pub fn get(&self, field: Field) -> &str {
        match field {
            Field::Format => &self.format,
            Field::Rounds => &self.rounds,
            Field::Preset => &self.preset,
            Field::TickMs => &self.tick_ms,
            Field::MaxTurns => &self.max_turns,
            Field::Concurrency => &self.concurrency,
            Field::PerEntry => &self.per_entry,
            Field::Policy => &self.policy,
            Field::StrictErrors => &self.strict_errors,
            Field::WithdrawAfter => &self.withdraw_after,
            Field::Seed => &self.seed,
            Field::Milestones => &self.milestones,
            Field::CampRules => &self.camp_rules,
            Field::FirstMover => &self.first_mover,
            Field::ClockSeconds => &self.clock_seconds,
            Field::GraceSeconds => &self.grace_seconds,
        }
    }

    pub fn set(&mut self, field: Field, value: String) {
        let slot = match field {
            Field::Format => &mut self.format,
            Field::Rounds => &mut self.rounds,
            Field::Preset => &mut self.preset,
            Field::TickMs => &mut self.tick_ms,
            Field::MaxTurns => &mut self.max_turns,
            Field::Concurrency => &mut self.concurrency,
            Field::PerEntry => &mut self.per_entry,
            Field::Policy => &mut self.policy,
            Field::StrictErrors => &mut self.strict_errors,
            Field::WithdrawAfter => &mut self.withdraw_after,
            Field::Seed => &mut self.seed,
            Field::Milestones => &mut self.milestones,
            Field::CampRules => &mut self.camp_rules,
            Field::FirstMover => &mut self.first_mover,
            Field::ClockSeconds => &mut self.clock_seconds,
            Field::GraceSeconds => &mut self.grace_seconds,
        };
        *slot = value;
    }

    /// Suggests the number of games at once for a roster with code entries (`code`) on a machine with
    /// `cores`: one game per core but one, since code entries run on the teacher's machine. Only a
    /// number the page put there itself is changed, never one typed by hand.
    pub fn suggest_concurrency(&mut self, code: bool, cores: Option<u32>) {
        let default = Settings::default().concurrency.to_string();
        let suggested = super::pool::games_for(cores)
            .min(gridarena_engine::tournament::settings::MAX_CONCURRENCY)
            .to_string();
        if self.concurrency != default && self.concurrency != suggested {
            return;
        }
        self.concurrency = if code { suggested } else { default };
    }

    /// The settings, or the first field that is wrong, said for a person.
    pub fn settings(&self) -> Result<Settings, String> {
        let format = match self.format.as_str() {
            "swiss" => format!("swiss:{}", self.rounds.trim()),
            other => other.to_string(),
        };
        let format: Format = format.parse().map_err(|e| format!("Format: {e}"))?;
        let preset: Preset = self.preset.parse().map_err(|e| format!("Preset: {e}"))?;
        let policy = match self.policy.as_str() {
            "strict" | "consecutive" => format!("{}:{}", self.policy, self.strict_errors.trim()),
            other => other.to_string(),
        };
        let policy: Policy = policy.parse()?;
        // The camp rules, the first mover and the course clock are offered with the classic preset
        // only; hidden, they keep what was chosen but play the seed's rules with a drawn first mover
        // and the course's clock (no course-format entry plays another preset).
        let (camp_rules, first_mover, clock) = if preset == Preset::Classic {
            let camp: CampRules = self
                .camp_rules
                .parse()
                .map_err(|e| format!("Camp rules: {e}"))?;
            let first = match self.first_mover.as_str() {
                "drawn" => None,
                team => Some(
                    team.parse::<Team>()
                        .map_err(|e| format!("First move: {e}"))?,
                ),
            };
            let clock = ClockSettings::from_millis(
                millis("Course clock", &self.clock_seconds)?,
                millis("Grace", &self.grace_seconds)?,
            );
            (camp, first, clock)
        } else {
            (CampRules::Seed, None, ClockSettings::default())
        };
        let settings = Settings {
            format,
            preset,
            tick_ms: number("Tick length (ms)", &self.tick_ms)?,
            max_turns: optional("Turn limit", &self.max_turns)?,
            concurrency: number("Games at once", &self.concurrency)?,
            per_entry: number("Games per entry at once", &self.per_entry)?,
            policy,
            withdraw_after: optional("Withdraw after", &self.withdraw_after)?,
            seed: number("Seed", &self.seed)?,
            camp_rules,
            first_mover,
            code_only: self.code_only,
            milestones: parse_list(&self.milestones).map_err(|why| format!("Milestones: {why}"))?,
            clock,
        };
        settings.check()?;
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_reads_into_the_engines_settings() {
        let mut f = SettingsForm::default();
        assert_eq!(f.settings().unwrap(), Settings::default());
        assert_eq!(
            (f.policy.as_str(), f.strict_errors.as_str()),
            ("consecutive", "10")
        );
        f.set(Field::StrictErrors, "4".into());
        assert_eq!(
            f.settings().unwrap().policy,
            Policy::Consecutive { errors: 4 }
        );
        f.set(Field::Policy, "lenient".into());
        assert_eq!(f.settings().unwrap().policy, Policy::Lenient);
        f.set(Field::Format, "swiss".into());
        f.set(Field::Rounds, "4".into());
        f.set(Field::Preset, "mini".into());
        f.set(Field::TickMs, " 150 ".into());
        f.set(Field::MaxTurns, "40".into());
        f.set(Field::Policy, "strict".into());
        f.set(Field::StrictErrors, "2".into());
        f.set(Field::WithdrawAfter, "".into());
        let s = f.settings().unwrap();
        assert_eq!(s.format, Format::Swiss { rounds: 4 });
        assert_eq!(
            (s.preset, s.tick_ms, s.max_turns),
            (Preset::Mini, 150, Some(40))
        );
        assert_eq!(
            (s.policy, s.withdraw_after),
            (Policy::Strict { errors: 2 }, None)
        );
        assert_eq!(SettingsForm::from_settings(&s).settings().unwrap(), s);
        assert!(!s.code_only);
        f.code_only = true;
        let s = f.settings().unwrap();
        assert!(s.code_only);
        assert!(SettingsForm::from_settings(&s).code_only);
    }

    #[test]
    fn milestones_are_typed_as_a_list_and_read_back() {
        let mut f = SettingsForm::default();
        assert!(f.settings().unwrap().milestones.is_empty());
        f.set(Field::Milestones, "greedy:50, search-lite:40%".into());
        let s = f.settings().unwrap();
        assert_eq!(s.milestones.len(), 2);
        assert_eq!(
            SettingsForm::from_settings(&s).milestones,
            "greedy:50, search-lite:40"
        );
        f.set(Field::Milestones, "greedy:500".into());
        assert!(f.settings().unwrap_err().starts_with("Milestones: "));
    }

    #[test]
    fn games_at_once_follow_the_cores_once_the_roster_has_code() {
        let mut f = SettingsForm::default();
        let default = f.concurrency.clone();
        f.suggest_concurrency(true, Some(8));
        assert_eq!(f.concurrency, "7");
        // Changed by hand: kept.
        f.set(Field::Concurrency, "2".into());
        f.suggest_concurrency(true, Some(16));
        assert_eq!(f.concurrency, "2");
        // Back without code: the default again, where the form still had the suggestion.
        let mut g = SettingsForm::default();
        g.suggest_concurrency(true, Some(2));
        assert_eq!(g.concurrency, "1");
        g.suggest_concurrency(false, Some(2));
        assert_eq!(g.concurrency, default);
    }

    #[test]
    fn a_bad_field_is_named() {
        let mut f = SettingsForm::default();
        f.set(Field::TickMs, "fast".into());
        assert!(f.settings().unwrap_err().starts_with("Tick length"));
        f.set(Field::TickMs, "0".into());
        assert!(f.settings().unwrap_err().contains("tick length"));
        f.set(Field::TickMs, "100".into());
        f.set(Field::Concurrency, "999".into());
        assert!(f.settings().unwrap_err().contains("games at once"));
    }

    #[test]
    fn the_course_camp_rules_and_first_mover_apply_with_the_classic_preset_only() {
        let mut f = SettingsForm::default();
        assert_eq!(
            (f.camp_rules.as_str(), f.first_mover.as_str()),
            ("seed", "drawn")
        );
        f.set(Field::Preset, "classic".into());
        f.set(Field::CampRules, "course".into());
        f.set(Field::FirstMover, "blue".into());
        let s = f.settings().unwrap();
        assert_eq!(
            (s.camp_rules, s.first_mover),
            (CampRules::Course, Some(Team::Blue))
        );
        assert_eq!(SettingsForm::from_settings(&s), f);
        // Another preset hides the fields: their choice stays in the form but is not played.
        f.set(Field::Preset, "mini".into());
        let s = f.settings().unwrap();
        assert_eq!((s.camp_rules, s.first_mover), (CampRules::Seed, None));
        assert_eq!(f.get(Field::CampRules), "course");
        f.set(Field::Preset, "classic".into());
        f.set(Field::FirstMover, "green".into());
        assert!(f.settings().unwrap_err().starts_with("First move"));
        f.set(Field::FirstMover, "drawn".into());
        f.set(Field::CampRules, "usc".into());
        assert!(f.settings().unwrap_err().starts_with("Camp rules"));
    }

    #[test]
    fn seconds_are_read_and_written_as_people_type_them() {
        for (text, ms) in [
            ("42", 42_000),
            ("42.5", 42_500),
            ("42.", 42_000),
            (".25", 250),
            ("0.0005", 1),
            ("0.0004", 0),
            ("1.2345", 1_235),
            ("007", 7_000),
        ] {
            assert_eq!(seconds_to_millis(text), Some(ms), "{text}");
        }
        for bad in [
            "",
            ".",
            "-1",
            "+1",
            "1e3",
            "inf",
            "NaN",
            "1.2.3",
            "1,5",
            " 1",
            "99999999999999999999",
        ] {
            assert_eq!(seconds_to_millis(bad), None, "{bad:?}");
        }
        for (ms, text) in [
            (42_500, "42.5"),
            (300_000, "300"),
            (250, "0.25"),
            (1, "0.001"),
            (0, "0"),
        ] {
            assert_eq!(seconds_text(std::time::Duration::from_millis(ms)), text);
            assert_eq!(seconds_to_millis(text), Some(ms));
        }
    }

    #[test]
    fn the_course_clock_is_typed_in_seconds_with_the_classic_preset() {
        let mut f = SettingsForm::default();
        assert_eq!(
            (f.clock_seconds.as_str(), f.grace_seconds.as_str()),
            ("300", "10")
        );
        f.set(Field::Preset, "classic".into());
        f.set(Field::ClockSeconds, " 42.5 ".into());
        f.set(Field::GraceSeconds, "2".into());
        let s = f.settings().unwrap();
        assert_eq!(s.clock, ClockSettings::from_millis(42_500, 2_000));
        assert_eq!(SettingsForm::from_settings(&s).clock_seconds, "42.5");
        assert_eq!(SettingsForm::from_settings(&s).settings().unwrap(), s);
        f.set(Field::ClockSeconds, "soon".into());
        assert!(f.settings().unwrap_err().starts_with("Course clock"));
        f.set(Field::ClockSeconds, "0".into());
        assert!(f.settings().unwrap_err().starts_with("The course clock"));
        // Another preset hides the fields, and no course entry plays it: the course's clock.
        f.set(Field::Preset, "arena".into());
        assert_eq!(f.settings().unwrap().clock, ClockSettings::default());
    }
}
