//! The classroom tournament page (`#/tournament`): a roster of Halma AIs (web AIs, house bots, and
//! students' code handed in as files, folders, .zip files or code links), a roll call that checks every
//! web and code entry before round 1, the games played live on a projector wall, the standings and crosstable,
//! replays of finished games, and a saved state a reload resumes from. The Compare page (`#/compare`,
//! [`ComparePage`], a module of its own) plays two players' games on the compare schedule by the same
//! clock.
//!
//! Every rule (pairing, scoring, the error policy, withdrawals) is the engine's
//! [`gridarena_engine::tournament`]; the view models here hold no signals and are tested natively, and
//! the components only draw them and drive the clock.

pub mod compare;
pub mod form;
pub mod handed_in;
pub mod job;
pub mod jobs;
pub mod pool;
pub mod roll_call;
pub mod roster_list;
pub mod runner;
pub mod table;

mod code_view;
mod compare_form;
mod compare_games;
mod compare_live;
mod compare_page;
mod compare_parted;
mod compare_text;
mod crosstable_view;
mod driver;
mod games_list;
mod hand_in;
mod page;
mod replay_view;
mod roll_call_panel;
mod roster_add;
mod roster_entries;
mod roster_files;
mod roster_panel;
mod settings_panel;
mod standings_view;
mod store;
mod table_pace;
mod wall;

pub use compare_page::ComparePage;
pub use driver::{Asked, Control};
pub use page::{Running, RunningProps, TournamentPage};
