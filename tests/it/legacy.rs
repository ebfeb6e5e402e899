//! Legacy stdin/stdout bots (cardarena/src/play/legacy.rs, docs/legacy-bots.md): the protocol adapters write
//! exactly the original referees' input bytes, read replies as the referees read them, and an
//! unmodified C Intensity program plays a tournament against the built-ins without a fault.

use std::path::{Path, PathBuf};
use std::process::Command;

use cardarena::games::blade::Card as B;
use cardarena::games::intensity::{Card, CurrentTrick, IntensityObservation, Phase, Trick, Variant};
use cardarena::play::legacy::{
    blade_reply, comp1511_reply, comp1511_stdin, ruby_to_i, BladeSide, BladeState, CardObject,
};
use serde_json::Value;

fn cards(numbers: &[u8]) -> Vec<Card> {
    numbers.iter().map(|&n| Card::new(n).expect("a card")).collect()
}

/// An Intensity observation for seat `seat` with what the COMP1511 input is made of.
fn intensity(
    phase: Phase,
    seat: usize,
    hand: &[u8],
    trick: (usize, &[u8]),
    tricks: Vec<Trick>,
    passed: &[u8],
    received: &[u8],
) -> IntensityObservation {
    IntensityObservation {
        game: "intensity",
        variant: Variant::Standard,
        seat,
        phase,
        legal: Vec::new(),
        hand: cards(hand),
        pass_to: (seat + 1) % 4,
        receive_from: (seat + 3) % 4,
        passed: cards(passed),
        received: cards(received),
        turn: Some(seat),
        trick: CurrentTrick { leader: trick.0, cards: cards(trick.1) },
        tricks,
        penalties: [0; 4],
        fault_penalties: [0; 4],
        calves_broken: false,
        cards_left: [hand.len(); 4],
    }
}

/// The spec's two verbatim examples (seed-games.md §4(c)), byte for byte.
#[test]
fn comp1511_input_is_the_specs_examples() {
    let pass =
        intensity(Phase::Pass, 0, &[13, 19, 24, 25, 29, 32, 39, 44, 46, 49], (0, &[]), vec![], &[], &[]);
    assert_eq!(String::from_utf8(comp1511_stdin(&pass)).unwrap(), "1\n13 19 24 25 29 32 39 44 46 49\n");
    // Seat 0 led 16, seats 1-3 played 13 19 12; seat 2 won (19) and led 24, seat 3 played 26.
    let first =
        Trick { leader: 0, cards: cards(&[16, 13, 19, 12]).try_into().unwrap(), winner: 2, penalty: 0 };
    let play = intensity(
        Phase::Play,
        0,
        &[11, 15, 18, 23, 33, 34, 47, 48, 49],
        (2, &[24, 26]),
        vec![first],
        &[37, 38, 39],
        &[34, 47, 48],
    );
    assert_eq!(
        String::from_utf8(comp1511_stdin(&play)).unwrap(),
        "2\n9 2 0\n11 15 18 23 33 34 47 48 49\n24 26\n16 13 19 12\n37 38 39\n34 47 48\n"
    );
    // Replies are whitespace-separated integers (one per line works too); a pass is sorted.
    assert_eq!(comp1511_reply(pass.phase, b"49\n29 39").unwrap(), "pass 29 39 49");
    assert_eq!(comp1511_reply(play.phase, b"23\n").unwrap(), "play 23");
    let fault = comp1511_reply(play.phase, b"I play the 23\n").unwrap_err();
    assert_eq!(fault.message, "stdout unparsable: \"I play the 23\\n\"");
    let long = "x".repeat(200);
    let fault = comp1511_reply(pass.phase, long.as_bytes()).unwrap_err();
    assert_eq!(fault.message, format!("stdout unparsable: \"{}\"", "x".repeat(80)));
}

fn obj(card: B) -> CardObject {
    CardObject { card, valid: true }
}

/// The Blade controller's `sample_json` (blutorange/Blade-SenNoKiseki-, seed-games.md §1(c)),
/// as `JSON.generate` sends it: compact, one line.
#[test]
fn blade_state_is_the_controllers_sample_json() {
    let sample = r#"{"file":"/home/mad_gaksha/Applications/cg_blade/files/basic","turn":15,"player":{"hand":[{"type":8,"value":1,"valid":true},{"type":0,"value":1,"valid":true},{"type":1,"value":1,"valid":true}],"field":[{"type":8,"value":1,"valid":true},{"type":3,"value":3,"valid":true},{"type":2,"value":2,"valid":true},{"type":3,"value":3,"valid":true},{"type":5,"value":5,"valid":true},{"type":7,"value":7,"valid":true},{"type":2,"value":2,"valid":true},{"type":7,"value":7,"valid":true}],"deck":5,"score":30,"lastmove":{"type":6,"value":6,"valid":true}},"opponent":{"hand":2,"field":[{"type":3,"value":3,"valid":true},{"type":2,"value":2,"valid":true},{"type":3,"value":3,"valid":true},{"type":4,"value":4,"valid":true},{"type":4,"value":4,"valid":true},{"type":6,"value":6,"valid":true},{"type":4,"value":4,"valid":true},{"type":6,"value":6,"valid":true}],"deck":5,"score":32,"lastmove":{"type":8,"value":1,"valid":true}}}"#;
    use B::*;
    let state = BladeState {
        file: "/home/mad_gaksha/Applications/cg_blade/files/basic".into(),
        turn: 15,
        player: BladeSide {
            hand: Ok(vec![Mirror, Bolt, One]),
            field: [Mirror, Three, Two, Three, Five, Seven, Two, Seven].map(obj).to_vec(),
            deck: 5,
            score: 30,
            lastmove: Some(obj(Six)),
        },
        opponent: BladeSide {
            hand: Err(2),
            field: [Three, Two, Three, Four, Four, Six, Four, Six].map(obj).to_vec(),
            deck: 5,
            score: 32,
            lastmove: Some(obj(Mirror)),
        },
    };
    assert_eq!(state.to_line(), format!("{sample}\n"));
}

/// Ruby's `to_i` of the first line (seed-games.md §1(c): "2\n" -> 2, "2abc" -> 2, "abc" -> 0,
/// empty -> 0).
#[test]
fn blade_replies_read_like_ruby_to_i() {
    for (text, want) in
        [("2\n", 2), ("2abc", 2), ("abc", 0), ("", 0), ("  -3\n", -3), ("+1_0", 10), ("1__0", 1), ("\n7", 0)]
    {
        assert_eq!(ruby_to_i(text.as_bytes()), want, "{text:?}");
    }
    let game = <cardarena::games::blade::Blade as cardarena::games::Game>::new(
        cardarena::games::blade::Variant::Controller,
        3,
    );
    use cardarena::games::Game;
    let seat = game.to_act()[0];
    let obs = game.observe(seat);
    assert_eq!(blade_reply(&obs.hand, b"0\n").unwrap(), obs.hand[0].as_str());
    let fault = blade_reply(&obs.hand, b"10").unwrap_err();
    assert!(
        fault.message.starts_with("hand index 10 is out of range: the hand has 10 cards"),
        "{}",
        fault.message
    );
}

/// A crash capsule keeps the observation as JSON, not as the game's type: `arena repro` reads
/// each reply against the same hand (Blade) or phase (COMP1511) as the match did, at every
/// decision of whole games.
#[test]
fn replies_are_read_alike_from_a_capsules_observation() {
    use cardarena::games::Game;
    use cardarena::play::legacy::{Expect, Protocol};
    fn alike<G: Game>(protocol: Protocol, seed: u64) -> usize {
        let mut game = G::new(G::variants()[0], seed);
        let mut decisions = 0;
        while !game.is_over() {
            for seat in game.to_act() {
                let obs = game.observe(seat);
                let json = serde_json::to_value(&obs).unwrap();
                assert_eq!(Expect::from_json(protocol, &json).ok(), Expect::of(protocol, &obs));
                decisions += 1;
            }
            let seat = game.to_act()[0];
            let first = game.legal_strings(seat)[0].clone();
            game.play(seat, &first).unwrap();
        }
        decisions
    }
    for seed in 0..3 {
        assert!(alike::<cardarena::games::blade::Blade>(Protocol::Blade, seed) > 0);
        assert!(alike::<cardarena::games::intensity::Intensity>(Protocol::Comp1511, seed) > 40);
    }
    let damaged = serde_json::json!({"phase": "bidding"});
    let e = Expect::from_json(Protocol::Comp1511, &damaged).unwrap_err().to_string();
    assert!(e.starts_with("the observation's `phase` cannot be read (unknown variant `bidding`"), "{e}");
    let e = Expect::from_json(Protocol::Blade, &damaged).unwrap_err().to_string();
    assert_eq!(e, "the observation's `hand` cannot be read (missing)");
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-legacy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Copies the programs into `dir` and plays `dir/arena.toml` (one event of `game` between
/// `bots`, whose paths are relative to the tournament file, as users write them) with its
/// database in `dir`; returns the event's JSON standings.
fn tournament(dir: &Path, programs: &[&str], game: &str, bots: &[&str], extra: &str) -> Vec<Value> {
    for program in programs {
        let name = Path::new(program).file_name().unwrap();
        std::fs::copy(root().join(program), dir.join(name)).unwrap();
    }
    let listed: Vec<String> = bots.iter().map(|b| format!("{b:?}")).collect();
    let toml = format!("[[event]]\ngame = \"{game}\"\n{extra}bots = [{}]\nseed = 1\n", listed.join(", "));
    let file = dir.join("arena.toml");
    std::fs::write(&file, toml).unwrap();
    let json = dir.join("results.json");
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["tournament", file.to_str().unwrap(), "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    v["events"][0]["standings"].as_array().unwrap().clone()
}

/// The example C Intensity bot (an ordinary COMP1511 program, compiled with clang for
/// wasm32-wasi) and the Rust one play a tournament against the built-ins in arena.toml, without
/// a fault; the Blade C bot does the same against greedy.
#[test]
fn legacy_bots_play_tournaments_without_faults() {
    let dir = scratch("examples");
    let intensity = ["example_bots/legacy/intensity_c.wasm", "example_bots/legacy/intensity_rust.wasm"];
    let bots =
        ["legacy:comp1511:intensity_c.wasm", "greedy", "random", "legacy:comp1511:intensity_rust.wasm"];
    let blade = ["example_bots/legacy/blade_c.wasm"];
    for (programs, game, bots, extra) in [
        (&intensity[..], "intensity", &bots[..], "deals = 4\n"),
        (
            &blade[..],
            "blade",
            &["legacy:blade:blade_c.wasm", "greedy"][..],
            "deals = 4\nvariant = \"controller\"\n",
        ),
    ] {
        for s in tournament(&dir, programs, game, bots, extra) {
            assert!(s["matches"].as_u64().unwrap() > 0, "{s}");
            assert!(s["faults"].as_object().unwrap().is_empty(), "{game}: {s}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An unmodified C program written for the original COMP1511 referee (tests/data/legacy/
/// comp1511_student.c: the starter code's layout, `scanf` of the whole input, the name printed
/// without a newline, assert-based unit tests) plays a full tournament against every built-in
/// Intensity bot without a fault (seed-games.md §4(c)).
#[test]
fn a_referee_era_c_program_plays_a_tournament_against_the_built_ins() {
    let dir = scratch("student");
    let bots = ["legacy:comp1511:comp1511_student.wasm", "greedy", "random", "strong"];
    let standings =
        tournament(&dir, &["tests/data/legacy/comp1511_student.wasm"], "intensity", &bots, "deals = 3\n");
    let student = standings
        .iter()
        .find(|s| s["bot"].as_str().is_some_and(|b| b.ends_with("comp1511_student.wasm")))
        .unwrap_or_else(|| panic!("{standings:?}"));
    assert!(student["matches"].as_u64().unwrap() >= 3, "{student}");
    for s in &standings {
        assert!(s["faults"].as_object().unwrap().is_empty(), "{s}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A legacy bot that exits with code 3 (tests/data/legacy/exit_three.c, whenever it is last in
/// a trick) faults in a tournament with `exit code 3`; the crash capsule holds each run's exact
/// stdin, and `arena repro` feeds those bytes to the program again and finds the same verdict,
/// replies, fuel and log. With `--bot` another program is run on the capsule's stdin.
#[test]
fn a_legacy_bots_crash_capsule_reproduces_with_arena_repro() {
    let dir = scratch("repro");
    let programs = ["tests/data/legacy/exit_three.wasm", "tests/data/legacy/comp1511_student.wasm"];
    let bots = ["legacy:comp1511:exit_three.wasm", "greedy", "random", "strong"];
    let standings = tournament(&dir, &programs, "intensity", &bots, "deals = 1\n");
    let quitter = standings.iter().find(|s| s["bot"].as_str().unwrap().ends_with("exit_three.wasm")).unwrap();
    assert!(quitter["faults"]["crash"].as_u64().unwrap() > 0, "{quitter}");
    let capsules: Vec<PathBuf> =
        std::fs::read_dir(dir.join("capsules")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(capsules.len(), 1, "one capsule per bot and verdict: {capsules:?}");
    let capsule = &capsules[0];
    let c: Value = serde_json::from_str(&std::fs::read_to_string(capsule).unwrap()).unwrap();
    assert_eq!(c["fault"]["message"], "exit code 3", "{c}");
    let last = c["decisions"].as_array().unwrap().last().unwrap();
    let stdin = last["stdin"].as_str().unwrap();
    assert!(
        stdin.starts_with("2\n") && stdin.lines().nth(1).unwrap().split(' ').nth(1) == Some("3"),
        "{stdin}"
    );
    assert_eq!(last["log"][0], "last to play in a trick: I give up", "{last}");

    let repro = |extra: &[&str]| {
        let o =
            Command::new(env!("CARGO_BIN_EXE_arena")).arg("repro").arg(capsule).args(extra).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
        )
    };
    let (code, out) = repro(&[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("same failure reproduced at your "), "{out}");
    assert!(out.contains("crash: exit code 3"), "{out}");
    assert!(out.contains("log: last to play in a trick: I give up"), "{out}");
    assert!(!out.contains("<- differs"), "every reply, fuel count and log as recorded: {out}");
    assert!(out.contains(&format!("      {}", stdin.lines().nth(2).unwrap())), "the failing stdin: {out}");
    // A plain path given with --bot speaks the capsule's protocol.
    let fixed = dir.join("comp1511_student.wasm");
    let (code, out) = repro(&["--bot", fixed.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("is not the bot of the capsule"), "{out}");
    assert!(out.contains("the failure is gone: at your "), "{out}");
    // A legacy decision without its stdin cannot be run again: an error naming the decision.
    let mut damaged = c.clone();
    damaged["decisions"][0].as_object_mut().unwrap().remove("stdin");
    std::fs::write(capsule, serde_json::to_string(&damaged).unwrap()).unwrap();
    let (code, out) = repro(&[]);
    assert_eq!(code, Some(2), "{out}");
    let first = c["decisions"][0]["decision"].as_u64().unwrap();
    assert!(
        out.contains(&format!(
            "decision #{first}: damaged capsule: a legacy bot's decision without its `stdin`"
        )),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// In a tournament, a legacy program that is missing or that the sandbox refuses forfeits its
/// matches with the verdict `load`, as a Lua or WASM file does, instead of stopping the event;
/// a name that cannot be right (an unknown protocol, another game's) is still the file's error.
#[test]
fn a_legacy_entrant_that_does_not_load_forfeits() {
    use cardarena::games::intensity::Intensity;
    use cardarena::play::registry::Loader;
    let dir = scratch("entrant");
    let not_wasi = dir.join("env.wat");
    std::fs::write(
        &not_wasi,
        r#"(module (import "env" "x" (func)) (memory (export "memory") 1) (func (export "_start")))"#,
    )
    .unwrap();
    let loader = Loader::new();
    let failed = |name: String| {
        let source = loader.resolve_entrant::<Intensity>(&name).unwrap();
        assert_eq!(source.entry().name, name);
        source.load_error().unwrap_or_else(|| panic!("{name} loaded")).to_string()
    };
    let e = failed(format!("legacy:comp1511:{}", dir.join("missing.wasm").display()));
    assert!(e.starts_with("cannot read bot file"), "{e}");
    let e = failed(format!("legacy:comp1511:{}", not_wasi.display()));
    assert!(e.starts_with("imports `env.x`, which is not a WASI preview1 function"), "{e}");
    for wrong in ["legacy:blade:x.wasm", "legacy:pascal:x.wasm"] {
        assert!(loader.resolve_entrant::<Intensity>(wrong).is_err(), "{wrong}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match with a legacy bot is recorded, and `arena replay --verify` plays it again from its
/// name (`legacy:comp1511:<file>`) with identical decisions.
#[test]
fn legacy_match_replays_and_verifies() {
    let dir = std::env::temp_dir().join(format!("cardarena-legacy-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let replay = dir.join("m.json");
    let arena = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arena")).current_dir(root()).args(args).output().unwrap()
    };
    let bots = "legacy:comp1511:example_bots/legacy/intensity_c.wasm,greedy,random,random";
    let o = arena(&[
        "play",
        "--game",
        "intensity",
        "--bots",
        bots,
        "--seed",
        "3",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(v["bots"][0]["name"], "legacy:comp1511:example_bots/legacy/intensity_c.wasm");
    let o = arena(&["replay", replay.to_str().unwrap(), "--verify"]);
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A comp1511 bot that answers garbage faults at every decision with the student's message, and
/// Intensity's rule applies (seed-games.md §4(b) rule 9): +5 penalty points per fault and a
/// random legal card, the game going on.
#[test]
fn garbage_answers_cost_five_points_each_in_intensity() {
    use cardarena::games::intensity::Intensity;
    use cardarena::play::limits::LimitsConfig;
    use cardarena::play::registry::Loader;
    use cardarena::play::runner::{run_match, MatchSpec, Quiet};
    // A WASI command that prints "huh?" and exits 0.
    let wat = r#"(module
      (import "wasi_snapshot_preview1" "fd_write" (func $w (param i32 i32 i32 i32) (result i32)))
      (memory (export "memory") 1)
      (data (i32.const 0) "\10\00\00\00\05\00\00\00")
      (data (i32.const 16) "huh?\0a")
      (func (export "_start") (drop (call $w (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 32)))))"#;
    let file = std::env::temp_dir().join(format!("cardarena-legacy-huh-{}.wat", std::process::id()));
    std::fs::write(&file, wat).unwrap();
    let loader = Loader::new();
    let name = format!("legacy:comp1511:{}", file.display());
    let sources = [
        loader.resolve::<Intensity>(&name).unwrap(),
        loader.resolve::<Intensity>("random").unwrap(),
        loader.resolve::<Intensity>("random").unwrap(),
        loader.resolve::<Intensity>("random").unwrap(),
    ];
    let _ = std::fs::remove_file(&file);
    let spec = MatchSpec::<Intensity> {
        variant: Variant::Standard,
        seed: 5,
        entries: sources.iter().map(|s| s.entry()).collect(),
    };
    let limits = LimitsConfig::default();
    let mut bots: Vec<_> =
        sources.iter().enumerate().map(|(seat, s)| s.instantiate::<Intensity>(5, seat, &limits)).collect();
    let replay = run_match(&spec, &mut bots, &mut Quiet);
    // The pass and the ten plays all fault; the game is played to the end.
    assert_eq!(replay.faults[0].len(), 11, "{:?}", replay.faults[0]);
    assert!(
        replay.faults[0].iter().all(|f| f.message == "stdout unparsable: \"huh?\\n\""),
        "{:?}",
        replay.faults[0]
    );
    assert!(replay.outcome.points[0] >= 55, "{:?}", replay.outcome);
    // Its crash capsules hold the exact stdin of each run.
    let capsules = cardarena::play::capsule::build::<Intensity>(&replay, None).unwrap();
    let last = capsules.last().expect("capsules");
    let stdins: Vec<&str> = last.decisions.iter().map(|d| d.stdin.as_deref().expect("stdin")).collect();
    assert_eq!(stdins.len(), 11);
    assert!(stdins[0].starts_with("1\n") && stdins[0].lines().count() == 2, "{}", stdins[0]);
    assert!(stdins[10].starts_with("2\n1 ") && stdins[10].lines().count() == 7, "{}", stdins[10]);
}

/// `arena grade --legacy comp1511` grades a folder of legacy programs; a faulty one's replay
/// command and crash capsule name it with its protocol, so that `arena repro` (run in the
/// folder) reproduces the fault.
#[test]
fn grade_takes_a_folder_of_legacy_programs() {
    let base = scratch("grade");
    let dir = base.join("submissions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join("example_bots/legacy/intensity_c.wasm"), dir.join("student.wasm")).unwrap();
    std::fs::copy(root().join("tests/data/legacy/exit_three.wasm"), dir.join("quitter.wasm")).unwrap();
    let arena = |cwd: &Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arena")).current_dir(cwd).args(args).output().unwrap()
    };
    let o = arena(
        &base,
        &["grade", "--game", "intensity", "--bots", "submissions", "--legacy", "comp1511"]
            .iter()
            .chain(&["--deals", "1", "--against", "random", "--csv", "-", "--capsules", "caps"])
            .copied()
            .collect::<Vec<_>>(),
    );
    let csv = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let row = |file: &str| csv.lines().find(|l| l.starts_with(file)).unwrap_or_else(|| panic!("{csv}"));
    assert!(!row("student.wasm").contains("cannot be loaded"), "{}", row("student.wasm"));
    let quitter = row("quitter.wasm");
    assert!(quitter.contains("exit code 3") && quitter.contains("legacy:comp1511:quitter.wasm"), "{quitter}");
    let capsule = std::fs::read_dir(base.join("caps")).unwrap().next().unwrap().unwrap().path();
    let o = arena(&dir, &["repro", capsule.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("same failure reproduced at your "), "{out}");
    let _ = std::fs::remove_dir_all(&base);
}
