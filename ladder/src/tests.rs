//! The web ladder (`arena serve`) through its router, without a browser or a socket:
//! each request goes to the router with `tower::ServiceExt::oneshot`, jobs are collected by a
//! recording sink and run by a `Worker` as a worker process would.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{self, LadderConfig};
use crate::db::{SqliteStore, Store};
use crate::{router, Db, Jobs, Ladder};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use cardarena::tournament::queue::worker::{self, WorkerOptions};
use tower::ServiceExt;

mod analysis;
mod class;
mod club;
mod garage;
mod play;
mod rate;
mod security;
mod store;

struct Site {
    app: Router,
    db: Arc<SqliteStore>,
    jobs: Arc<Jobs>,
    ladder: Ladder,
    config: LadderConfig,
    _dir: tempdir::Dir,
}

/// A throwaway folder (removed on drop) without another dev-dependency.
mod tempdir {
    use std::path::{Path, PathBuf};

    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new(tag: &str) -> Dir {
            let n = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
            let p = std::env::temp_dir().join(format!("ladder-test-{tag}-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn site_with(tag: &str, config: LadderConfig) -> Site {
    site_at(tag, config, "http://ladder.test")
}

/// A ladder whose people reach it at `url`.
fn site_at(tag: &str, config: LadderConfig, url: &str) -> Site {
    let dir = tempdir::Dir::new(tag);
    let db = Arc::new(SqliteStore::open(&dir.path().join("ladder.db")).unwrap());
    let queue = cardarena::tournament::queue::open(&format!("sqlite:{}", db.path().display())).unwrap();
    let jobs = Arc::new(Jobs::new(queue, config.clone()));
    let ladder = Ladder::new(db.clone(), config.clone(), jobs.clone(), url);
    Site { app: router(ladder.clone()), db, jobs, ladder, config, _dir: dir }
}

fn blade_only() -> LadderConfig {
    config::parse("[[board]]\ngame = \"blade\"\n[upload]\nper_minute = 100\n", Path::new("ladder.toml"))
        .unwrap()
}

fn site(tag: &str) -> Site {
    site_with(tag, blade_only())
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

/// A browser: keeps the session cookie and the last page's CSRF token.
#[derive(Clone, Default)]
struct Browser {
    cookie: Option<String>,
    csrf: Option<String>,
}

impl Browser {
    async fn send(&mut self, app: &Router, req: Request<Body>) -> Answer {
        let r = app.clone().oneshot(req).await.unwrap();
        let status = r.status();
        let headers = r.headers().clone();
        if let Some(c) = headers.get(header::SET_COOKIE) {
            let c = c.to_str().unwrap();
            self.cookie = Some(c.split(';').next().unwrap().to_string());
        }
        let bytes = axum::body::to_bytes(r.into_body(), usize::MAX).await.unwrap();
        let body = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(t) = csrf_of(&body) {
            self.csrf = Some(t);
        } else if status.is_redirection() {
            // Signing in makes a new session and token: the next form needs a fresh page.
            self.csrf = None;
        }
        Answer { status, headers, body }
    }

    fn req(&self, method: &str, uri: &str) -> axum::http::request::Builder {
        let mut b = Request::builder().method(method).uri(uri);
        if let Some(c) = &self.cookie {
            b = b.header(header::COOKIE, c);
        }
        b
    }

    async fn get(&mut self, app: &Router, uri: &str) -> Answer {
        let req = self.req("GET", uri).body(Body::empty()).unwrap();
        self.send(app, req).await
    }

    /// Posts a form with the session's CSRF token (fetching a page first for one).
    async fn post(&mut self, app: &Router, uri: &str, fields: &[(&str, &str)]) -> Answer {
        if self.csrf.is_none() {
            self.get(app, "/login").await;
        }
        let csrf = self.csrf.clone().unwrap();
        let mut all = vec![("csrf", csrf.as_str())];
        all.extend_from_slice(fields);
        self.post_raw(app, uri, &all).await
    }

    async fn post_raw(&mut self, app: &Router, uri: &str, fields: &[(&str, &str)]) -> Answer {
        let body = fields.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&");
        let req = self
            .req("POST", uri)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        self.send(app, req).await
    }

    async fn upload(
        &mut self,
        app: &Router,
        game: &str,
        name: &str,
        file: &str,
        bytes: &[u8],
        csrf: bool,
    ) -> Answer {
        if csrf && self.csrf.is_none() {
            self.get(app, "/upload").await;
        }
        let boundary = "XyZzY0123456789";
        let mut body = Vec::new();
        let mut text = |k: &str, v: &str| {
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                    .as_bytes(),
            )
        };
        if csrf {
            text("csrf", &self.csrf.clone().unwrap_or_default());
        }
        text("game", game);
        text("name", name);
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let req = self
            .req("POST", "/upload")
            .header(header::CONTENT_TYPE, format!("multipart/form-data; boundary={boundary}"))
            .body(Body::from(body))
            .unwrap();
        self.send(app, req).await
    }
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn csrf_of(html: &str) -> Option<String> {
    let at = html.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    Some(html[at..].split('"').next()?.to_string())
}

/// The text between `start` and the next `end`, with the HTML escapes of minijinja undone.
fn between(text: &str, start: &str, end: &str) -> Option<String> {
    let at = text.find(start)? + start.len();
    let raw = text[at..].split(end).next()?;
    Some(
        raw.replace("&#x2f;", "/")
            .replace("&#x27;", "'")
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

async fn api_upload(app: &Router, token: Option<&str>, query: &str, bytes: Vec<u8>) -> Answer {
    let mut b = Request::builder().method("POST").uri(format!("/api/bots?{query}"));
    if let Some(t) = token {
        b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    Browser::default().send(app, b.body(Body::from(bytes)).unwrap()).await
}

/// An admin (by the first-start invite) signed in.
async fn admin(s: &Site) -> Browser {
    let code = s.db.first_admin_invite().unwrap().expect("an empty database makes an admin invite");
    let mut b = Browser::default();
    b.get(&s.app, &format!("/register?invite={code}")).await;
    let r = b
        .post(&s.app, "/register", &[("invite", &code), ("name", "teacher"), ("password", "correct horse")])
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    b
}

/// A player registered by an admin's invite, signed in.
async fn player(s: &Site, admin: &mut Browser, name: &str) -> Browser {
    let r = admin.post(&s.app, "/admin/invites", &[]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let link = between(&r.body, "<code id=\"invite\">", "<").unwrap();
    let code = link.split("invite=").nth(1).unwrap().to_string();
    assert!(link.starts_with("http://ladder.test/register?invite="), "{link}");
    let mut b = Browser::default();
    b.get(&s.app, "/register").await;
    let r =
        b.post(&s.app, "/register", &[("invite", &code), ("name", name), ("password", "password123")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    b
}

async fn token(s: &Site, b: &mut Browser) -> String {
    let r = b.post(&s.app, "/account/tokens", &[("label", "cli")]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    between(&r.body, "<code id=\"token\">", "<").unwrap()
}

fn lua(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("example_bots/lua").join(name))
        .unwrap()
}

fn hostile(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("sandbox/tests/bots").join(name))
        .unwrap()
}

/// Plays every queued job as a worker process would (here, in the test's thread), then lets
/// the ladder take the results in. Returns how many jobs were taken in.
fn run_jobs(s: &Site) -> usize {
    let mut queue = cardarena::tournament::queue::open(&format!("sqlite:{}", s.db.path().display())).unwrap();
    let mut opts = WorkerOptions::new("test-worker", std::sync::Arc::new(cardarena::Games::builtin()));
    opts.until_empty = true;
    worker::run(queue.as_mut(), &opts, None, &std::sync::atomic::AtomicBool::new(false)).unwrap();
    s.jobs.collect(&*s.db).unwrap()
}

/// The validations waiting for a worker (one per uploaded version).
fn pending_validations(s: &Site) -> usize {
    let versions: std::collections::BTreeSet<i64> =
        s.db.pending().unwrap().iter().filter_map(|p| p.version).collect();
    versions.len()
}

/// Queues matchmaking tick `tick`'s duplicate sets.
fn queue_tick(s: &Site, tick: i64) -> Vec<crate::Job> {
    let jobs = crate::tick_jobs(&*s.db, &s.config, tick).unwrap();
    for j in &jobs {
        s.ladder.enqueue(std::slice::from_ref(j)).unwrap();
    }
    jobs
}

fn db_path(s: &Site) -> PathBuf {
    s.db.path().to_path_buf()
}

#[test]
fn ladder_toml_errors_name_the_file_line_and_field() {
    let p = Path::new("ladder.toml");
    let e = config::parse("[[board]]\ngame = \"poker\"\n", p).unwrap_err().to_string();
    assert!(
        e.starts_with("ladder.toml:2:") && e.contains("`game = \"poker\"` is not a game (one of: blade"),
        "{e}"
    );
    let e = config::parse("[[board]]\ngame = \"blade\"\nvariant = \"huge\"\n", p).unwrap_err().to_string();
    assert!(e.starts_with("ladder.toml:3:") && e.contains("not a variant of blade"), "{e}");
    let e = config::parse("register = \"anyone\"\n", p).unwrap_err().to_string();
    assert!(e.contains("ladder.toml") && e.contains("register") && e.contains("invite"), "{e}");
    let e = config::parse("[upload]\nmax_bytes = 0\n", p).unwrap_err().to_string();
    assert!(e.starts_with("ladder.toml:2:") && e.contains("`max_bytes` must be between"), "{e}");
    let e = config::parse("[upload]\nmax_size = 10\n", p).unwrap_err().to_string();
    assert!(e.contains("unknown field `max_size`"), "{e}");
    // The same errors as values: the file, the line, the message.
    match config::parse("title = \"x\"\n[[board]]\ngame = \"poker\"\n", p) {
        Err(config::ConfigError::Invalid(cardarena::ConfigError { file, line: Some(3), message })) => {
            assert_eq!(file, p);
            assert!(message.starts_with("`game = \"poker\"` is not a game"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        config::parse("[upload]\nmax_size = 10\n", p),
        Err(config::ConfigError::Invalid(cardarena::ConfigError { line: Some(2), .. }))
    ));
    let missing = Path::new("/nonexistent/ladder.toml");
    match config::load(missing, &cardarena::Games::builtin()) {
        Err(config::ConfigError::Read { file, source }) => {
            assert_eq!(file, missing);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }
    let e = config::parse("[[board]]\ngame = \"blade\"\n[[board]]\ngame = \"blade\"\n", p)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("ladder.toml:4:") && e.contains("listed twice"), "{e}");
    // No file: every game's first variant, invite only.
    let c = config::parse("", p).unwrap();
    assert_eq!(c.boards.len(), 4);
    assert_eq!(c.register, config::Register::Invite);
}

#[tokio::test]
async fn first_start_invite_makes_an_admin_once() {
    let s = site("first");
    let code = s.db.first_admin_invite().unwrap().unwrap();
    // A restart before anyone registered prints a fresh code; the old one no longer works.
    let code2 = s.db.first_admin_invite().unwrap().unwrap();
    assert_ne!(code, code2);
    let mut b = Browser::default();
    b.get(&s.app, "/register").await;
    let r = b
        .post(&s.app, "/register", &[("invite", &code), ("name", "teacher"), ("password", "correct horse")])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = b
        .post(&s.app, "/register", &[("invite", &code2), ("name", "teacher"), ("password", "correct horse")])
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(b.get(&s.app, "/admin").await.status, StatusCode::OK);
    // Once a user exists no new admin invite is made, and the used code does not work again.
    assert_eq!(s.db.first_admin_invite().unwrap(), None);
    let mut other = Browser::default();
    other.get(&s.app, "/register").await;
    let r = other
        .post(&s.app, "/register", &[("invite", &code2), ("name", "mallory"), ("password", "password123")])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("not valid"), "{}", r.body);
    // Without an invite on an invite-only ladder: refused, saying what to do.
    let r = other.post(&s.app, "/register", &[("name", "mallory"), ("password", "password123")]).await;
    assert!(r.body.contains("needs an invite code"), "{}", r.body);
}

#[tokio::test]
async fn sessions_cookies_csrf_and_no_user_enumeration() {
    let s = site("auth");
    let mut teacher = admin(&s).await;
    let _alice = player(&s, &mut teacher, "alice").await;
    // The session cookie is HttpOnly and SameSite=Lax.
    let mut b = Browser::default();
    let r = b.get(&s.app, "/login").await;
    let cookie = r.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    // A form without its CSRF token, or with another session's, is refused.
    let r = b.post_raw(&s.app, "/login", &[("name", "alice"), ("password", "password123")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.body.contains("security token"), "{}", r.body);
    let stolen = teacher.csrf.clone().unwrap();
    let r = b
        .post_raw(&s.app, "/login", &[("csrf", &stolen), ("name", "alice"), ("password", "password123")])
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // A wrong password and an unknown name get the same answer.
    let wrong = b.post(&s.app, "/login", &[("name", "alice"), ("password", "nope-nope")]).await;
    let unknown = b.post(&s.app, "/login", &[("name", "nobody"), ("password", "nope-nope")]).await;
    assert_eq!((wrong.status, unknown.status), (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED));
    let strip = |body: &str| body.replace(&csrf_of(body).unwrap_or_default(), "");
    assert_eq!(strip(&wrong.body), strip(&unknown.body));
    let r = b.post(&s.app, "/login", &[("name", "alice"), ("password", "password123")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert!(b.get(&s.app, "/account").await.body.contains("alice"));
    // Signing out ends the session.
    b.post(&s.app, "/logout", &[]).await;
    assert_eq!(b.get(&s.app, "/account").await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn tokens_are_shown_once_and_stored_hashed() {
    let s = site("tokens");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let t = token(&s, &mut alice).await;
    assert_eq!(t.len(), 64);
    assert!(!alice.get(&s.app, "/account").await.body.contains(&t), "the token is shown only once");
    let raw = std::fs::read(db_path(&s)).unwrap();
    let wal = std::fs::read(db_path(&s).with_extension("db-wal")).unwrap_or_default();
    let needle = t.as_bytes();
    let contains = |hay: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    assert!(!contains(&raw) && !contains(&wal), "the token itself is not in the database");
    let r = api_upload(&s.app, Some(&t), "game=blade&name=r1&file=r1.lua", lua("blade_random.lua")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert!(r.body.contains("\"version\":1") && r.body.contains("\"state\":\"pending\""), "{}", r.body);
    let r = api_upload(
        &s.app,
        Some("0".repeat(64).as_str()),
        "game=blade&name=r2&file=r2.lua",
        lua("blade_greedy.lua"),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.body.contains("ARENA_TOKEN"), "{}", r.body);
    let r = api_upload(&s.app, None, "game=blade&name=r2&file=r2.lua", lua("blade_greedy.lua")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn uploads_are_checked_at_every_layer() {
    let s = site("abuse");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let mut bob = player(&s, &mut teacher, "bob").await;
    alice.get(&s.app, "/upload").await;
    bob.get(&s.app, "/upload").await;
    let good = lua("blade_random.lua");
    // Unauthenticated: a browser without a session, and without CSRF.
    let mut stranger = Browser::default();
    stranger.get(&s.app, "/login").await;
    assert_eq!(
        stranger.upload(&s.app, "blade", "x", "x.lua", &good, true).await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = alice.upload(&s.app, "blade", "x", "x.lua", &good, false).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    // Too large: just over the limit (the handler's check) and far over it (the body limit).
    let max = s.config.max_bytes;
    let mut big = b"-- ".to_vec();
    big.resize(max + 1, b'x');
    for body in [big.clone(), vec![b'x'; max * 3]] {
        let r = alice.upload(&s.app, "blade", "big", "big.lua", &body, true).await;
        assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(
            r.body.contains(&format!("limit of {max} bytes")) && r.body.contains("max_bytes"),
            "{}",
            r.body
        );
    }
    // Bad names, games and languages.
    for (game, name, file, bytes, says) in [
        ("blade", "../etc", "a.lua", good.clone(), "is not allowed"),
        ("blade", "", "a.lua", good.clone(), "is not allowed"),
        ("poker", "ok", "a.lua", good.clone(), "unknown game"),
        ("ecard", "ok", "a.lua", good.clone(), "not played on this ladder"),
        ("blade", "ok", "a.wasm", good.clone(), "not a WASM module"),
        ("blade", "ok", "a.rb", good.clone(), "not .rb"),
        ("blade", "ok", "a.lua", Vec::new(), "empty"),
    ] {
        let r = alice.upload(&s.app, game, name, file, &bytes, true).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{name} {file}: {}", r.body);
        assert!(r.body.contains(says), "{says}: {}", r.body);
    }
    // A malformed multipart body.
    let req = alice
        .req("POST", "/upload")
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=zz")
        .body(Body::from("--zz\r\nnonsense"))
        .unwrap();
    let r = alice.send(&s.app, req).await;
    assert!(r.status.is_client_error(), "{}", r.status);
    // The first upload is v1, a changed file v2; the same bytes again are 409.
    assert_eq!(
        alice.upload(&s.app, "blade", "rando", "r.lua", &good, true).await.status,
        StatusCode::SEE_OTHER
    );
    let mut changed = good.clone();
    changed.extend_from_slice(b"\n-- v2\n");
    assert_eq!(
        alice.upload(&s.app, "blade", "rando", "r.lua", &changed, true).await.status,
        StatusCode::SEE_OTHER
    );
    let r = alice.upload(&s.app, "blade", "rando", "r.lua", &good, true).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.body.contains("identical to rando v1"), "{}", r.body);
    // Another player may not upload under alice's bot name, nor publish her bot.
    let r =
        bob.upload(&s.app, "blade", "rando", "r.lua", b"function act(o) return o.legal[1] end", true).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.body.contains("another player"), "{}", r.body);
    let bot = s.db.bot_named("blade", "rando").unwrap().unwrap();
    let r = bob.post(&s.app, &format!("/bots/{}/publish", bot.id), &[("published", "true")]).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // Nor read its source, nor use the admin pages.
    assert_eq!(bob.get(&s.app, &format!("/bots/{}/v/1/source", bot.id)).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        bob.post(&s.app, &format!("/admin/bots/{}/disable", bot.id), &[("disabled", "true")]).await.status,
        StatusCode::FORBIDDEN
    );
    let r = alice.get(&s.app, &format!("/bots/{}/v/1/source", bot.id)).await;
    assert_eq!((r.status, r.body.as_bytes()), (StatusCode::OK, good.as_slice()));
    // Published, anyone may read it.
    alice.post(&s.app, &format!("/bots/{}/publish", bot.id), &[("published", "true")]).await;
    assert_eq!(
        Browser::default().get(&s.app, &format!("/bots/{}/v/2/source", bot.id)).await.status,
        StatusCode::OK
    );
    // Two versions, each queued for validation.
    assert_eq!(s.db.versions(bot.id).unwrap().len(), 2);
    assert_eq!(pending_validations(&s), 2);
}

#[tokio::test]
async fn validation_in_a_worker_marks_versions_ready_or_failed() {
    let s = site("validate");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    alice.get(&s.app, "/upload").await;
    let wasm = std::fs::read(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("example_bots/wasm/blade_rust.wasm"),
    )
    .unwrap();
    let hostile_wasm = wat::parse_bytes(&hostile("wasm_unknown_import.wat")).unwrap().into_owned();
    for (name, file, bytes) in [
        ("luabot", "a.lua", lua("blade_random.lua")),
        ("wasmbot", "b.wasm", wasm),
        ("looper", "c.lua", hostile("lua_infinite_loop.lua")),
        ("escaper", "d.lua", hostile("lua_escape_os.lua")),
        ("noact", "e.lua", hostile("lua_missing_act.lua")),
        ("malformed", "f.wasm", hostile("wasm_malformed.wasm")),
        ("importer", "g.wasm", hostile_wasm),
    ] {
        let r = alice.upload(&s.app, "blade", name, file, &bytes, true).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{name}: {}", r.body);
    }
    assert_eq!(run_jobs(&s), 7, "one validation per upload");
    let state = |name: &str| {
        let bot = s.db.bot_named("blade", name).unwrap().unwrap();
        let v = s.db.versions(bot.id).unwrap().remove(0);
        (bot.id, v.state, v.verdicts)
    };
    for good in ["luabot", "wasmbot"] {
        let (_, st, verdicts) = state(good);
        assert_eq!(st, "ready", "{good}: {verdicts}");
    }
    for (bad, verdict) in [
        ("looper", "fuel"),
        ("escaper", "crash"),
        ("noact", "load"),
        ("malformed", "load"),
        ("importer", "load"),
    ] {
        let (id, st, verdicts) = state(bad);
        assert_eq!(st, "failed", "{bad}: {verdicts}");
        assert!(verdicts.contains(&format!("\"verdict\":\"{verdict}\"")), "{bad}: {verdicts}");
        // The bot page shows the verdict, and the server is still up.
        let page = alice.get(&s.app, &format!("/bots/{id}")).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.body.contains("failed") && page.body.contains(&format!("<b>{verdict}</b>")),
            "{}",
            page.body
        );
    }
    // Only the ready bots play.
    let players: Vec<String> = s.db.players("blade").unwrap().into_iter().map(|(b, _)| b.name).collect();
    assert_eq!(players, ["luabot", "wasmbot"]);
}

/// Registers `n` players, each with one ready Lua bot (validated by a worker).
async fn ladder_with_bots(s: &Site, bots: &[(&str, &str)]) -> (Browser, Vec<Browser>) {
    let mut teacher = admin(s).await;
    let mut players = Vec::new();
    for (i, (name, file)) in bots.iter().enumerate() {
        let mut p = player(s, &mut teacher, &format!("player{i}")).await;
        p.get(&s.app, "/upload").await;
        let r = p.upload(&s.app, "blade", name, "bot.lua", &lua(file), true).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        players.push(p);
    }
    run_jobs(s);
    (teacher, players)
}

#[tokio::test]
async fn the_leaderboard_kept_between_results_shows_each_result_taken_in() {
    let s = site("board-cache");
    let (_teacher, _players) =
        ladder_with_bots(&s, &[("greedy1", "blade_greedy.lua"), ("random1", "blade_random.lua")]).await;
    let mut visitor = Browser::default();
    let r = visitor.get(&s.app, "/board/blade/readme").await;
    assert!(r.body.contains("<p>0 match(es)."), "{}", r.body);
    // Summed up once, then kept: the same page again.
    assert!(visitor.get(&s.app, "/board/blade/readme").await.body.contains("<p>0 match(es)."));
    let jobs = queue_tick(&s, 1);
    run_jobs(&s);
    let played = s.db.board_matches("blade", "readme").unwrap().len();
    assert_eq!(played, 2 * jobs.len());
    let r = visitor.get(&s.app, "/board/blade/readme").await;
    assert!(r.body.contains(&format!("<p>{played} match(es).")), "{}", r.body);
    // One set queued, below half a tick's: the next tick queues more (the workers do not run
    // dry); a whole tick's queued: nothing.
    assert!(s.config.jobs_per_tick >= 4);
    let next = crate::tick_jobs(&*s.db, &s.config, 2).unwrap();
    s.ladder.enqueue(&next[..1]).unwrap();
    assert!(!crate::tick_jobs(&*s.db, &s.config, 3).unwrap().is_empty());
    for j in &next[1..] {
        s.ladder.enqueue(std::slice::from_ref(j)).unwrap();
    }
    assert!(crate::tick_jobs(&*s.db, &s.config, 4).unwrap().is_empty());
    run_jobs(&s);
    let more = s.db.board_matches("blade", "readme").unwrap().len();
    assert!(more > played);
    let r = visitor.get(&s.app, "/board/blade/readme").await;
    assert!(r.body.contains(&format!("<p>{more} match(es).")), "{}", r.body);
}

#[tokio::test]
async fn matches_fill_the_leaderboard_bot_and_match_pages() {
    let s = site("board");
    let (_teacher, _players) = ladder_with_bots(
        &s,
        &[
            ("greedy1", "blade_greedy.lua"),
            ("random1", "blade_random.lua"),
            ("carlo", "blade_montecarlo.lua"),
        ],
    )
    .await;
    let jobs = queue_tick(&s, 1);
    assert_eq!(jobs.len(), s.config.jobs_per_tick as usize);
    // While at least half a tick's sets are queued, the next tick queues nothing more on this board.
    assert!(crate::tick_jobs(&*s.db, &s.config, 2).unwrap().is_empty());
    assert_eq!(run_jobs(&s), 2 * jobs.len(), "a duplicate set is both seat orders");
    let stored = s.db.board_matches("blade", "readme").unwrap().len();
    assert_eq!(stored, 2 * jobs.len());
    // The same duplicate set queued again is the same queue jobs: nothing new is played.
    s.ladder.enqueue(&jobs[..1]).unwrap();
    run_jobs(&s);
    assert_eq!(s.db.board_matches("blade", "readme").unwrap().len(), stored);
    // The same database and tick give the same jobs.
    assert_eq!(
        crate::tick_jobs(&*s.db, &s.config, 7).unwrap(),
        crate::tick_jobs(&*s.db, &s.config, 7).unwrap()
    );

    let mut visitor = Browser::default();
    let r = visitor.get(&s.app, "/board/blade/readme").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("<svg") && r.body.contains("win matrix"), "{}", r.body);
    assert!(r.body.contains("95% interval") && r.body.contains("Fault rate"), "{}", r.body);
    let played: std::collections::BTreeSet<String> =
        s.db.board_matches("blade", "readme")
            .unwrap()
            .iter()
            .flat_map(|m| m.seats.clone())
            .map(|v| s.db.version(v).unwrap().unwrap().bot)
            .map(|b| s.db.bot(b).unwrap().unwrap().name)
            .collect();
    for name in &played {
        assert!(r.body.contains(&format!("{name}@v1")), "{name} missing from the board");
    }
    assert_eq!(visitor.get(&s.app, "/board/blade/nope").await.status, StatusCode::NOT_FOUND);

    let bot = s.db.bot_named("blade", played.iter().next().unwrap()).unwrap().unwrap();
    let r = visitor.get(&s.app, &format!("/bots/{}", bot.id)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("Rating history") && r.body.contains("rating history"), "{}", r.body);
    assert!(r.body.contains("Mean fuel") && r.body.contains("MiB"), "{}", r.body);
    assert!(r.body.contains("private"), "others do not see an unpublished source");
    let id = between(&r.body, "<a href=\"/matches/", "\"").unwrap();
    let m = visitor.get(&s.app, &format!("/matches/{id}")).await;
    assert_eq!(m.status, StatusCode::OK);
    assert!(m.body.contains("arena replay match-") && m.body.contains("--verify"), "{}", m.body);
    // The viewer is on the page with the match's frames (made by the engine).
    assert!(
        m.body.contains("<script type=\"application/json\" id=\"frames\">") && m.body.contains("mount("),
        "{}",
        m.body
    );
    assert_eq!(visitor.get(&s.app, "/static/viewer.css").await.status, StatusCode::OK);
    let replay = visitor.get(&s.app, &format!("/matches/{id}/replay.json")).await;
    assert_eq!(replay.status, StatusCode::OK);
    let replay: cardarena::Replay = serde_json::from_str(&replay.body).unwrap();
    assert_eq!(replay.game, "blade");
    assert!(replay.bots.iter().all(|b| b.hash.len() == 64));
}

#[tokio::test]
async fn the_code_editor_is_served_and_kept_by_browsers() {
    let s = site("editor");
    let mut visitor = Browser::default();
    let r = visitor.get(&s.app, "/static/vendor/editor.js").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers[header::CONTENT_TYPE], "text/javascript");
    assert_eq!(r.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    // CodeMirror with the glue that upgrades the textareas, its licence at the top.
    assert!(r.body.starts_with("/*! The ladder's code editor"), "{}", &r.body[..200]);
    for part in
        ["Permission is hereby granted", "textarea[data-editor]", "cm-verdict-line", "editor:highlight"]
    {
        assert!(r.body.contains(part), "{part}");
    }
    let etag = r.headers[header::ETAG].clone();
    let ask = |tag: &str| {
        visitor
            .req("GET", "/static/vendor/editor.js")
            .header(header::IF_NONE_MATCH, tag)
            .body(Body::empty())
            .unwrap()
    };
    let again = visitor.clone().send(&s.app, ask(etag.to_str().unwrap())).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert_eq!((again.body.as_str(), &again.headers[header::ETAG]), ("", &etag));
    let other = visitor.clone().send(&s.app, ask("\"0123\", W/\"4567\"")).await;
    assert_eq!((other.status, other.body.len()), (StatusCode::OK, r.body.len()));
}

#[tokio::test]
async fn faults_are_grouped_with_a_capsule_and_the_repro_command() {
    let s = site("faults");
    let crasher = b"function act(obs)\n  error('always')\nend\n";
    let mut teacher = admin(&s).await;
    let mut a = player(&s, &mut teacher, "alice").await;
    let mut b = player(&s, &mut teacher, "bob").await;
    a.upload(&s.app, "blade", "steady", "s.lua", &lua("blade_random.lua"), true).await;
    b.upload(&s.app, "blade", "crasher", "c.lua", crasher, true).await;
    run_jobs(&s);
    let bot = s.db.bot_named("blade", "crasher").unwrap().unwrap();
    let v = s.db.versions(bot.id).unwrap().remove(0);
    assert_eq!(v.state, "failed", "validation catches it: {}", v.verdicts);
    assert!(v.verdicts.contains("\"verdict\":\"crash\"") && v.verdicts.contains("always"), "{}", v.verdicts);
    // Had it slipped through (an admin may pass a version by hand), its ladder matches would
    // show its faults, grouped, with a capsule and the command that reruns it.
    s.db.set_validation(v.id, true, "[]").unwrap();
    assert!(!queue_tick(&s, 1).is_empty());
    run_jobs(&s);
    let page = b.get(&s.app, &format!("/bots/{}", bot.id)).await.body;
    assert_eq!(page.matches("<div class=\"fault\">").count(), 1, "one group (crash at one site): {page}");
    assert!(page.contains("<b>crash</b>") && page.contains("always"), "{page}");
    assert!(page.contains("arena repro match-") && page.contains("--bot crasher.lua"), "{page}");
    let link = between(&page, "<br><a href=\"/matches/", "\">download the crash capsule").unwrap();
    let c = b.get(&s.app, &format!("/matches/{link}")).await;
    assert_eq!(c.status, StatusCode::OK);
    assert!(c.body.contains("\"capsule\"") && c.body.contains("always"), "{}", c.body);
    assert_eq!(b.get(&s.app, &format!("/matches/{}/capsule/0", 999_999)).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_admin_disables_a_user_or_a_bot() {
    let s = site("disable");
    let (mut teacher, mut players) = ladder_with_bots(
        &s,
        &[("one", "blade_greedy.lua"), ("two", "blade_random.lua"), ("three", "blade_montecarlo.lua")],
    )
    .await;
    assert_eq!(s.db.players("blade").unwrap().len(), 3);
    let two = s.db.bot_named("blade", "two").unwrap().unwrap();
    let r = teacher.post(&s.app, &format!("/admin/bots/{}/disable", two.id), &[("disabled", "true")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(s.db.players("blade").unwrap().len(), 2);
    // A disabled bot takes no new version.
    let r = players[1]
        .upload(&s.app, "blade", "two", "t.lua", b"function act(o) return o.legal[2] or o.legal[1] end", true)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // A disabled user is signed out everywhere and cannot sign in (the same answer as a wrong password).
    let one = s.db.bot_named("blade", "one").unwrap().unwrap();
    teacher.post(&s.app, &format!("/admin/users/{}/disable", one.owner), &[("disabled", "true")]).await;
    assert_eq!(s.db.players("blade").unwrap().len(), 1);
    assert_eq!(players[0].get(&s.app, "/account").await.status, StatusCode::UNAUTHORIZED);
    let mut again = Browser::default();
    let r = again.post(&s.app, "/login", &[("name", "player0"), ("password", "password123")]).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.body.contains("wrong name or password"));
}

#[tokio::test]
async fn uploads_are_rate_limited_per_token_not_per_address() {
    let config =
        config::parse("[[board]]\ngame = \"blade\"\n[upload]\nper_minute = 3\n", Path::new("ladder.toml"))
            .unwrap();
    let s = site_with("rate", config);
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let mut bob = player(&s, &mut teacher, "bob").await;
    let (ta, tb) = (token(&s, &mut alice).await, token(&s, &mut bob).await);
    let bot = |k: usize| format!("function act(o) return o.legal[1] end -- {k}").into_bytes();
    for k in 0..3 {
        let r = api_upload(&s.app, Some(&ta), &format!("game=blade&name=a{k}&file=a.lua"), bot(k)).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    let r = api_upload(&s.app, Some(&ta), "game=blade&name=a3&file=a.lua", bot(3)).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    assert!(r.body.contains("per_minute"), "{}", r.body);
    // Bob (same address, as every request here) is not held up by Alice.
    let r = api_upload(&s.app, Some(&tb), "game=blade&name=b0&file=b.lua", bot(10)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
}

#[tokio::test]
async fn fifty_concurrent_uploads_lose_nothing() {
    let s = site("fifty");
    let mut teacher = admin(&s).await;
    let mut tokens = Vec::new();
    for i in 0..5 {
        let mut p = player(&s, &mut teacher, &format!("p{i}")).await;
        tokens.push(token(&s, &mut p).await);
    }
    let mut tasks = Vec::new();
    for k in 0..50usize {
        let app = s.app.clone();
        let t = tokens[k % 5].clone();
        tasks.push(tokio::spawn(async move {
            // Ten versions of one bot per player, plus a duplicate of the first file.
            let body = format!("function act(o) return o.legal[1] end -- {k}").into_bytes();
            let r =
                api_upload(&app, Some(&t), &format!("game=blade&name=bot{}&file=x.lua", k % 5), body).await;
            r.status
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    assert!(statuses.iter().all(|&st| st == StatusCode::CREATED), "{statuses:?}");
    for i in 0..5 {
        let bot = s.db.bot_named("blade", &format!("bot{i}")).unwrap().unwrap();
        let mut numbers: Vec<i64> = s.db.versions(bot.id).unwrap().iter().map(|v| v.number).collect();
        numbers.sort();
        assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
    }
    assert_eq!(pending_validations(&s), 50);
    // A duplicate is refused with a clear message.
    let r = api_upload(
        &s.app,
        Some(&tokens[0]),
        "game=blade&name=bot0&file=x.lua",
        b"function act(o) return o.legal[1] end -- 0".to_vec(),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.body.contains("identical to bot0 v"), "{}", r.body);
}

#[tokio::test]
async fn backup_copies_the_database_while_it_is_open() {
    let s = site("backup");
    let mut teacher = admin(&s).await;
    let _alice = player(&s, &mut teacher, "alice").await;
    let copy = s.db.path().with_file_name("copy.db");
    s.db.backup(&copy).unwrap();
    let c = SqliteStore::open(&copy).unwrap();
    let names: Vec<String> = c.users().unwrap().into_iter().map(|u| u.name).collect();
    assert_eq!(names, ["alice", "teacher"]);
    let mode: String = rusqlite::Connection::open(s.db.path())
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}
