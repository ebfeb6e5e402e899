//! What went wrong with a bot, as data: a [`Verdict`] plus the numbers the arena records.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a bot's decision (or its loading, or its start) failed.
///
/// Serialized in lowercase (`"fuel"`, `"memory"`, …), which is also what [`Verdict::as_str`]
/// returns. See `docs/sandbox.md` for what triggers each one in Lua and in WASM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The deterministic budget ran out: the decision's fuel, the match's fuel bank, or the
    /// init fuel. Lua: VM instructions plus charged library work; WASM: wasmtime fuel.
    Fuel,
    /// The bot's memory cap was reached (Lua allocator limit; WASM linear memory growth or an
    /// oversized initial memory).
    Memory,
    /// Stack overflow: Lua stack / C stack overflow, WASM `call stack exhausted`.
    Stack,
    /// The bot raised an error or trapped (Lua runtime error, WASM trap such as
    /// `unreachable`, division by zero, out-of-bounds access).
    Crash,
    /// The bot ran but its reply is unusable: not a string, not UTF-8, too long, or (WASM) the
    /// reply or `alloc` pointer is out of bounds.
    Invalid,
    /// The program could not be loaded or started: syntax error, malformed or oversized
    /// module, unknown import, missing or mistyped export, missing `act`.
    Load,
    /// The wall-clock backstop stopped a runaway. Never used to decide a normal result: it
    /// only fires far beyond what the fuel budget normally takes.
    Wallclock,
}

impl Verdict {
    /// Every verdict, in declaration order.
    pub const ALL: [Verdict; 7] = [
        Verdict::Fuel,
        Verdict::Memory,
        Verdict::Stack,
        Verdict::Crash,
        Verdict::Invalid,
        Verdict::Load,
        Verdict::Wallclock,
    ];

    /// The lowercase name, as serialized.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Fuel => "fuel",
            Verdict::Memory => "memory",
            Verdict::Stack => "stack",
            Verdict::Crash => "crash",
            Verdict::Invalid => "invalid",
            Verdict::Load => "load",
            Verdict::Wallclock => "wallclock",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed load, start or decision, with the numbers the arena records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// What kind of failure.
    pub verdict: Verdict,
    /// A one-paragraph human-readable explanation (at most [`Fault::MAX_MESSAGE`] bytes).
    pub message: String,
    /// Fuel used by the failed phase (this decision, or init when starting).
    pub fuel_used: u64,
    /// Fuel used by all decisions of this match so far, including this one (init excluded).
    pub fuel_total: u64,
    /// Peak memory of the bot so far, in bytes (Lua heap or WASM linear memory).
    pub memory_peak: u64,
    /// Lua traceback or WASM backtrace, when there is one (at most [`Fault::MAX_TRACE`] bytes).
    pub trace: Option<String>,
}

impl Fault {
    /// Longest `message` kept, in bytes; longer ones are cut at a character boundary.
    pub const MAX_MESSAGE: usize = 1024;
    /// Longest `trace` kept, in bytes.
    pub const MAX_TRACE: usize = 4096;

    /// A fault with no numbers yet (used for load errors).
    pub(crate) fn new(verdict: Verdict, message: impl Into<String>) -> Fault {
        Fault {
            verdict,
            message: clip(message.into(), Fault::MAX_MESSAGE),
            fuel_used: 0,
            fuel_total: 0,
            memory_peak: 0,
            trace: None,
        }
    }

    /// A load error.
    pub(crate) fn load(message: impl Into<String>) -> Fault {
        Fault::new(Verdict::Load, message)
    }

    /// This fault with the bot's usage at the moment it happened.
    pub(crate) fn with_usage(self, fuel_used: u64, fuel_total: u64, memory_peak: u64) -> Fault {
        Fault { fuel_used, fuel_total, memory_peak, ..self }
    }

    pub(crate) fn with_trace(mut self, trace: Option<String>) -> Fault {
        self.trace = trace.map(|t| clip(t, Fault::MAX_TRACE)).filter(|t| !t.is_empty());
        self
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (fuel {} this phase, {} this match; memory peak {} bytes)",
            self.verdict, self.message, self.fuel_used, self.fuel_total, self.memory_peak
        )
    }
}

impl std::error::Error for Fault {}

/// Cuts `s` to at most `max` bytes, at a character boundary, marking the cut.
pub(crate) fn clip(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max.saturating_sub(3);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_serializes_lowercase() {
        for v in Verdict::ALL {
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.as_str()));
            let back: Verdict = serde_json::from_str(&json).unwrap();
            assert_eq!(back, v);
        }
    }

    #[test]
    fn clip_cuts_at_char_boundary() {
        let s = "é".repeat(10);
        let c = clip(s, 8);
        assert!(c.len() <= 8);
        assert!(c.ends_with("..."));
        assert_eq!(clip("short".into(), 8), "short");
    }
}
