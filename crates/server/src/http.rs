//! The HTTP side: the JSON endpoints of docs/online.md, the WebSocket upgrade, and the app's files.
//!
//! What reaches a client is never a raw database error or a path on the server: a failure is answered
//! "internal error (logged as E7)" and its details go to stderr under that number
//! ([`crate::incident`]). The JSON endpoints have a per-address rate limit ([`ApiLimit`]); every
//! request has a deadline, its body included ([`crate::REQUEST_TIMEOUT`]), and every answer gets the
//! security headers of [`crate::headers`].

use crate::bucket::TokenBucket;
use crate::headers::{self, InlineScripts};
use crate::hub::{Hub, RegisterError};
use crate::incident;
use crate::listen::ClientKey;
use crate::ws;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Request, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use gridarena_engine::go::online::{ApiError, NewPlayer, PlayerRecord, Registered, WinLoss};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tower_http::services::ServeDir;

/// The largest request body read by the JSON endpoints.
const MAX_BODY: usize = 4 * 1024;

/// How many players the leaderboard lists.
const LEADERBOARD: u32 = 20;

/// How many addresses the API's rate limit remembers at most. An address is forgotten once its bucket
/// is full again (5 seconds after its last request at the default rate); past this many at once (a
/// flood from many addresses), the buckets start over rather than grow.
const MAX_TRACKED_ADDRESSES: usize = 65_536;

/// The JSON API's rate limit: a token bucket per client address ([`ClientKey`]), `burst` requests at
/// once and `rate` a second ([`crate::API_RATE`], [`crate::API_BURST`]).
#[derive(Debug)]
pub struct ApiLimit {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<ClientKey, TokenBucket>>,
}

impl ApiLimit {
    pub fn new(rate: f64, burst: f64) -> ApiLimit {
        ApiLimit {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a request from `ip`'s bucket; the refusal says how long until the next is allowed.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let key = ClientKey::of(ip);
        if !buckets.contains_key(&key) && buckets.len() >= MAX_TRACKED_ADDRESSES {
            buckets.retain(|_, b| !b.is_full(now));
            if buckets.len() >= MAX_TRACKED_ADDRESSES {
                buckets.clear();
            }
        }
        let bucket = buckets
            .entry(key)
            .or_insert_with(|| TokenBucket::full(self.rate, self.burst, now));
        if bucket.take(now) {
            Ok(())
        } else {
            Err(bucket.wait())
        }
    }
}

/// What the router needs beyond the hub.
struct Setup {
    ws: ws::Settings,
    allowed_origins: Vec<String>,
}

/// The router: the API under `/api`, the app's files from `config.dist` for everything else.
pub fn router(hub: Arc<Hub>, config: &crate::Config) -> Router {
    let setup = Arc::new(Setup {
        ws: ws::Settings {
            heartbeat: config.heartbeat,
            hello_timeout: config.hello_timeout,
            idle_timeout: config.idle_timeout,
        },
        allowed_origins: config.allowed_origins.clone(),
    });
    let limit = Arc::new(ApiLimit::new(config.api_rate, config.api_burst));
    let api = Router::new()
        .route("/api/players", post(register))
        .route("/api/players/{name}", get(player))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/games/{id}/sgf", get(game_sgf))
        .route_layer(middleware::from_fn_with_state(limit, api_guard));
    Router::new()
        .merge(api)
        .route(
            "/api/ws",
            get(move |hub, client, headers, upgrade| {
                websocket(hub, client, headers, upgrade, Arc::clone(&setup))
            }),
        )
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
        .merge(app_files(&config.dist))
        .layer(middleware::from_fn_with_state(
            config.request_timeout,
            deadline,
        ))
        .layer(middleware::from_fn(headers::security_headers))
}

/// The built app from `dist`: `index.html` for `/`, its files by name, and a page that says how to
/// build it when it is missing. Without the security headers, which the caller layers over all its
/// routes.
pub fn app_files(dist: &std::path::Path) -> Router {
    let missing = dist.to_path_buf();
    let index = dist.join("index.html");
    let files = ServeDir::new(dist).not_found_service(axum::routing::any(move |uri: Uri| {
        not_found(uri, missing.clone())
    }));
    let page = move || root(index.clone());
    Router::new()
        .route("/", get(page.clone()))
        .route("/index.html", get(page))
        .fallback_service(files)
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = ApiError {
        error: message.into(),
    };
    (status, Json(body)).into_response()
}

/// Middleware of every route: the request's answer, its body read included, within `timeout`. Over
/// every route, not the JSON endpoints only, so that no route added later reads a body without one.
async fn deadline(State(timeout): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            let mut response = error(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request took over {} s (its body came too slowly)",
                    timeout.as_secs_f64()
                ),
            );
            // The rest of the body is never read: the connection cannot serve another request.
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            response
        }
    }
}

/// Middleware of the JSON endpoints: the per-address rate limit.
async fn api_guard(State(limit): State<Arc<ApiLimit>>, request: Request, next: Next) -> Response {
    let ip = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    if let Err(wait) = limit.check(ip, Instant::now()) {
        let seconds = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
        let mut response = error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many requests from your address: at most {} a second (bursts of {}); try \
                 again in {seconds} s",
                limit.rate, limit.burst
            ),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, seconds.into());
        return response;
    }
    next.run(request).await
}

/// `/` and `/index.html`: the app's page, with its inline scripts allowed by hash, or how to build it.
async fn root(index: PathBuf) -> Response {
    match tokio::fs::read(&index).await {
        Ok(page) => {
            let scripts = InlineScripts(headers::inline_script_hashes(&String::from_utf8_lossy(
                &page,
            )));
            let mut response = (
                [
                    (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                page,
            )
                .into_response();
            response.extensions_mut().insert(scripts);
            response
        }
        Err(_) => (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            NOT_BUILT,
        )
            .into_response(),
    }
}

/// What `/` says when the app is not built. It names no path: the server's files are not the client's
/// business.
const NOT_BUILT: &str = "GridArena's server is running, but the app is not built.\n\
    Run `trunk build --release` in the repository root (or ./scripts/serve.sh), then reload.\n\
    The online Go API is under /api (docs/online.md).\n";

async fn not_found(_uri: Uri, dist: PathBuf) -> Response {
    // Asked without blocking: the HyperChess viewer serves this on the one thread its stream shares.
    let built = tokio::fs::metadata(dist.join("index.html"))
        .await
        .is_ok_and(|m| m.is_file());
    let text = if built { "not found\n" } else { NOT_BUILT };
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
    client: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
    setup: Arc<Setup>,
) -> Response {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if let Err(why) = headers::check_origin(
        text(header::ORIGIN),
        text(header::HOST),
        &setup.allowed_origins,
    ) {
        return error(StatusCode::FORBIDDEN, why);
    }
    let settings = setup.ws;
    // Every connection comes through the accept loop, which names its client ([`crate::listen`]).
    let address = client.map(|Extension(ConnectInfo(addr))| addr.ip());
    upgrade
        .max_message_size(ws::HARD_MAX_MESSAGE)
        .max_frame_size(ws::HARD_MAX_MESSAGE)
        .on_upgrade(move |socket| ws::run(socket, hub, address, settings))
}
