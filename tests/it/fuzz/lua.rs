//! Lua bots from a small grammar: loops with extreme bounds, recursion, metatables with every
//! event, string and table library calls with extreme arguments, pcall/error, coroutines and
//! `load`, run through load, start and two decisions.

use cardarena_sandbox::{Kind, Limits};

use super::gen::Gen;
use super::sandbox;

/// The limits every generated bot runs under: small budgets so that a case stays short.
pub fn limits() -> Limits {
    Limits {
        fuel_per_decision: 2_000_000,
        fuel_per_match: 3_000_000,
        fuel_init: 2_000_000,
        memory_bytes: 32 << 20,
        ..Limits::LUA
    }
}

pub fn input(seed: u64) -> Vec<u8> {
    program(&mut Gen::new(seed)).into_bytes()
}

/// One case: the generated source through load, start and two decisions.
/// How far a case got (`sandbox::coverage`).
pub fn coverage(summary: &str) -> Vec<String> {
    sandbox::coverage(summary, limits().memory_bytes)
}

pub fn case(seed: u64) -> Result<String, String> {
    let source = input(seed);
    run_source(&source)
}

pub fn run_source(source: &[u8]) -> Result<String, String> {
    let run = sandbox::run(Kind::Lua, "fuzz.lua", source, &limits())?;
    run.no_load_in_a_decision()?;
    Ok(run.summary)
}

const GLOBALS: &[&str] = &["g1", "g2", "g3", "t1", "t2", "co"];

/// A Lua string literal for any bytes.
fn lua_str(s: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in s {
        if b.is_ascii_alphanumeric() || b == b' ' || b == b'%' || b == b'.' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\{b:03}"));
        }
    }
    out.push('"');
    out
}

fn int(g: &mut Gen) -> String {
    match g.extreme_int() {
        i64::MIN => "math.mininteger".to_string(),
        i => i.to_string(),
    }
}

fn number(g: &mut Gen) -> String {
    match g.below(6) {
        0 => g
            .pick(&["math.huge", "-math.huge", "(0/0)", "-0.0", "1e308", "2^53", "2^63", "0.5", "-1.5"])
            .to_string(),
        _ => int(g),
    }
}

/// A count for loops and repetitions: small, large, or absurd.
fn count(g: &mut Gen) -> String {
    match g.below(5) {
        0 => g.below(4).to_string(),
        1 => (10 + g.below(200)).to_string(),
        2 => {
            g.pick(&["1e6", "2^31", "2^40", "math.maxinteger", "1e100", "-1", "math.mininteger"]).to_string()
        }
        _ => int(g),
    }
}

const PATTERNS: &[&str] = &[
    "(.-)(.-)(.-)(.-)x",
    "%f[%w]%w+",
    "%b()",
    "[^",
    "%",
    "(",
    "%1",
    "((((((((((.))))))))))",
    "a*a*a*a*a*b",
    ".-.-.-.-.-$",
    "[%a-z]",
    "%g+",
    "()",
    "^(.*)$",
    "[]]",
    "%z",
    "(%d+)%.(%d*)",
    "%u%l*",
];

const FORMATS: &[&str] = &[
    "%d", "%99d", "%.99f", "%q", "%a", "%5s", "%s%s%s", "%x", "%c", "%g", "%-99s", "%i", "%", "%10.3q", "%o",
];

fn string_call(g: &mut Gen, d: usize) -> String {
    let s = expr(g, d);
    match g.below(16) {
        0 => format!("string.rep({s}, {}, {})", count(g), expr(g, d)),
        1 => format!("string.format({}, {s}, {})", lua_str(g.pick(FORMATS).as_bytes()), expr(g, d)),
        2 => format!("string.sub({s}, {}, {})", int(g), int(g)),
        3 => format!("string.byte({s}, {}, {})", int(g), int(g)),
        4 => format!("string.char({}, {})", int(g), g.below(256)),
        5 => {
            format!("string.find({s}, {}, {}, {})", lua_str(g.pick(PATTERNS).as_bytes()), int(g), expr(g, d))
        }
        6 => format!(
            "string.match(string.rep(\"ab(\", {}), {})",
            g.below(300),
            lua_str(g.pick(PATTERNS).as_bytes())
        ),
        7 => format!(
            "string.gsub({s}, {}, {}, {})",
            lua_str(g.pick(PATTERNS).as_bytes()),
            g.pick(&["\"%0%0\"", "\"%9\"", "{}", "function(x) return x .. x end", "\"%\""]),
            count(g)
        ),
        8 => format!("select('#', string.gmatch({s}, {})())", lua_str(g.pick(PATTERNS).as_bytes())),
        9 => format!("tostring({s}):upper():reverse():lower()"),
        10 => format!("utf8.char({}, {})", int(g), g.below(0x110000)),
        11 => format!("utf8.len({s}, {}, {})", int(g), int(g)),
        12 => format!("tonumber({s}, {})", g.pick(&["2", "36", "37", "1", "10", "16"])),
        13 => format!("table.concat({{{s}, {}}}, {}, {}, {})", expr(g, d), expr(g, d), int(g), int(g)),
        14 => format!("select({}, table.unpack({{1, 2, 3}}, {}, {}))", int(g), int(g), count(g)),
        _ => format!("utf8.codepoint({s}, {}, {})", int(g), int(g)),
    }
}

fn expr(g: &mut Gen, d: usize) -> String {
    if d == 0 {
        return match g.below(7) {
            0 => number(g),
            1 => lua_str(g.weird_text(6).as_bytes()),
            2 => format!("obs.legal[{}]", g.pick(&["1", "#obs.legal", "0", "99"])),
            3 => (*g.pick(GLOBALS)).to_string(),
            4 => g.pick(&["nil", "true", "false", "{}", "obs", "obs.phase", "#obs.legal"]).to_string(),
            _ => int(g),
        };
    }
    let d = d - 1;
    match g.below(12) {
        0 | 1 => {
            let op = g.pick(&[
                "+", "-", "*", "/", "//", "%", "^", "..", "==", "<", "<=", "&", "|", "~", "<<", ">>", "and",
                "or",
            ]);
            format!("({} {op} {})", expr(g, d), expr(g, d))
        }
        2 => format!("({}{})", g.pick(&["-", "not ", "#", "~"]), expr(g, d)),
        3 | 4 => string_call(g, d),
        5 => format!("{{{}, {}, k = {}}}", expr(g, d), expr(g, d), expr(g, d)),
        6 => format!("(function(...) return {}, ... end)({})", expr(g, d), expr(g, d)),
        7 => format!(
            "select(2, pcall({}, {}))",
            g.pick(&["string.rep", "error", "tostring", "rec", "t1", "coroutine.wrap"]),
            expr(g, d)
        ),
        8 => format!("rec({})", count(g)),
        9 => format!(
            "math.{}",
            match g.below(5) {
                0 => format!("random({}, {})", int(g), int(g)),
                1 => format!("tointeger({})", expr(g, d)),
                2 => format!("fmod({}, {})", number(g), number(g)),
                3 => format!("floor({})", number(g)),
                _ => format!("ult({}, {})", int(g), int(g)),
            }
        ),
        10 => format!("tostring({})", expr(g, d)),
        _ => expr(g, 0),
    }
}

/// `n` statements, half of them in a `pcall` so that an error does not end the rest.
fn block(g: &mut Gen, d: usize, n: usize) -> String {
    (0..n)
        .map(|_| {
            let s = stmt(g, d);
            if g.one_in(2) {
                format!("pcall(function() {s} end)")
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn stmt(g: &mut Gen, d: usize) -> String {
    let inner = d.saturating_sub(1);
    let n = 1 + g.below(3);
    match g.below(if d == 0 { 4 } else { 16 }) {
        0 => format!("{} = {}", g.pick(&["g1", "g2", "g3"]), expr(g, 2)),
        1 => format!("print({})", expr(g, 2)),
        2 => format!("t1[{}] = {}", expr(g, 1), expr(g, 1)),
        3 => format!("local x = {} ; g1 = x", expr(g, 2)),
        4 => format!(
            "for i = {}, {}, {} do {} end",
            int(g),
            count(g),
            g.pick(&["1", "-1", "2^40", "0.5", "0"]),
            block(g, inner, n)
        ),
        5 => format!("local n = 0 while n < {} do n = n + 1 {} end", count(g), block(g, inner, n)),
        6 => format!("pcall(function() {} end)", block(g, inner, n)),
        7 => format!(
            "xpcall(function() {} end, function(e) {} return e end)",
            block(g, inner, n),
            block(g, inner, 1)
        ),
        8 => format!("if {} then {} else {} end", expr(g, 1), block(g, inner, n), block(g, inner, 1)),
        9 => format!("error({}, {})", expr(g, 1), g.pick(&["0", "1", "2", "99", "-1"])),
        10 => format!(
            "co = coroutine.create(function(a) {} coroutine.yield({}) {} end) \
             for _ = 1, {} do coroutine.resume(co, {}) end",
            block(g, inner, n),
            expr(g, 1),
            block(g, inner, 1),
            1 + g.below(4),
            expr(g, 1)
        ),
        11 => format!(
            "local w = coroutine.wrap(function() {} end) pcall(w) pcall(w) {}",
            block(g, inner, n),
            g.pick(&["", "coroutine.close(co)", "g1 = coroutine.status(co)", "g2 = coroutine.isyieldable()"])
        ),
        12 => format!(
            "local f = load({}, {}, {}, {}) if f then pcall(f) end",
            match g.below(3) {
                0 => lua_str(stmt(g, inner).as_bytes()),
                1 => format!("\"return \" .. tostring({})", expr(g, 1)),
                _ =>
                    format!("function() g3 = (g3 or 0) + 1 if g3 < {} then return \"x=1 \" end end", count(g)),
            },
            lua_str(g.weird_text(3).as_bytes()),
            g.pick(&["\"t\"", "\"b\"", "\"bt\"", "nil", "\"x\""]),
            g.pick(&["nil", "{}", "_ENV", "t1"])
        ),
        13 => format!(
            "t2 = setmetatable({{}}, {{{} = function(...) {} return {} end}}) pcall(function() g2 = {} end)",
            g.pick(&[
                "__index",
                "__newindex",
                "__add",
                "__concat",
                "__len",
                "__eq",
                "__lt",
                "__le",
                "__call",
                "__tostring",
                "__gc",
                "__close",
                "__unm",
                "__mode",
                "__name",
                "__idiv",
                "__close",
                "__metatable"
            ]),
            block(g, inner, 1),
            expr(g, 1),
            g.pick(&[
                "t2.x",
                "t2 + 1",
                "t2 .. \"s\"",
                "#t2",
                "t2 == t1",
                "t2 < t1",
                "t2()",
                "tostring(t2)",
                "-t2",
                "t2 // 2",
                "getmetatable(t2)"
            ])
        ),
        14 => format!(
            "table.sort(t1, function(a, b) {} return {} end)",
            block(g, inner, 1),
            g.pick(&["true", "false", "a ~= b", "tostring(a) < tostring(b)"])
        ),
        _ => format!(
            "{}({}, {}, {})",
            g.pick(&[
                "table.insert",
                "table.remove",
                "table.move",
                "rawset",
                "rawget",
                "next",
                "select",
                "collectgarbage",
                "ipairs",
                "setmetatable"
            ]),
            g.pick(&["t1", "t2", "{}", "g1"]),
            expr(g, 1),
            expr(g, 1)
        ),
    }
}

/// A size in bytes near the bot's memory cap (32 MiB), below it, at it, or far past it.
fn size(g: &mut Gen) -> u64 {
    let mib = *g.pick(&[1, 4, 8, 12, 15, 16, 20, 24, 28, 30, 31, 32, 33, 40, 64, 1 << 20]);
    let jitter = if g.one_in(2) { g.below(1 << 20) as u64 } else { 0 };
    (mib << 20) - jitter
}

/// A statement that takes memory toward or past the cap: one big string (`string.rep`, doubling
/// concatenation, copies by library calls), tables that grow (array or hash part), `table.concat`
/// of them, coroutines that hold what they allocated, memory kept across decisions, and garbage
/// made next to a big live block (weak tables, churn), so that the collector's emergency
/// collection at the cap has something to free. (The sandbox leaves out `collectgarbage` and
/// refuses `__gc`; now and then a statement tries them.) Pieces are large, so that the fuel of
/// the repetitions does not run out long before the memory.
fn memory_stmt(g: &mut Gen) -> String {
    let size = size(g);
    let piece = *g.pick(&[16u64, 1024, 4096, 65_536, 1 << 20]);
    let reps = (size / piece).max(1);
    let p = format!("string.rep(\"ab\", {})", (piece / 2).max(1));
    match g.below(10) {
        0 => format!("g2 = string.rep({p}, {reps})"),
        1 => format!(
            "local s = \"x\" .. {} while #s < {size} do s = s .. s end g2 = s",
            lua_str(g.weird_text(4).as_bytes())
        ),
        2 => format!("local t = {{}} for i = 1, {reps} do t[i] = {p} .. i end t1 = t"),
        3 => format!(
            "local t = {{}} for i = 1, {} do t[{}] = {} end g3 = t",
            size / 256,
            g.pick(&["\"k\" .. i", "i", "i * 2^20", "-i", "i + 0.5"]),
            g.pick(&["i", "{}", "{i}", "true"])
        ),
        4 => format!(
            "local t = {{}} for i = 1, {reps} do t[i] = {p} end g2 = table.concat(t, {})",
            g.pick(&["\"\"", "\",\"", "string.rep(\"-\", 4096)"])
        ),
        5 => format!(
            "hold = hold or {{}} for i = 1, {} do local c = coroutine.{}(function() local s = string.rep({p}, {}) .. i \
             coroutine.yield(#s) return s end) {} hold[#hold + 1] = c end",
            1 + g.below(40),
            g.pick(&["create", "create", "wrap"]),
            (reps / 8).max(1),
            g.pick(&["pcall(coroutine.resume, c)", "pcall(c)", "pcall(coroutine.close, c)"])
        ),
        6 => format!(
            "local w = setmetatable({{}}, {{__mode = {}}}) for i = 1, {} do w[{}] = {p} .. i end g3 = w",
            g.pick(&["\"k\"", "\"v\"", "\"kv\""]),
            reps.min(1 << 16),
            g.pick(&["{}", "i", "tostring(i)"]),
        ),
        7 => format!(
            "local keep = string.rep({p}, {reps}) for i = 1, {} do local tmp = {} end g2 = keep",
            1 + g.below(5000),
            g.pick(&["keep:sub(1, 65536) .. i", "{i, i, i}", "string.rep(\"z\", 4096) .. i", "tostring(i):rep(100)"])
        ),
        8 => format!("t2.keep = rawget(t2, \"keep\") or {{}} t2.keep[#t2.keep + 1] = string.rep({p}, {})", (reps / 3).max(1)),
        _ => match g.below(10) {
            0 => "collectgarbage()".to_string(),
            1 => "setmetatable({}, {__gc = function() g2 = string.rep(\"r\", 1e6) end})".to_string(),
            _ => format!(
                "local big = string.rep({p}, {reps}) g2 = {}",
                g.pick(&[
                    "big .. big",
                    "big:upper()",
                    "big:reverse()",
                    "string.format(\"%s%s\", big, big)",
                    "string.rep(big, 2, big)",
                    "(big:gsub(\"a\", \"aa\"))",
                    "{big:byte(1, -1)}",
                    "select(2, pcall(string.rep, big, 1e6))",
                    "big:sub(2) .. big:sub(1, 1)",
                ])
            ),
        },
    }
}

/// A whole bot: helpers, top-level code, `init` sometimes, and `act`.
pub fn program(g: &mut Gen) -> String {
    let mut out = String::from(
        "g1, g2, g3 = 0, \"\", nil\nt1 = {1, 2, 3, \"x\"}\nt2 = {}\nlocal obs = {legal = {\"a\"}, phase = \"top\"}\n\
         local function rec(n) if type(n) ~= \"number\" or n <= 0 then return 0 end return rec(n - 1) + 1 end\n\
         _G.rec = rec\n",
    );
    let top = out.len();
    if g.one_in(4) {
        out.push_str(&format!(
            "setmetatable(t1, {{__index = function(t, k) {} return k end, __len = function() return {} end}})\n",
            block(g, 1, 1),
            int(g)
        ));
    }
    let n = g.below(3);
    out.push_str(&block(g, 2, n));
    out.push('\n');
    if g.one_in(3) {
        let n = 1 + g.below(2);
        out.push_str(&format!("function init(info) {} end\n", block(g, 2, n)));
    }
    let n = 1 + g.below(4);
    let body = block(g, 3, n);
    let mut body = if g.one_in(2) { format!("pcall(function()\n{body}\nend)") } else { body };
    // Half the cases push memory: at the top (before the statements that may fail), in `init`
    // or first in `act`; caught now and then.
    if g.one_in(2) {
        let m: String = (0..1 + g.below(3))
            .map(|_| {
                let s = memory_stmt(g);
                if g.one_in(4) {
                    format!("pcall(function() {s} end)\n")
                } else {
                    s + "\n"
                }
            })
            .collect();
        match g.below(4) {
            0 => out.insert_str(top, &m),
            1 => out.push_str(&format!("function init(info) {m} end\n")),
            _ => body = m + &body,
        }
    }
    let reply = match g.below(10) {
        0 => expr(g, 2),
        1 => "obs.legal[#obs.legal]".to_string(),
        _ => "obs.legal[1]".to_string(),
    };
    out.push_str(&format!("function act(obs)\n{body}\nreturn {reply}\nend\n"));
    if g.one_in(20) {
        // A syntax error somewhere, as an upload may have.
        let at = g.below(out.len());
        let at = (0..=at).rev().find(|&i| out.is_char_boundary(i)).unwrap_or(0);
        const JUNK: [&str; 7] = ["end", "(", "]]", "local", "\"", "--[[", "goto x"];
        let junk = JUNK[g.below(JUNK.len())];
        out.insert_str(at, junk);
    }
    out
}
