//! The ladder for a club: `.wat` uploads, a refused upload's form, the bot
//! page's way back to its leaderboard and its results.

use super::*;

fn repo_file(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(path)).unwrap()
}

#[tokio::test]
async fn wat_uploads_are_kept_as_text_and_compiled_when_validated() {
    let s = site("wat");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let first_legal = repo_file("example_bots/wat/first_legal.wat");
    // By the form, and by the API (`arena submit bot.wat`).
    let r = alice.upload(&s.app, "blade", "texty", "bot.wat", &first_legal, true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let t = token(&s, &mut alice).await;
    let r = api_upload(&s.app, Some(&t), "game=blade&file=importer.wat", hostile("wasm_unknown_import.wat"))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let r = api_upload(&s.app, Some(&t), "game=blade&file=broken.wat", b"(module (func".to_vec()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    // A binary module named .wat, or text that is not UTF-8: refused, saying what to do.
    let binary = wat::parse_bytes(&first_legal).unwrap().into_owned();
    let r = alice.upload(&s.app, "blade", "misnamed", "bot.wat", &binary, true).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("name it .wasm"), "{}", r.body);
    let r = alice.upload(&s.app, "blade", "latin1", "bot.wat", b"(module) ;; caf\xe9", true).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("not UTF-8"), "{}", r.body);

    assert_eq!(run_jobs(&s), 3, "one validation per upload");
    let newest = |name: &str| {
        let bot = s.db.bot_named("blade", name).unwrap().unwrap();
        (bot.id, s.db.versions(bot.id).unwrap().remove(0))
    };
    let (id, v) = newest("texty");
    assert_eq!((v.lang.as_str(), v.state.as_str()), ("wat", "ready"), "{}", v.verdicts);
    // The sandbox compiled it as `arena check` would: its faults are the load verdict.
    for (name, says) in [("importer", "unknown import"), ("broken", "malformed WebAssembly module")] {
        let (_, v) = newest(name);
        assert_eq!((v.lang.as_str(), v.state.as_str()), ("wat", "failed"), "{name}");
        assert!(
            v.verdicts.contains("\"verdict\":\"load\"") && v.verdicts.contains(says),
            "{name}: {}",
            v.verdicts
        );
    }
    // The page says what it is; the source is the text uploaded, under the replays' name.
    let page = alice.get(&s.app, &format!("/bots/{id}")).await;
    assert!(page.body.contains("v1 (wat)"), "{}", page.body);
    let src = alice.get(&s.app, &format!("/bots/{id}/v/1/source")).await;
    assert_eq!(src.body.as_bytes(), first_legal.as_slice());
    let disposition = src.headers.get(header::CONTENT_DISPOSITION).unwrap().to_str().unwrap();
    assert!(disposition.contains("texty@v1.wat"), "{disposition}");
    assert!(src.headers.get(header::CONTENT_TYPE).unwrap().to_str().unwrap().starts_with("text/plain"));
    // It plays: a match against another player's bot.
    let mut bob = player(&s, &mut teacher, "bob").await;
    let r = bob.upload(&s.app, "blade", "dice", "d.lua", &lua("blade_random.lua"), true).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    run_jobs(&s);
    assert!(!queue_tick(&s, 1).is_empty());
    run_jobs(&s);
    let played = s.db.matches_of(&[v.id], 10).unwrap();
    assert!(!played.is_empty(), "the .wat bot plays on the leaderboard");
}

/// The upload form is on the page: the layout (the site's bar, signed in), the form, and the
/// rate limit's rule.
fn assert_upload_form(body: &str) {
    assert!(body.contains("<form method=\"post\" action=\"/upload\""), "{body}");
    assert!(body.contains("<header>") && body.contains("href=\"/account\""), "the ladder's layout: {body}");
    assert!(body.contains("every try counts, refused ones too"), "{body}");
}

#[tokio::test]
async fn a_refused_upload_shows_the_form_again_with_the_reason() {
    let config =
        config::parse("[[board]]\ngame = \"blade\"\n[upload]\nper_minute = 3\n", Path::new("ladder.toml"))
            .unwrap();
    let s = site_with("refused", config);
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let page = alice.get(&s.app, "/upload").await;
    assert_upload_form(&page.body);
    assert!(page.body.contains("3 times a minute") && !page.body.contains("Not uploaded"), "{}", page.body);
    // A language the ladder does not take: 422, the form again with the reason, the game and
    // name as they were.
    let r = alice.upload(&s.app, "blade", "snake", "snake.rb", b"puts 1", true).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_upload_form(&r.body);
    assert!(r.body.contains("role=\"alert\">Not uploaded: a bot is a .lua, .js or .py script"), "{}", r.body);
    assert!(r.body.contains("not .rb"), "{}", r.body);
    assert!(r.body.contains("name=\"name\" value=\"snake\""), "the name is kept: {}", r.body);
    assert!(r.body.contains("<option value=\"blade\" selected>"), "the game is kept: {}", r.body);
    // Too large (the body limit, before the form is read): 413, the form with the limit.
    let r = alice.upload(&s.app, "blade", "big", "big.lua", &vec![b'x'; s.config.max_bytes * 3], true).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_upload_form(&r.body);
    assert!(r.body.contains(&format!("limit of {} bytes", s.config.max_bytes)), "{}", r.body);
    // The same file twice: 409, the form with what to do.
    let good = lua("blade_random.lua");
    assert_eq!(
        alice.upload(&s.app, "blade", "dice", "d.lua", &good, true).await.status,
        StatusCode::SEE_OTHER
    );
    // That was the third try of the minute, the refused ones counted as the page says: the
    // fourth is held back.
    let r = alice.upload(&s.app, "blade", "dice", "d.lua", &good, true).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    // Held back, the form says so too (the API keeps its JSON for `arena submit`).
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    assert_upload_form(&r.body);
    assert!(r.body.contains("Not uploaded: too many uploads; try again in"), "{}", r.body);
    // Signed out, there is no form to show: the error page, as before.
    let mut stranger = Browser::default();
    stranger.get(&s.app, "/login").await;
    let r = stranger.upload(&s.app, "blade", "x", "x.lua", &good, true).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(!r.body.contains("action=\"/upload\""), "{}", r.body);
}

#[tokio::test]
async fn a_refused_duplicate_shows_the_form_with_its_reason() {
    let s = site("duplicate");
    let mut teacher = admin(&s).await;
    let mut alice = player(&s, &mut teacher, "alice").await;
    let good = lua("blade_random.lua");
    assert_eq!(
        alice.upload(&s.app, "blade", "dice", "d.lua", &good, true).await.status,
        StatusCode::SEE_OTHER
    );
    let r = alice.upload(&s.app, "blade", "dice", "d.lua", &good, true).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_upload_form(&r.body);
    assert!(r.body.contains("identical to dice v1"), "{}", r.body);
    // Without the form's token: 403, and the form again with a fresh one.
    let r = alice.upload(&s.app, "blade", "dice", "d.lua", &good, false).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_upload_form(&r.body);
    assert!(r.body.contains("security token") && csrf_of(&r.body).is_some(), "{}", r.body);
}

/// `(result, match id)` of each recent match on a bot page.
fn results(body: &str) -> Vec<(String, i64)> {
    let list = between(body, "<ul class=\"recent\">", "</ul>").unwrap();
    list.split("<li>")
        .skip(1)
        .map(|item| {
            let result = between(item, "<span class=\"result result-", "\"").unwrap();
            let id = between(item, "<a href=\"/matches/", "\"").unwrap().parse().unwrap();
            (result, id)
        })
        .collect()
}

#[tokio::test]
async fn a_bot_page_links_its_leaderboard_and_shows_its_results() {
    let config = config::parse(
        "[[board]]\ngame = \"blade\"\n[[board]]\ngame = \"blade\"\nvariant = \"controller\"\n[[board]]\ngame = \"ecard\"\n[upload]\nper_minute = 100\n",
        Path::new("ladder.toml"),
    )
    .unwrap();
    let s = site_with("results", config);
    let (_teacher, _players) =
        ladder_with_bots(&s, &[("greedy1", "blade_greedy.lua"), ("carlo", "blade_montecarlo.lua")]).await;
    assert!(!queue_tick(&s, 1).is_empty());
    run_jobs(&s);
    let mut visitor = Browser::default();
    let mut seen = std::collections::BTreeMap::new();
    for name in ["greedy1", "carlo"] {
        let bot = s.db.bot_named("blade", name).unwrap().unwrap();
        let page = visitor.get(&s.app, &format!("/bots/{}", bot.id)).await.body;
        // Back to each leaderboard of its game, and to no other game's.
        let back = between(&page, "<p class=\"leaderboards\">", "</p>").unwrap();
        assert!(
            back.contains("href=\"/board/blade/readme\"")
                && back.contains("href=\"/board/blade/controller\""),
            "{back}"
        );
        assert!(!back.contains("ecard"), "{back}");
        let versions: Vec<i64> = s.db.versions(bot.id).unwrap().iter().map(|v| v.id).collect();
        let shown = results(&page);
        assert!(!shown.is_empty(), "{page}");
        for (result, id) in &shown {
            // From the bot's seat: first alone a win, first with the other a draw, else a loss.
            let (m, _) = s.db.match_row(*id).unwrap().unwrap();
            let summary: MatchSummaryOf = serde_json::from_str(&m.summary).unwrap();
            let seat = m.seats.iter().position(|v| versions.contains(v)).unwrap();
            let firsts = summary.ranks.iter().filter(|&&r| r == 1).count();
            let expected = match (summary.ranks[seat], firsts) {
                (1, 1) => "win",
                (1, _) => "draw",
                _ => "loss",
            };
            assert_eq!(result, expected, "{name} in match {id}: ranks {:?}, seat {seat}", summary.ranks);
            seen.insert((name, *id), result.clone());
        }
    }
    // Each match seen from both sides: one's win is the other's loss.
    let mut pairs = 0;
    for ((name, id), result) in &seen {
        if *name != "greedy1" {
            continue;
        }
        if let Some(other) = seen.get(&("carlo", *id)) {
            let flipped = match result.as_str() {
                "win" => "loss",
                "loss" => "win",
                d => d,
            };
            assert_eq!(other, flipped, "match {id}");
            pairs += 1;
        }
    }
    assert!(pairs > 0);
    assert!(seen.values().any(|r| r != "draw"), "some match was decided: {seen:?}");
}

/// The part of a stored match summary the test reads.
#[derive(serde::Deserialize)]
struct MatchSummaryOf {
    ranks: Vec<u32>,
}
