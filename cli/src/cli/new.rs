//! `arena new NAME --game G --lang lua|javascript|python|rust|c|wat`: a ready-to-run bot project.
//!
//! Every template is compiled into the binary (`include_str!`), so an installed `arena` needs
//! no checkout. The Rust project gets a copy of the SDK (example_bots/rust/cardarena-bot), of
//! the rules crate whose observation types it uses (games/), and the example workspace's Cargo.lock, so it builds offline with what the arena's own build
//! already fetched; the C project gets cardarena.h; the Lua project gets LuaLS annotations
//! generated from the observation's JSON Schema ([`cardarena::schema`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::Value;

use super::print_out;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Lang {
    /// Lua 5.4: bot.lua, editor annotations in types/, .luarc.json.
    Lua,
    /// JavaScript (run by the arena's QuickJS-ng): bot.js, TypeScript declarations in types/.
    Javascript,
    /// Python (run by the arena's RustPython): bot.py, `TypedDict` type hints beside it.
    Python,
    /// Rust compiled to wasm32-unknown-unknown, with a copy of the SDK.
    Rust,
    /// C compiled with clang to wasm32, without libc.
    C,
    /// WebAssembly text, written by hand.
    Wat,
}

#[derive(Debug, clap::Args)]
pub(super) struct NewArgs {
    /// The project folder to create (it must not exist yet).
    name: PathBuf,
    /// The game the bot plays.
    #[arg(long)]
    game: String,
    /// The language.
    #[arg(long, value_enum, default_value = "lua")]
    lang: Lang,
    /// Write the game's tutorial instead (README.md and its step bots, in Lua and Python), as
    /// `arena tutorial GAME --dir NAME` does.
    #[arg(long)]
    tutorial: bool,
}

const LUA_BOT: &str = include_str!("templates/bot.lua");
const JS_BOT: &str = include_str!("templates/bot.js");
const PY_BOT: &str = include_str!("templates/bot.py");
const LUA_RC: &str = include_str!("templates/luarc.json");
const LUA_CARDARENA: &str = include_str!("templates/cardarena.lua");
const RUST_CARGO: &str = include_str!("templates/Cargo.toml.txt");
const RUST_LIB: &str = include_str!("templates/lib.rs.txt");
const SDK_CARGO: &str = include_str!("templates/sdk.Cargo.toml.txt");
const SDK_LOCK: &str = include_str!("../../../example_bots/rust/Cargo.lock");
const SDK_FILES: &[(&str, &str)] = &[
    ("lib.rs", include_str!("../../../example_bots/rust/cardarena-bot/src/lib.rs")),
    ("rng.rs", include_str!("../../../example_bots/rust/cardarena-bot/src/rng.rs")),
    ("blade.rs", include_str!("../../../example_bots/rust/cardarena-bot/src/blade.rs")),
    ("ecard.rs", include_str!("../../../example_bots/rust/cardarena-bot/src/ecard.rs")),
    ("lost_cities.rs", include_str!("../../../example_bots/rust/cardarena-bot/src/lost_cities.rs")),
    ("intensity.rs", include_str!("../../../example_bots/rust/cardarena-bot/src/intensity.rs")),
];
const GAMES_CARGO: &str = include_str!("templates/games.Cargo.toml.txt");
const GAMES_FILES: &[(&str, &str)] = &[
    ("lib.rs", include_str!("../../../games/src/lib.rs")),
    ("blade.rs", include_str!("../../../games/src/blade.rs")),
    ("ecard.rs", include_str!("../../../games/src/ecard.rs")),
    ("intensity.rs", include_str!("../../../games/src/intensity.rs")),
    ("lost_cities.rs", include_str!("../../../games/src/lost_cities.rs")),
    ("json.rs", include_str!("../../../games/src/json.rs")),
    ("rng.rs", include_str!("../../../games/src/rng.rs")),
    ("testkit.rs", include_str!("../../../games/src/testkit.rs")),
    ("view/mod.rs", include_str!("../../../games/src/view/mod.rs")),
    ("view/blade.rs", include_str!("../../../games/src/view/blade.rs")),
    ("view/ecard.rs", include_str!("../../../games/src/view/ecard.rs")),
    ("view/intensity.rs", include_str!("../../../games/src/view/intensity.rs")),
    ("view/lost_cities.rs", include_str!("../../../games/src/view/lost_cities.rs")),
];
const C_BOT: &str = include_str!("templates/bot.c");
const C_HEADER: &str = include_str!("../../../example_bots/c/cardarena.h");
const C_BUILD: &str = include_str!("templates/build.sh");
const WAT_BOT: &str = include_str!("../../../example_bots/wat/first_legal.wat");

#[derive(Debug, clap::Args)]
pub(super) struct TutorialArgs {
    /// The game: blade, ecard, lost-cities or intensity.
    game: String,
    /// The folder to write the tutorial into (it must not exist yet; default: tutorial-GAME).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// A tutorial's files: name and text.
type Files = &'static [(&'static str, &'static str)];

/// The tutorials of docs/tutorial/, compiled in: per game its text and its files.
const TUTORIALS: &[(&str, &str, Files)] = &[
    (
        "blade",
        include_str!("../../../docs/tutorial/blade.md"),
        &[
            ("step1.lua", include_str!("../../../docs/tutorial/blade/step1.lua")),
            ("step2.lua", include_str!("../../../docs/tutorial/blade/step2.lua")),
            ("step3.lua", include_str!("../../../docs/tutorial/blade/step3.lua")),
            // step 4 is an example bot of a checkout (`local` renames it)
            ("step4.lua", include_str!("../../../example_bots/lua/blade_montecarlo.lua")),
            ("step1.py", include_str!("../../../docs/tutorial/blade/step1.py")),
            ("step2.py", include_str!("../../../docs/tutorial/blade/step2.py")),
            ("step3.py", include_str!("../../../docs/tutorial/blade/step3.py")),
            ("vs-greedy.toml", include_str!("../../../docs/tutorial/blade/vs-greedy.toml")),
        ],
    ),
    (
        "ecard",
        include_str!("../../../docs/tutorial/ecard.md"),
        &[
            ("step1.lua", include_str!("../../../docs/tutorial/ecard/step1.lua")),
            ("step2.lua", include_str!("../../../docs/tutorial/ecard/step2.lua")),
            ("step3.lua", include_str!("../../../docs/tutorial/ecard/step3.lua")),
            ("step4.lua", include_str!("../../../docs/tutorial/ecard/step4.lua")),
            ("step1.py", include_str!("../../../docs/tutorial/ecard/step1.py")),
            ("step2.py", include_str!("../../../docs/tutorial/ecard/step2.py")),
            ("step3.py", include_str!("../../../docs/tutorial/ecard/step3.py")),
            ("step4.py", include_str!("../../../docs/tutorial/ecard/step4.py")),
            ("vs-greedy.toml", include_str!("../../../docs/tutorial/ecard/vs-greedy.toml")),
        ],
    ),
    (
        "lost-cities",
        include_str!("../../../docs/tutorial/lost-cities.md"),
        &[
            ("step1.lua", include_str!("../../../docs/tutorial/lost-cities/step1.lua")),
            ("step2.lua", include_str!("../../../docs/tutorial/lost-cities/step2.lua")),
            ("step3.lua", include_str!("../../../docs/tutorial/lost-cities/step3.lua")),
            ("step4.lua", include_str!("../../../docs/tutorial/lost-cities/step4.lua")),
            ("step5.lua", include_str!("../../../docs/tutorial/lost-cities/step5.lua")),
            ("step1.py", include_str!("../../../docs/tutorial/lost-cities/step1.py")),
            ("step2.py", include_str!("../../../docs/tutorial/lost-cities/step2.py")),
            ("step3.py", include_str!("../../../docs/tutorial/lost-cities/step3.py")),
            ("vs-greedy.toml", include_str!("../../../docs/tutorial/lost-cities/vs-greedy.toml")),
        ],
    ),
    (
        "intensity",
        include_str!("../../../docs/tutorial/intensity.md"),
        &[
            ("step1.lua", include_str!("../../../docs/tutorial/intensity/step1.lua")),
            ("step2.lua", include_str!("../../../docs/tutorial/intensity/step2.lua")),
            ("step3.lua", include_str!("../../../docs/tutorial/intensity/step3.lua")),
            ("step4.lua", include_str!("../../../docs/tutorial/intensity/step4.lua")),
            ("step5.lua", include_str!("../../../docs/tutorial/intensity/step5.lua")),
            ("step1.py", include_str!("../../../docs/tutorial/intensity/step1.py")),
            ("step2.py", include_str!("../../../docs/tutorial/intensity/step2.py")),
            ("step3.py", include_str!("../../../docs/tutorial/intensity/step3.py")),
            ("steps.toml", include_str!("../../../docs/tutorial/intensity/steps.toml")),
        ],
    ),
];

/// `arena tutorial G`: the game's tutorial as a folder that an installed `arena` runs: the
/// text as README.md with the commands rewritten for the folder, the step files, and a section
/// that measures every step with `arena check --against greedy`.
pub(super) fn tutorial_cmd(args: TutorialArgs, games: &super::GameSet) -> anyhow::Result<()> {
    games.id(&args.game)?;
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from(format!("tutorial-{}", args.game)));
    write_tutorial(&args.game, &dir)
}

/// Writes game `game`'s tutorial into the new folder `dir`.
fn write_tutorial(game: &str, dir: &Path) -> anyhow::Result<()> {
    let Some((game, text, files)) = TUTORIALS.iter().find(|(g, _, _)| *g == game) else {
        let have: Vec<&str> = TUTORIALS.iter().map(|(g, _, _)| *g).collect();
        bail!("there is no tutorial for {game:?}; the tutorials are for {}", have.join(", "));
    };
    if dir.exists() {
        bail!(
            "{} already exists; the tutorial is never written over: choose another folder or remove it",
            dir.display()
        );
    }
    // The text for the folder: what only a checkout has (between `<!-- checkout -->` and
    // `<!-- /checkout -->`) goes, `<!-- folder: … -->` comes in, and paths lose their folders.
    let local = |t: &str| {
        let mut out = String::new();
        let mut rest = t;
        while let Some(start) = rest.find("<!-- checkout -->") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("<!-- /checkout -->").map_or(rest.len(), |e| start + e + 18);
            rest = rest[end..].strip_prefix('\n').filter(|_| out.ends_with('\n')).unwrap_or(&rest[end..]);
        }
        out.push_str(rest);
        let mut text = String::new();
        let mut rest = out.as_str();
        while let Some(start) = rest.find("<!-- folder: ") {
            text.push_str(&rest[..start]);
            let body = &rest[start + 13..];
            let end = body.find(" -->").unwrap_or(body.len());
            text.push_str(&body[..end]);
            rest = body.get(end + 4..).unwrap_or_default();
        }
        text.push_str(rest);
        text.replace(&format!("[`docs/tutorial/{game}/`]({game}/)"), "this folder")
            .replace(&format!("]({game}/"), "](")
            .replace(&format!("[`{game}/"), "[`")
            .replace(&format!("docs/tutorial/{game}/"), "")
            .replace("docs/tutorial/", "")
            .replace("../../../example_bots/lua/blade_montecarlo.lua", "step4.lua")
            .replace("../../example_bots/lua/blade_montecarlo.lua", "step4.lua")
            .replace("example_bots/lua/blade_montecarlo.lua", "step4.lua")
    };
    // The pages it links to (`../bot-api.md`) come along in docs/ (`write_pages`).
    let mut readme = local(text).replace("](../", "](docs/");
    readme.push_str(
        "\n## Measuring each step (from this folder)\n\nEach step against the built-in `greedy` on 100 duplicate deals: \
         faults, fuel, memory and the win rate.\n\n```sh\n",
    );
    let check = |ext: &str| -> String {
        let steps = files.iter().filter(|(f, _)| f.ends_with(ext));
        steps.map(|(file, _)| format!("arena check {file} --game {game} --against greedy\n")).collect()
    };
    readme.push_str(&check(".lua"));
    readme.push_str("```\n");
    let python = check(".py");
    if !python.is_empty() {
        readme.push_str(&format!(
            "\nThe Python steps (each plays as the Lua step of its number):\n\n```sh\n{python}```\n"
        ));
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let pages = super::docs::write_pages(dir, &readme)?;
    // Links to what the folder lacks (the checkout's example bots) become text.
    let present: std::collections::BTreeSet<String> = files
        .iter()
        .map(|(f, _)| f.to_string())
        .chain(pages.iter().cloned())
        .chain(["README.md".into()])
        .collect();
    let mut written =
        vec![("README.md".to_string(), super::docs::unlink_missing(&readme, "README.md", &present))];
    // The example bots of a checkout are not in the folder: their entries leave the tournaments.
    let own = |f: &str, t: &str| {
        let t = local(t);
        if f.ends_with(".toml") {
            t.lines().filter(|l| !l.contains("example_bots/")).map(|l| format!("{l}\n")).collect()
        } else {
            t
        }
    };
    written.extend(files.iter().map(|(f, t)| (f.to_string(), own(f, t))));
    let mut out = format!("created {}/ (the {game} tutorial):\n", dir.display());
    for (file, t) in &written {
        let path = dir.join(file);
        std::fs::write(&path, t).with_context(|| format!("cannot write {}", path.display()))?;
        out.push_str(&format!("  {}\n", path.display()));
    }
    for page in &pages {
        out.push_str(&format!("  {}\n", dir.join(page).display()));
    }
    out.push_str(&format!("next: read {}/README.md and run its commands in that folder\n", dir.display()));
    print_out(&out)
}

pub(super) fn new_cmd(args: NewArgs, games: &super::GameSet) -> anyhow::Result<()> {
    if args.tutorial {
        if args.lang != Lang::Lua {
            bail!(
                "the tutorials are in Lua (with Python steps beside them): leave out --lang with --tutorial"
            );
        }
        games.id(&args.game)?;
        return write_tutorial(&args.game, &args.name);
    }
    let id = games.id(&args.game)?;
    let dir = &args.name;
    if dir.exists() {
        bail!(
            "{} already exists; arena new never overwrites: choose another name or remove it",
            dir.display()
        );
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .ok_or_else(|| anyhow::anyhow!("{:?} is not a folder name for a new project", dir.display()))?;
    let files = project_files(&name, id, args.lang)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (rel, text) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        #[cfg(unix)]
        if rel.ends_with(".sh") {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
        }
    }
    let mut out = format!("created {}/ ({} bot for {}):\n", dir.display(), lang_name(args.lang), id.name());
    for (rel, _) in &files {
        out.push_str(&format!("  {}\n", Path::new(&name).join(rel).display()));
    }
    out.push_str(&format!("next: read {}/README.md\n", dir.display()));
    print_out(&out)
}

fn lang_name(lang: Lang) -> &'static str {
    match lang {
        Lang::Lua => "Lua",
        Lang::Javascript => "JavaScript",
        Lang::Python => "Python",
        Lang::Rust => "Rust",
        Lang::C => "C",
        Lang::Wat => "WAT",
    }
}

/// A cargo package name from a folder name: lower case letters, digits, `-` and `_`.
fn crate_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c.to_ascii_lowercase() } else { '-' })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "bot-");
    }
    s
}

/// The observation's top-level fields as comment lines (`comment` is `--`, `//` or `#`), from
/// the JSON Schema; `access` writes a field's access (`obs.hand`, `obs["hand"]`).
fn field_comments(game: cardarena::GameId, comment: &str, access: fn(&str) -> String) -> String {
    let schema = cardarena::schema::observation_schema(game);
    let mut out = Vec::new();
    if let Some(Value::Object(props)) = schema.get("properties") {
        let width = props.keys().map(|f| access(f).len()).max().unwrap_or(4);
        for (field, s) in props {
            let d = s
                .get("description")
                .and_then(Value::as_str)
                .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default();
            out.push(format!("{comment}   {:<width$}  {d}", access(field)));
        }
    }
    out.join("\n")
}

/// `obs.field`: a field in Lua and JavaScript.
fn dotted(field: &str) -> String {
    format!("obs.{field}")
}

/// Every file of the project, relative path and text, in the order they are listed.
fn project_files(name: &str, id: cardarena::GameId, lang: Lang) -> anyhow::Result<Vec<(String, String)>> {
    let (game, players) = (id.name(), id.players());
    let opponents = ",random".repeat(players - 1);
    let human = format!("human{}", ",greedy".repeat(players - 1));
    let module = game.replace('-', "_");
    let krate = crate_name(name);
    let wasm = format!("{}.wasm", krate.replace('-', "_"));
    let bot_file = match lang {
        Lang::Lua => "bot.lua".to_string(),
        Lang::Javascript => "bot.js".to_string(),
        Lang::Python => "bot.py".to_string(),
        Lang::Rust => format!("target/wasm32-unknown-unknown/release/{wasm}"),
        Lang::C => "bot.wasm".to_string(),
        Lang::Wat => "bot.wat".to_string(),
    };
    let class = format!("{}Observation", cardarena::schema::pascal(game));
    let fill = |t: &str| {
        t.replace("{{NAME}}", name)
            .replace("{{GAME}}", game)
            .replace("{{BOTS}}", &format!("{bot_file}{opponents}"))
            .replace("{{HUMAN_BOTS}}", &format!("{human},{bot_file}").replacen(",greedy", "", 1))
            .replace("{{CLASS}}", &class)
            .replace("{{INFO_CLASS}}", "cardarena.InitInfo")
            .replace("{{MODULE}}", &module)
            .replace("{{CRATE}}", &krate)
            .replace("{{WASM}}", &wasm)
    };
    let mut files: Vec<(String, String)> = Vec::new();
    let build: Vec<(String, &str)> = match lang {
        Lang::Lua => {
            files.push((
                "bot.lua".into(),
                fill(LUA_BOT).replace("{{FIELDS}}", &field_comments(id, "--", dotted)),
            ));
            files.push((".luarc.json".into(), LUA_RC.to_string()));
            let types = cardarena::schema::lua_annotations(id);
            files.push((format!("types/{game}.lua"), types));
            files.push(("types/cardarena.lua".into(), LUA_CARDARENA.to_string()));
            Vec::new()
        }
        Lang::Javascript => {
            files.push((
                "bot.js".into(),
                fill(JS_BOT).replace("{{FIELDS}}", &field_comments(id, "//", dotted)),
            ));
            let types = cardarena::schema::ts_declarations(id);
            files.push((format!("types/{game}.d.ts"), types));
            Vec::new()
        }
        Lang::Python => {
            let fields = field_comments(id, "#", |f| format!("obs[\"{f}\"]"));
            files.push(("bot.py".into(), fill(PY_BOT).replace("{{FIELDS}}", &fields)));
            files.push((format!("{module}_types.py"), cardarena::schema::python_stubs(id)));
            Vec::new()
        }
        Lang::Rust => {
            files.push(("Cargo.toml".into(), fill(RUST_CARGO)));
            files.push(("Cargo.lock".into(), SDK_LOCK.to_string()));
            files.push(("src/lib.rs".into(), fill(RUST_LIB)));
            files.push(("cardarena-bot/Cargo.toml".into(), SDK_CARGO.to_string()));
            for (file, text) in SDK_FILES {
                // The SDK's own tests read the arena's docs: they stay in the arena's checkout.
                let text = text.replace("\n#[cfg(test)]\nmod tests;\n", "\n");
                files.push((format!("cardarena-bot/src/{file}"), text));
            }
            files.push(("cardarena-games/Cargo.toml".into(), GAMES_CARGO.to_string()));
            for (file, text) in GAMES_FILES {
                // The rules' tests (their own files) stay in the arena's checkout.
                let text = text.replace("\n#[cfg(test)]\nmod tests;\n", "\n");
                files.push((format!("cardarena-games/src/{file}"), text));
            }
            vec![
                ("rustup target add wasm32-unknown-unknown".into(), "once"),
                (
                    "cargo build --release --target wasm32-unknown-unknown".into(),
                    "add --offline without a network",
                ),
            ]
        }
        Lang::C => {
            files.push(("bot.c".into(), fill(C_BOT)));
            files.push(("cardarena.h".into(), C_HEADER.to_string()));
            files.push(("build.sh".into(), C_BUILD.to_string()));
            vec![("sh build.sh".into(), "needs clang and wasm-ld (apt-get install clang lld)")]
        }
        Lang::Wat => {
            // The example's header names its own file and Blade: name this project and game.
            let wat = WAT_BOT
                .replacen(";; first_legal.wat: a bot", &format!(";; {name} (bot.wat): a bot for {game}"), 1)
                .replace(
                    "arena play --game blade --bots example_bots/wat/first_legal.wat,random",
                    &format!("arena play --game {game} --bots bot.wat{opponents}"),
                );
            files.push(("bot.wat".into(), wat));
            Vec::new()
        }
    };
    let edit = match lang {
        Lang::Lua => "[bot.lua](bot.lua) (`act(obs)`; VS Code with the \"Lua\" extension completes `obs.` from [types/](types/))",
        Lang::Javascript => "[bot.js](bot.js) (`act(obs)`; VS Code completes `obs.` from [types/](types/))",
        Lang::Python => "[bot.py](bot.py) (`act(obs)`; VS Code completes `obs[\"` from the type hints beside it)",
        Lang::Rust => "[src/lib.rs](src/lib.rs) (`act`; the observation is typed in [cardarena-bot/src/](cardarena-bot/src/lib.rs))",
        Lang::C => "[bot.c](bot.c) (`act`; [cardarena.h](cardarena.h) has the JSON helpers)",
        Lang::Wat => "[bot.wat](bot.wat) (`act`; the ABI is described at its top)",
    };
    let mut commands: Vec<(String, &str)> = vec![(format!("cd {name}"), "")];
    commands.extend(build);
    commands.push((
        format!("arena play --game {game} --bots {bot_file}{opponents}"),
        "one match, with the game log",
    ));
    commands.push((
        format!("arena play --game {game} --bots {}", fill("{{HUMAN_BOTS}}")),
        "play against it yourself",
    ));
    commands.push((
        format!("arena check {bot_file} --game {game}"),
        "hundreds of matches: faults, fuel, memory, win rate",
    ));
    let width = commands.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    let block: String = commands
        .iter()
        .map(|(c, why)| if why.is_empty() { format!("{c}\n") } else { format!("{c:<width$}  # {why}\n") })
        .collect();
    let readme = format!(
        "# {name}\n\nA cardarena bot for {game}, in {lang}. Write your strategy in {edit}.\n\n\
         The rules, the action notation and every observation field: `arena docs {game}`; the bot\n\
         interface, limits and verdicts: `arena docs bot-api` (`arena docs` lists every page).\n\n\
         ```sh\n{block}```\n",
        lang = lang_name(lang),
    );
    files.insert(0, ("README.md".into(), readme));
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sdk_copy_leaves_out_its_tests() {
        let files = project_files("b", cardarena::GameId::of::<cardarena::games::blade::Blade>(), Lang::Rust)
            .unwrap();
        let lib = &files.iter().find(|(p, _)| p == "cardarena-bot/src/lib.rs").unwrap().1;
        assert!(lib.contains("pub trait Bot") && !lib.contains("mod tests;"));
        assert!(files.iter().all(|(p, _)| p != "cardarena-bot/src/tests.rs"));
    }

    #[test]
    fn crate_names_are_valid_package_names() {
        assert_eq!(crate_name("My Bot"), "my-bot");
        assert_eq!(crate_name("7up"), "bot-7up");
        assert_eq!(cardarena::schema::pascal("lost-cities"), "LostCities");
    }

    #[test]
    fn every_language_has_a_readme_with_the_commands() {
        for lang in [Lang::Lua, Lang::Javascript, Lang::Python, Lang::Rust, Lang::C, Lang::Wat] {
            let files = project_files(
                "mybot",
                cardarena::GameId::of::<cardarena::games::intensity::Intensity>(),
                lang,
            )
            .unwrap();
            let readme = &files[0].1;
            assert!(readme.contains("arena play --game intensity --bots "), "{readme}");
            assert!(readme.contains(",random,random,random"), "{readme}");
            assert!(readme.contains("human,"), "{readme}");
            assert!(files.iter().all(|(_, t)| !t.contains("{{")), "a placeholder is left in {lang:?}");
            // the project's own files (the SDK copy documents itself with Blade examples)
            for (_, t) in files.iter().filter(|(p, _)| !p.starts_with("cardarena-bot/")) {
                assert!(!t.contains("a intensity") && !t.contains("first_legal.wat"), "{lang:?}: {t}");
                assert!(!t.contains("--game blade"), "{lang:?} names Blade for intensity: {t}");
            }
        }
    }
}
