//! The server's HTTP side, and the identity this browser keeps.

use gloo_net::http::{Request, Response};
use gridarena_engine::go::online::{ApiError, GameId, NewPlayer, PlayerRecord, Registered};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where the browser keeps its name and secret token.
const STORAGE_KEY: &str = "gridarena.online.player";

/// The name and secret the server issued, as the browser keeps them (`{"name","token"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub name: String,
    pub token: String,
}

impl From<Registered> for Identity {
    fn from(r: Registered) -> Identity {
        Identity {
            name: r.name,
            token: r.token,
        }
    }
}

/// Why a request to the server failed, in words the lobby shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiFailure {
    /// The page is served by a plain file server: nothing answers under `api/`.
    NoServer,
    /// The request did not reach a server at all.
    Unreachable(String),
    /// The server said no, and why (`{"error": ...}`), or only its HTTP status.
    Refused(String),
    /// The answer is not the JSON the protocol promises.
    Unreadable(String),
}

impl fmt::Display for ApiFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiFailure::NoServer => f.write_str(
                "there is no online Go server at this address: online Go needs `gridarena serve` (see the README)",
            ),
            ApiFailure::Unreachable(e) => write!(
                f,
                "the online server is not reachable ({e}): online Go needs `gridarena serve`, see the README"
            ),
            ApiFailure::Refused(why) => f.write_str(why),
            ApiFailure::Unreadable(e) => write!(f, "the server's answer is unreadable: {e}"),
        }
    }
}

/// Why the server refused: its `{"error": ...}` body, or the status.
async fn refusal(response: Response) -> ApiFailure {
    let status = response.status();
    if status == 404 || status == 405 {
        return ApiFailure::NoServer;
    }
    let text = response.text().await.unwrap_or_default();
    match serde_json::from_str::<ApiError>(&text) {
        Ok(e) => ApiFailure::Refused(e.error),
        Err(_) => ApiFailure::Refused(format!("the server answered HTTP {status}")),
    }
}

/// The JSON answer to a request that was sent, or why there is none.
async fn answer<T: serde::de::DeserializeOwned>(
    sent: Result<Response, gloo_net::Error>,
) -> Result<T, ApiFailure> {
    let response = sent.map_err(|e| ApiFailure::Unreachable(e.to_string()))?;
    if !response.ok() {
        return Err(refusal(response).await);
    }
    // A static host answers with its HTML page (or 404) where the server would answer JSON.
    let json = response
        .headers()
        .get("content-type")
        .is_some_and(|t| t.starts_with("application/json"));
    if !json {
        return Err(ApiFailure::NoServer);
    }
    let text = response
        .text()
        .await
        .map_err(|e| ApiFailure::Unreadable(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| ApiFailure::Unreadable(e.to_string()))
}

/// Registers `name`; the server answers with the token.
pub async fn register(name: &str) -> Result<Identity, ApiFailure> {
    let body = NewPlayer {
        name: name.to_string(),
    };
    let request = Request::post("api/players")
        .header("content-type", "application/json")
        .body(serde_json::to_string(&body).unwrap_or_default())
        .map_err(|e| ApiFailure::Unreachable(e.to_string()))?;
    answer::<Registered>(request.send().await)
        .await
        .map(Identity::from)
}

/// The leaderboard, best first.
pub async fn leaderboard() -> Result<Vec<PlayerRecord>, ApiFailure> {
    answer(Request::get("api/leaderboard").send().await).await
}

/// The address of a game's SGF record.
pub fn sgf_url(game: GameId) -> String {
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
