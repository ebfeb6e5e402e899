//! What well-behaved bots can rely on: logs, seeded randomness, budgets they can read, the
//! match fuel bank, life after a fault, determinism, threads.

use std::time::{Duration, Instant};

use cardarena_sandbox::{Kind, Limits, Program, Sandbox, Verdict, LOG_LINES_PER_DECISION, LOG_LINE_FRAMING};
use testkit::sandbox::{load, INFO, OBS, SEED};

fn sandbox() -> Sandbox {
    Sandbox::new().expect("sandbox")
}

#[test]
fn lua_log_is_captured_and_capped() {
    let sb = sandbox();
    let program = load(&sb, "lua_log.lua").unwrap();
    let limits = Limits { log_bytes_per_match: 10_000, ..Limits::LUA };
    let mut bot = program.start(&limits, SEED, INFO).unwrap();
    assert_eq!(bot.take_log(), vec!["init\tblade\t0".to_string()]);
    assert_eq!(bot.act(OBS).unwrap(), "1");
    let log = bot.take_log();
    assert_eq!(log[0], "deciding\t4\tnil\ttrue\t1.5");
    assert!(log[1].starts_with("line 1 xxx"));
    // 2000 lines in one decision: the decision's cap in lines cuts them.
    assert_eq!(log.len(), LOG_LINES_PER_DECISION + 1);
    assert!(log.last().unwrap().contains("log cut for this decision"), "{:?}", log.last());
    let mut cost: usize = 12 + LOG_LINE_FRAMING; // the init line
    cost += log[..log.len() - 1].iter().map(|l| l.len() + LOG_LINE_FRAMING).sum::<usize>();
    // The next decision reaches the match's cap, framing counted.
    assert_eq!(bot.act(OBS).unwrap(), "1");
    let log = bot.take_log();
    assert!(log.last().unwrap().contains("log truncated at 10000 bytes"), "{:?}", log.last());
    cost += log[..log.len() - 1].iter().map(|l| l.len() + LOG_LINE_FRAMING).sum::<usize>();
    assert!(cost <= 10_000 && cost > 9_900, "{cost}");
    // The cap is per match: nothing more gets through.
    assert_eq!(bot.act(OBS).unwrap(), "1");
    assert!(bot.take_log().is_empty());
}

#[test]
fn wasm_log_is_captured_and_capped() {
    let sb = sandbox();
    let mut bot = load(&sb, "normal.wat").unwrap().start(&Limits::WASM, SEED, INFO).unwrap();
    assert_eq!(bot.take_log(), vec!["hello from wasm".to_string()]);
    let program = load(&sb, "wasm_log_spam.wat").unwrap();
    let limits = Limits { log_bytes_per_match: 1000, fuel_per_decision: 1_000_000, ..Limits::WASM };
    let mut bot = program.start(&limits, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap_err().verdict, Verdict::Fuel);
    let log = bot.take_log();
    // 18 whole lines of 39 bytes plus their framing, the marker (no room left for a cut line)
    assert_eq!(log.len(), 19, "{log:?}");
    assert_eq!(log[0], "spam spam spam spam spam spam spam spam");
    assert!(log[18].contains("truncated"));
}

#[test]
fn lua_random_is_seeded_by_the_match_seed() {
    let sb = sandbox();
    let program = load(&sb, "lua_random.lua").unwrap();
    let run = |seed| {
        let mut bot = program.start(&Limits::LUA, seed, INFO).unwrap();
        (bot.act(OBS).unwrap(), bot.act(OBS).unwrap())
    };
    let (a1, a2) = run(42);
    assert_eq!(run(42), (a1.clone(), a2.clone()));
    assert_ne!(run(43).0, a1);
    // math.randomseed() without arguments reseeds from the match seed: the 6th number of
    // every call is the first number after seeding.
    let first = |s: &str| s.split(' ').next().unwrap().to_string();
    let sixth = |s: &str| s.split(' ').nth(5).unwrap().to_string();
    assert_eq!(sixth(&a1), first(&a1));
    assert_eq!(sixth(&a2), first(&a1));
}

#[test]
fn lua_budget_left_is_visible() {
    let sb = sandbox();
    let mut bot = load(&sb, "lua_budget_left.lua").unwrap().start(&Limits::LUA, SEED, INFO).unwrap();
    let left: u64 = bot.act(OBS).unwrap().parse().unwrap();
    assert!(left <= Limits::LUA.fuel_per_decision && left > Limits::LUA.fuel_per_decision - 1000);
}

#[test]
fn wasm_budget_left_is_visible_and_exact() {
    let sb = sandbox();
    let program = load(&sb, "wasm_budget_left.wat").unwrap();
    let limits = Limits { fuel_per_decision: 1_000_000, fuel_per_match: 2_500_000, ..Limits::WASM };
    let mut bot = program.start(&limits, SEED, INFO).unwrap();
    let first: u64 = bot.act(OBS).unwrap().parse().unwrap();
    let used = bot.fuel_used_last();
    assert!(first < 1_000_000 && first > 1_000_000 - used);
    bot.act(OBS).unwrap();
    // Third decision: the bank has 2.5M - 2 * used left, more than a decision's budget.
    let third: u64 = bot.act(OBS).unwrap().parse().unwrap();
    assert_eq!(third, first);
    // With a bank smaller than a decision, budget_left shows the bank.
    let limits = Limits { fuel_per_decision: 1_000_000, fuel_per_match: 600_000, ..Limits::WASM };
    let mut bot = program.start(&limits, SEED, INFO).unwrap();
    let shown: u64 = bot.act(OBS).unwrap().parse().unwrap();
    assert!(shown < 600_000 && shown > 600_000 - used);
}

#[test]
fn match_fuel_bank_runs_out() {
    let sb = sandbox();
    for (file, kind) in [("calib.lua", Kind::Lua), ("calib.wat", Kind::Wasm)] {
        let program = load(&sb, file).unwrap();
        let mut probe = program.start(&Limits::default_for(kind), SEED, INFO).unwrap();
        probe.act(OBS).unwrap();
        let per = probe.fuel_used_last();
        let limits = Limits { fuel_per_match: per * 5 / 2, ..Limits::default_for(kind) };
        let mut bot = program.start(&limits, SEED, INFO).unwrap();
        bot.act(OBS).unwrap();
        bot.act(OBS).unwrap();
        let f = bot.act(OBS).unwrap_err();
        assert_eq!(f.verdict, Verdict::Fuel, "{file}");
        assert!(f.message.contains("fuel bank"), "{file}: {}", f.message);
        assert!(f.fuel_total >= limits.fuel_per_match, "{file}: {f}");
        // Afterwards every decision fails at once, using nothing.
        let f = bot.act(OBS).unwrap_err();
        assert_eq!((f.verdict, f.fuel_used), (Verdict::Fuel, 0), "{file}");
    }
}

#[test]
fn lua_keeps_its_globals_after_a_fault() {
    let sb = sandbox();
    let mut bot = load(&sb, "lua_counter.lua").unwrap().start(&Limits::LUA, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "1");
    assert_eq!(bot.act(r#"{"loop":true}"#).unwrap_err().verdict, Verdict::Fuel);
    assert_eq!(bot.act(OBS).unwrap(), "3");
}

#[test]
fn wasm_is_restarted_after_a_trap_and_loses_its_state() {
    let sb = sandbox();
    let program = load(&sb, "wasm_trap_then_answer.wat").unwrap();
    let mut bot = program.start(&Limits::WASM, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "1");
    assert_eq!(bot.act(OBS).unwrap(), "2");
    let f = bot.act("!").unwrap_err();
    assert_eq!(f.verdict, Verdict::Crash);
    assert_eq!(bot.act(OBS).unwrap(), "1", "a fresh instance");
    assert_eq!(bot.act(OBS).unwrap(), "2");

    let program = load(&sb, "wasm_counter_loop.wat").unwrap();
    let mut bot = program.start(&Limits::WASM, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "1");
    assert_eq!(bot.act("!").unwrap_err().verdict, Verdict::Fuel);
    assert_eq!(bot.act(OBS).unwrap(), "1", "a fresh instance after running out of fuel");
}

#[test]
fn lua_host_reads_globals_raw() {
    let sb = sandbox();
    let t = Instant::now();
    let mut bot = load(&sb, "lua_globals_metatable.lua").unwrap().start(&Limits::LUA, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "ok");
    drop(bot);
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn lua_finalizers_cannot_be_installed() {
    let sb = sandbox();
    let t = Instant::now();
    let mut bot = load(&sb, "lua_gc_placeholder.lua").unwrap().start(&Limits::LUA, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "refused");
    drop(bot); // closing the VM runs no bot code
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn lua_pairs_and_sort_orders_are_pinned() {
    let sb = sandbox();
    let program = load(&sb, "lua_pairs_probe.lua").unwrap();
    let reply = program.start(&Limits::LUA, SEED, INFO).unwrap().act(OBS).unwrap();
    // Pinned for Lua 5.4.9 with luai_makeseed(L) = 0x5eedu and l_randomizePivot() = ~0u
    // (vendor/lua-src's luaconf.h). A different order means mlua-sys built another Lua.
    assert_eq!(
        reply,
        "bravo,hotel,charlie,golf,lima,alpha,juliet,india,delta,kilo,foxtrot,echo \
         | 300,153,156,159,147,141,144,138,135,162,168,180"
    );
}

#[test]
fn golden_fuel_numbers() {
    // Like wasmtime's tests/all/fuel.wast: the cost model is pinned. A change here means a
    // wasmtime upgrade or a change in what the Lua sandbox charges; both change every
    // tournament's budgets and must be deliberate.
    let sb = sandbox();
    let fuel = |file: &str| {
        let program = load(&sb, file).unwrap();
        let mut bot = program.start(&Limits::default_for(program.kind()), SEED, INFO).unwrap();
        let init = bot.fuel_init();
        bot.act(OBS).unwrap();
        (init, bot.fuel_used_last())
    };
    assert_eq!(fuel("normal.wat"), (GOLDEN_NORMAL_WAT_INIT, GOLDEN_NORMAL_WAT_ACT));
    assert_eq!(fuel("calib.wat").1, GOLDEN_CALIB_WAT);
    assert_eq!(fuel("calib.lua").1, GOLDEN_CALIB_LUA);
    assert_eq!(fuel("normal.lua").1, GOLDEN_NORMAL_LUA);
}

const GOLDEN_NORMAL_WAT_INIT: u64 = 121;
const GOLDEN_NORMAL_WAT_ACT: u64 = 1_820;
const GOLDEN_CALIB_WAT: u64 = 3_734_081;
const GOLDEN_CALIB_LUA: u64 = 1_066_140;
const GOLDEN_NORMAL_LUA: u64 = 558;

#[test]
fn programs_are_shared_across_threads() {
    let sb = sandbox();
    let programs = [load(&sb, "calib.lua").unwrap(), load(&sb, "calib.wat").unwrap()];
    let results: Vec<Vec<(String, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let programs = programs.clone();
                s.spawn(move || {
                    programs
                        .iter()
                        .map(|p| {
                            let mut bot = p.start(&Limits::default_for(p.kind()), SEED, INFO).unwrap();
                            (bot.act(OBS).unwrap(), bot.fuel_used_last())
                        })
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results.windows(2).all(|w| w[0] == w[1]));
    // An instance can move to another thread between decisions.
    let mut bot = programs[1].start(&Limits::WASM, SEED, INFO).unwrap();
    bot.act(OBS).unwrap();
    let bot = std::thread::spawn(move || {
        bot.act(OBS).unwrap();
        bot
    })
    .join()
    .unwrap();
    assert_eq!(bot.fuel_total(), 2 * results[0][1].1);
}

/// docs/sandbox.md, "Lanes": a program moved to a lane (a wasmtime engine of its own) starts,
/// replies and uses fuel exactly as on its own sandbox; the lane's instances come from the
/// lane's own pool; the lane's ticker keeps the wall-clock backstop working after both
/// sandbox values are gone.
#[test]
fn a_program_on_a_lane_behaves_as_on_its_sandbox() {
    let sb = sandbox();
    let lane = sb.lane().unwrap();
    let run = |p: &Program| {
        let mut bot = p.start(&Limits::default_for(p.kind()), SEED, INFO).unwrap();
        let init = bot.fuel_init();
        let first = (bot.act(OBS).unwrap(), bot.fuel_used_last());
        let second = (bot.act(OBS).unwrap(), bot.fuel_used_last());
        (init, first, second, bot.fuel_total(), bot.memory_peak())
    };
    for file in ["calib.lua", "calib.wat", "normal.lua", "normal.wat"] {
        let program = load(&sb, file).unwrap();
        let moved = program.on(&lane).unwrap();
        assert_eq!(
            (moved.name(), moved.kind(), moved.hash()),
            (program.name(), program.kind(), program.hash())
        );
        assert_eq!(run(&moved), run(&program), "{file}");
    }
    if lane.wasm_pooled() && sb.wasm_pooled() {
        let program = load(&sb, "normal.wat").unwrap();
        let moved = program.on(&lane).unwrap();
        let slots = cardarena_sandbox::WASM_LANE_POOL_SLOTS;
        let live: Vec<_> = (0..slots).map(|_| moved.start(&Limits::WASM, SEED, INFO).unwrap()).collect();
        let Err(fault) = moved.start(&Limits::WASM, SEED, INFO) else { panic!("the lane's pool is full") };
        assert!(fault.message.contains(&slots.to_string()), "{}", fault.message);
        program.start(&Limits::WASM, SEED, INFO).expect("the sandbox's pool is not the lane's");
        drop(live);
    }
    let looping = load(&sb, "wasm_infinite_loop.wat").unwrap().on(&lane).unwrap();
    drop((sb, lane));
    // Fuel for far longer than the backstop: only the lane's epoch ticker can stop it in time.
    let limits = Limits {
        fuel_per_decision: 20_000_000_000,
        fuel_per_match: 40_000_000_000,
        wall_per_decision: Duration::from_millis(100),
        ..Limits::WASM
    };
    let mut bot = looping.start(&limits, SEED, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap_err().verdict, Verdict::Wallclock);
}

#[test]
fn programs_outlive_the_sandbox_value() {
    let sb = sandbox();
    let program = load(&sb, "wasm_infinite_loop.wat").unwrap();
    drop(sb);
    // The epoch ticker lives as long as a program does: the backstop still works.
    let limits = Limits {
        fuel_per_decision: u64::MAX / 4,
        fuel_per_match: u64::MAX / 2,
        wall_per_decision: Duration::from_millis(100),
        ..Limits::WASM
    };
    let mut bot = program.start(&limits, SEED, INFO).unwrap();
    let t = Instant::now();
    assert_eq!(bot.act(OBS).unwrap_err().verdict, Verdict::Wallclock);
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn observations_become_lua_tables() {
    let sb = sandbox();
    let src = br#"
        function act(obs)
          local parts = {
            math.type(obs.int), math.type(obs.float), math.type(obs.whole_float),
            math.type(obs.big), tostring(obs.null), #obs.list, obs.list[1], obs.list[3],
            obs.nested.deep[2].x, tostring(obs.yes), tostring(obs.no), obs.text,
          }
          for i = 1, #parts do parts[i] = tostring(parts[i]) end
          return table.concat(parts, " ")
        end
    "#;
    let program = sb.load("conv.lua", Kind::Lua, src).unwrap();
    let mut bot = program.start(&Limits::LUA, SEED, INFO).unwrap();
    let obs = r#"{"int": 3, "float": 1.5, "whole_float": 2.0, "big": 18446744073709551615,
        "null": null, "list": ["a", null, "c"], "nested": {"deep": [{}, {"x": "y"}]},
        "yes": true, "no": false, "text": "héllo"}"#;
    assert_eq!(bot.act(obs).unwrap(), "integer float integer float nil 3 a c y true false héllo");
    let f = bot.act("{not json").unwrap_err();
    assert!(f.message.starts_with("host error:"), "{}", f.message);
}

#[test]
fn lua_fuel_counts_every_instruction() {
    // `a = 1` on a local compiles to one LOADI: n of them cost exactly n more fuel, across
    // hook steps (1000) and whatever n is.
    let sb = sandbox();
    let fuel = |n: usize| {
        let src = format!("function act(obs) local a; {} return 'ok' end", "a = 1; ".repeat(n));
        let program = sb.load("count.lua", Kind::Lua, src.as_bytes()).unwrap();
        let mut bot = program.start(&Limits::LUA, SEED, INFO).unwrap();
        bot.act("{}").unwrap();
        bot.fuel_used_last()
    };
    let base = fuel(0);
    assert!(base < 10, "{base}");
    for n in [1, 7, 999, 1000, 1001, 2500] {
        assert_eq!(fuel(n) - base, n as u64, "n = {n}");
    }
}

/// docs/sandbox.md: WASM instances come from a pool of `WASM_POOL_SLOTS` slots per sandbox. One
/// more bot running at once fails to start with a fault that names the limit (never a panic); a
/// freed slot serves the next start.
#[test]
fn wasm_pool_exhaustion_is_a_fault_and_slots_are_reused() {
    let sb = sandbox();
    if !sb.wasm_pooled() {
        eprintln!("the pool's address space was refused here (ulimit -v?): instances are on demand");
        return;
    }
    let program = load(&sb, "normal.wat").unwrap();
    let slots = cardarena_sandbox::WASM_POOL_SLOTS;
    let mut live: Vec<_> = (0..slots).map(|_| program.start(&Limits::WASM, SEED, INFO).unwrap()).collect();
    let Err(fault) = program.start(&Limits::WASM, SEED, INFO) else { panic!("the pool is full") };
    assert_eq!(fault.verdict, Verdict::Crash);
    assert!(fault.message.contains(&slots.to_string()), "{}", fault.message);
    live.pop();
    let mut again = program.start(&Limits::WASM, SEED, INFO).expect("a freed slot is reused");
    assert_eq!(again.act(OBS).unwrap(), live[0].act(OBS).unwrap());
}

/// Every instruction a coroutine runs is the decision's fuel, to the instruction: a loop of
/// `n` iterations costs the same extra fuel inside a coroutine as in the main thread, and
/// identical runs use identical fuel.
#[test]
fn lua_fuel_is_exact_across_coroutines() {
    let sb = Sandbox::new().unwrap();
    let fuel = |in_coroutine: bool, n: u32| {
        let src = format!(
            "local function work(n) local x = 0 for i = 1, n do x = x + i end return tostring(x) end
             function act(obs)
               if {in_coroutine} then return coroutine.wrap(work)({n}) end
               return work({n})
             end"
        );
        let program = sb.load("fuel.lua", cardarena_sandbox::Kind::Lua, src.as_bytes()).unwrap();
        let mut bot = program.start(&Limits::LUA, SEED, INFO).unwrap();
        bot.act(OBS).unwrap();
        bot.fuel_used_last()
    };
    // Each iteration is two instructions (ADD, FORLOOP).
    assert_eq!(fuel(false, 1300) - fuel(false, 1000), 600);
    assert_eq!(fuel(true, 1300) - fuel(true, 1000), 600);
    assert_eq!(fuel(true, 1000), fuel(true, 1000));
}

/// `watch_unknown_fields` (for `arena check`): the keys read that an observation table lacks
/// are recorded per decision, nested tables included; the bot gets the same values and
/// uses exactly the same fuel as unwatched. Arrays are not watched (`obs.hand[9]` is not
/// recorded); a field that is null in the JSON is absent from the table, so reading it is
/// recorded like a typo, and the arena tells the two apart by the game's schema.
#[test]
fn lua_reads_of_missing_fields_are_recorded_without_changing_fuel() {
    let sb = sandbox();
    let source = "function act(obs)\n\
                  local n = 0\n\
                  for i = 1, 50 do n = n + #obs.legal end\n\
                  if obs.deck == nil and obs.scores.total == nil and obs.hand[9] == nil then n = n + 1 end\n\
                  local again = obs.phase_ or obs.deck\n\
                  return obs.legal[1 + n % #obs.legal]\n\
                  end\n";
    let program = sb.load("typo.lua", Kind::Lua, source.as_bytes()).unwrap();
    let run = |watch: bool| {
        let mut bot = program.start(&Limits::LUA, SEED, INFO).unwrap();
        if watch {
            bot.watch_unknown_fields();
        }
        let reply = bot.act(OBS).unwrap();
        (reply, bot.fuel_used_last(), bot.unknown_fields(), bot.memory_peak())
    };
    let (plain_reply, plain_fuel, plain_unknown, plain_memory) = run(false);
    let (reply, fuel, unknown, memory) = run(true);
    // one shared metatable per VM: a few dozen bytes more memory, no fuel
    eprintln!("memory peak {plain_memory} unwatched, {memory} watched");
    assert!(memory >= plain_memory && memory - plain_memory <= 256, "{plain_memory} -> {memory}");
    assert!(plain_unknown.is_empty(), "nothing is recorded unwatched");
    // (`obs.scores` is an array: `obs.scores.total` is not recorded)
    assert_eq!(unknown, ["deck", "phase_"], "each missing key once, in the order first read");
    assert_eq!((reply, fuel), (plain_reply, plain_fuel), "the same reply and fuel");

    // a bot that reads only what is there records nothing; a nested object's key is recorded
    let clean =
        sb.load("clean.lua", Kind::Lua, b"function act(obs) return obs.legal[#obs.hand] end").unwrap();
    let mut bot = clean.start(&Limits::LUA, SEED, INFO).unwrap();
    bot.watch_unknown_fields();
    bot.act(OBS).unwrap();
    assert!(bot.unknown_fields().is_empty());
    let nested = sb
        .load(
            "nested.lua",
            Kind::Lua,
            b"function act(obs) local x = obs.inner.colour; return obs.legal[1] end",
        )
        .unwrap();
    let mut bot = nested.start(&Limits::LUA, SEED, INFO).unwrap();
    bot.watch_unknown_fields();
    bot.act(r#"{"legal":["1"],"inner":{"color":1}}"#).unwrap();
    assert_eq!(bot.unknown_fields(), ["colour"]);
    // recorded per decision: the next one starts afresh
    bot.act(r#"{"legal":["1"],"inner":{"colour":1}}"#).unwrap();
    assert!(bot.unknown_fields().is_empty());

    // A bot that gives the shared metatable a finalizer does not get it onto later tables
    // (finalizers run unmetered): the loop below would never end once the collector, which the
    // junk drives, freed an observation table.
    let gc = sb
        .load(
            "gc.lua",
            Kind::Lua,
            b"function act(obs)\n\
              local mt = getmetatable(obs)\n\
              if mt then rawset(mt, '__gc', function() while true do end end) end\n\
              local junk = {} for i = 1, 20000 do junk[i] = {i} end\n\
              return obs.legal[1]\n\
              end",
        )
        .unwrap();
    let mut bot = gc.start(&Limits::LUA, SEED, INFO).unwrap();
    bot.watch_unknown_fields();
    for _ in 0..10 {
        assert_eq!(bot.act(OBS).unwrap(), "1");
    }
}

/// A Lua file saved with a UTF-8 byte-order mark (some Windows editors write one) loads, as
/// stock Lua's `luaL_loadfile` reads it; so does a `#!` first line, and the lines keep their
/// numbers.
#[test]
fn lua_source_with_a_byte_order_mark_loads() {
    let sb = sandbox();
    let program =
        sb.load("bom.lua", Kind::Lua, b"\xEF\xBB\xBFfunction act(obs)\n  return obs.legal[1]\nend\n");
    let program = program.expect("a byte-order mark is skipped");
    assert_eq!(program.start(&Limits::LUA, SEED, INFO).unwrap().act(OBS).unwrap(), "1");
    let text = b"\xEF\xBB\xBF#!/usr/bin/env lua\nfunction act(obs)\n  error('here')\nend\n";
    let f = sb.load("bang.lua", Kind::Lua, text).unwrap().start(&Limits::LUA, SEED, INFO).unwrap().act(OBS);
    let f = f.unwrap_err();
    assert!(f.message.contains("bang.lua:3: here"), "{}", f.message);
}

/// `return obs.legal[0]` (arrays from 0, as in most languages) is answered with a hint.
#[test]
fn lua_nil_reply_says_arrays_start_at_1() {
    let sb = sandbox();
    let program = sb.load("zero.lua", Kind::Lua, b"function act(obs) return obs.legal[0] end\n").unwrap();
    let f = program.start(&Limits::LUA, SEED, INFO).unwrap().act(OBS).unwrap_err();
    assert_eq!(f.verdict, Verdict::Invalid);
    assert!(f.message.starts_with("act returned nil, not a string"), "{}", f.message);
    assert!(
        f.message.contains("Lua arrays start at 1") && f.message.contains("obs.legal[1]"),
        "{}",
        f.message
    );
}

/// A `memory` fault names the line that asked for the memory, as a `fuel` fault names the line
/// that ran out; a `fuel` fault inside a library function names the bot's line that called it.
#[test]
fn lua_memory_and_library_fuel_faults_name_the_bot_line() {
    let sb = sandbox();
    let grow = b"local t = {}\nfunction act(obs)\n  for i = 1, 1e9 do\n    t[i] = { i }\n  end\nend\n";
    let limits = Limits { memory_bytes: 4 << 20, ..Limits::LUA };
    let f = sb.load("grow.lua", Kind::Lua, grow).unwrap().start(&limits, SEED, INFO).unwrap().act(OBS);
    let f = f.unwrap_err();
    assert_eq!(f.verdict, Verdict::Memory, "{f}");
    assert!(f.message.ends_with("it ran out at grow.lua:4"), "{}", f.message);
    // one large string: refused in the allocator, inside string.rep
    let big =
        b"function act(obs)\n  local n = 3\n  local s = string.rep('ab', 2^22)\n  return obs.legal[1]\nend\n";
    let f = sb.load("big.lua", Kind::Lua, big).unwrap().start(&limits, SEED, INFO).unwrap().act(OBS);
    let f = f.unwrap_err();
    assert_eq!(f.verdict, Verdict::Memory, "{f}");
    assert!(f.message.ends_with("it ran out at big.lua:3"), "{}", f.message);
    // the fuel runs out inside string.rep (its charge, then its allocation)
    for (fuel, mib) in [(100_000, 64), (3_000_000, 64)] {
        let limits = Limits { fuel_per_decision: fuel, memory_bytes: mib << 20, ..Limits::LUA };
        let rep = b"function act(obs)\n  local s = ''\n  s = string.rep('abcdefgh', 2^22)\n  return obs.legal[1]\nend\n";
        let f = sb.load("rep.lua", Kind::Lua, rep).unwrap().start(&limits, SEED, INFO).unwrap().act(OBS);
        let f = f.unwrap_err();
        assert_eq!(f.verdict, Verdict::Fuel, "{f}");
        assert!(f.message.ends_with("it ran out at rep.lua:3"), "fuel {fuel}: {}", f.message);
    }
}

/// AssemblyScript's compiler imports `env.abort(msg, file, line, col)` by default: the module
/// loads, and a call is a `crash` with the message and place decoded (strings are UTF-16 with
/// their byte length in the word before them).
#[test]
fn wasm_env_abort_is_a_crash_with_its_message() {
    let sb = sandbox();
    let wat = r#"(module
      (import "env" "abort" (func $abort (param i32 i32 i32 i32)))
      (memory (export "memory") 1)
      (data (i32.const 12) "\0e\00\00\00b\00o\00o\00m\00 \00\e9\00!\00")
      (data (i32.const 44) "\0c\00\00\00b\00o\00t\00.\00t\00s\00")
      (func (export "alloc") (param i32) (result i32) (i32.const 1024))
      (func (export "act") (param i32 i32) (result i64)
        (call $abort (i32.const 16) (i32.const 48) (i32.const 7) (i32.const 3))
        (i64.const 0)))"#;
    let program = sb.load("as.wat", Kind::Wasm, wat.as_bytes()).expect("env.abort is provided");
    let f = program.start(&Limits::WASM, SEED, INFO).unwrap().act(OBS).unwrap_err();
    assert_eq!(f.verdict, Verdict::Crash, "{f}");
    assert!(f.message.contains("the bot aborted: boom é! at bot.ts:7:3"), "{}", f.message);
    // a null or wild pointer is no string, and no host failure
    let wild = wat.replace("(i32.const 16) (i32.const 48)", "(i32.const 0) (i32.const -8)");
    let program = sb.load("as.wat", Kind::Wasm, wild.as_bytes()).unwrap();
    let f = program.start(&Limits::WASM, SEED, INFO).unwrap().act(OBS).unwrap_err();
    assert_eq!(f.verdict, Verdict::Crash, "{f}");
    assert!(f.message.contains("the bot aborted: (no message)"), "{}", f.message);
}
