//! Python bots from a small grammar: loops with extreme bounds, recursion, big integers, string
//! and list repetition, backtracking regular expressions, `json` of awkward text, `collections`,
//! `itertools` and `functools` calls with extreme arguments, generators and closures kept in
//! globals, `try`/`except` that swallows everything, `eval`/`exec` of generated code, reaching for
//! the host (`__import__`, `open`, `__subclasses__`), changes to the observation, `print`; run
//! through load, start and two decisions.

use cardarena_sandbox::{Kind, Limits};

use super::gen::{json_literal, Gen};
use super::sandbox;

/// The limits every generated bot runs under: small budgets so that a case stays short (the
/// interpreter's own heap is 16 MiB of the cap).
pub fn limits() -> Limits {
    Limits {
        fuel_per_decision: 100_000_000,
        fuel_per_match: 150_000_000,
        fuel_init: 100_000_000,
        memory_bytes: 48 << 20,
        ..Limits::PYTHON
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
    let run = sandbox::run(Kind::Python, "fuzz.py", &input(seed), &limits())?;
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
        2 => g.pick(&["10 ** 6", "2 ** 31", "2 ** 40", "10 ** 100", "-1", "True", "1e9"]).to_string(),
        _ => int(g),
    }
}

const REGEXES: &[&str] = &[
    r"r'(a+)+$'",
    r"r'(.*)*b'",
    r"r'\b\w+\b'",
    r"r'(?<=a)b'",
    r"r'(x|xx)+y'",
    r"r'^$'",
    r"r'(?P<n>a)(?P=n)*'",
    r"'['",
];

const HOSTILE: &[&str] = &[
    "__import__('os')",
    "open('/etc/passwd').read()",
    "().__class__.__base__.__subclasses__()",
    "globals()",
    "vars()",
    "type('T', (), {'__eq__': lambda a, b: True})()",
    "getattr(obs, 'legal')",
    "dir(__builtins__)",
    "compile('1 +', 'x', 'eval')",
    "input()",
];

fn expr(g: &mut Gen, d: usize) -> String {
    if d == 0 {
        return match g.below(7) {
            0 => int(g),
            1 => json_literal(&g.weird_text(6)),
            2 => format!("obs['legal'][{}]", g.pick(&["0", "len(obs['legal']) - 1", "-1", "99"])),
            3 => (*g.pick(GLOBALS)).to_string(),
            4 => g
                .pick(&[
                    "None",
                    "True",
                    "{}",
                    "[]",
                    "obs",
                    "obs.get('phase')",
                    "float('nan')",
                    "-0.0",
                    "f1()",
                ])
                .to_string(),
            5 => format!("{}.0", g.extreme_int()),
            _ => count(g),
        };
    }
    let d = d - 1;
    let a = expr(g, d);
    match g.below(18) {
        0 | 1 => {
            let op = g.pick(&[
                "+", "-", "*", "/", "//", "%", "**", "==", "<", "&", "|", "^", "<<", ">>", "and", "or", "in",
            ]);
            format!("({a} {op} {})", expr(g, d))
        }
        2 => format!("str({a}) * {}", count(g)),
        3 => format!("str({a}).rjust({}, {})", count(g), json_literal(&g.weird_text(1))),
        4 => format!("re.match({}, str({a}) * {})", g.pick(REGEXES), g.below(40)),
        5 => format!("re.sub({}, r'\\g<0>\\g<0>', str({a}))", g.pick(REGEXES)),
        6 => format!("json.loads({})", json_literal(&g.weird_text(8))),
        7 => format!("json.dumps({a})"),
        8 => format!("len([{a}] * {})", count(g)),
        9 => format!("sorted([{a}, {}], key=lambda x: {})", expr(g, d), expr(g, d)),
        10 => format!("rec({})", count(g)),
        11 => format!("safe(lambda: {a})"),
        12 => format!("eval({})", json_literal(&expr(g, d))),
        13 => format!("pow({a}, {}, {})", count(g), int(g)),
        14 => {
            let n = count(g);
            let calls = [
                format!("collections.Counter(str({a})).most_common(1)"),
                format!("list(itertools.islice(itertools.count(), {n}))"),
                format!("sum(x for x in range({n}))"),
                format!("functools.reduce(lambda x, y: x * y + 1, range({n}), 1)"),
                format!("heapq.nlargest(2, list(str({a})))"),
                format!("list(itertools.permutations(range({n}), 2))[:3]"),
            ];
            g.pick(&calls).clone()
        }
        15 => format!("safe(lambda: {})", g.pick(HOSTILE)),
        16 => format!("(lambda s: s.pop() if s else {a})({{{a}, {}}})", expr(g, d)),
        _ => format!("math.{}({a})", g.pick(&["sqrt", "factorial", "log", "floor", "isqrt", "exp"])),
    }
}

/// One statement as lines, each indented by `pad`.
fn statement(g: &mut Gen, d: usize, pad: &str) -> String {
    let target = *g.pick(GLOBALS);
    let inner = format!("{pad}    ");
    match g.below(12) {
        0..=2 => format!("{pad}{target} = {}\n", expr(g, d)),
        3 => format!("{pad}for i in range({}):\n{inner}{target} = {}\n", count(g), expr(g, d)),
        4 => format!("{pad}while {}:\n{inner}break\n", expr(g, d)),
        5 => format!(
            "{pad}try:\n{}{pad}except Exception as e:\n{inner}{target} = e\n",
            statement(g, d.saturating_sub(1), &inner)
        ),
        6 => {
            let key = *g.pick(&["legal", "phase", "seat", "x"]);
            format!("{pad}obs[{}] = {}\n", json_literal(key), expr(g, d))
        }
        7 => format!("{pad}f1 = lambda: {}\n", expr(g, d)),
        8 => format!("{pad}t1.append({})\n", expr(g, d)),
        9 => format!("{pad}g2 = (x for x in range({}))\n{pad}g1 = next(g2, None)\n", count(g)),
        10 => format!("{pad}exec({})\n", json_literal(&format!("g = {}", expr(g, d)))),
        _ => format!("{pad}print({}, {})\n", expr(g, d), expr(g, d)),
    }
}

fn program(g: &mut Gen) -> String {
    let mut out = String::from(
        "import math, random, json, re, collections, itertools, functools, heapq\n\
         g1, g2, t1, f1 = 0, '', [], lambda: 1\n\
         obs = {'legal': ['1']}\n\n\
         def rec(n):\n    return rec(n - 1) + 1 if n > 0 else 0\n\n\
         def safe(f):\n    try:\n        return f()\n    except Exception as e:\n        return repr(e)\n\n",
    );
    for _ in 0..g.below(4) {
        // Mostly protected: an uncaught error at the top level refuses the bot at load.
        if g.one_in(6) {
            out.push_str(&statement(g, 2, ""));
        } else {
            out.push_str(&format!("try:\n{}except Exception:\n    pass\n", statement(g, 2, "    ")));
        }
    }
    if !g.one_in(10) {
        out.push_str("\ndef init(info):\n    global g1, g2, t1, f1\n");
        for _ in 0..g.below(3) {
            out.push_str(&format!(
                "    try:\n{}    except Exception:\n        pass\n",
                statement(g, 2, "        ")
            ));
        }
    }
    let name = if g.one_in(12) { "Act" } else { "act" };
    out.push_str(&format!("\ndef {name}(obs):\n    global g1, g2, t1, f1\n"));
    for _ in 0..1 + g.below(4) {
        if g.one_in(2) {
            out.push_str(&format!(
                "    try:\n{}    except Exception:\n        pass\n",
                statement(g, 3, "        ")
            ));
        } else {
            out.push_str(&statement(g, 3, "    "));
        }
    }
    let reply = match g.below(6) {
        0 => expr(g, 2),
        _ => "obs['legal'][0]".to_string(),
    };
    out.push_str(&format!("    return {reply}\n"));
    out
}
