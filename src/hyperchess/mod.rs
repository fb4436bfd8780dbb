//! The HyperChess page: `session` is the plain-Rust state (tested natively); `page` draws it. The rules
//! are the engine's `hyperchess` module.

mod page;
pub mod session;

pub use page::HyperChessPage;
