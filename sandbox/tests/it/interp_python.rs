//! Python bots: the RustPython interpreter module (its build and hash), run through the
//! interpreter ABI of `src/interp.rs`: the language, the allow-list of imports, verdicts, logs
//! and determinism.

use cardarena_sandbox::{Kind, Limits, Program, Sandbox, Verdict};
use sha2::{Digest, Sha256};

const INFO: &str = r#"{"game":"blade","variant":"readme","seat":0,"players":2,"seed":42}"#;
const OBS: &str = r#"{"seat":0,"phase":"play","legal":["1","3","B","M"],"hand":[1,3],"scores":[0,0]}"#;

fn sandbox() -> Sandbox {
    Sandbox::new().unwrap()
}

fn py(src: &str) -> Program {
    sandbox().load("bot.py", Kind::Python, src.as_bytes()).unwrap()
}

fn first_act(src: &str) -> Result<String, cardarena_sandbox::Fault> {
    py(src).start(&Limits::default_for(Kind::Python), 7, INFO)?.act(OBS)
}

/// The committed module is the one `scripts/build-python.sh` makes from RustPython 0.5.0 and the
/// glue; this pins what the arena ships (docs/python.md: what `--check` compares).
#[test]
fn the_python_module_is_the_pinned_build() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/interp/python/python.wasm")).unwrap();
    let hash: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hash, "96d7bc0c68797fa9677f05cfb22be0265624c0b9fff6522eec349f77fe51989d");
}

/// Every construct a student's bot is likely to use, each checked against CPython's answer.
const LANGUAGE: &str = r#"
import math, random, json, re, collections, itertools, functools, heapq, bisect, string
from collections import Counter, defaultdict, deque, namedtuple

class Card:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return f"Card({self.v})"
    def __lt__(self, other):
        return self.v < other.v

class Big(Card):
    def score(self):
        return self.v * 2

def gen(n):
    for i in range(n):
        yield i * 2

@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

P = namedtuple("P", "x y")
checks = {
    "class": Big(3).score() == 6 and repr(Big(2)) == "Card(2)",
    "comprehensions": [x * x for x in range(5) if x % 2] == [1, 9] and {k: k + 1 for k in range(2)} == {0: 1, 1: 2},
    "generators": list(gen(3)) == [0, 2, 4] and sum(1 for h in [1, 2, 3] if h > 1) == 2,
    "f-strings": f"{3:>3}|{1.5:.2f}|{'a'!r}" == "  3|1.50|'a'",
    "sorted with a key": sorted([3, 5, 7], key=lambda c: (-(c % 4), c)) == [3, 7, 5],
    "sorted objects": [c.v for c in sorted([Card(3), Card(1)])] == [1, 3],
    "walrus": [y for x in range(4) if (y := x * 2) > 2] == [4, 6],
    "big integers": 2 ** 100 % 97 == pow(2, 100, 97),
    "math": math.sqrt(16) == 4 and math.gcd(6, 4) == 2 and math.inf > 0,
    "json": json.loads('{"a": [1, 2.5, null, true]}') == {"a": [1, 2.5, None, True]} and json.dumps([1, "x"]) == '[1, "x"]',
    "re": re.match(r"(\d+)-(\w+)", "12-ab").group(2) == "ab" and re.findall(r"\d", "a1b2") == ["1", "2"],
    "Counter": Counter("abca").most_common(1) == [("a", 2)],
    "defaultdict": defaultdict(list)[1] == [],
    "deque": deque([1, 2], maxlen=2).maxlen == 2,
    "namedtuple": P(1, 2).y == 2,
    "itertools": list(itertools.combinations([1, 2, 3], 2)) == [(1, 2), (1, 3), (2, 3)],
    "functools": fib(30) == 832040 and functools.reduce(lambda a, b: a * b, [1, 2, 3]) == 6,
    "heapq": heapq.nlargest(2, [1, 5, 3]) == [5, 3],
    "bisect": bisect.bisect([1, 3, 5], 4) == 2,
    "string": string.ascii_lowercase[:3] == "abc",
    "float repr": str(1 / 3) == "0.3333333333333333" and round(2.5) == 2 and -7 // 2 == -4,
    "dict order": list({3: 1, 1: 2, 2: 3}) == [3, 1, 2],
    "random": random.choice([1]) == 1 and 0 <= random.random() < 1,
}
failed = [name for name, ok in checks.items() if not ok]

def act(obs):
    return "ok" if not failed else "failed: " + ", ".join(failed)
"#;

#[test]
fn real_python_runs() {
    assert_eq!(first_act(LANGUAGE).unwrap(), "ok");
    let generated = "def act(obs):\n    return eval('str(' + '1+' * 50 + '1)')\n";
    assert_eq!(first_act(generated).unwrap(), "51", "eval of generated code");
}

#[test]
fn a_bot_acts_logs_and_keeps_its_state() {
    let src = r#"
calls = 0
def init(info):
    print("seat", info.get("seat"), {"a": [1, 2]})

def act(obs):
    global calls
    calls += 1
    print("call", calls)
    return obs["legal"][calls % len(obs["legal"])]
"#;
    let program = py(src);
    let mut bot = program.start(&Limits::default_for(Kind::Python), 7, INFO).unwrap();
    assert_eq!(bot.take_log(), vec!["seat 0 {'a': [1, 2]}".to_string()]);
    assert_eq!(bot.act(OBS).unwrap(), "3");
    assert_eq!(bot.act(OBS).unwrap(), "B");
    assert_eq!(bot.take_log(), vec!["call 1".to_string(), "call 2".to_string()]);
    assert!(bot.fuel_used_last() > 0);
    eprintln!("init fuel {} act fuel {}", bot.fuel_init(), bot.fuel_used_last());
}

#[test]
fn beginner_mistakes_get_plain_messages() {
    let sb = sandbox();
    let e = sb.load("bot.py", Kind::Python, b"def Act(obs):\n    return obs['legal'][0]\n").unwrap_err();
    assert_eq!(e.verdict, Verdict::Load);
    assert!(e.message.contains("no function act(obs)") && e.message.contains("Act"), "{}", e.message);
    let e =
        sb.load("bot.py", Kind::Python, b"x = 1\ndef act(obs):\n    return obs['legal'][0\n").unwrap_err();
    assert_eq!(e.verdict, Verdict::Load);
    assert!(e.message.starts_with("bot.py:3: SyntaxError"), "{}", e.message);
    let e = first_act("def act(obs):\n    return 3\n").unwrap_err();
    assert_eq!(e.verdict, Verdict::Invalid);
    assert!(e.message.contains("act returned a number (3)") && e.message.contains("\"3\""), "{}", e.message);
    let e = first_act("def act(obs):\n    obs['legal'][0]\n").unwrap_err();
    assert_eq!(e.verdict, Verdict::Invalid);
    assert!(e.message.contains("None") && e.message.contains("return"), "{}", e.message);
    let e = first_act("def act(obs):\n    x = 1\n    return obs.legal[0]\n").unwrap_err();
    assert_eq!(e.verdict, Verdict::Crash);
    assert!(e.message.starts_with("bot.py:3: AttributeError"), "{}", e.message);
    assert!(e.message.contains("obs[\"legal\"]"), "{}", e.message);
    assert!(e.trace.as_deref().unwrap_or("").contains("line 3, in act"), "{e:?}");
}

#[test]
fn imports_outside_the_allow_list_are_refused_by_name() {
    for src in [
        "import os\ndef act(obs):\n    return '1'\n",
        "def act(obs):\n    return __import__('sys').platform\n",
        "from subprocess import run\ndef act(obs):\n    return '1'\n",
        // Another module's globals passed as the importer's: the guard asks the running frame.
        "import random\ndef act(obs):\n    return __import__('sys', vars(random)).platform\n",
        "import random\nsys = __import__('sys', random.__dict__)\ndef act(obs):\n    return '1'\n",
    ] {
        let e = match sandbox().load("bot.py", Kind::Python, src.as_bytes()) {
            Err(e) => e,
            Ok(program) => {
                program.start(&Limits::default_for(Kind::Python), 7, INFO).unwrap().act(OBS).unwrap_err()
            }
        };
        assert!(matches!(e.verdict, Verdict::Load | Verdict::Crash), "{src}: {e:?}");
        assert!(e.message.contains("is not allowed") && e.message.contains("math, random, json"), "{e:?}");
    }
    let e = first_act("def act(obs):\n    return open('/etc/passwd').read()\n").unwrap_err();
    assert_eq!(e.verdict, Verdict::Crash);
    assert!(e.message.contains("open() is not available"), "{}", e.message);
}

#[test]
fn hostile_bots_end_in_their_verdicts() {
    let cases: &[(&str, &str, Verdict)] = &[
        ("infinite loop", "def act(obs):\n    while True:\n        pass\n", Verdict::Fuel),
        (
            "swallowed exceptions",
            "def act(obs):\n    while True:\n        try:\n            None.x\n        except Exception:\n            pass\n",
            Verdict::Fuel,
        ),
        ("deep recursion", "def f(n):\n    return f(n + 1) + 1\ndef act(obs):\n    return f(0)\n", Verdict::Stack),
        // 10 ** 10 ** 8 has 41 MB of digits: the squarings use the decision's fuel first.
        ("big integer bomb", "def act(obs):\n    return str(10 ** 10 ** 8)\n", Verdict::Fuel),
        ("string repetition", "def act(obs):\n    return 'x' * 10 ** 9\n", Verdict::Memory),
        (
            "list growth",
            "def act(obs):\n    a = []\n    while True:\n        a.append('x' * (10 ** 6 + len(a)))\n",
            Verdict::Memory,
        ),
        (
            "a bytearray grown without end",
            "def act(obs):\n    b = bytearray()\n    while True:\n        b += bytes(100000)\n",
            Verdict::Memory,
        ),
        (
            "catastrophic regex",
            "import re\ndef act(obs):\n    return str(re.match(r'^(a+)+$', 'a' * 40 + 'b'))\n",
            Verdict::Fuel,
        ),
        ("exec loop", "def act(obs):\n    exec('while True: pass')\n", Verdict::Fuel),
        ("raise", "def act(obs):\n    raise ValueError('boom')\n", Verdict::Crash),
        ("exit", "def act(obs):\n    raise SystemExit(0)\n", Verdict::Crash),
    ];
    for (what, src, verdict) in cases {
        let e = first_act(src).expect_err(what);
        assert_eq!(e.verdict, *verdict, "{what}: {e:?}");
        let again = first_act(src).unwrap_err();
        assert_eq!((again.fuel_used, &again.message), (e.fuel_used, &e.message), "{what}: not deterministic");
    }
}

#[test]
fn state_persists_between_decisions_and_a_trap_restarts_the_bot() {
    let src = r#"
def counter():
    n = 0
    while True:
        n += 1
        yield n

ticks = counter()

def act(obs):
    n = next(ticks)
    if n == 3:
        while True:
            pass
    return str(n)
"#;
    let program = py(src);
    let mut bot = program.start(&Limits::default_for(Kind::Python), 7, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "1");
    assert_eq!(bot.act(OBS).unwrap(), "2");
    assert_eq!(bot.act(OBS).unwrap_err().verdict, Verdict::Fuel);
    assert_eq!(bot.act(OBS).unwrap(), "1", "a fresh start after the trap");
}

#[test]
fn randomness_and_hashing_come_from_the_match() {
    let src = "import random\ndef act(obs):\n    return ' '.join(str(x) for x in [random.random(), random.randint(1, 6), hash('abc'), list({'b', 'a', 'c'}), id(obs) % 1000])\n";
    let program = py(src);
    let run = |seed| {
        let mut bot = program.start(&Limits::default_for(Kind::Python), seed, INFO).unwrap();
        (bot.act(OBS).unwrap(), bot.fuel_used_last())
    };
    let (a, fuel) = run(7);
    eprintln!("{a}");
    assert_eq!(run(7), (a.clone(), fuel), "same seed, same replies and fuel");
    assert_ne!(run(8).0.split(' ').next(), a.split(' ').next(), "another seed, other random numbers");
    let on_lane = program.on(&sandbox().lane().unwrap()).unwrap();
    let mut bot = on_lane.start(&Limits::default_for(Kind::Python), 7, INFO).unwrap();
    assert_eq!((bot.act(OBS).unwrap(), bot.fuel_used_last()), (a, fuel), "the same on a lane");
}

/// RustPython's reference counts are patched to 28 bits on 32-bit WebAssembly (15 upstream
/// aborted the interpreter at the 32,768th reference to one object, and every object refers
/// to its type): many references and many live objects of one type are fine, and a list grown
/// without end reaches the memory cap.
#[test]
fn many_references_to_one_object_are_fine_and_endless_growth_is_memory() {
    for (src, reply) in [
        ("def act(obs):\n    a = [0] * 1000000\n    return str(len(a))\n", "1000000"),
        ("def act(obs):\n    a = list(range(200000))\n    return str(sum(a))\n", "19999900000"),
        ("def act(obs):\n    a = [(i, i) for i in range(100000)]\n    return str(len(a))\n", "100000"),
    ] {
        assert_eq!(first_act(src).unwrap_or_else(|e| panic!("{src}: {e:?}")), reply, "{src}");
    }
    let grow = "def act(obs):\n    a = []\n    while True:\n        a.append(('x' * 10000, len(a)))\n";
    let e = first_act(grow).unwrap_err();
    assert_eq!(e.verdict, Verdict::Memory, "{e:?}");
}
