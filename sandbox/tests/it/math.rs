//! The same floating-point bits on every machine (cardarena-detmath): what a Lua bot's math
//! library and `^` compute is pinned, bit for bit, in `tests/data/math_golden.txt`, and equals
//! what the `libm` crate computes; the C library's CPU-specific code paths would give other
//! bits for some of these inputs.
//!
//! After a deliberate change of implementation, `CARDARENA_BLESS=1 cargo test -p
//! cardarena-sandbox --test it math::` rewrites the golden file.

use testkit::sandbox;

use cardarena_sandbox::{Kind, Limits, Sandbox};

/// One function of the bot below, named, with its `libm` twin.
type Twin = (&'static str, fn(f64) -> f64);

/// The functions in the order the bot below computes them.
const FUNCTIONS: &[Twin] = &[
    ("sin", libm::sin),
    ("cos", libm::cos),
    ("tan", libm::tan),
    ("asin", |x| libm::asin(x / 64.0)),
    ("acos", |x| libm::acos(x / 64.0)),
    ("atan", libm::atan),
    ("atan2", |x| libm::atan2(x, 3.5)),
    ("exp", |x| libm::exp(x / 4.0)),
    ("log", |x| libm::log(x.abs() + 0.5)),
    ("log2", |x| libm::log2(x.abs() + 0.5)),
    ("log10", |x| libm::log10(x.abs() + 0.5)),
    ("log3", |x| libm::log(x.abs() + 0.5) / libm::log(3.0)),
    ("pow", |x| libm::pow(x.abs() + 0.5, 0.37)),
    ("pow2", |x| libm::pow(2.0, x / 7.0)),
    ("fmod", |x| libm::fmod(x, 3.3)),
    ("sqrt", |x| libm::sqrt(x.abs())),
];

/// Inputs: 25 per function, spread over [-60, 60] with irregular steps.
fn input(i: u32) -> f64 {
    (f64::from(i) - 12.0) * 4.918_273_645
}

/// Computes every FUNCTIONS entry for inputs 0..25 and replies with one batch of 100 results
/// per decision, as 16 hex digits each.
const BOT: &str = r#"
local xs = {}
for i = 0, 24 do xs[#xs + 1] = (i - 12.0) * 4.918273645 end
local fs = {
  math.sin, math.cos, math.tan,
  function(x) return math.asin(x / 64.0) end,
  function(x) return math.acos(x / 64.0) end,
  math.atan,
  function(x) return math.atan(x, 3.5) end,
  function(x) return math.exp(x / 4.0) end,
  function(x) return math.log(math.abs(x) + 0.5) end,
  function(x) return math.log(math.abs(x) + 0.5, 2) end,
  function(x) return math.log(math.abs(x) + 0.5, 10) end,
  function(x) return math.log(math.abs(x) + 0.5, 3) end,
  function(x) return (math.abs(x) + 0.5) ^ 0.37 end,
  function(x) return 2.0 ^ (x / 7.0) end,
  function(x) return math.fmod(x, 3.3) end,
  function(x) return math.sqrt(math.abs(x)) end,
}
local out = {}
for _, f in ipairs(fs) do
  for _, x in ipairs(xs) do
    out[#out + 1] = string.format("%016x", string.unpack("<i8", string.pack("<d", f(x))))
  end
end
local batch = 0
function act(obs)
  local lines = {}
  for i = batch * 100 + 1, math.min(#out, batch * 100 + 100) do lines[#lines + 1] = out[i] end
  batch = batch + 1
  return table.concat(lines, " ")
end
"#;

fn lua_results() -> Vec<u64> {
    let sb = Sandbox::new().expect("sandbox starts");
    let program = sb.load("math.lua", Kind::Lua, BOT.as_bytes()).expect("bot loads");
    let mut inst =
        program.start(&Limits::default_for(Kind::Lua), sandbox::SEED, sandbox::INFO).expect("starts");
    let mut bits = Vec::new();
    for _ in 0..FUNCTIONS.len() * 25 / 100 {
        let reply = inst.act(sandbox::OBS).expect("acts");
        bits.extend(reply.split(' ').map(|h| u64::from_str_radix(h, 16).expect("hex")));
    }
    bits
}

fn golden_lines(bits: &[u64]) -> String {
    let mut out = String::from(
        "# Source: sandbox/tests/it/math.rs (Lua's math library through cardarena-detmath).\n\
         # function input-bits result-bits\n",
    );
    for (k, (name, _)) in FUNCTIONS.iter().enumerate() {
        for i in 0..25 {
            let x = input(i);
            out.push_str(&format!("{name} {:016x} {:016x}\n", x.to_bits(), bits[k * 25 + i as usize]));
        }
    }
    out
}

#[test]
fn lua_math_is_the_libm_crate_bit_for_bit() {
    let bits = lua_results();
    assert_eq!(bits.len(), FUNCTIONS.len() * 25);
    for (k, (name, f)) in FUNCTIONS.iter().enumerate() {
        for i in 0..25 {
            let x = input(i);
            assert_eq!(bits[k * 25 + i as usize], f(x).to_bits(), "{name}({x}) in Lua is not libm's result");
        }
    }
}

#[test]
fn lua_math_matches_the_golden_file() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/math_golden.txt");
    let got = golden_lines(&lua_results());
    if std::env::var_os("CARDARENA_BLESS").is_some() {
        std::fs::write(&path, &got).expect("write the golden file");
    }
    let want = std::fs::read_to_string(&path).expect("tests/data/math_golden.txt exists");
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w, "a math result changed bits (see the module doc to bless a deliberate change)");
    }
    assert_eq!(got.lines().count(), want.lines().count());
}

#[test]
fn rust_float_functions_are_detmaths_too() {
    // f64::sin etc. call the C symbols; in this program they are cardarena-detmath's.
    assert!(cardarena_detmath::active());
    for i in 0..2000 {
        let x = f64::from(i) * 0.0731 - 70.0;
        assert_eq!(x.sin().to_bits(), libm::sin(x).to_bits(), "sin({x})");
        assert_eq!((x / 9.0).exp().to_bits(), libm::exp(x / 9.0).to_bits(), "exp({x})");
        assert_eq!(x.abs().ln().to_bits(), libm::log(x.abs()).to_bits(), "ln({x})");
        assert_eq!(x.abs().powf(0.37).to_bits(), libm::pow(x.abs(), 0.37).to_bits(), "powf({x})");
    }
}
