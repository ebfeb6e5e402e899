//! The ladder on the open internet: revoking tokens, ending sessions, names unique whatever
//! their case, per-account rate limits, security headers, Secure cookies, error pages.

use super::*;
use crate::db::name_key;

/// The id in the first revoke form of an account page.
fn first_revoke(html: &str) -> Option<String> {
    between(html, "action=\"/account/tokens/", "/revoke")
}

#[tokio::test]
async fn a_revoked_token_is_refused_at_once() {
    let s = site("revoke");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let t = token(&s, &mut alice).await;
    let r = api_upload(&s.app, Some(&t), "game=blade&name=r1&file=r1.lua", lua("blade_random.lua")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let page = alice.get(&s.app, "/account").await;
    let id = first_revoke(&page.body).expect("the account page has a Revoke button per token");
    // Someone else cannot revoke it.
    let r = teacher.post(&s.app, &format!("/account/tokens/{id}/revoke"), &[]).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let r = api_upload(&s.app, Some(&t), "game=blade&name=r2&file=r2.lua", lua("blade_greedy.lua")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    // Its owner can; the very next call with it is refused, and the page no longer lists it.
    let r = alice.post(&s.app, &format!("/account/tokens/{id}/revoke"), &[]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = api_upload(&s.app, Some(&t), "game=blade&name=r3&file=r3.lua", lua("blade_montecarlo.lua")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
    assert_eq!(first_revoke(&alice.get(&s.app, "/account").await.body), None);
}

/// Alice signed in a second time, in another browser.
async fn sign_in(s: &Site, name: &str, password: &str) -> Browser {
    let mut b = Browser::default();
    let r = b.post(&s.app, "/login", &[("name", name), ("password", password)]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    b
}

#[tokio::test]
async fn disabling_a_user_ends_their_sessions_for_good() {
    let s = site("end-sessions");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let mut laptop = sign_in(&s, "alice", "password123").await;
    assert_eq!(alice.get(&s.app, "/account").await.status, StatusCode::OK);
    let id = s.db.users().unwrap().into_iter().find(|u| u.name == "alice").unwrap().id;
    let sessions_of = || {
        s.db.raw(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM sessions WHERE json_extract(record, '$.data.user') = ?1",
                [id],
                |r| r.get::<_, i64>(0),
            )
        })
        .unwrap()
    };
    assert_eq!(sessions_of(), 2);
    let r = teacher.post(&s.app, &format!("/admin/users/{id}/disable"), &[("disabled", "true")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(sessions_of(), 0, "a disabled user's sessions are deleted");
    // Enabled again: the old sessions stay ended; signing in again works.
    let r = teacher.post(&s.app, &format!("/admin/users/{id}/disable"), &[("disabled", "false")]).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(alice.get(&s.app, "/account").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(laptop.get(&s.app, "/account").await.status, StatusCode::UNAUTHORIZED);
    let mut back = sign_in(&s, "alice", "password123").await;
    assert_eq!(back.get(&s.app, "/account").await.status, StatusCode::OK);
}

#[tokio::test]
async fn changing_the_password_ends_the_other_sessions() {
    let s = site("password");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let mut laptop = sign_in(&s, "alice", "password123").await;
    let page = alice.get(&s.app, "/account").await;
    assert!(page.body.contains("action=\"/account/password\""), "{}", page.body);
    let r = alice
        .post(&s.app, "/account/password", &[("current", "wrong-wrong"), ("password", "new secret")])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("current password is wrong"), "{}", r.body);
    assert_eq!(laptop.get(&s.app, "/account").await.status, StatusCode::OK, "a refused change ends nothing");
    let r = alice
        .post(&s.app, "/account/password", &[("current", "password123"), ("password", "new secret")])
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    // This session goes on; the other one is over; only the new password signs in.
    assert_eq!(alice.get(&s.app, "/account").await.status, StatusCode::OK);
    assert_eq!(laptop.get(&s.app, "/account").await.status, StatusCode::UNAUTHORIZED);
    let mut b = Browser::default();
    let r = b.post(&s.app, "/login", &[("name", "alice"), ("password", "password123")]).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    sign_in(&s, "alice", "new secret").await;
}

#[test]
fn name_keys_fold_case_and_compatibility_forms() {
    assert_eq!(name_key("ALICE"), "alice");
    assert_eq!(name_key("Alice_2"), "alice_2");
    assert_eq!(name_key("ａｌｉｃｅ"), "alice", "full-width letters");
    assert_eq!(name_key("ﬁsh"), "fish", "the ligature");
}

#[tokio::test]
async fn user_and_bot_names_are_unique_whatever_their_case() {
    let s = site("names");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    // ALICE cannot register beside alice.
    let r = teacher.post(&s.app, "/admin/invites", &[]).await;
    let link = between(&r.body, "<code id=\"invite\">", "<").unwrap();
    let code = link.split("invite=").nth(1).unwrap().to_string();
    let mut b = Browser::default();
    let r = b
        .post(&s.app, "/register", &[("invite", &code), ("name", "ALICE"), ("password", "password123")])
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("the name is taken"), "{}", r.body);
    // Nor in the database itself, past the code.
    let direct = s.db.raw(|c| {
        c.execute(
            "INSERT INTO users (name, name_key, pw_hash, created) VALUES ('ALICE', ?1, 'x', 0)",
            [name_key("ALICE")],
        )
    });
    assert!(direct.unwrap_err().to_string().contains("UNIQUE"), "the database refuses it");
    // alice signs in as Alice too (one account, whatever the case typed).
    sign_in(&s, "Alice", "password123").await;
    // Bots: Bob cannot take alice's bot name in another case; alice's own other case is her bot.
    let mut bob = player(&s, &mut teacher, "bob").await;
    bob.get(&s.app, "/upload").await;
    alice.get(&s.app, "/upload").await;
    let r = alice.upload(&s.app, "blade", "Greedy", "g.lua", &lua("blade_greedy.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let r = bob.upload(&s.app, "blade", "GREEDY", "g.lua", &lua("blade_random.lua"), true).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let r = alice.upload(&s.app, "blade", "greedy", "g.lua", &lua("blade_random.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let bot = s.db.bot_named("blade", "Greedy").unwrap().unwrap();
    assert_eq!(s.db.versions(bot.id).unwrap().len(), 2, "greedy is a new version of Greedy");
    assert!(s.db.bot_named("blade", "greedy").unwrap().is_none());
}

#[test]
fn older_databases_migrate_keeping_colliding_names() {
    let dir = tempdir::Dir::new("migrate");
    let path = dir.path().join("ladder.db");
    {
        // The tables as an older version made them, with names that collide but for their case.
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(
            "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, pw_hash TEXT NOT NULL,
                admin INTEGER NOT NULL DEFAULT 0, disabled INTEGER NOT NULL DEFAULT 0, created INTEGER NOT NULL);
             CREATE TABLE bots (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL REFERENCES users(id),
                game TEXT NOT NULL, name TEXT NOT NULL, published INTEGER NOT NULL DEFAULT 0,
                disabled INTEGER NOT NULL DEFAULT 0, UNIQUE (game, name));
             INSERT INTO users (name, pw_hash, created) VALUES ('alice', 'h1', 0), ('Alice', 'h2', 0), ('bob', 'h3', 0);
             INSERT INTO bots (owner, game, name) VALUES (1, 'blade', 'x'), (2, 'blade', 'X'), (2, 'ember', 'x');",
        )
        .unwrap();
    }
    let db = SqliteStore::open(&path).unwrap();
    let keys: Vec<(String, String)> = db
        .raw(|c| {
            let mut s = c.prepare("SELECT name, name_key FROM users ORDER BY id")?;
            let rows = s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect();
            rows
        })
        .unwrap();
    let expected = [("alice", "alice"), ("Alice", "alice~2"), ("bob", "bob")];
    assert_eq!(keys, expected.map(|(a, b)| (a.to_string(), b.to_string())));
    // Both keep signing in by their own name; another case finds the oldest.
    assert_eq!(db.login_row("Alice").unwrap().unwrap().1, "h2");
    assert_eq!(db.login_row("alice").unwrap().unwrap().1, "h1");
    assert_eq!(db.login_row("ALICE").unwrap().unwrap().1, "h1");
    // No new account takes any form of the name.
    assert!(db.register("aLiCe", "h", None).unwrap().is_none());
    assert!(db.register("carol", "h", None).unwrap().is_some());
    let bots: Vec<String> = db
        .raw(|c| {
            let mut s = c.prepare("SELECT name_key FROM bots ORDER BY id")?;
            let rows = s.query_map([], |r| r.get(0))?.collect();
            rows
        })
        .unwrap();
    assert_eq!(bots, ["x", "x~2", "x"], "per game");
    // Opened again: nothing changes.
    drop(db);
    let again = SqliteStore::open(&path).unwrap();
    assert_eq!(again.login_row("Alice").unwrap().unwrap().1, "h2");
}

fn limits(upload: u32, api: u32) -> LadderConfig {
    let text =
        format!("[[board]]\ngame = \"blade\"\n[upload]\nper_minute = {upload}\n[api]\nper_minute = {api}\n");
    config::parse(&text, Path::new("ladder.toml")).unwrap()
}

#[tokio::test]
async fn uploads_and_api_calls_count_per_account_across_its_tokens() {
    let s = site_with("rate-account", limits(2, 100));
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let (t1, t2) = (token(&s, &mut alice).await, token(&s, &mut alice).await);
    let bot = |k: usize| format!("function act(o) return o.legal[1] end -- {k}").into_bytes();
    for (k, t) in [&t1, &t2].into_iter().enumerate() {
        let r = api_upload(&s.app, Some(t), &format!("game=blade&name=a{k}&file=a.lua"), bot(k)).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    // A third token, or the browser, is the same account: held back.
    let t3 = token(&s, &mut alice).await;
    let r = api_upload(&s.app, Some(&t3), "game=blade&name=a3&file=a.lua", bot(3)).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    alice.get(&s.app, "/upload").await;
    let r = alice.upload(&s.app, "blade", "a4", "a.lua", &bot(4), true).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.body.contains("<header>") && r.body.contains("[upload] per_minute"), "{}", r.body);
    // The teacher, from the same address, is not.
    let t = token(&s, &mut teacher).await;
    let r = api_upload(&s.app, Some(&t), "game=blade&name=t0&file=t.lua", bot(10)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);

    // API calls the same way.
    let s = site_with("rate-account-api", limits(100, 2));
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let (t1, t2) = (token(&s, &mut alice).await, token(&s, &mut alice).await);
    for t in [&t1, &t2] {
        let r = api_upload(&s.app, Some(t), "game=blade&name=x&file=x.lua", vec![]).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    }
    let r = api_upload(&s.app, Some(&t1), "game=blade&name=x&file=x.lua", vec![]).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
}

#[tokio::test]
async fn retry_after_is_rounded_up() {
    // 120 a minute: one more every half second, so the wait is below a second.
    let s = site_with("retry", limits(120, 1000));
    let mut held = None;
    for _ in 0..400 {
        let r = api_upload(&s.app, Some("not-a-token"), "game=blade&name=x&file=x.lua", vec![]).await;
        if r.status == StatusCode::TOO_MANY_REQUESTS {
            held = Some(r);
            break;
        }
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.body);
    }
    let r = held.expect("the upload limit holds");
    assert_eq!(r.headers[header::RETRY_AFTER], "1");
    assert!(r.body.contains("try again in 1 s"), "{}", r.body);
}

/// The security headers every answer carries.
fn assert_hardened(r: &Answer, what: &str) {
    let csp = r.headers.get(header::CONTENT_SECURITY_POLICY).map(|v| v.to_str().unwrap().to_string());
    let csp = csp.unwrap_or_else(|| panic!("{what}: no Content-Security-Policy"));
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{what}: {csp}");
    assert_eq!(r.headers.get(header::X_CONTENT_TYPE_OPTIONS).map(|v| v.to_str().unwrap()), Some("nosniff"));
    assert!(r.headers.contains_key(header::REFERRER_POLICY), "{what}");
}

/// The inline scripts of a page that would run (not JSON data).
fn inline_scripts(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for tag in html.split("<script").skip(1) {
        let (attrs, rest) = tag.split_once('>').unwrap();
        if attrs.contains("src=") || attrs.contains("application/json") {
            continue;
        }
        found.push(rest.split("</script>").next().unwrap().to_string());
    }
    found
}

#[tokio::test]
async fn every_page_has_security_headers_and_only_the_viewer_script_is_inline() {
    use base64::Engine;
    use sha2::Digest;
    let s = site("headers");
    let (mut teacher, _players) =
        ladder_with_bots(&s, &[("greedy1", "blade_greedy.lua"), ("random1", "blade_random.lua")]).await;
    queue_tick(&s, 1);
    run_jobs(&s);
    let m = s.db.board_matches("blade", "readme").unwrap()[0].id;
    let bot = s.db.bot_named("blade", "greedy1").unwrap().unwrap().id;
    let mut csp = String::new();
    for path in ["/", "/login", "/account", "/upload", "/admin", "/board/blade/readme", "/play", "/class"] {
        let r = teacher.get(&s.app, path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert_hardened(&r, path);
        assert_eq!(inline_scripts(&r.body), Vec::<String>::new(), "{path}");
        csp = r.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_string();
    }
    let r = teacher.get(&s.app, &format!("/bots/{bot}")).await;
    assert_hardened(&r, "a bot page");
    assert_eq!(inline_scripts(&r.body), Vec::<String>::new(), "a bot page");
    // The match page's one inline script (the viewer) is allowed by its hash.
    let r = teacher.get(&s.app, &format!("/matches/{m}")).await;
    assert_hardened(&r, "a match page");
    let scripts = inline_scripts(&r.body);
    assert_eq!(scripts.len(), 1, "{}", r.body);
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(scripts[0].as_bytes()));
    assert!(csp.contains(&format!("'sha256-{hash}'")), "{csp}");
    for path in ["/nothing".to_string(), format!("/matches/{m}/replay.json"), "/static/style.css".into()] {
        assert_hardened(&teacher.get(&s.app, &path).await, &path);
    }
    let r = api_upload(&s.app, None, "game=blade", vec![]).await;
    assert_hardened(&r, "the API");
    // The game page's script is a file now.
    let r = teacher.get(&s.app, "/static/play.js").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("dataset.shown"), "{}", r.body);
}

#[tokio::test]
async fn cookies_are_secure_when_the_ladder_is_reached_over_https() {
    for (url, secure) in [("https://ladder.test", true), ("http://ladder.test", false)] {
        let s = site_at("secure", blade_only(), url);
        let r = Browser::default().get(&s.app, "/login").await;
        let cookie = r.headers[header::SET_COOKIE].to_str().unwrap().to_string();
        assert_eq!(cookie.contains("; Secure"), secure, "{url}: {cookie}");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
    }
    let p = Path::new("ladder.toml");
    let c = config::parse("public_url = \"https://ladder.example.org/\"\n", p).unwrap();
    assert_eq!(c.public_url.as_deref(), Some("https://ladder.example.org"));
    let e = config::parse("title = \"x\"\npublic_url = \"ladder.example.org\"\n", p).unwrap_err().to_string();
    assert!(e.starts_with("ladder.toml:2: `public_url"), "{e}");
}

#[tokio::test]
async fn every_error_is_a_page_in_the_layout() {
    let s = site("errors");
    let mut teacher = admin(&s).await;
    let in_layout = |r: &Answer, status: StatusCode, says: &str| {
        assert_eq!(r.status, status, "{}", r.body);
        let kind = r.headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(kind.starts_with("text/html"), "{kind}");
        assert!(
            r.body.contains("<header>") && r.body.contains("teacher"),
            "the layout, signed in: {}",
            r.body
        );
        let text = r.body.replace("&#x2f;", "/").replace("&#x60;", "`");
        assert!(text.contains(says), "{says:?} in {}", r.body);
        for raw in ["Cannot parse", "Failed to deserialize", "Expected request with"] {
            assert!(!r.body.contains(raw), "{raw:?} in {}", r.body);
        }
    };
    in_layout(&teacher.get(&s.app, "/nothing/here").await, StatusCode::NOT_FOUND, "no page at /nothing/here");
    in_layout(&teacher.get(&s.app, "/bots/abc").await, StatusCode::NOT_FOUND, "no page at /bots/abc");
    in_layout(&teacher.get(&s.app, "/bots/999").await, StatusCode::NOT_FOUND, "no such bot");
    in_layout(&teacher.get(&s.app, "/logout").await, StatusCode::METHOD_NOT_ALLOWED, "does not take GET");
    // A form missing a field.
    let r = teacher.post(&s.app, "/login", &[("name", "teacher")]).await;
    in_layout(&r, StatusCode::UNPROCESSABLE_ENTITY, "missing field `password`");
    // A POST without a body (or its token) is refused by the CSRF check first.
    for path in ["/logout", "/register", "/account/tokens", "/upload"] {
        let req = teacher.req("POST", path).body(Body::empty()).unwrap();
        let r = teacher.send(&s.app, req).await;
        in_layout(&r, StatusCode::FORBIDDEN, "security token");
    }
    // Under /api/, JSON.
    let req = Request::builder().uri("/api/nothing").body(Body::empty()).unwrap();
    let r = Browser::default().send(&s.app, req).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let json: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert!(json["error"].as_str().unwrap().contains("/api/nothing"), "{}", r.body);
}

/// Every `POST` route of the router outside `/api/` (the pages' forms), read from the routes
/// in the sources: a form route added later is in the test below without being listed.
fn form_routes() -> Vec<String> {
    let mut routes = Vec::new();
    for source in [
        include_str!("../server.rs"),
        include_str!("../play.rs"),
        include_str!("../class.rs"),
        include_str!("../analysis.rs"),
        include_str!("../garage.rs"),
    ] {
        for line in source.lines().map(str::trim).filter(|l| l.contains(".route(\"") && l.contains("post(")) {
            let path = line.split(".route(\"").nth(1).unwrap().split('"').next().unwrap();
            if !path.starts_with("/api/") {
                routes.push(path.replace("{id}", "1").replace("{game}", "blade"));
            }
        }
    }
    // Signing out last: the valid token's check below would end the session.
    routes.sort_by_key(|p| p == "/logout");
    routes
}

#[tokio::test]
async fn every_form_route_refuses_a_post_without_the_sessions_token() {
    let s = site("csrf-routes");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    alice.get(&s.app, "/upload").await;
    let r = alice.upload(&s.app, "blade", "dice", "d.lua", &lua("blade_random.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let routes = form_routes();
    assert!(routes.len() >= 15 && routes.contains(&"/upload".to_string()), "{routes:?}");
    let refused = |r: &Answer, how: &str, path: &str| {
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{how} {path}: {}", r.body);
        assert!(r.body.contains("security token"), "{how} {path}: {}", r.body);
    };
    let wrong = "0".repeat(64);
    let tokens = |db: &Db| db.tokens(1).unwrap().len() + db.tokens(2).unwrap().len();
    let state = |db: &Db| {
        let bots: Vec<(bool, bool)> = db.bots().unwrap().iter().map(|b| (b.published, b.disabled)).collect();
        let users: Vec<bool> = db.users().unwrap().iter().map(|u| u.disabled).collect();
        (tokens(db), users, bots, db.class_events().unwrap().len(), db.play_games_of(1).unwrap().len())
    };
    for path in &routes {
        teacher.get(&s.app, "/account").await;
        let before = state(&*s.db);
        for fields in [vec![("label", "x")], vec![("csrf", wrong.as_str()), ("label", "x")]] {
            let how = if fields.len() == 1 { "no token" } else { "a wrong token" };
            refused(&teacher.post_raw(&s.app, path, &fields).await, how, path);
            // The same as a multipart form (the upload's encoding), on every route.
            let mut body = String::new();
            for (k, v) in &fields {
                body.push_str(&format!("--B\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"));
            }
            body.push_str("--B--\r\n");
            let req = teacher
                .req("POST", path)
                .header(header::CONTENT_TYPE, "multipart/form-data; boundary=B")
                .body(Body::from(body))
                .unwrap();
            refused(&teacher.send(&s.app, req).await, how, path);
        }
        // Nothing the refused forms asked for happened.
        assert_eq!(before, state(&*s.db), "{path}");
        // With the session's token the check lets it through (to the handler's own answer).
        let r = teacher.post(&s.app, path, &[]).await;
        assert!(!r.body.contains("security token"), "{path}: {}", r.body);
    }
}
