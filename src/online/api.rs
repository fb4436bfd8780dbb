//! The server's HTTP side, and the identity this browser keeps.

use super::protocol::{Identity, Record};
use gloo_net::http::Request;

/// Where the browser keeps its name and secret token.
const STORAGE_KEY: &str = "gridarena.online.player";

/// The server's `{"error": ...}` body, or the status.
async fn failure(response: gloo_net::http::Response) -> String {
    let status = response.status();
    if status == 404 || status == 405 {
        return NO_SERVER.to_string();
    }
    #[derive(serde::Deserialize)]
    struct Error {
        error: String,
    }
    let text = response.text().await.unwrap_or_default();
    match serde_json::from_str::<Error>(&text) {
        Ok(e) => e.error,
        Err(_) => format!("the server answered HTTP {status}"),
    }
}

const NO_SERVER: &str =
    "there is no online Go server at this address: online Go needs `gridarena serve` (see the README)";

fn unreachable(e: gloo_net::Error) -> String {
    format!("the online server is not reachable ({e}): online Go needs `gridarena serve`, see the README")
}

/// Reads a JSON answer.
async fn read<T: serde::de::DeserializeOwned>(
    response: gloo_net::http::Response,
) -> Result<T, String> {
    // A static host answers with its HTML page (or 404) where the server would answer JSON.
    let json = response
        .headers()
        .get("content-type")
        .is_some_and(|t| t.starts_with("application/json"));
    if !json {
        return Err(NO_SERVER.to_string());
    }
    let text = response.text().await.map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("the server's answer is unreadable: {e}"))
}

/// Registers `name`; the server answers with the token.
pub async fn register(name: &str) -> Result<Identity, String> {
    let body = serde_json::json!({ "name": name }).to_string();
    let response = Request::post("api/players")
        .header("content-type", "application/json")
        .body(body)
        .map_err(|e| e.to_string())?
        .send()
        .await
        .map_err(unreachable)?;
    if !response.ok() {
        return Err(failure(response).await);
    }
    read(response).await
}

/// The leaderboard, best first.
pub async fn leaderboard() -> Result<Vec<Record>, String> {
    let response = Request::get("api/leaderboard")
        .send()
        .await
        .map_err(unreachable)?;
    if !response.ok() {
        return Err(failure(response).await);
    }
    read(response).await
}

/// The address of a game's SGF record.
pub fn sgf_url(game: u64) -> String {
    format!("api/games/{game}/sgf")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The identity this browser keeps, if any.
pub fn load_identity() -> Option<Identity> {
    let text = storage()?.get_item(STORAGE_KEY).ok().flatten()?;
    serde_json::from_str(&text).ok()
}

/// Keeps the identity (or forgets it, with `None`); false if the browser refuses storage.
pub fn store_identity(identity: Option<&Identity>) -> bool {
    let Some(storage) = storage() else {
        return false;
    };
    match identity {
        Some(id) => storage
            .set_item(STORAGE_KEY, &serde_json::to_string(id).unwrap_or_default())
            .is_ok(),
        None => storage.remove_item(STORAGE_KEY).is_ok(),
    }
}
