//! The bot author's and teacher's commands as a user runs them: `arena check`, `arena grade`,
//! `arena new`, `arena schema`, and `arena play` with a `human` seat (piped stdin, and tmux
//! when it is installed).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).output().expect("arena runs")
}

/// `arena` run in the folder `dir`.
fn arena_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).current_dir(dir).output().expect("arena runs")
}

/// `arena` with `input` piped to its stdin.
fn arena_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena runs");
    let mut stdin = child.stdin.take().unwrap();
    // The match may end (or the person leave) before all input is read: ignore a closed pipe.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("authoring-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path).to_string_lossy().into_owned()
}

// ---- schema --------------------------------------------------------------------------------

#[test]
fn committed_schemas_and_annotations_match_the_rust_types() {
    for id in cardarena::Games::builtin().ids() {
        let game = id.name();
        let json = std::fs::read_to_string(repo(&format!("docs/schema/{game}.observation.json"))).unwrap();
        assert_eq!(
            json,
            cardarena::schema::observation_schema_text(id),
            "docs/schema/{game}.observation.json is stale: run `arena schema --game {game} > docs/schema/{game}.observation.json`"
        );
        let ts = std::fs::read_to_string(repo(&format!("docs/schema/{game}.d.ts"))).unwrap();
        assert_eq!(
            ts,
            cardarena::schema::ts_declarations(id),
            "docs/schema/{game}.d.ts is stale: run `arena schema --game {game} --ts > docs/schema/{game}.d.ts`"
        );
        assert_eq!(stdout(&arena(&["schema", "--game", game, "--ts"])), ts);
        let lua = std::fs::read_to_string(repo(&format!("docs/schema/{game}.lua"))).unwrap();
        assert_eq!(
            lua,
            cardarena::schema::lua_annotations(id),
            "docs/schema/{game}.lua is stale: run `arena schema --game {game} --lua > docs/schema/{game}.lua`"
        );
        let o = arena(&["schema", "--game", game]);
        assert!(o.status.success());
        assert_eq!(stdout(&o), json);
    }
    let o = arena(&["schema", "--game", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown game \"chess\""), "{}", stderr(&o));
}

// ---- check ---------------------------------------------------------------------------------

#[test]
fn check_reports_a_working_lua_bot() {
    let bot = repo("example_bots/lua/ecard_greedy.lua");
    // (without --against: every built-in of the game, which grows as built-ins are added)
    let o = arena(&[
        "check",
        &bot,
        "--game",
        "ecard",
        "--deals",
        "8",
        "--against",
        "random,greedy",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "8 deals × 2 seatings per opponent",
        "random",
        "greedy",
        "score (95% CI)",
        "rating diff (95% CI)",
        "verdicts: no faults in 32 matches",
        "fuel per decision: mean",
        "of 5000000",
        "memory peak:",
        "of 64.0 MiB",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    // the same arguments give the same report, at any thread count
    let again = arena(&[
        "check",
        &bot,
        "--game",
        "ecard",
        "--deals",
        "8",
        "--against",
        "random,greedy",
        "--threads",
        "1",
    ]);
    assert_eq!(stdout(&again), out);
}

#[test]
fn check_reports_a_bot_that_crashes_sometimes_and_how_to_replay_it() {
    let bot = repo("tests/data/bots/crashes_sometimes.lua");
    let o = arena(&["check", &bot, "--game", "blade", "--deals", "6", "--against", "greedy"]);
    assert_eq!(o.status.code(), Some(1), "a faulty bot is reported, then exit code 1: {}", stderr(&o));
    assert!(stderr(&o).contains("faulted in"), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("verdicts: FAULTS crash:"), "{out}");
    assert!(out.contains("deliberate crash at decision 7"), "{out}");
    // the bot's own count (its 7th, as it counts) beside the match's
    assert!(out.contains("first: crash at your 7th decision, #"), "{out}");
    let replay_line = out.lines().find(|l| l.contains("replay it: ")).expect("a replay command");
    let command = replay_line.split("replay it: arena ").nth(1).unwrap();
    let args: Vec<&str> = command.split_whitespace().collect();
    let replayed = arena(&args);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).contains("FAULT"), "the printed command reproduces the fault");
    assert!(stdout(&replayed).contains(") at its 7th decision, #"), "{}", stdout(&replayed));
}

/// At a table of four, W-D-L counts first places only: `check` explains it and shows the
/// bot's places, which the score counts.
#[test]
fn check_explains_placings_at_a_table_of_four() {
    let bot = repo("example_bots/lua/intensity_greedy.lua");
    let o = arena(&["check", &bot, "--game", "intensity", "--deals", "3", "--against", "greedy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("W-D-L counts first places only"), "{out}");
    assert!(out.contains("1st 1.00, 2nd 0.67, 3rd 0.33, 4th 0.00"), "{out}");
    let places =
        out.lines().find(|l| l.trim_start().starts_with("places in all 12 matches: 1st ")).expect(&out);
    let shares: u32 = places
        .split(", ")
        .map(|p| p.rsplit(' ').next().unwrap().trim_end_matches('%').parse::<u32>().unwrap())
        .sum();
    assert!((98..=102).contains(&shares), "{places}");
    // two players: W-D-L says it all
    let o = arena(&[
        "check",
        &repo("example_bots/lua/ecard_greedy.lua"),
        "--game",
        "ecard",
        "--deals",
        "2",
        "--against",
        "greedy",
    ]);
    assert!(!stdout(&o).contains("W-D-L counts"), "{}", stdout(&o));
}

#[test]
fn check_refuses_a_bot_that_does_not_load_with_exit_code_2() {
    let o = arena(&["check", &repo("tests/data/bots/syntax_error.lua"), "--game", "blade"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot be loaded") && err.contains("syntax_error.lua:4"), "{err}");
    let o = arena(&["check", "missing.lua", "--game", "blade"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no such file"), "{}", stderr(&o));
}

#[test]
fn a_missing_act_is_refused_at_load_with_a_did_you_mean() {
    let dir = scratch("no-act");
    let bot = dir.join("typo.lua");
    std::fs::write(
        &bot,
        "-- act(obs) is what the arena calls\nfunction Act(obs)\n  return obs.legal[1]\nend\n",
    )
    .unwrap();
    let o = arena(&["play", "--game", "blade", "--bots", &format!("{},random", bot.display())]);
    assert_eq!(o.status.code(), Some(2), "refused, not played with faults: {}", stdout(&o));
    assert!(stderr(&o).contains("no function act: did you mean Act?"), "{}", stderr(&o));
}

#[test]
fn a_wasm_file_that_is_not_webassembly_says_so_in_one_line() {
    let dir = scratch("not-wasm");
    let bot = dir.join("bot.wasm");
    std::fs::write(&bot, "function act(obs) return obs.legal[1] end\n").unwrap();
    let o = arena(&["check", bot.to_str().unwrap(), "--game", "blade"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bot.wasm: not a WebAssembly module"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
}

#[test]
fn running_out_of_fuel_names_the_line_and_the_average_decision() {
    let dir = scratch("fuel-line");
    let bot = dir.join("spin.lua");
    // decisions 1 and 2 are cheap; the third loops on line 5
    std::fs::write(
        &bot,
        "local n = 0\nfunction act(obs)\n  n = n + 1\n  if n >= 3 then\n    while true do n = n + 1 end\n  end\n  return obs.legal[1]\nend\n",
    )
    .unwrap();
    let o =
        arena(&["play", "--game", "lost-cities", "--bots", &format!("{},random", bot.display()), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("it ran out at spin.lua:5"), "{out}");
    assert!(out.contains("x its average decision of "), "{out}");
}

#[test]
fn seeds_and_bot_lists_are_read_as_people_type_them() {
    let o = arena(&["play", "--game", "blade", "--bots", "greedy,random", "--seed", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("seeds are whole numbers from 0 to 2^64-1"), "{}", stderr(&o));
    let spaced = arena(&["play", "--game", "blade", "--bots", "greedy, random", "--seed", "4", "--json"]);
    assert!(spaced.status.success(), "{}", stderr(&spaced));
    let plain = arena(&["play", "--game", "blade", "--bots", "greedy,random", "--seed", "4", "--json"]);
    assert_eq!(stdout(&spaced), stdout(&plain));
}

#[test]
fn a_tutorial_runs_from_its_folder_with_the_installed_arena() {
    for game in ["blade", "ecard", "lost-cities", "intensity"] {
        let dir = scratch(&format!("tutorial-{game}"));
        let folder = dir.join("t");
        let o = arena(&["tutorial", game, "--dir", folder.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        // nothing that needs a checkout: no cargo, no markers, no folders of the checkout
        for word in ["cargo", "<!--", "docs/tutorial/", "example_bots/lua/blade"] {
            assert!(!readme.contains(word), "{game}: {word} in {readme}");
        }
        // the step files and the tournament files (docs/ holds the reference pages)
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let text = std::fs::read_to_string(path).unwrap();
                assert!(!text.contains("cargo"), "{game}: {text}");
            }
        }
        let checks: Vec<&str> = readme.lines().filter(|l| l.starts_with("arena check step")).collect();
        assert!(checks.len() >= 3, "{game}: a measuring command per step: {readme}");
        // the last (Lua) step, measured as the README says (fewer deals)
        let last = checks.iter().rfind(|l| l.contains(".lua ")).unwrap();
        assert!(last.ends_with(&format!("--game {game} --against greedy")), "{last}");
        let args: Vec<&str> = last.split_whitespace().skip(1).chain(["--deals", "2"]).collect();
        let o = Command::new(env!("CARGO_BIN_EXE_arena")).args(&args).current_dir(&folder).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{game}: {}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("verdicts: no faults"), "{}", stdout(&o));
        // the Python steps come along with their commands; the last one runs from the folder
        let python: Vec<&&str> = checks.iter().filter(|l| l.contains(".py ")).collect();
        if ["blade", "ecard"].contains(&game) {
            assert!(python.len() >= 3, "{game}: the Python steps' commands: {readme}");
        }
        if let Some(last) = python.last() {
            assert!(folder.join(last.split_whitespace().nth(2).unwrap()).is_file(), "{last}");
            let args: Vec<&str> = last.split_whitespace().skip(1).chain(["--deals", "2"]).collect();
            let o =
                Command::new(env!("CARGO_BIN_EXE_arena")).args(&args).current_dir(&folder).output().unwrap();
            assert_eq!(o.status.code(), Some(0), "{game}: {}{}", stdout(&o), stderr(&o));
            assert!(stdout(&o).contains("verdicts: no faults"), "{}", stdout(&o));
        }
    }
    // Blade's step 4 (an example bot of a checkout) comes along, and its tournament names it
    let dir = scratch("tutorial-new");
    let folder = dir.join("class");
    let o = arena(&["new", folder.to_str().unwrap(), "--game", "blade", "--tutorial"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(folder.join("step4.lua").is_file());
    let toml = std::fs::read_to_string(folder.join("vs-greedy.toml")).unwrap();
    assert!(toml.contains("\"step4.lua\""), "{toml}");
    let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
    assert!(
        readme.contains("The commands call the `arena` you installed, and run in this folder."),
        "{readme}"
    );
    let o = arena(&["new", dir.join("x").to_str().unwrap(), "--game", "blade", "--tutorial", "--lang", "c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the tutorials are in Lua"), "{}", stderr(&o));
}

/// Every file under `dir`, relative to it, with `/` separators.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().components();
                out.push(
                    rel.map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"),
                );
            }
        }
    }
    out.sort();
    out
}

/// The targets of the Markdown links of `text` (`[text](target)`) that point at files: no web
/// address, no in-page anchor; the `#anchor` cut off. Fenced code is skipped.
fn file_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let mut rest = line;
        while let (false, Some(at)) = (fenced, rest.find("](")) {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split('#').next().unwrap();
            if !target.is_empty() && !target.contains("://") {
                out.push(target.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

/// Every relative link of every Markdown file of the folder leads to a file or folder in it.
fn assert_links_resolve(folder: &Path) {
    let mut md = 0;
    for rel in files_under(folder).iter().filter(|f| f.ends_with(".md")) {
        md += 1;
        let path = folder.join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        for target in file_links(&text) {
            let to = path.parent().unwrap().join(&target);
            assert!(to.exists(), "{}: the link ({target}) leads nowhere", path.display());
            let inside = to.canonicalize().unwrap().starts_with(folder.canonicalize().unwrap());
            assert!(inside, "{}: the link ({target}) leaves the folder", path.display());
        }
    }
    assert!(md > 0, "no Markdown file in {}", folder.display());
}

#[test]
fn generated_readmes_link_only_to_files_that_exist() {
    for game in ["blade", "ecard", "lost-cities", "intensity"] {
        let folder = scratch(&format!("links-{game}")).join("t");
        let o = arena(&["tutorial", game, "--dir", folder.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_links_resolve(&folder);
        // the rules the README links to come along
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        assert!(readme.contains(&format!("](docs/games/{game}.md")), "{readme}");
        let rules = std::fs::read_to_string(folder.join(format!("docs/games/{game}.md"))).unwrap();
        assert!(rules.contains("## Observation") || rules.contains("# Observation"), "{game}");
    }
    for lang in ["lua", "javascript", "python", "rust", "c", "wat"] {
        let folder = scratch(&format!("links-new-{lang}")).join("mybot");
        let o = arena(&["new", folder.to_str().unwrap(), "--game", "ecard", "--lang", lang]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_links_resolve(&folder);
        let readme = std::fs::read_to_string(folder.join("README.md")).unwrap();
        assert!(readme.contains("`arena docs ecard`") && readme.contains("`arena docs bot-api`"), "{readme}");
        assert!(!file_links(&readme).is_empty(), "{lang}: the README links to the bot's file: {readme}");
    }
}

#[test]
fn the_docs_come_with_the_binary() {
    let o = arena(&["docs"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let list = stdout(&o);
    for topic in ["bot-api", "sandbox", "ladder", "blade", "ecard", "lost-cities", "intensity"] {
        assert!(list.lines().any(|l| l.trim_start().starts_with(&format!("{topic} "))), "{topic}: {list}");
    }
    // every game of the list has its page
    let ids = cardarena::Games::builtin().ids();
    let games = ids.iter().map(|g| (g.name().to_string(), format!("docs/games/{}.md", g.name())));
    for (topic, file) in games.chain([("bot-api".to_string(), "docs/bot-api.md".to_string())]) {
        let o = arena(&["docs", &topic]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), std::fs::read_to_string(repo(&file)).unwrap(), "{topic}");
    }
    let o = arena(&["docs", "sandbx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean `sandbox`?"), "{}", stderr(&o));
    // the errors that point at a page name the command that shows it
    let dir = scratch("docs-errors");
    let bot = dir.join("noact.lua");
    std::fs::write(&bot, "function play(obs) return obs.legal[1] end\n").unwrap();
    let o = arena(&["play", "--game", "ecard", "--bots", &format!("{},random", bot.display())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`arena docs bot-api`"), "{}", stderr(&o));
}

/// docs/bot-api.md's first Lua bot runs with an installed `arena` alone: every shell command
/// of the guide is run as written (no `cargo`), with its files saved as the guide says.
#[test]
fn the_first_bot_guide_needs_only_the_arena() {
    let doc = std::fs::read_to_string(repo("docs/bot-api.md")).unwrap();
    let start = doc.find("## Your first bot in 10 minutes (Lua)").unwrap();
    let guide = &doc[start..];
    let guide = &guide[..guide[3..].find("\n## ").map_or(guide.len(), |e| e + 3)];
    let dir = scratch("first-bot");
    let mut commands = Vec::new();
    for block in guide.split("```").skip(1).step_by(2) {
        let (lang, body) = block.split_once('\n').unwrap();
        match lang {
            // the last Lua block is the bot as the guide leaves it
            "lua" => std::fs::write(dir.join("my_bot.lua"), body).unwrap(),
            "toml" => std::fs::write(dir.join("my_test.toml"), body).unwrap(),
            "sh" => commands.extend(body.lines().map(str::to_string)),
            other => panic!("a block of {other:?} in the guide"),
        }
        // a command runs with the files the guide has asked for so far
        for line in commands.drain(..) {
            assert!(!line.contains("cargo"), "{line}");
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "arena" => {
                    let o = arena_in(&dir, &words[1..]);
                    assert!(o.status.success(), "{line}: {}{}", stdout(&o), stderr(&o));
                }
                "mkdir" | "grep" => {} // plain shell
                other => panic!("the guide runs {other:?}: {line}"),
            }
        }
    }
    assert!(dir.join("replay.json").is_file() && dir.join("my_test.db").is_file());
}

/// docs/bot-api.md's Determinism section tells of `os.time` and `os.clock`, which a Lua bot
/// has, instead of saying there is no `os`; and what it says holds: the same seed, the same
/// time; `os.clock` counts fuel.
#[test]
fn the_determinism_section_tells_of_the_lua_clock() {
    let doc = std::fs::read_to_string(repo("docs/bot-api.md")).unwrap();
    let section = doc.split("## Determinism").nth(1).unwrap().split("\n## ").next().unwrap();
    assert!(!section.contains("`os`\n  is absent") && !section.contains("`os` is absent"), "{section}");
    assert!(section.contains("`os.time()`") && section.contains("`os.clock()`"), "{section}");
    let dir = scratch("clock");
    let bot = dir.join("clock.lua");
    std::fs::write(&bot, "function act(obs)\n  print(os.time(), os.clock())\n  return obs.legal[1]\nend\n")
        .unwrap();
    let logs = |seed: &str| {
        let o = arena(&[
            "play",
            "--game",
            "ecard",
            "--bots",
            &format!("{},random", bot.display()),
            "--seed",
            seed,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .filter(|l| l.trim_start().starts_with("log: "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(logs("5"), logs("5"));
    assert!(!logs("5").is_empty());
}

/// `check` reports reads of observation fields that do not exist, with a did-you-mean and the
/// real fields; a bot that reads only real fields gets no such line.
#[test]
fn check_reports_reads_of_fields_the_observation_does_not_have() {
    let dir = scratch("check-typo");
    let bot = dir.join("typo.lua");
    std::fs::write(&bot, "function act(obs)\n  if obs.deck then return obs.legal[2] end\n  local h = obs.hnad\n  return obs.legal[1]\nend\n").unwrap();
    let o = arena(&[
        "check",
        bot.to_str().unwrap(),
        "--game",
        "lost-cities",
        "--deals",
        "1",
        "--against",
        "random",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out.lines().find(|l| l.starts_with("observation fields read that do not exist")).expect(&out);
    assert!(line.contains("`deck` (") && line.contains("`hnad` ("), "{line}");
    assert!(line.contains("did you mean `hand`?"), "{line}");
    assert!(out.contains("the observation's fields: deck_size, "), "{out}");
    let clean = arena(&[
        "check",
        &repo("example_bots/lua/lost-cities_greedy.lua"),
        "--game",
        "lost-cities",
        "--deals",
        "1",
        "--against",
        "random",
    ]);
    assert!(!stdout(&clean).contains("do not exist"), "{}", stdout(&clean));
}

#[test]
fn only_play_takes_a_human() {
    let o = arena(&["check", "human", "--game", "blade"]);
    assert_eq!(o.status.code(), Some(2));
    let o = arena(&["sprt", "--game", "blade", "--bots", "human,random", "--max-pairs", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("plays only in `arena play`"), "{}", stderr(&o));
    let o = arena(&["play", "--game", "blade", "--bots", "human,human"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("only one seat can be `human`"), "{}", stderr(&o));
}

// ---- grade ---------------------------------------------------------------------------------

/// A class's folder: two example bots, a WAT bot, a broken one, one that does not load, and
/// a file that is not a bot.
fn class_folder(name: &str) -> PathBuf {
    let dir = scratch(name);
    for (from, to) in [
        ("example_bots/lua/ecard_greedy.lua", "alice.lua"),
        ("example_bots/lua/ecard_random.lua", "bob.lua"),
        ("example_bots/wat/first_legal.wat", "carol.wat"),
        ("tests/data/bots/crashes_sometimes.lua", "dave.lua"),
        ("tests/data/bots/syntax_error.lua", "erin, the \"late\" one.lua"),
    ] {
        std::fs::copy(repo(from), dir.join(to)).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "not a bot").unwrap();
    // two copies: bob's bytes under another name, and alice with another comment
    std::fs::copy(repo("example_bots/lua/ecard_random.lua"), dir.join("frank.lua")).unwrap();
    let alice = std::fs::read_to_string(repo("example_bots/lua/ecard_greedy.lua")).unwrap();
    std::fs::write(dir.join("grace.lua"), format!("-- my own bot, honest\n{alice}")).unwrap();
    dir
}

#[test]
fn grade_writes_one_row_per_bot_file_the_same_at_any_thread_count() {
    let dir = class_folder("grade-a");
    let csv1 = dir.join("grades1.csv");
    let csv2 = dir.join("grades2.csv");
    // run in the class's folder: the capsules go to its capsules/, the CSV names them relative
    let run = |csv: &Path, threads: &str| {
        arena_in(
            &dir,
            &[
                "grade",
                "--game",
                "ecard",
                "--bots",
                dir.to_str().unwrap(),
                "--against",
                "random,greedy",
                "--deals",
                "5",
                "--seed",
                "11",
                "--threads",
                threads,
                "--csv",
                csv.to_str().unwrap(),
            ],
        )
    };
    let o = run(&csv1, "1");
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(table.contains("LOAD ERROR") && table.contains("reference greedy: rating"), "{table}");
    let o2 = run(&csv2, "2");
    assert!(o2.status.success(), "{}", stderr(&o2));
    let text = std::fs::read_to_string(&csv1).unwrap();
    assert_eq!(text, std::fs::read_to_string(&csv2).unwrap(), "CSV bytes differ between 1 and 2 threads");

    let lines: Vec<&str> = text.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(&header[..4], &["file", "hash", "status", "matches"]);
    for col in ["rating", "rating_low", "rating_high", "faults_crash", "fuel_mean", "fuel_p99", "fuel_max"] {
        assert!(header.contains(&col), "no column {col}");
    }
    assert_eq!(lines.len(), 1 + 7, "a row per bot file, none for notes.txt:\n{text}");
    let files: Vec<&str> = lines[1..].iter().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(files, ["alice.lua", "bob.lua", "carol.wat", "dave.lua", "\"erin", "frank.lua", "grace.lua"]);
    let col = |line: &str, name: &str| -> String {
        let i = header.iter().position(|h| *h == name).unwrap();
        line.split(',').nth(i).unwrap().to_string()
    };
    assert_eq!(col(lines[1], "status"), "ok");
    assert_eq!(col(lines[1], "matches"), "20"); // 2 references × 5 deals × 2 seats
    assert_eq!(col(lines[1], "faults_crash"), "0");
    assert!(col(lines[4], "faults_crash").parse::<u64>().unwrap() > 0, "{}", lines[4]);
    // the load error: quoted file name and message, the reason, empty numbers
    assert!(lines[5].starts_with("\"erin, the \"\"late\"\" one.lua\","), "{}", lines[5]);
    assert!(lines[5].contains(",\"load error: "), "{}", lines[5]);
    assert!(lines[5].contains("']' expected near 'end'"), "{}", lines[5]);
    assert!(lines[5].ends_with(",,,,,,,,,"), "{}", lines[5]);
    // W/D/L per reference bot; the first fault, with the command that replays it
    // (three columns: a spreadsheet would read `3-1-6` as a date)
    let wdl: Vec<u64> = ["wins", "draws", "losses"]
        .map(|c| col(lines[1], &format!("vs_greedy_{c}")).parse().unwrap())
        .to_vec();
    assert_eq!(wdl.iter().sum::<u64>(), 10, "{}", lines[1]);
    assert_eq!(col(lines[4], "first_fault_verdict"), "crash", "{}", lines[4]);
    assert!(col(lines[4], "first_fault_decision").parse::<u64>().is_ok(), "{}", lines[4]);
    assert!(lines[4].contains("deliberate crash at decision"), "{}", lines[4]);
    let command = lines[4].split(",\"arena ").nth(1).expect("a replay command").split('"').next().unwrap();
    let replayed = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(command.split_whitespace())
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(stdout(&replayed).contains("FAULT"), "{command}: {}", stderr(&replayed));
    assert_eq!(col(lines[1], "first_fault_verdict"), "");
    // the first fault's crash capsule, which `arena repro` reruns to the same fault
    // (the replay command before it is quoted and has commas: count from the end)
    assert_eq!(header[header.len() - 4], "first_fault_capsule");
    let capsule = lines[4].rsplit(',').nth(3).unwrap().to_string();
    assert!(capsule.starts_with("capsules/ecard-") && capsule.ends_with(".json"), "{}", lines[4]);
    assert_eq!(col(lines[1], "first_fault_capsule"), "");
    assert!(table.contains(&format!("  crash capsule: {capsule} (arena repro to rerun)")), "{table}");
    let repro = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["repro", &capsule])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(repro.status.success(), "{}{}", stdout(&repro), stderr(&repro));
    assert!(stdout(&repro).contains("deliberate crash at decision"), "{}", stdout(&repro));
    // copies: the same bytes, and the same replies under another comment
    assert_eq!(col(lines[2], "same_hash_as"), "frank.lua");
    assert_eq!(col(lines[6], "same_hash_as"), "bob.lua");
    assert_eq!(col(lines[7], "same_hash_as"), "");
    assert_eq!(col(lines[7], "same_replies_as"), "alice.lua");
    assert_eq!(col(lines[1], "same_replies_as"), "grace.lua");
    assert!(table.contains("grace.lua: the same reply as alice.lua at every decision"), "{table}");
    // the better bot is rated higher
    let alice: f64 = col(lines[1], "rating").parse().unwrap();
    let bob: f64 = col(lines[2], "rating").parse().unwrap();
    assert!(alice > bob, "{alice} vs {bob}");

    // the same command on another machine (another folder) gives the same CSV
    let elsewhere = class_folder("grade-b");
    let csv3 = elsewhere.join("grades.csv");
    let o3 = arena_in(
        &elsewhere,
        &[
            "grade",
            "--game",
            "ecard",
            "--bots",
            elsewhere.to_str().unwrap(),
            "--deals",
            "5",
            "--seed",
            "11",
            "--csv",
            csv3.to_str().unwrap(),
        ],
    );
    assert!(o3.status.success(), "{}", stderr(&o3));
    assert_eq!(std::fs::read_to_string(&csv3).unwrap(), text);
}

/// `--round-robin`: the graded bots also play each other on the same deals, every pair in both
/// seatings; the CSV gains the rr_ columns, still the same bytes at any thread count.
#[test]
fn grade_round_robin_plays_the_graded_bots_against_each_other() {
    let dir = scratch("grade-rr");
    for (from, to) in [
        ("example_bots/lua/ecard_greedy.lua", "alice.lua"),
        ("example_bots/lua/ecard_random.lua", "bob.lua"),
        ("tests/data/bots/crashes_sometimes.lua", "dave.lua"),
    ] {
        std::fs::copy(repo(from), dir.join(to)).unwrap();
    }
    let grade = |threads: &str, extra: &[&str]| {
        let mut args = vec![
            "grade",
            "--game",
            "ecard",
            "--bots",
            ".",
            "--deals",
            "3",
            "--csv",
            "-",
            "--threads",
            threads,
        ];
        args.extend(extra);
        let o = arena_in(&dir, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let csv = grade("1", &["--round-robin"]);
    assert_eq!(csv, grade("2", &["--round-robin"]), "CSV bytes differ between 1 and 2 threads");
    let lines: Vec<&str> = csv.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let rr_cols =
        ["rr_matches", "rr_wins", "rr_draws", "rr_losses", "rr_score", "rr_score_low", "rr_score_high"];
    assert_eq!(&header[header.len() - 7..], &rr_cols);
    // the last seven fields of a row (the replay command before them may hold commas)
    let rr = |file: &str| -> Vec<f64> {
        let line = lines.iter().find(|l| l.starts_with(file)).unwrap();
        let mut v: Vec<f64> = line.rsplit(',').take(7).map(|x| x.parse().unwrap()).collect();
        v.reverse();
        v
    };
    let (alice, bob, dave) = (rr("alice.lua"), rr("bob.lua"), rr("dave.lua"));
    for row in [&alice, &bob, &dave] {
        assert_eq!(row[0], 12.0, "2 others × 3 deals × 2 seatings: {row:?}");
        assert_eq!(row[1] + row[2] + row[3], row[0], "{row:?}");
        assert!(row[5] <= row[4] && row[4] <= row[6], "{row:?}");
    }
    // greedy beats random, and both beat the bot that crashes
    assert!(alice[4] > bob[4] && bob[4] > dave[4], "{alice:?} {bob:?} {dave:?}");
    // without the flag: no rr_ columns
    assert!(!grade("1", &[]).lines().next().unwrap().contains("rr_"));
}

/// The CSV's column `name` of the row of `file` (the fields of these rows hold no commas).
fn csv_col(csv: &str, file: &str, name: &str) -> String {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let i = header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let line =
        csv.lines().find(|l| l.starts_with(&format!("{file},"))).unwrap_or_else(|| panic!("no {file}"));
    line.split(',').nth(i).unwrap().to_string()
}

/// Bots written apart that play at random (the same `math.random` calls, used alike) are not
/// copies: each program draws its own numbers. A copy under another name, and a copy with other
/// names and its functions in another order, are (they draw the same numbers as the original).
#[test]
fn grade_flags_copies_but_not_bots_that_play_at_random_alike() {
    let dir = scratch("grade-copies");
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    let o = arena(&["new", dir.join("new").to_str().unwrap(), "--game", "lost-cities", "--lang", "lua"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (from, to) in [
        (repo("example_bots/lua/lost-cities_random.lua"), "random.lua"),
        (repo("example_bots/lua/any_coroutines.lua"), "coroutines.lua"),
        (dir.join("new/bot.lua").to_string_lossy().into_owned(), "template.lua"),
        (repo("example_bots/lua/lost-cities_random.lua"), "renamed.lua"),
    ] {
        std::fs::copy(from, class.join(to)).unwrap();
    }
    std::fs::write(
        class.join("own.lua"),
        "-- picks any legal action\nfunction act(obs)\n  local n = #obs.legal\n  local pick = math.random(1, n)\n  return obs.legal[pick]\nend\n",
    )
    .unwrap();
    let coroutines = std::fs::read_to_string(repo("example_bots/lua/any_coroutines.lua")).unwrap();
    let copy = testkit::disguised(
        &coroutines,
        &[
            ("shuffled", "mix"),
            ("order", "perm"),
            ("list", "items"),
            ("memory", "recall"),
            ("fallback", "spare"),
        ],
        ["-- Yields the elements", "-- Remembers the last", "function act(obs)"],
    );
    std::fs::write(class.join("disguised.lua"), copy).unwrap();
    let o = arena(&[
        "grade",
        "--game",
        "lost-cities",
        "--bots",
        class.to_str().unwrap(),
        "--against",
        "random",
        "--deals",
        "4",
        "--csv",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    for file in ["random.lua", "coroutines.lua", "template.lua", "own.lua", "renamed.lua", "disguised.lua"] {
        assert_eq!(csv_col(&csv, file, "status"), "ok", "{csv}");
    }
    // the independent random bots: none is a copy of another
    assert_eq!(csv_col(&csv, "template.lua", "same_replies_as"), "", "{csv}");
    assert_eq!(csv_col(&csv, "own.lua", "same_replies_as"), "", "{csv}");
    assert_eq!(csv_col(&csv, "random.lua", "same_replies_as"), "renamed.lua", "{csv}");
    assert_eq!(csv_col(&csv, "coroutines.lua", "same_replies_as"), "disguised.lua", "{csv}");
    // nor alike in most matches
    for file in ["random.lua", "coroutines.lua", "template.lua", "own.lua"] {
        assert_eq!(csv_col(&csv, file, "mostly_same_replies_as"), "", "{csv}");
    }
    // the copies: the same bytes, and the same replies under other names and order
    assert_eq!(csv_col(&csv, "renamed.lua", "same_hash_as"), "random.lua", "{csv}");
    assert_eq!(csv_col(&csv, "disguised.lua", "same_hash_as"), "", "{csv}");
    assert_eq!(csv_col(&csv, "disguised.lua", "same_replies_as"), "coroutines.lua", "{csv}");
}

#[test]
fn grade_explains_a_missing_or_empty_folder() {
    let o = arena(&["grade", "--game", "blade", "--bots", "/nonexistent/class"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read the folder of bots"), "{}", stderr(&o));
    let empty = scratch("grade-empty");
    let o = arena(&["grade", "--game", "blade", "--bots", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no bot files"), "{}", stderr(&o));
}

// ---- new -----------------------------------------------------------------------------------

#[test]
fn new_lua_project_plays_and_has_editor_annotations() {
    let dir = scratch("new-lua");
    let project = dir.join("mybot");
    let o = arena(&["new", project.to_str().unwrap(), "--game", "lost-cities", "--lang", "lua"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bot = project.join("bot.lua");
    let text = std::fs::read_to_string(&bot).unwrap();
    assert!(text.contains("---@param obs LostCitiesObservation"), "{text}");
    assert!(text.contains("--   obs.hand"), "{text}");
    let types = std::fs::read_to_string(project.join("types/lost-cities.lua")).unwrap();
    assert_eq!(
        types,
        cardarena::schema::lua_annotations(
            cardarena::GameId::of::<cardarena::games::lost_cities::LostCities>()
        )
    );
    assert!(types.contains("---@class LostCitiesObservation"));
    let rc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.join(".luarc.json")).unwrap()).unwrap();
    assert_eq!(rc["workspace.library"][0], "types");
    let readme = std::fs::read_to_string(project.join("README.md")).unwrap();
    assert!(readme.contains("arena check bot.lua --game lost-cities"), "{readme}");

    let o =
        arena(&["play", "--game", "lost-cities", "--bots", &format!("{},random", bot.display()), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");

    // never overwrites
    let o = arena(&["new", project.to_str().unwrap(), "--game", "blade"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists"), "{}", stderr(&o));
}

#[test]
fn new_javascript_project_plays_and_has_typescript_declarations() {
    let dir = scratch("new-js");
    let project = dir.join("jsbot");
    let o = arena(&["new", project.to_str().unwrap(), "--game", "blade", "--lang", "javascript"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bot = project.join("bot.js");
    let text = std::fs::read_to_string(&bot).unwrap();
    assert!(text.contains("@param {import(\"./types/blade\").BladeObservation} obs"), "{text}");
    assert!(text.contains("//   obs.hand"), "{text}");
    let types = std::fs::read_to_string(project.join("types/blade.d.ts")).unwrap();
    assert_eq!(
        types,
        cardarena::schema::ts_declarations(cardarena::GameId::of::<cardarena::games::blade::Blade>())
    );
    assert!(types.contains("export interface BladeObservation {"), "{types}");
    let readme = std::fs::read_to_string(project.join("README.md")).unwrap();
    assert!(readme.contains("arena check bot.js --game blade") && readme.contains("JavaScript"), "{readme}");
    let o = arena(&["play", "--game", "blade", "--bots", &format!("{},random", bot.display()), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");
}

#[test]
fn new_python_project_passes_check_and_has_type_hints() {
    let dir = scratch("new-py");
    let project = dir.join("pybot");
    let o = arena(&["new", project.to_str().unwrap(), "--game", "lost-cities", "--lang", "python"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bot = project.join("bot.py");
    let text = std::fs::read_to_string(&bot).unwrap();
    assert!(text.contains("from lost_cities_types import LostCitiesObservation"), "{text}");
    assert!(text.contains("def act(obs: \"LostCitiesObservation\") -> str:"), "{text}");
    assert!(text.contains("#   obs[\"hand\"]"), "{text}");
    let hints = std::fs::read_to_string(project.join("lost_cities_types.py")).unwrap();
    assert_eq!(
        hints,
        cardarena::schema::python_stubs(cardarena::GameId::of::<cardarena::games::lost_cities::LostCities>())
    );
    assert!(hints.contains("class LostCitiesObservation(TypedDict):"), "{hints}");
    let readme = std::fs::read_to_string(project.join("README.md")).unwrap();
    assert!(
        readme.contains("arena check bot.py --game lost-cities") && readme.contains("Python"),
        "{readme}"
    );
    let o = arena(&[
        "check",
        bot.to_str().unwrap(),
        "--game",
        "lost-cities",
        "--deals",
        "3",
        "--against",
        "random",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("verdicts: no faults in 6 matches"), "{}", stdout(&o));
}

#[test]
fn check_reports_a_working_javascript_bot_and_refuses_a_syntax_error() {
    let bot = repo("example_bots/js/ecard_greedy.js");
    let o =
        arena(&["check", &bot, "--game", "ecard", "--deals", "4", "--against", "random", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in ["verdicts: no faults in 8 matches", "fuel per decision: mean", "of 2000000000"] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    let dir = scratch("js-syntax");
    let broken = dir.join("broken.js");
    std::fs::write(&broken, "function act(obs) {\n  return obs.legal[0\n}\n").unwrap();
    let o = arena(&["check", broken.to_str().unwrap(), "--game", "blade"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot be loaded") && err.contains("broken.js:3: SyntaxError"), "{err}");
}

#[test]
fn new_wat_project_plays() {
    let dir = scratch("new-wat");
    let project = dir.join("handmade");
    let o = arena(&["new", project.to_str().unwrap(), "--game", "intensity", "--lang", "wat"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bot = project.join("bot.wat");
    let bots = format!("{},random,random,random", bot.display());
    let o = arena(&["play", "--game", "intensity", "--bots", &bots, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");
}

fn has_wasm32_target() -> bool {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output();
    match sysroot {
        Ok(o) if o.status.success() => {
            let root = String::from_utf8_lossy(&o.stdout).trim().to_string();
            Path::new(&root).join("lib/rustlib/wasm32-unknown-unknown").is_dir()
        }
        _ => false,
    }
}

fn has_tool(name: &str) -> bool {
    Command::new(name).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

#[test]
fn new_rust_project_builds_offline_and_plays() {
    if !has_wasm32_target() {
        testkit::skip_without_tool("the wasm32-unknown-unknown target is not installed");
        return;
    }
    let dir = scratch("new-rust");
    let project = dir.join("Rusty Bot");
    let o = arena(&["new", project.to_str().unwrap(), "--game", "blade", "--lang", "rust"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let build = Command::new("cargo")
        .args(["build", "--release", "--offline", "--target", "wasm32-unknown-unknown"])
        .current_dir(&project)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    let wasm = project.join("target/wasm32-unknown-unknown/release/rusty-bot.wasm");
    let wasm = if wasm.exists() {
        wasm
    } else {
        project.join("target/wasm32-unknown-unknown/release/rusty_bot.wasm")
    };
    let o = arena(&["play", "--game", "blade", "--bots", &format!("{},greedy", wasm.display()), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");
}

#[test]
fn new_c_project_builds_and_plays() {
    if !has_tool("clang") || !has_tool("wasm-ld") {
        testkit::skip_without_tool("clang or wasm-ld is missing");
        return;
    }
    let dir = scratch("new-c");
    let project = dir.join("cbot");
    let o = arena(&["new", project.to_str().unwrap(), "--game", "ecard", "--lang", "c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let build = Command::new("sh").arg(project.join("build.sh")).output().unwrap();
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    let o = arena(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &format!("{},greedy", project.join("bot.wasm").display()),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");
}

// ---- human ---------------------------------------------------------------------------------

#[test]
fn a_person_plays_a_whole_ecard_match_against_greedy() {
    // Always the first legal move; E-card has at most 12 × 5 decisions per seat.
    let o = arena_with_input(
        &["play", "--game", "ecard", "--bots", "human,greedy", "--seed", "4"],
        &"1\n".repeat(80),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("you are seat 0"), "{out}");
    assert!(out.contains("legal moves:\n   1) E\n"), "{out}");
    assert!(out.contains("== the match is over =="), "{out}");
    assert!(out.contains("Result: you "), "{out}");
    assert!(!out.contains("end of input"), "the match ended before the input: {out}");
    // E-card plays are simultaneous (CONTRACT.md §1 ecard): the opponent's card of a play is
    // shown only after the person has chosen theirs.
    let first_choice = out.find("you: ").unwrap();
    let first_seen = out.find("seat 1 (greedy): ").unwrap();
    assert!(first_choice < first_seen, "{out}");
}

#[test]
fn a_person_plays_a_whole_blade_match_with_typos() {
    // Bad input first (text, out of range, empty): each asks again; then moves by text and number.
    let input = format!("hello\n0\n\n{}", "1\n".repeat(40));
    let o = arena_with_input(&["play", "--game", "blade", "--bots", "greedy,human", "--seed", "2"], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\"hello\" is not a legal move now"), "{out}");
    assert!(out.contains("0 is not a number from 1 to"), "{out}");
    assert!(out.contains("type a number from 1 to"), "{out}");
    assert!(out.contains("Result: you "), "{out}");
    assert!(!out.contains("end of input"), "{out}");
}

#[test]
fn end_of_input_leaves_the_match_cleanly() {
    let o = arena_with_input(&["play", "--game", "blade", "--bots", "human,greedy", "--seed", "1"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("end of input: you leave the match"), "{out}");
    assert!(out.contains("Result: you lose"), "{out}");
    // Intensity keeps a faulty seat playing (+5 and a random move); the person is asked no more.
    let o = arena_with_input(&["play", "--game", "intensity", "--bots", "greedy,human,random,random"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("end of input").count(), 1, "{out}");
    // seed-games.md §4(b): passed cards are seen only by the receiver; others' passes are hidden.
    assert!(out.contains("seat 0 (greedy): passes three cards to its left"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("seat") && l.contains(": pass ")), "{out}");
}

/// A match a person played verifies: the bots play again, the person's moves (and their
/// leaving, a fault at every later decision) come from the record; a changed move is found.
#[test]
fn a_match_a_person_played_verifies_with_their_moves_from_the_record() {
    let dir = scratch("human-verify");
    for (game, bots, input) in [
        ("blade", "human,greedy", "1\n".repeat(40)),
        ("intensity", "greedy,human,random,random", "1\n".repeat(5)),
    ] {
        let file = dir.join(format!("{game}.json"));
        let o = arena_with_input(
            &["play", "--game", game, "--bots", bots, "--seed", "3", "--replay", file.to_str().unwrap()],
            &input,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let o = arena(&["replay", file.to_str().unwrap(), "--verify"]);
        assert!(o.status.success(), "{game}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stdout(&o).contains(") is a person: their moves are taken from the record"),
            "{}",
            stdout(&o)
        );
        // Another move for the person where the record has one: the match differs.
        let mut replay: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let seat = if game == "blade" { 0 } else { 1 };
        let decisions = replay["decisions"].as_array_mut().unwrap();
        let d = decisions
            .iter_mut()
            .find(|d| d["seat"] == seat && d["reply"].is_string() && d["legal"].as_array().unwrap().len() > 1)
            .unwrap();
        let other = d["legal"].as_array().unwrap().iter().find(|a| **a != d["reply"]).unwrap().clone();
        d["reply"] = other.clone();
        d["played"] = other;
        std::fs::write(&file, serde_json::to_string(&replay).unwrap()).unwrap();
        let o = arena(&["replay", file.to_str().unwrap(), "--verify"]);
        assert!(!o.status.success(), "{game}: a changed move verified: {}", stdout(&o));
    }
}

#[test]
fn a_person_plays_in_a_terminal_through_tmux() {
    if !has_tool("tmux") {
        testkit::skip_without_tool("tmux is not installed");
        return;
    }
    let session = format!("cardarena-test-{}", std::process::id());
    let command =
        format!("{} play --game ecard --bots human,greedy --seed 9; sleep 30", env!("CARGO_BIN_EXE_arena"));
    let started = Command::new("tmux")
        .args(["new-session", "-d", "-s", &session, "-x", "120", "-y", "50", &command])
        .status();
    if !started.is_ok_and(|s| s.success()) {
        testkit::skip_without_tool("tmux cannot start a session here");
        return;
    }
    let capture = || {
        let o =
            Command::new("tmux").args(["capture-pane", "-p", "-t", &session, "-S", "-200"]).output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let mut screen = String::new();
    // Type like a person: wait for the prompt, answer, repeat until the result is shown.
    for _ in 0..400 {
        screen = capture();
        if screen.contains("Result: ") {
            break;
        }
        if screen.trim_end().ends_with("or the move]:") {
            Command::new("tmux").args(["send-keys", "-t", &session, "1", "Enter"]).status().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = Command::new("tmux").args(["kill-session", "-t", &session]).status();
    assert!(screen.contains("Result: "), "{screen}");
}
