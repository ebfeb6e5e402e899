//! Rate limits of sign-ins and the API (`rate`): per name tried, per session, per token; never
//! per address (every request here comes from the same one).

use super::*;

fn limited(login: u32, api: u32) -> LadderConfig {
    let text = format!(
        "[[board]]\ngame = \"blade\"\n[upload]\nper_minute = 100\n[login]\nper_minute = {login}\n[api]\nper_minute = {api}\n"
    );
    config::parse(&text, Path::new("ladder.toml")).unwrap()
}

async fn login(s: &Site, b: &mut Browser, name: &str, password: &str) -> Answer {
    b.post(&s.app, "/login", &[("name", name), ("password", password)]).await
}

#[tokio::test]
async fn sign_ins_are_limited_per_name_and_per_session_alike_for_every_name() {
    let s = site_with("rate-login", limited(3, 100));
    let mut teacher = admin(&s).await;
    let _alice = player(&s, &mut teacher, "alice").await;
    let _bob = player(&s, &mut teacher, "bob").await;
    // Three wrong passwords for alice, then even the right one is held back, with Retry-After.
    let mut b = Browser::default();
    for _ in 0..3 {
        assert_eq!(login(&s, &mut b, "alice", "wrong-wrong").await.status, StatusCode::UNAUTHORIZED);
    }
    let held = login(&s, &mut b, "alice", "password123").await;
    assert_eq!(held.status, StatusCode::TOO_MANY_REQUESTS, "{}", held.body);
    assert!(held.headers.contains_key(header::RETRY_AFTER));
    assert!(held.body.contains("[login] per_minute"), "{}", held.body);
    assert_eq!(b.get(&s.app, "/account").await.status, StatusCode::UNAUTHORIZED, "not signed in");
    // A name's limit holds in another session too (a new cookie does not reset it) ...
    let mut c = Browser::default();
    assert_eq!(login(&s, &mut c, "Alice", "password123").await.status, StatusCode::TOO_MANY_REQUESTS);
    // ... and a name nobody has gets the same answer as a taken one: no enumeration.
    let mut d = Browser::default();
    for _ in 0..3 {
        assert_eq!(login(&s, &mut d, "nobody", "wrong-wrong").await.status, StatusCode::UNAUTHORIZED);
    }
    let unknown = login(&s, &mut d, "nobody", "wrong-wrong").await;
    assert_eq!(unknown.status, held.status);
    let tail =
        |a: &Answer| a.body.split("try again in").nth(1).map(|t| t.split_once(' ').map(|x| x.1.to_string()));
    assert_eq!(tail(&unknown), tail(&held), "the same message for a taken and a free name");
    // Bob, behind the same address, signs in.
    let mut e = Browser::default();
    assert_eq!(login(&s, &mut e, "bob", "password123").await.status, StatusCode::SEE_OTHER);
    // One session trying many names is held back too.
    let mut f = Browser::default();
    for k in 0..3 {
        let r = login(&s, &mut f, &format!("guess{k}"), "wrong-wrong").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(login(&s, &mut f, "guess9", "wrong-wrong").await.status, StatusCode::TOO_MANY_REQUESTS);
    // Registrations count the same way (bad invite codes here).
    let mut g = Browser::default();
    for k in 0..3 {
        let r = g
            .post(
                &s.app,
                "/register",
                &[("invite", "bad"), ("name", &format!("new{k}")), ("password", "password123")],
            )
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    }
    let r = g
        .post(&s.app, "/register", &[("invite", "bad"), ("name", "new9"), ("password", "password123")])
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn every_api_route_is_limited_per_token() {
    let s = site_with("rate-api", limited(100, 2));
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let mut bob = player(&s, &mut teacher, "bob").await;
    let (ta, tb) = (token(&s, &mut alice).await, token(&s, &mut bob).await);
    let bot = |k: usize| format!("function act(o) return o.legal[1] end -- {k}").into_bytes();
    for k in 0..2 {
        let r = api_upload(&s.app, Some(&ta), &format!("game=blade&name=a{k}&file=a.lua"), bot(k)).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    let r = api_upload(&s.app, Some(&ta), "game=blade&name=a2&file=a.lua", bot(2)).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    let json: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert!(json["error"].as_str().unwrap().contains("[api] per_minute"), "{}", r.body);
    // Any /api/ route counts, not only uploads: an unknown one is refused before routing too.
    let req = Request::builder()
        .uri("/api/anything")
        .header(header::AUTHORIZATION, format!("Bearer {ta}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(Browser::default().send(&s.app, req).await.status, StatusCode::TOO_MANY_REQUESTS);
    // Bob's token, from the same address, is not held up.
    let r = api_upload(&s.app, Some(&tb), "game=blade&name=b0&file=b.lua", bot(10)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
}
