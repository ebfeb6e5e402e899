//! JavaScript bots from a small grammar: loops with extreme bounds, recursion, string, array,
//! regular-expression, JSON and BigInt calls with extreme arguments, try/catch, closures kept in
//! globals, `eval`/`Function`, getters, proxies, promises and prototype pollution, run through
//! load, start and two decisions.

use cardarena_sandbox::{Kind, Limits};

use super::gen::{json_literal, Gen};
use super::sandbox;

/// The limits every generated bot runs under: small budgets so that a case stays short.
pub fn limits() -> Limits {
    Limits {
        fuel_per_decision: 40_000_000,
        fuel_per_match: 60_000_000,
        fuel_init: 40_000_000,
        memory_bytes: 32 << 20,
        ..Limits::JS
    }
}

pub fn input(seed: u64) -> Vec<u8> {
    program(&mut Gen::new(seed)).into_bytes()
}

/// How far a case got (`sandbox::coverage`).
pub fn coverage(summary: &str) -> Vec<String> {
    sandbox::coverage(summary, limits().memory_bytes)
}

/// One case: the generated source through load, start and two decisions.
pub fn case(seed: u64) -> Result<String, String> {
    let run = sandbox::run(Kind::Js, "fuzz.js", &input(seed), &limits())?;
    run.no_load_in_a_decision()?;
    Ok(run.summary)
}

const GLOBALS: &[&str] = &["g1", "g2", "t1", "f1"];

fn int(g: &mut Gen) -> String {
    format!("({})", g.extreme_int())
}

fn count(g: &mut Gen) -> String {
    match g.below(4) {
        0 => g.below(4).to_string(),
        1 => (10 + g.below(300)).to_string(),
        2 => g.pick(&["1e6", "2**31", "2**40", "1e100", "-1", "Infinity", "NaN"]).to_string(),
        _ => int(g),
    }
}

const REGEXES: &[&str] = &[
    "/(a+)+$/",
    "/(.*)*b/",
    "/\\b\\w+\\b/g",
    "/(?<=a)b/",
    "/[\\u{1F600}-\\u{1F64F}]/u",
    "/(x|xx)+y/",
    "/^$/m",
];

fn expr(g: &mut Gen, d: usize) -> String {
    if d == 0 {
        return match g.below(7) {
            0 => int(g),
            1 => json_literal(&g.weird_text(6)),
            2 => format!("obs.legal[{}]", g.pick(&["0", "obs.legal.length - 1", "-1", "99"])),
            3 => (*g.pick(GLOBALS)).to_string(),
            4 => g
                .pick(&["null", "undefined", "true", "{}", "[]", "obs", "obs.phase", "NaN", "-0"])
                .to_string(),
            5 => format!("{}n", g.extreme_int()),
            _ => count(g),
        };
    }
    let d = d - 1;
    let a = expr(g, d);
    match g.below(16) {
        0 | 1 => {
            let op =
                g.pick(&["+", "-", "*", "/", "%", "**", "==", "<", "&", "|", "^", "<<", ">>>", "&&", "??"]);
            format!("({a} {op} {})", expr(g, d))
        }
        2 => format!("String({a}).repeat({})", count(g)),
        3 => format!("String({a}).padStart({}, {})", count(g), expr(g, d)),
        4 => format!("{}.test(String({a}).repeat({}))", g.pick(REGEXES), g.below(40)),
        5 => format!("String({a}).replace({}, '$&$&')", g.pick(REGEXES)),
        6 => format!("JSON.parse({})", json_literal(&g.weird_text(8))),
        7 => format!("JSON.stringify({a})"),
        8 => format!("new Array({}).fill({a}).length", count(g)),
        9 => format!("[{a}, {}].sort(() => {})", expr(g, d), int(g)),
        10 => format!("rec({})", count(g)),
        11 => format!("(() => {{ try {{ return {a}; }} catch (e) {{ return String(e); }} }})()"),
        12 => format!("eval({})", json_literal(&expr(g, d))),
        13 => format!("new Function('x', {})({a})", json_literal(&format!("return {}", expr(g, d)))),
        14 => format!("BigInt.asUintN({}, BigInt({}))", g.below(200), g.extreme_int()),
        _ => format!("new Proxy({{}}, {{ get: () => {a} }}).x"),
    }
}

fn statement(g: &mut Gen, d: usize) -> String {
    let target = *g.pick(GLOBALS);
    match g.below(10) {
        0..=2 => format!("{target} = {};", expr(g, d)),
        3 => format!("for (let i = 0; i < {}; i++) {{ {target} = {}; }}", count(g), expr(g, d)),
        4 => format!("while ({}) {{ break; }}", expr(g, d)),
        5 => format!("try {{ {} }} catch (e) {{ {target} = e; }}", statement(g, d.saturating_sub(1))),
        6 => format!(
            "Object.prototype.{} = {};",
            g.pick(&["legal", "phase", "toString", "length"]),
            expr(g, d)
        ),
        7 => format!("f1 = () => {};", expr(g, d)),
        8 => format!("Promise.resolve({}).then(v => {{ {target} = v; }});", expr(g, d)),
        _ => format!("console.log({}, {});", expr(g, d), expr(g, d)),
    }
}

fn program(g: &mut Gen) -> String {
    let mut out = String::from("let g1 = 0, g2 = '', t1 = [], f1 = () => 1;\n");
    out.push_str("function rec(n) { return n > 0 ? rec(n - 1) + 1 : 0; }\n");
    for _ in 0..g.below(4) {
        // Mostly protected: an uncaught error at the top level refuses the bot at load.
        if g.one_in(6) {
            out.push_str(&format!("{}\n", statement(g, 2)));
        } else {
            out.push_str(&format!("try {{ {} }} catch (e) {{}}\n", statement(g, 2)));
        }
    }
    if !g.one_in(10) {
        out.push_str("function init(info) {\n");
        for _ in 0..g.below(3) {
            out.push_str(&format!("  try {{ {} }} catch (e) {{}}\n", statement(g, 2)));
        }
        out.push_str("}\n");
    }
    let name = if g.one_in(12) { "Act" } else { "act" };
    out.push_str(&format!("function {name}(obs) {{\n"));
    for _ in 0..1 + g.below(4) {
        if g.one_in(2) {
            out.push_str(&format!("  try {{ {} }} catch (e) {{}}\n", statement(g, 3)));
        } else {
            out.push_str(&format!("  {}\n", statement(g, 3)));
        }
    }
    let reply = match g.below(6) {
        0 => expr(g, 2),
        _ => "obs.legal[0]".to_string(),
    };
    out.push_str(&format!("  return {reply};\n}}\n"));
    out
}
