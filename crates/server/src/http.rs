//! The HTTP side: the JSON endpoints of docs/online.md, the WebSocket upgrade, and the app's files.

use crate::hub::{Hub, RegisterError};
use crate::incident;
use crate::ws;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State, WebSocketUpgrade};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use gridarena_engine::go::online::{ApiError, NewPlayer, PlayerRecord, Registered, WinLoss};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tower_http::services::ServeDir;

/// The largest request body read by the JSON endpoints.
const MAX_BODY: usize = 4 * 1024;

/// How many players the leaderboard lists.
const LEADERBOARD: u32 = 20;

/// The router: the API under `/api`, the app's files from `dist` for everything else. `heartbeat` is
/// the WebSocket ping interval ([`crate::HEARTBEAT`]).
pub fn router(hub: Arc<Hub>, dist: PathBuf, heartbeat: Duration) -> Router {
    let missing = dist.clone();
    let index = dist.join("index.html");
    let files = ServeDir::new(&dist).not_found_service(axum::routing::any(move |uri: Uri| {
        not_found(uri, missing.clone())
    }));
    Router::new()
        .route("/", get(move || root(index.clone())))
        .route("/api/players", post(register))
        .route("/api/players/{name}", get(player))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/games/{id}/sgf", get(game_sgf))
        .route(
            "/api/ws",
            get(move |hub, upgrade| websocket(hub, upgrade, heartbeat)),
        )
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
        .fallback_service(files)
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = ApiError {
        error: message.into(),
    };
    (status, Json(body)).into_response()
}

/// `/`: the app's page, or how to build it.
async fn root(index: PathBuf) -> Response {
    match tokio::fs::read(&index).await {
        Ok(page) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            page,
        )
            .into_response(),
        Err(_) => (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            not_built(&index),
        )
            .into_response(),
    }
}

fn not_built(index: &std::path::Path) -> String {
    format!(
        "GridArena's server is running, but the app is not built: there is no {}.\n\
         Run `trunk build --release` in the repository root (or ./scripts/serve.sh), then reload.\n\
         The online Go API is under /api (docs/online.md).\n",
        index.display()
    )
}

async fn not_found(_uri: Uri, dist: PathBuf) -> Response {
    let index = dist.join("index.html");
    let text = if index.is_file() {
        "not found\n".to_string()
    } else {
        not_built(&index)
    };
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response()
}

async fn api_not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such endpoint (see docs/online.md)",
    )
}

async fn register(State(hub): State<Arc<Hub>>, body: Bytes) -> Response {
    let Ok(req) = serde_json::from_slice::<NewPlayer>(&body) else {
        return error(StatusCode::BAD_REQUEST, r#"send {"name": "..."} as JSON"#);
    };
    match hub.register(&req.name).await {
        Ok((id, name, token)) => match u64::try_from(id) {
            Ok(id) => (StatusCode::CREATED, Json(Registered { id, name, token })).into_response(),
            // Databases number rows from 1 up; a negative id means a database edited by hand.
            Err(_) => internal(
                "registering a player",
                &format!("player id {id} is negative"),
            ),
        },
        Err(e @ RegisterError::Name(_)) => error(StatusCode::BAD_REQUEST, e.to_string()),
        Err(e @ RegisterError::Taken(_)) => error(StatusCode::CONFLICT, e.to_string()),
        Err(e @ RegisterError::Internal(_)) => {
            error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        }
    }
}

/// A failure the client hears of by number only ([`incident`]).
fn internal(what: &str, detail: &dyn std::fmt::Display) -> Response {
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        incident::report(what, detail),
    )
}

async fn player(State(hub): State<Arc<Hub>>, Path(name): Path<String>) -> Response {
    let key = crate::names::name_key(&name);
    match hub.store().record(&key).await {
        Ok(Some(r)) => Json(PlayerRecord {
            name: r.name,
            wins: r.wins,
            losses: r.losses,
            by_size: r
                .by_size
                .iter()
                .map(|&(size, wins, losses)| (size, WinLoss { wins, losses }))
                .collect(),
        })
        .into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, "no player by that name"),
        Err(e) => internal("reading a record", &e),
    }
}

async fn leaderboard(State(hub): State<Arc<Hub>>) -> Response {
    match hub.store().leaderboard(LEADERBOARD).await {
        Ok(rows) => Json(
            rows.into_iter()
                .map(|(name, wins, losses)| PlayerRecord {
                    name,
                    wins,
                    losses,
                    by_size: Default::default(),
                })
                .collect::<Vec<_>>(),
        )
        .into_response(),
        Err(e) => internal("reading the leaderboard", &e),
    }
}

async fn game_sgf(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return error(StatusCode::NOT_FOUND, "no such game");
    };
    match hub.sgf(id).await {
        Ok(Some(sgf)) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-go-sgf; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"gridarena-{id}.sgf\""),
                ),
            ],
            sgf,
        )
            .into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => internal("reading a game", &e),
    }
}

async fn websocket(
    State(hub): State<Arc<Hub>>,
    upgrade: WebSocketUpgrade,
    heartbeat: Duration,
) -> Response {
    upgrade
        .max_message_size(ws::HARD_MAX_MESSAGE)
        .max_frame_size(ws::HARD_MAX_MESSAGE)
        .on_upgrade(move |socket| ws::run(socket, hub, heartbeat))
}
