//! `arena repro`: a crash capsule's observations fed to the bot again (a legacy stdin/stdout
//! bot: the exact stdin bytes of each run), compared with the record.

use cardarena_sandbox::{Instance, Limits};

use crate::bots::bot::{Bot, Fault, Verdict};
use crate::games::Game;
use crate::play::adapter::{convert, sandbox_seed};
use crate::play::capsule::{Capsule, CapsuleDecision};
use crate::play::legacy::{Expect, LegacyBot, Protocol};
use crate::play::registry::BotSource;
use crate::play::runner::{decision_place, judge_reply, shorten};
use crate::play::HostError;

/// The result of `arena repro`.
#[derive(Clone, Debug)]
pub struct Reproduction {
    /// The side-by-side account, one line (or a few) per decision, and the conclusion.
    pub report: String,
    /// Whether the bot failed again with the same verdict at the same decision.
    pub same_failure: bool,
}

/// One decision's outcome, recorded or now.
struct Answer {
    reply: Option<String>,
    fuel: Option<u64>,
    log: Vec<String>,
    fault: Option<Fault>,
}

impl Answer {
    /// The action: the reply, or the fault's verdict (the fuel is shown apart, [`fuel_text`]).
    fn text(&self) -> String {
        let reply = match &self.reply {
            Some(r) => format!("{r:?}"),
            None => "no reply".to_string(),
        };
        let fault = self.fault.as_ref().map(|f| format!(", FAULT {}", f.verdict)).unwrap_or_default();
        format!("{reply}{fault}")
    }

    /// Whether `other` acted the same: the same reply and the same verdict (fuel and log may
    /// differ, as they do when a bot is only made faster or chattier).
    fn same_action(&self, other: &Answer) -> bool {
        self.reply == other.reply
            && self.fault.as_ref().map(|f| f.verdict) == other.fault.as_ref().map(|f| f.verdict)
    }
}

/// The fuel of a decision, recorded and now: one number when they agree.
fn fuel_text(was: Option<u64>, now: Option<u64>) -> String {
    let show = |f: Option<u64>| f.map_or_else(|| "-".to_string(), |f| f.to_string());
    if was == now {
        was.map(|f| format!("   fuel {f}")).unwrap_or_default()
    } else {
        format!("   fuel {} | {}", show(was), show(now))
    }
}

/// One decision run again: the reply or fault, the fuel and the log lines.
struct Run {
    result: Result<String, Fault>,
    fuel: Option<u64>,
    log: Vec<String>,
}

/// The bot run again: a Lua/WASM instance given each recorded observation, or a legacy program
/// given each recorded stdin.
enum Rerun {
    Abi(Instance),
    Legacy(Box<LegacyBot>, Protocol),
}

impl Rerun {
    /// One recorded decision again.
    fn act<G: Game>(&mut self, d: &CapsuleDecision, obs: &serde_json::Value) -> Result<Run, HostError> {
        Ok(match self {
            Rerun::Abi(instance) => {
                let result = instance.act(d.observation.get()).map_err(convert);
                Run { result, fuel: Some(instance.fuel_used_last()), log: instance.take_log() }
            }
            Rerun::Legacy(bot, protocol) => {
                let stdin = d.stdin.as_deref().ok_or_else(|| {
                    HostError::Damaged(format!(
                        "decision #{}: damaged capsule: a legacy bot's decision without its `stdin`",
                        d.decision
                    ))
                })?;
                let expect = Expect::from_json(*protocol, obs).map_err(|e| {
                    HostError::Damaged(format!("decision #{}: damaged capsule: {e}", d.decision))
                })?;
                let result = bot.run(stdin.as_bytes(), &expect);
                let bot: &mut dyn Bot<G> = bot.as_mut();
                Run { result, fuel: bot.fuel_used_last(), log: bot.take_log() }
            }
        })
    }
}

/// Feeds the capsule's decisions (a capsule of game `G`), in order, to the bot `source` started with the capsule's
/// init info, seed and limits, and compares every reply, fuel count, log and fault with the
/// record. A Lua/WASM bot gets each observation, a legacy bot (`legacy:<protocol>:<file>`) each
/// run's exact stdin bytes, read back as the protocol reads them.
///
/// # Errors
/// The bot is a built-in or not loaded, or a decision cannot be
/// read (an observation without a `legal` list, a legacy decision without its stdin).
pub fn reproduce<G: Game>(capsule: &Capsule, source: &BotSource) -> Result<Reproduction, HostError> {
    let mut report = String::new();
    let limits = match &capsule.limits {
        Some(l) => l.clone(),
        None => {
            report.push_str("warning: the capsule does not record the limits; using the defaults\n");
            match source {
                BotSource::File { program, .. } => Limits::default_for(program.kind()),
                _ => Limits::WASM, // a legacy bot's, as in `BotSource::instantiate_exact`
            }
        }
    };
    let recorded_fault = capsule.fault.fault.clone();
    let started = match source {
        BotSource::File { program, .. } => program
            .start(&limits, sandbox_seed(capsule.seed, capsule.seat, program), capsule.init.get())
            .map(Rerun::Abi),
        BotSource::Legacy { protocol, program, .. } => {
            let mut bot = LegacyBot::new(*protocol, program.clone(), limits);
            bot.start(capsule.seed, capsule.seat);
            Ok(Rerun::Legacy(Box::new(bot), *protocol))
        }
        BotSource::Builtin(name) | BotSource::Failed { name, .. } => {
            return Err(HostError::Request(format!(
                "{name} is not a bot file that loads: repro runs Lua, WASM and legacy bot files"
            )))
        }
    };
    let mut rerun = match started {
        Ok(rerun) => {
            if capsule.fault.decision.is_none() {
                report.push_str("start: recorded FAULT, now it starts\n");
                report.push_str(&format!(
                    "the failure is gone: the bot now starts (recorded: {}: {})\n",
                    capsule.fault.verdict, capsule.fault.message
                ));
                return Ok(Reproduction { report, same_failure: false });
            }
            rerun
        }
        Err(f) => {
            let now = convert(f);
            report.push_str(&format!("start: the bot fails to start: {}: {}\n", now.verdict, now.message));
            if let Some(t) = &now.trace {
                report.push_str(&crate::replay::view::indent(t));
            }
            // A bot whose start failed faults `load` at every later decision (Intensity keeps
            // asking it): those capsules reproduce as a failed start too.
            let never_started = capsule.fault.decision.is_some()
                && capsule
                    .decisions
                    .iter()
                    .all(|d| d.fault.as_ref().is_some_and(|f| f.verdict == Verdict::Load));
            let same =
                (capsule.fault.decision.is_none() && now.verdict == recorded_fault.verdict) || never_started;
            report.push_str(if same {
                "same failure reproduced: the bot does not start\n"
            } else {
                "a different failure: the recorded fault came later; the bot now fails at start\n"
            });
            return Ok(Reproduction { report, same_failure: same });
        }
    };
    report.push_str(&format!(
        "{} decisions of seat {} ({} {}, seed {}); recorded | now\n",
        capsule.decisions.len(),
        capsule.seat,
        capsule.game,
        capsule.variant,
        capsule.seed
    ));
    let mut last_now: Option<Answer> = None;
    let mut differing = 0;
    for d in &capsule.decisions {
        // Valid JSON, but possibly nested past serde_json's recursion limit in a damaged capsule.
        let obs: serde_json::Value = serde_json::from_str(d.observation.get()).map_err(|e| {
            HostError::Damaged(format!(
                "decision #{}: damaged capsule: its observation cannot be read: {e}",
                d.decision
            ))
        })?;
        let legal: Vec<String> =
            obs.get("legal").and_then(|l| serde_json::from_value(l.clone()).ok()).ok_or_else(|| {
                HostError::Damaged(format!(
                    "decision #{}: the observation has no `legal` list of strings",
                    d.decision
                ))
            })?;
        let Run { result, fuel, log } = rerun.act::<G>(d, &obs)?;
        let (reply, fault) = match result {
            Ok(reply) => {
                let judged = judge_reply::<G>(&legal, &reply).err().map(|mut f| {
                    f.fuel_used = fuel;
                    f
                });
                (Some(shorten(&reply)), judged)
            }
            Err(f) => (None, Some(f)),
        };
        let now = Answer { reply, fuel, log, fault };
        let was = Answer {
            reply: d.reply.clone(),
            fuel: d.fuel,
            log: d.log.clone(),
            fault: d.fault.as_ref().map(|f| Fault::new(f.verdict, f.message.clone())),
        };
        let same = was.same_action(&now);
        if !same {
            differing += 1;
        }
        report.push_str(&format!(
            "#{:<4} {} | {}{}{}\n",
            d.decision,
            was.text(),
            now.text(),
            if same { "" } else { "   <- differs" },
            fuel_text(was.fuel, now.fuel)
        ));
        if was.log != now.log {
            for line in &was.log {
                report.push_str(&format!("      recorded log: {line}\n"));
            }
            for line in &now.log {
                report.push_str(&format!("      now log:      {line}\n"));
            }
        } else {
            for line in &now.log {
                report.push_str(&format!("      log: {line}\n"));
            }
        }
        last_now = Some(now);
    }
    // The capsule holds every decision of the bot up to the failing one: the last is its own
    // count.
    let at = capsule
        .fault
        .decision
        .map(|d| format!("your {}", decision_place(capsule.decisions.len(), d)))
        .unwrap_or_else(|| "start".into());
    let Some(now) = last_now else {
        return Err(HostError::Damaged(format!(
            "damaged capsule: the fault is at {at} but the capsule holds no decision"
        )));
    };
    let same_failure = now.fault.as_ref().map(|f| f.verdict) == Some(recorded_fault.verdict);
    match (&now.fault, same_failure) {
        (Some(f), true) => {
            report.push_str(&format!("same failure reproduced at {at}: {}: {}\n", f.verdict, f.message));
            if let Some(t) = &f.trace {
                report.push_str(&crate::replay::view::indent(t));
            }
        }
        (Some(f), false) => {
            report.push_str(&format!(
                "a different failure at {at}: now {}: {} (recorded {}: {})\n",
                f.verdict, f.message, recorded_fault.verdict, recorded_fault.message
            ));
            if let Some(t) = &f.trace {
                report.push_str(&crate::replay::view::indent(t));
            }
        }
        (None, _) => report.push_str(&format!(
            "the failure is gone: at {at}, the bot now replies {}, which is legal (recorded {}: {})\n",
            now.reply.as_deref().map(|r| format!("{r:?}")).unwrap_or_default(),
            recorded_fault.verdict,
            recorded_fault.message
        )),
    }
    if let (Rerun::Legacy(..), Some(d)) = (&rerun, capsule.decisions.last()) {
        // What the program read at the failure, for running it outside the arena.
        report.push_str(&format!(
            "stdin of decision #{} (save it to a file and run the program natively: `./program < file`):\n",
            d.decision
        ));
        report.push_str(&crate::replay::view::indent(d.stdin.as_deref().unwrap_or_default()));
    }
    if differing > 0 && !same_failure {
        report.push_str(&format!(
            "{differing} decision(s) act differently from the record; after the first, the bot is shown the observations the recorded bot saw\n"
        ));
    }
    Ok(Reproduction { report, same_failure })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::bot::{builtin, Bot};
    use crate::games::intensity::Intensity;
    use crate::games::lost_cities::LostCities;
    use crate::games::Observation;
    use crate::play::capsule::{build, encode};
    use crate::play::runner::BotEntry;
    use crate::play::runner::{run_match, MatchSpec, Quiet};

    /// Records every observation text it receives (as a sandboxed bot would get it) and
    /// crashes at its decisions numbered in `crash_at` (1-based), else plays the first legal.
    struct Recorder {
        seen: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
        crash_at: Vec<usize>,
    }
    impl<G: Game> Bot<G> for Recorder {
        fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
            let mut seen = self.seen.lock().unwrap();
            seen.push(serde_json::to_string(obs).unwrap());
            if self.crash_at.contains(&seen.len()) {
                return Err(Fault::new(Verdict::Crash, format!("boom {}", seen.len())));
            }
            Ok(obs.legal()[0].clone())
        }
    }

    fn entries(names: &[&str]) -> Vec<BotEntry> {
        names.iter().map(|n| BotEntry { name: n.to_string(), hash: "ab".repeat(32) }).collect()
    }

    #[test]
    fn every_fault_gets_a_capsule_with_the_exact_observations_the_bot_received() {
        // Intensity keeps a faulty bot playing (+5 and a random move, CONTRACT.md §3): two faults
        // of one seat give two capsules, the second holding every decision up to it.
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let spec = MatchSpec::<Intensity> {
            variant: Intensity::variants()[0],
            seed: 4,
            entries: entries(&["greedy", "bots/rec.lua", "random", "greedy"]),
        };
        let mut bots: Vec<Box<dyn Bot<Intensity>>> = vec![
            builtin::<Intensity>("greedy", 4, 0).unwrap(),
            Box::new(Recorder { seen: seen.clone(), crash_at: vec![2, 5] }),
            builtin::<Intensity>("random", 4, 2).unwrap(),
            builtin::<Intensity>("greedy", 4, 3).unwrap(),
        ];
        let replay = run_match(&spec, &mut bots, &mut Quiet);
        assert_eq!(replay.faults[1].len(), 2);
        let capsules = build::<Intensity>(&replay, Some("ev")).unwrap();
        assert_eq!(capsules.len(), 2, "one per fault of the file bot, none for built-ins");
        let seen = seen.lock().unwrap();
        for (c, n) in capsules.iter().zip([2, 5]) {
            assert_eq!(c.seat, 1);
            assert_eq!(c.event.as_deref(), Some("ev"));
            assert_eq!(c.decisions.len(), n);
            for (d, text) in c.decisions.iter().zip(seen.iter()) {
                assert_eq!(d.observation.get(), text, "byte for byte what the bot got");
            }
            assert_eq!(c.fault.message, format!("boom {n}"));
            assert_eq!(c.decisions.last().unwrap().decision, c.fault.decision.unwrap());
            assert_eq!(
                c.init.get(),
                r#"{"game":"intensity","variant":"standard","seat":1,"players":4,"seed":4}"#
            );
        }
        // names never collide, and the same capsule always gets the same name
        let (a, b) = (encode(&capsules[0]).1, encode(&capsules[1]).1);
        assert_ne!(a, b);
        assert_eq!(a, encode(&capsules[0]).1);
        assert!(a.starts_with("intensity-4-seat1-abababab-"), "{a}");
    }

    #[test]
    fn a_match_without_file_bot_faults_has_no_capsule() {
        let spec = MatchSpec::<LostCities> {
            variant: LostCities::variants()[0],
            seed: 1,
            entries: entries(&["greedy", "random"]),
        };
        let mut bots: Vec<Box<dyn Bot<LostCities>>> = vec![
            builtin::<LostCities>("greedy", 1, 0).unwrap(),
            builtin::<LostCities>("random", 1, 1).unwrap(),
        ];
        let replay = run_match(&spec, &mut bots, &mut Quiet);
        assert!(build::<LostCities>(&replay, None).unwrap().is_empty());
    }
}
