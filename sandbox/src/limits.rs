//! Resource limits of one bot in one match.

use std::time::Duration;

use crate::Kind;

/// The budgets of one bot for one match.
///
/// Fuel is the deterministic currency: the same bot on the same inputs uses the same fuel on any
/// machine. What one unit buys differs between the two kinds of bot, so there is no single
/// default; use [`Limits::default_for`] (or [`Limits::LUA`] / [`Limits::WASM`]):
///
/// * **Lua**: one unit is one Lua VM instruction (counted exactly; a hook fires every
///   [`LUA_HOOK_STEP`](crate::LUA_HOOK_STEP) instructions and the rest is booked at the end),
///   plus charges for library work the VM does not count: 1 per 32 bytes allocated, 2 per
///   pattern-matching step, 1 per 2 repetitions of `string.rep`, 1 per 8 bytes scanned by
///   `tonumber`/`utf8`/`string.format`, 10 per host call, and so on (docs/sandbox.md lists
///   them).
/// * **WASM**: one unit is wasmtime fuel: about one WebAssembly operator (most cost 1; `nop`,
///   `block`, `end`… cost 0; `memory.copy`/`fill` cost 1 per byte). Host calls are charged too
///   (`log`: 100 + 1 per byte; `budget_left`: 20).
///
/// One Lua unit does several times the work of one WASM unit and takes far longer to run (the
/// calibration in docs/sandbox.md), hence a default per kind.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "LimitsJson", from = "LimitsJson")]
pub struct Limits {
    /// Fuel for one decision (one `act` call).
    pub fuel_per_decision: u64,
    /// Fuel bank for all decisions of one match. Each decision gets
    /// `min(fuel_per_decision, what is left of the bank)`.
    pub fuel_per_match: u64,
    /// Fuel for starting: Lua top-level chunk plus `init`; WASM start function plus `init`.
    /// Not drawn from the match bank. A WASM bot restarted after a trap gets it again.
    pub fuel_init: u64,
    /// Memory cap in bytes: the Lua heap (everything the Lua allocator hands out), or the
    /// WASM linear memory.
    pub memory_bytes: u64,
    /// Wall-clock backstop for one decision (and for the start). It only stops runaways whose
    /// fuel does not reflect their time; it never decides a normal result. Checked every
    /// `LUA_HOOK_STEP` Lua instructions and at charged library calls; WASM uses wasmtime epochs
    /// (10 ms ticks), so it fires up to ~20 ms late.
    pub wall_per_decision: Duration,
    /// Cap on log bytes per match (`print` in Lua, `env.log` in WASM), each line counting
    /// [`LOG_LINE_FRAMING`](crate::LOG_LINE_FRAMING) bytes more than its text. Beyond it, a
    /// single marker line is added and the rest is dropped (still charged). A decision has caps
    /// of its own ([`LOG_LINES_PER_DECISION`](crate::LOG_LINES_PER_DECISION)).
    pub log_bytes_per_match: usize,
}

impl Limits {
    /// Lua defaults: 5M fuel per decision (tens of milliseconds of Lua, docs/sandbox.md),
    /// 50M per match, 20M for init, 64 MiB heap (enough for Lua's own stack limit of 1M
    /// slots, so deep recursion ends as `stack`), 3 s backstop, 64 KiB of log.
    pub const LUA: Limits = Limits {
        fuel_per_decision: 5_000_000,
        fuel_per_match: 50_000_000,
        fuel_init: 20_000_000,
        memory_bytes: 64 << 20,
        wall_per_decision: Duration::from_secs(3),
        log_bytes_per_match: 64 << 10,
    };

    /// WASM defaults: 100M fuel per decision (about as long as a Lua decision), 1G per
    /// match, 500M for init, 64 MiB linear memory, 3 s backstop, 64 KiB of log.
    pub const WASM: Limits = Limits {
        fuel_per_decision: 100_000_000,
        fuel_per_match: 1_000_000_000,
        fuel_init: 500_000_000,
        memory_bytes: 64 << 20,
        wall_per_decision: Duration::from_secs(3),
        log_bytes_per_match: 64 << 10,
    };

    /// JavaScript defaults: 2G fuel per decision, 20G per match, 8G for start-up (loading the
    /// source and `init`), 64 MiB linear memory (the interpreter's own heap included), 3 s
    /// backstop, 64 KiB of log. The fuel is wasmtime fuel on the interpreter, calibrated so that
    /// the example greedy bots use about the same share of their limit as the Lua ones (400 times
    /// Lua's units: docs/sandbox.md has the measurements); QuickJS runs about 0.13 ns per unit, so
    /// a decision at the limit takes about a quarter of a second.
    pub const JS: Limits = Limits {
        fuel_per_decision: 2_000_000_000,
        fuel_per_match: 20_000_000_000,
        fuel_init: 8_000_000_000,
        memory_bytes: 64 << 20,
        wall_per_decision: Duration::from_secs(3),
        log_bytes_per_match: 64 << 10,
    };

    /// Python defaults: 4G fuel per decision, 40G per match, 16G for start-up, 128 MiB linear
    /// memory (RustPython's heap after start-up is 16 MiB), 3 s backstop, 64 KiB of log. The
    /// fuel is wasmtime fuel on the interpreter, 800 times Lua's units, so that the example
    /// greedy bots use about the same share of their limit as the Lua ones (docs/python.md has
    /// the measurements).
    pub const PYTHON: Limits = Limits {
        fuel_per_decision: 4_000_000_000,
        fuel_per_match: 40_000_000_000,
        fuel_init: 16_000_000_000,
        memory_bytes: 128 << 20,
        wall_per_decision: Duration::from_secs(3),
        log_bytes_per_match: 64 << 10,
    };

    /// The documented defaults for a kind of bot ([`Limits::LUA`], [`Limits::WASM`],
    /// [`Limits::JS`] or [`Limits::PYTHON`]).
    ///
    /// There is deliberately no `Default` impl: a Lua unit and a WASM unit buy very different
    /// amounts of work and time, so a kind-blind default would hand one kind of bot a budget
    /// many times too large or too small.
    pub const fn default_for(kind: Kind) -> Limits {
        match kind {
            Kind::Lua => Limits::LUA,
            Kind::Wasm => Limits::WASM,
            Kind::Js => Limits::JS,
            Kind::Python => Limits::PYTHON,
        }
    }
}

impl Limits {
    /// The fuel one decision gets after `spent` of the match's bank: the per-decision fuel, or
    /// what is left of the bank if that is less (0: the bank is used up).
    pub(crate) fn decision_budget(&self, spent: u64) -> u64 {
        self.fuel_per_decision.min(self.fuel_per_match.saturating_sub(spent))
    }

    /// Why a decision ends in `fuel` once the match's bank is used up.
    pub(crate) fn bank_used_up(&self) -> String {
        format!("the match's fuel bank of {} is used up", self.fuel_per_match)
    }
}

/// [`Limits`] as replays and crash capsules record them (docs/replay.md): whole milliseconds
/// for the backstop, every field a JSON integer.
#[derive(serde::Serialize, serde::Deserialize)]
struct LimitsJson {
    fuel_per_decision: u64,
    fuel_per_match: u64,
    fuel_init: u64,
    memory_bytes: u64,
    wall_ms_per_decision: u64,
    log_bytes_per_match: u64,
}

impl From<Limits> for LimitsJson {
    fn from(l: Limits) -> LimitsJson {
        LimitsJson {
            fuel_per_decision: l.fuel_per_decision,
            fuel_per_match: l.fuel_per_match,
            fuel_init: l.fuel_init,
            memory_bytes: l.memory_bytes,
            wall_ms_per_decision: u64::try_from(l.wall_per_decision.as_millis()).unwrap_or(u64::MAX),
            log_bytes_per_match: l.log_bytes_per_match as u64,
        }
    }
}

impl From<LimitsJson> for Limits {
    fn from(l: LimitsJson) -> Limits {
        Limits {
            fuel_per_decision: l.fuel_per_decision,
            fuel_per_match: l.fuel_per_match,
            fuel_init: l.fuel_init,
            memory_bytes: l.memory_bytes,
            wall_per_decision: Duration::from_millis(l.wall_ms_per_decision),
            log_bytes_per_match: usize::try_from(l.log_bytes_per_match).unwrap_or(usize::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays and capsules record limits with these names and units (docs/replay.md), and read
    /// them back the same.
    #[test]
    fn limits_keep_their_recorded_form() {
        let text = serde_json::to_string(&Limits::LUA).unwrap();
        assert_eq!(
            text,
            r#"{"fuel_per_decision":5000000,"fuel_per_match":50000000,"fuel_init":20000000,"memory_bytes":67108864,"wall_ms_per_decision":3000,"log_bytes_per_match":65536}"#
        );
        assert_eq!(serde_json::from_str::<Limits>(&text).unwrap(), Limits::LUA);
    }
}
