//! The sandboxed-bot adapter: a Lua or WASM program of the sandbox crate as a [`Bot`], and the
//! one mapping of the sandbox's faults to the arena's ([`convert`]).

use cardarena_sandbox::{Instance, Limits, Program};

use crate::bots::bot::{Bot, Fault, InitInfo, Verdict};
use crate::games::rng::derive_seed;
use crate::games::{Game, Observation, Seat};

/// The seed of a seat: the seed a legacy program's sandbox gets (its `random_get`), and what a
/// file bot's seed ([`sandbox_seed`]) is derived from.
pub fn seat_seed(match_seed: u64, seat: Seat) -> u64 {
    derive_seed(&[match_seed, seat as u64])
}

/// The seed a file bot's sandbox gets (Lua's `math.random`): derived from the match seed, the
/// seat and the program's random key ([`Program::random_key`]: its tokens, names and order
/// aside). Two programs written apart draw different numbers, so alike replies mean alike
/// programs (`arena grade`'s copies), while a copy under other names draws the same.
pub fn sandbox_seed(match_seed: u64, seat: Seat, program: &Program) -> u64 {
    derive_seed(&[seat_seed(match_seed, seat), program.random_key()])
}

/// A bot file that could not be loaded: every start and every decision is a `load` fault (in a
/// two-player game the match is forfeited at the start; in Intensity each one costs the penalty).
pub struct NotLoaded(pub String);

impl<G: Game> Bot<G> for NotLoaded {
    fn init(&mut self, _info: &InitInfo) -> Result<(), Fault> {
        Err(Fault::new(Verdict::Load, self.0.clone()))
    }

    fn act(&mut self, _obs: &G::Observation) -> Result<String, Fault> {
        Err(Fault::new(Verdict::Load, self.0.clone()))
    }
}

/// A Lua or WASM bot in one match.
pub struct SandboxBot {
    program: Program,
    limits: Limits,
    instance: Option<Instance>,
    /// Whether reads of missing observation fields are recorded (`Bot::watch_unknown_fields`).
    watch: bool,
    fuel_last: Option<u64>,
    /// Decisions answered in this match and their fuel, for the average a fuel fault cites.
    metered: (u64, u64),
}

/// A sandbox fault as the arena records it.
pub fn convert(f: cardarena_sandbox::Fault) -> Fault {
    use cardarena_sandbox::Verdict as V;
    let verdict = match f.verdict {
        V::Fuel => Verdict::Fuel,
        V::Memory => Verdict::Memory,
        V::Stack => Verdict::Stack,
        V::Crash => Verdict::Crash,
        V::Invalid => Verdict::Invalid,
        V::Load => Verdict::Load,
        V::Wallclock => Verdict::Wallclock,
    };
    Fault {
        verdict,
        message: f.message,
        fuel_used: Some(f.fuel_used),
        memory_peak: Some(f.memory_peak),
        trace: f.trace,
    }
}

/// How a decision that ran out of fuel compares with the bot's earlier decisions of the match.
fn over_average(used: u64, (decisions, fuel): (u64, u64)) -> String {
    if decisions == 0 {
        return " (its first decision of the match)".into();
    }
    let average = (fuel / decisions).max(1);
    format!(" (it used {used}, {}x its average decision of {average} in this match)", used / average)
}

impl SandboxBot {
    /// A bot that starts `program` under `limits` at its `init`.
    pub fn new(program: Program, limits: Limits) -> SandboxBot {
        SandboxBot { program, limits, instance: None, watch: false, fuel_last: None, metered: (0, 0) }
    }
}

impl<G: Game> Bot<G> for SandboxBot {
    fn init(&mut self, info: &InitInfo) -> Result<(), Fault> {
        let json = serde_json::to_string(info).expect("init info serializes");
        let seed = sandbox_seed(info.seed, info.seat, &self.program);
        let mut instance = self.program.start(&self.limits, seed, &json).map_err(convert)?;
        if self.watch {
            instance.watch_unknown_fields();
        }
        self.instance = Some(instance);
        Ok(())
    }

    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        let instance = self
            .instance
            .as_mut()
            .ok_or_else(|| Fault::new(Verdict::Load, "the bot did not start (its init failed)"))?;
        // A Lua bot gets the observation's tables built from the value, a WASM bot its JSON
        // text (the game's `write_json`): both exactly what `serde_json::to_string(obs)` says.
        let reply = instance.act_value_with(obs, <G::Observation as Observation>::write_json);
        let used = instance.fuel_used_last();
        self.fuel_last = Some(used);
        match reply {
            Ok(r) => {
                self.metered = (self.metered.0 + 1, self.metered.1.saturating_add(used));
                Ok(r)
            }
            Err(f) => {
                let mut fault = convert(f);
                if fault.verdict == Verdict::Fuel {
                    fault.message.push_str(&over_average(used, self.metered));
                }
                Err(fault)
            }
        }
    }

    fn fuel_used_last(&self) -> Option<u64> {
        self.fuel_last
    }

    fn memory_peak(&self) -> Option<u64> {
        self.instance.as_ref().map(Instance::memory_peak)
    }

    fn take_log(&mut self) -> Vec<String> {
        self.instance.as_mut().map(|i| i.take_log()).unwrap_or_default()
    }

    fn watch_unknown_fields(&mut self) {
        self.watch = true;
        if let Some(i) = self.instance.as_mut() {
            i.watch_unknown_fields();
        }
    }

    fn unknown_fields(&self) -> Vec<String> {
        self.instance.as_ref().map(Instance::unknown_fields).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fuel_fault_compares_with_the_average_decision() {
        assert_eq!(
            over_average(5_000_100, (4, 4000)),
            " (it used 5000100, 5000x its average decision of 1000 in this match)"
        );
        assert_eq!(over_average(10, (0, 0)), " (its first decision of the match)");
    }
}
