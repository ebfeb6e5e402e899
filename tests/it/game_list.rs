//! Every game of the one list (`Games::builtin()`) has an entry in every per-game table the arena
//! keeps outside the game's own source files: its rules page, observation schema and LuaLS
//! annotations, tutorial, example bots, and an event in the default tournament and the zoo.
//! Adding a game to the list without them fails here, naming what is missing.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_game_has_its_files() {
    let mut missing = Vec::new();
    for game in cardarena::Games::builtin().ids() {
        let g = game.name();
        for file in [
            format!("docs/games/{g}.md"),
            format!("docs/schema/{g}.observation.json"),
            format!("docs/schema/{g}.lua"),
            format!("docs/tutorial/{g}.md"),
            format!("example_bots/lua/{g}_greedy.lua"),
            format!("example_bots/lua/{g}_random.lua"),
        ] {
            if !root().join(&file).is_file() {
                missing.push(file);
            }
        }
    }
    assert!(missing.is_empty(), "per-game files missing: {missing:?}");
}

#[test]
fn every_game_plays_in_the_default_tournament_and_the_zoo() {
    for file in ["arena.toml", "docs/zoo.toml"] {
        let config =
            cardarena::tournament::config::load(&root().join(file), &cardarena::Games::builtin()).unwrap();
        for game in cardarena::Games::builtin().ids() {
            assert!(config.events.iter().any(|e| e.game == game.name()), "{file} has no event of {game}");
        }
    }
}

#[test]
fn every_game_has_a_tutorial_and_a_current_schema() {
    for game in cardarena::Games::builtin().ids() {
        let schema = game.observation_schema();
        assert_eq!(schema["type"], "object", "{game}");
        let committed =
            std::fs::read_to_string(root().join(format!("docs/schema/{game}.observation.json"))).unwrap();
        assert_eq!(
            committed,
            serde_json::to_string_pretty(&schema).unwrap() + "\n",
            "{game}: docs/schema is stale"
        );
        let dir = std::env::temp_dir().join(format!("cardarena-game-list-{}-{game}", std::process::id()));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["tutorial", game.name(), "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            out.status.success(),
            "{game}: `arena tutorial` fails: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn names_parse_back_to_the_same_game() {
    for game in cardarena::Games::builtin().ids() {
        assert_eq!(cardarena::Games::builtin().get(game.name()).map(|g| g.id()), Ok(game));
        assert_eq!(
            game.variants().len(),
            game.variants().iter().collect::<std::collections::BTreeSet<_>>().len()
        );
    }
    let err = cardarena::Games::builtin().get("chess").err().unwrap().to_string();
    assert!(err.contains("blade, ecard, lost-cities, intensity"), "{err}");
}
