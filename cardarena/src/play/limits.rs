//! Sandbox limits as people write them (arena.toml's `[limits]`, `[limits.lua]`, `[limits.wasm]`,
//! `[limits.js]`, `[limits.python]`, the command line's flags), layered into the [`Limits`] one
//! bot runs under.
//!
//! The layers, lowest first: the sandbox's defaults for the bot's kind ([`Limits::default_for`]),
//! the file's `[defaults.limits]`, the event's `[event.limits]`, then inside each of those the
//! kind's own table (`lua`/`wasm`), and the command line's flags on top. [`LimitsConfig::over`]
//! stacks two layers field by field; [`LimitsConfig::apply`] turns the stack into [`Limits`].

use cardarena_sandbox::{Kind, Limits};
use serde::{Deserialize, Serialize};

/// The limits one layer sets; unset fields keep the layer below.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsConfig {
    /// Fuel per decision (WASM fuel or Lua instructions).
    pub fuel_per_decision: Option<u64>,
    /// Fuel per match.
    pub fuel_per_match: Option<u64>,
    /// Memory per bot, in MiB.
    pub memory_mb: Option<u64>,
    /// Overrides for Lua bots only (`[event.limits.lua]`).
    pub lua: Option<KindLimits>,
    /// Overrides for WASM bots only (`[event.limits.wasm]`).
    pub wasm: Option<KindLimits>,
    /// Overrides for JavaScript bots only (`[event.limits.js]`).
    pub js: Option<KindLimits>,
    /// Overrides for Python bots only (`[event.limits.python]`).
    pub python: Option<KindLimits>,
}

/// The overrides for one kind of bot: the same fields, and no deeper nesting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct KindLimits {
    /// Fuel per decision.
    pub fuel_per_decision: Option<u64>,
    /// Fuel per match.
    pub fuel_per_match: Option<u64>,
    /// Memory per bot, in MiB.
    pub memory_mb: Option<u64>,
}

impl KindLimits {
    fn over(&self, below: &KindLimits) -> KindLimits {
        KindLimits {
            fuel_per_decision: self.fuel_per_decision.or(below.fuel_per_decision),
            fuel_per_match: self.fuel_per_match.or(below.fuel_per_match),
            memory_mb: self.memory_mb.or(below.memory_mb),
        }
    }

    fn write(&self, limits: &mut Limits) {
        if let Some(f) = self.fuel_per_decision {
            limits.fuel_per_decision = f;
        }
        if let Some(f) = self.fuel_per_match {
            limits.fuel_per_match = f;
        }
        if let Some(m) = self.memory_mb {
            limits.memory_bytes = m.saturating_mul(1 << 20);
        }
    }
}

impl LimitsConfig {
    /// This layer on top of `below`, field by field (inside `lua` and `wasm` too).
    pub fn over(&self, below: &LimitsConfig) -> LimitsConfig {
        let kind = |mine: &Option<KindLimits>, theirs: &Option<KindLimits>| match (mine, theirs) {
            (Some(m), Some(t)) => Some(m.over(t)),
            (m, t) => m.clone().or_else(|| t.clone()),
        };
        LimitsConfig {
            fuel_per_decision: self.fuel_per_decision.or(below.fuel_per_decision),
            fuel_per_match: self.fuel_per_match.or(below.fuel_per_match),
            memory_mb: self.memory_mb.or(below.memory_mb),
            lua: kind(&self.lua, &below.lua),
            wasm: kind(&self.wasm, &below.wasm),
            js: kind(&self.js, &below.js),
            python: kind(&self.python, &below.python),
        }
    }

    /// The limits a bot of `kind` runs under: the kind's defaults, then this layer's general
    /// fields, then its fields for the kind.
    pub fn apply(&self, kind: Kind) -> Limits {
        let mut limits = Limits::default_for(kind);
        let general = KindLimits {
            fuel_per_decision: self.fuel_per_decision,
            fuel_per_match: self.fuel_per_match,
            memory_mb: self.memory_mb,
        };
        general.write(&mut limits);
        let own = match kind {
            Kind::Lua => &self.lua,
            Kind::Wasm => &self.wasm,
            Kind::Js => &self.js,
            Kind::Python => &self.python,
        };
        if let Some(own) = own {
            own.write(&mut limits);
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<LimitsConfig, toml::de::Error> {
        toml::from_str(text)
    }

    #[test]
    fn layers_stack_field_by_field() {
        let file =
            parse("memory_mb = 8\nfuel_per_match = 77\n[lua]\nfuel_per_decision = 1234\nmemory_mb = 4\n")
                .unwrap();
        let event = parse("fuel_per_match = 99\n[lua]\nfuel_per_match = 55\n").unwrap();
        let flags = LimitsConfig { memory_mb: Some(2), ..LimitsConfig::default() };
        let all = flags.over(&event.over(&file));
        let lua = all.apply(Kind::Lua);
        let wasm = all.apply(Kind::Wasm);
        // The event's [lua] adds to the file's [lua] instead of replacing it.
        assert_eq!(lua.fuel_per_decision, 1234);
        assert_eq!(lua.fuel_per_match, 55);
        assert_eq!(wasm.fuel_per_decision, Limits::WASM.fuel_per_decision);
        assert_eq!(wasm.fuel_per_match, 99);
        // A kind's own field beats a general one of any layer: the file's [lua] memory_mb = 4
        // wins over the flag's memory_mb = 2 for Lua bots only.
        assert_eq!((lua.memory_bytes, wasm.memory_bytes), (4 << 20, 2 << 20));
        assert_eq!(LimitsConfig::default().apply(Kind::Lua), Limits::LUA);
        assert_eq!(LimitsConfig::default().apply(Kind::Wasm), Limits::WASM);
    }

    #[test]
    fn a_kind_table_cannot_nest() {
        let err = parse("[lua.wasm]\nfuel_per_decision = 1\n").unwrap_err().to_string();
        assert!(err.contains("unknown field `wasm`"), "{err}");
        let err = parse("[lua]\nfuel = 1\n").unwrap_err().to_string();
        assert!(err.contains("unknown field `fuel`"), "{err}");
    }
}
