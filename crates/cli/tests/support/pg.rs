//! A fresh PostgreSQL database for a test that runs `gridarena serve` processes on it: the server's
//! test cluster (`gridarena_server::store::testing`), reached from a blocking test.

/// The URL of a new, empty database.
pub fn database() -> String {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(gridarena_server::store::testing::fresh_database())
}
