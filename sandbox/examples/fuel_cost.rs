//! Wall time per unit of fuel over a corpus of adversarial snippets (not a test: timings need
//! a release build and a quiet machine). Each Lua snippet's setup runs at start; its body runs
//! in an endless loop inside `act` until the decision's fuel (or the wall-clock backstop) stops
//! it, so the figure is what a bot gets for a full decision budget spent on that one kind of
//! work. WASM rows are the WASM bombs of the hostile suite.
//!
//! ```text
//! cargo run --release -p cardarena-sandbox --example fuel_cost [-- FILTER]
//! ```
//!
//! It prints a markdown table (docs/sandbox.md, "CPU per unit of fuel"), the mean and the
//! worst per kind of bot, and their ratio (the target is a worst case within 10 times the
//! mean).

use std::time::{Duration, Instant};

use cardarena_sandbox::{Kind, Limits, Sandbox};
use testkit::sandbox;

/// (name, setup run at start, body of the endless loop). `@COLLIDING@` in a setup stands for
/// 600 string literals whose hashes share a bucket of the string table.
const LUA_CORPUS: &[(&str, &str, &str)] = &[
    ("plain loop", "local x = 0", "x = x + 1"),
    ("string.rep 1 MiB", "", "local s = string.rep('ab', 1 << 19)"),
    ("string.rep empty result", "", "string.rep('', 1000000)"),
    ("string.rep with separator", "", "string.rep('', 100000, 'x')"),
    ("string.sub of 1 MiB", "B = ('a'):rep(1 << 20)", "local s = B:sub(2)"),
    ("string.upper of 1 MiB", "B = ('a'):rep(1 << 20)", "local s = B:upper()"),
    ("string.lower of 1 MiB", "B = ('A'):rep(1 << 20)", "local s = B:lower()"),
    ("string.reverse of 1 MiB", "B = ('a'):rep(1 << 20)", "local s = B:reverse()"),
    ("string.len", "B = ('a'):rep(1 << 20)", "local n = B:len()"),
    ("string.byte 200 values", "B = ('a'):rep(1 << 20)", "string.byte(B, 1, 200)"),
    (
        "string.char 200 arguments",
        "C = {} for i = 1, 200 do C[i] = 65 end",
        "string.char(table.unpack(C))",
    ),
    ("string.format %s of 1 MiB", "B = ('a'):rep(1 << 20)", "string.format('%s', B)"),
    ("string.format %q of 64 KiB", "Q = ('\\0\\n'):rep(32768)", "string.format('%q', Q)"),
    (
        "string.format 200 x %.99f of 1e308",
        "F = ('%.99f'):rep(200) N = {} for i = 1, 200 do N[i] = 1e308 end",
        "string.format(F, table.unpack(N))",
    ),
    (
        "string.format 200 x %99d",
        "F = ('%99d'):rep(200) N = {} for i = 1, 200 do N[i] = i end",
        "string.format(F, table.unpack(N))",
    ),
    (
        "string.format 200 x %a",
        "F = ('%a'):rep(200) N = {} for i = 1, 200 do N[i] = i / 7 end",
        "string.format(F, table.unpack(N))",
    ),
    (
        "string.format 200 x %5s",
        "F = ('%5s'):rep(200) N = {} for i = 1, 200 do N[i] = 'x' end",
        "string.format(F, table.unpack(N))",
    ),
    ("string.format 4 x %d (the free conversions)", "", "string.format('%d%d%d%d', 1, 2, 3, 4)"),
    ("string.format %.8f of 1e8 (the free digits)", "", "string.format('%.8f', 1e8)"),
    ("string.format %.20f of 1e20", "", "string.format('%.20f', 1e20)"),
    ("string.pack c20000 padding", "", "string.pack('c20000', '')"),
    (
        "string.pack 200 x i8",
        "P = ('i8'):rep(200) N = {} for i = 1, 200 do N[i] = i end",
        "string.pack(P, table.unpack(N))",
    ),
    (
        "string.pack 200 x b Xi8 alignment",
        "P = ('!8 b Xi8'):rep(200) N = {} for i = 1, 200 do N[i] = 1 end",
        "string.pack(P, table.unpack(N))",
    ),
    ("string.packsize 10,000 items", "P = ('i8'):rep(10000)", "string.packsize(P)"),
    (
        "string.unpack 200 x i8",
        "P = ('i8'):rep(200) N = {} for i = 1, 200 do N[i] = i end D = string.pack(P, table.unpack(N))",
        "string.unpack(P, D)",
    ),
    ("tonumber of 1 MiB", "D = ('1'):rep(1 << 20)", "tonumber(D)"),
    ("tonumber base 36 of 1 MiB", "D = ('z'):rep(1 << 20)", "tonumber(D, 36)"),
    ("utf8.len of 1 MiB", "U = ('\\u{3b1}'):rep(1 << 19)", "utf8.len(U)"),
    ("utf8.offset across 1 MiB", "U = ('\\u{3b1}'):rep(1 << 19)", "utf8.offset(U, 1 << 19)"),
    ("utf8.codepoint 200 values", "U = ('\\u{3b1}'):rep(1 << 19)", "utf8.codepoint(U, 1, 400)"),
    (
        "utf8.char 200 arguments",
        "C = {} for i = 1, 200 do C[i] = 0x10FFFF end",
        "utf8.char(table.unpack(C))",
    ),
    ("utf8.codes", "U = ('\\u{10FFFF}'):rep(1000)", "for p, c in utf8.codes(U) do end"),
    (
        "table.concat 1000 strings",
        "T = {} for i = 1, 1000 do T[i] = 'abcdefgh' end",
        "table.concat(T)",
    ),
    ("table.concat 100,000 empty strings", "T = {} for i = 1, 100000 do T[i] = '' end", "table.concat(T)"),
    (
        "table.concat 1000 with 1 KiB separator",
        "T = {} for i = 1, 1000 do T[i] = '' end S = ('s'):rep(1024)",
        "table.concat(T, S)",
    ),
    ("table.unpack 10,000", "T = {} for i = 1, 10000 do T[i] = i end", "table.unpack(T)"),
    (
        "table.sort 1000 numbers",
        "R = {} for i = 1, 1000 do R[i] = (i * 7919) % 1000 end",
        "local t = {table.unpack(R)} table.sort(t)",
    ),
    (
        "table.sort 1000 with comparator",
        "R = {} for i = 1, 1000 do R[i] = (i * 7919) % 1000 end G = function(a, b) return a > b end",
        "local t = {table.unpack(R)} table.sort(t, G)",
    ),
    ("table.insert at the front", "T = {} for i = 1, 1000 do T[i] = i end", "table.insert(T, 1, 0) table.remove(T, 1)"),
    ("table.move 10,000", "T = {} for i = 1, 10000 do T[i] = i end", "table.move(T, 1, 10000, 2)"),
    ("string.find backtracking", "S = ('a'):rep(5000)", "string.find(S, '.-.-.-b')"),
    ("string.find plain, worst case", "S = ('a'):rep(1 << 16) P = ('a'):rep(1000) .. 'b'", "string.find(S, P, 1, true)"),
    ("string.match %b", "S = ('('):rep(5000)", "string.match(S, '%b()')"),
    ("string.match class [%a%d_]", "S = ('a'):rep(5000)", "string.match(S, '^[%a%d_%.%-]*$')"),
    ("string.gsub one char", "S = ('a'):rep(5000)", "string.gsub(S, 'a', 'bb')"),
    ("string.gsub with a function", "S = ('a'):rep(5000) G = function(c) return c end", "string.gsub(S, '%a', G)"),
    ("string.gsub %1 of 1 KiB captures", "S = ('a'):rep(1024) .. ';'", "string.gsub(S, '(a*);', '%1%1%1%1')"),
    ("string.gmatch", "S = ('ab '):rep(5000)", "for w in S:gmatch('%a+') do end"),
    ("string.find frontier %f", "S = ('ab '):rep(5000)", "string.find(S, '%f[%z]')"),
    (
        "hash chain: integer keys on one slot",
        "H = {} for j = 1, 10000 do H[j * 16383] = j end",
        "local v = H[16383 * 20000]",
    ),
    (
        "hash chain: float keys 1 + j*2^-52",
        "H = {} for j = 1, 10000 do H[1 + j * 2^-52] = j end",
        "local v = H[1 + 5000 * 2^-52]",
    ),
    (
        "table fill with colliding integer keys (rehash)",
        "",
        "local t = {} for j = 1, 1000 do t[j * 1023] = j end",
    ),
    ("table fill 10,000 (rehash)", "", "local t = {} for j = 1, 10000 do t[j] = j end"),
    (
        "600 strings in one bucket of the string table",
        "S = {@COLLIDING@}",
        "for i = 1, #S do local s = S[i]:sub(1, 4) .. S[i]:sub(5) end",
    ),
    (
        "next over a nearly empty hash part",
        "SP = {} for i = 1, 1 << 16 do SP['k' .. i] = true end for i = 1, (1 << 16) - 1 do SP['k' .. i] = nil end",
        "next(SP)",
    ),
    (
        "next over 2^20 hash slots, one key left",
        "SP = {} for i = 1, 1 << 20 do SP[i + 0.5] = true end for i = 2, 1 << 20 do SP[i + 0.5] = nil end",
        "next(SP, next(SP))",
    ),
    (
        "next over an emptied array of 2^20",
        "SA = {} for i = 1, 1 << 20 do SA[i] = true end for i = 1, (1 << 20) - 1 do SA[i] = nil end",
        "next(SA)",
    ),
    ("pairs over 10,000 keys", "T = {} for i = 1, 10000 do T['k' .. i] = i end", "for k, v in pairs(T) do end"),
    (
        "__index chain 1900 tables deep",
        "D = {} for i = 1, 1900 do D = setmetatable({}, {__index = D}) end",
        "local v = D.x",
    ),
    (
        "__newindex chain 1900 tables deep",
        "D = {} for i = 1, 1900 do D = setmetatable({}, {__newindex = D}) end",
        "D.x = 1",
    ),
    (
        "coroutine.resume and yield",
        "G = function() while true do coroutine.yield() end end CO = coroutine.create(G)",
        "if not coroutine.resume(CO) then CO = coroutine.create(G) end",
    ),
    ("coroutine.create", "G = function() end", "coroutine.create(G)"),
    ("load of a 64 KiB chunk", "C = ('x = 1 '):rep(10000)", "load(C)"),
    ("load of a chunk without end", "C = ('do '):rep(20000)", "load(C)"),
    (
        "load: names looked up through 40 levels of 190 locals",
        "local l = {} for i = 1, 190 do l[i] = 'a' .. i end \
         local decl = 'local ' .. table.concat(l, ',') .. ' = 1 ' \
         C = ('return function() ' .. decl):rep(40) .. 'return {' .. ('zz,'):rep(20000) .. '}' .. (' end'):rep(40)",
        "load(C)",
    ),
    (
        "load: a chain of 20,000 or",
        "C = 'return x' .. (' or x'):rep(20000)",
        "load(C)",
    ),
    (
        "load: 10,000 colliding integer constants",
        "local k = {} for j = 1, 10000 do k[j] = j * 16383 end C = 'return {' .. table.concat(k, ',') .. '}'",
        "load(C)",
    ),
    (
        "load: 10,000 float constants",
        "local k = {} for j = 1, 10000 do k[j] = string.format('%a', 1 + j * 2^-52) end \
         C = 'return {' .. table.concat(k, ',') .. '}'",
        "load(C)",
    ),
    ("compare two 1 MiB strings", "A = ('a'):rep(1 << 20) .. 'a' B = ('a'):rep(1 << 20) .. 'b'", "local c = A < B"),
    ("== of two 1 MiB strings", "A = ('a'):rep(1 << 20) .. 'a' B = ('a'):rep(1 << 20) .. 'b'", "local c = A == B"),
    ("coerce a 1 MiB numeric string", "D = ('1'):rep(1 << 20)", "local x = D + 0"),
    ("numeric for over a 1 MiB numeric string", "D = ('1'):rep(1 << 20)", "for i = D, 0 do end"),
    (
        "select('#', ...) over 100,000 arguments",
        "V = {} for i = 1, 100000 do V[i] = i end \
         function VA(...) while true do local n = select('#', ...) end end",
        "VA(table.unpack(V))",
    ),
    ("tostring of a table", "T = {}", "local s = tostring(T)"),
    ("'x' .. 12345 (a number formatted)", "", "local s = 'x' .. 12345"),
    (
        "fresh short strings, the old ones garbage",
        "T = {} N = 0",
        "N = N + 1 T[N % 100000 + 1] = 'x' .. N",
    ),
    ("fresh small tables, garbage at once", "", "local t = {}"),
    (
        "size-class churn past the heap's cap",
        "",
        "for len = 1, 480, 16 do local keep, pad = {}, ('p'):rep(len) \
         for i = 1, (8 << 20) // (len + 40) do keep[i] = pad .. i end end",
    ),
    ("a .. b of 1 MiB strings", "A = ('a'):rep(1 << 20)", "local s = A .. A"),
    ("a fresh 1 MiB string as a key", "A = ('a'):rep(1 << 20) T = {}", "local v = T[A .. 'x']"),
    (
        "a 1 MiB key equal to another object's",
        "A = ('a'):rep(1 << 20) T = {[A .. 'x'] = 1} K = A .. 'x'",
        "local v = T[K]",
    ),
    ("rawequal of two 1 MiB strings", "A = ('a'):rep(1 << 20) .. 'a' B = ('a'):rep(1 << 20) .. 'b'", "rawequal(A, B)"),
];

const WASM_CORPUS: &[&str] = &[
    "wasm_infinite_loop.wat",
    "wasm_memcopy_bomb.wat",
    "wasm_memfill_bomb.wat",
    "wasm_memcopy_small.wat",
    "wasm_memcopy_empty.wat",
    "wasm_log_spam.wat",
];

/// WASI commands (legacy bots): (name, `_start`'s body, with `$write` imported and 64 MiB of
/// memory, all zero: every iovec there is an empty one).
const WASI_CORPUS: &[(&str, &str)] = &[
    (
        "fd_write of 1024 empty iovecs",
        "(loop (drop (call $write (i32.const 1) (i32.const 0) (i32.const 1024) (i32.const 0))) (br 0))",
    ),
    (
        "fd_write of 8 million empty iovecs (EINVAL)",
        "(loop (drop (call $write (i32.const 1) (i32.const 0) (i32.const 8000000) (i32.const 0))) (br 0))",
    ),
];

const RUNS: usize = 3;

/// Median ns per unit of fuel of one bot's `act` over [`RUNS`] decisions, with the verdict and
/// fuel of the last one.
fn measure(sandbox: &Sandbox, name: &str, kind: Kind, source: &[u8]) -> (f64, String, u64) {
    let program = sandbox.load(name, kind, source).unwrap_or_else(|f| panic!("{name}: {f:?}"));
    let limits = Limits {
        fuel_init: 1 << 40,
        fuel_per_match: u64::MAX / 4,
        wall_per_decision: Duration::from_secs(3),
        ..Limits::default_for(kind)
    };
    let mut instance =
        program.start(&limits, 1, "{}").unwrap_or_else(|f| panic!("{name}: start: {}", f.message));
    let mut per_fuel = Vec::new();
    let mut last = (String::new(), 0);
    for _ in 0..RUNS {
        let t = Instant::now();
        let result = instance.act("{}");
        let elapsed = t.elapsed();
        let (verdict, fuel) = match result {
            Ok(_) => ("reply".to_string(), instance.fuel_used_last()),
            Err(f) => (f.verdict.as_str().to_string(), f.fuel_used),
        };
        per_fuel.push(elapsed.as_nanos() as f64 / fuel.max(1) as f64);
        last = (verdict, fuel);
    }
    per_fuel.sort_by(f64::total_cmp);
    (per_fuel[RUNS / 2], last.0, last.1)
}

/// [`measure`] for a WASI command: [`RUNS`] runs of `_start`.
fn measure_wasi(sandbox: &Sandbox, name: &str, source: &[u8]) -> (f64, String, u64) {
    let program = sandbox.load_stdio(name, source).unwrap_or_else(|f| panic!("{name}: {f:?}"));
    let limits =
        Limits { fuel_per_match: u64::MAX / 4, wall_per_decision: Duration::from_secs(3), ..Limits::WASM };
    let mut instance = program.start(&limits, 1);
    let mut per_fuel = Vec::new();
    let mut last = (String::new(), 0);
    for _ in 0..RUNS {
        let t = Instant::now();
        let result = instance.run(b"");
        let elapsed = t.elapsed();
        let (verdict, fuel) = match result {
            Ok(_) => ("reply".to_string(), instance.fuel_used_last()),
            Err(f) => (f.verdict.as_str().to_string(), f.fuel_used),
        };
        per_fuel.push(elapsed.as_nanos() as f64 / fuel.max(1) as f64);
        last = (verdict, fuel);
    }
    per_fuel.sort_by(f64::total_cmp);
    (per_fuel[RUNS / 2], last.0, last.1)
}

fn summary(kind: &str, rows: &[(String, f64)]) {
    if rows.is_empty() {
        return;
    }
    let mean = rows.iter().map(|r| r.1).sum::<f64>() / rows.len() as f64;
    let worst = rows.iter().max_by(|a, b| a.1.total_cmp(&b.1)).expect("rows");
    println!(
        "{kind}: {} snippets, mean {mean:.2} ns/fuel, worst {:.2} ({}), worst/mean {:.1}",
        rows.len(),
        worst.1,
        worst.0,
        worst.1 / mean
    );
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let sandbox = Sandbox::new().expect("sandbox");
    println!("| snippet | verdict | fuel | ns per fuel |");
    println!("|---|---|---|---|");
    let mut lua = Vec::new();
    let colliding: Vec<String> =
        sandbox::colliding_lua_strings(600).iter().map(|s| format!("'{s}'")).collect();
    let colliding = colliding.join(", ");
    for (name, setup, body) in LUA_CORPUS.iter().filter(|c| c.0.contains(filter.as_str())) {
        let setup = setup.replace("@COLLIDING@", &colliding);
        let source = format!("{setup}\nfunction act(obs)\n  while true do\n    {body}\n  end\nend\n");
        let (ns, verdict, fuel) = measure(&sandbox, name, Kind::Lua, source.as_bytes());
        println!("| Lua: {name} | {verdict} | {fuel} | {ns:.2} |");
        lua.push((name.to_string(), ns));
    }
    let mut wasm = Vec::new();
    let bots = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/");
    for file in WASM_CORPUS.iter().filter(|f| f.contains(filter.as_str())) {
        let source = std::fs::read(format!("{bots}{file}")).expect("a bot of the hostile suite");
        let (ns, verdict, fuel) = measure(&sandbox, file, Kind::Wasm, &source);
        println!("| WASM: {file} | {verdict} | {fuel} | {ns:.3} |");
        wasm.push((file.to_string(), ns));
    }
    for (name, body) in WASI_CORPUS.iter().filter(|c| c.0.contains(filter.as_str())) {
        let source = format!(
            r#"(module
              (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
              (memory (export "memory") 1024)
              (func (export "_start") {body}))"#
        );
        let (ns, verdict, fuel) = measure_wasi(&sandbox, name, source.as_bytes());
        println!("| WASI: {name} | {verdict} | {fuel} | {ns:.3} |");
        wasm.push((format!("WASI {name}"), ns));
    }
    println!();
    summary("Lua", &lua);
    summary("WASM (and WASI)", &wasm);
}
