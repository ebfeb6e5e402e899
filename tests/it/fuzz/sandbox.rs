//! Runs one bot program through the sandbox as the arena does (load, start, decisions) and
//! writes down everything that must come out the same on a second run.

use std::fmt::Write;
use std::sync::OnceLock;

use cardarena_sandbox::{Fault, Kind, Limits, Sandbox, Verdict};

/// One sandbox for the whole test process, as the arena has one per process.
pub fn shared() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| Sandbox::new().expect("the sandbox starts"))
}

pub struct Run {
    /// Every result and number, one line per stage.
    pub summary: String,
    /// The verdict of each stage that failed, with the stage's name.
    pub verdicts: Vec<(String, Verdict)>,
}

impl Run {
    /// A decision never ends as `load`: that verdict only comes from loading or starting.
    pub fn no_load_in_a_decision(&self) -> Result<(), String> {
        for (stage, verdict) in &self.verdicts {
            if *verdict == Verdict::Load && stage.starts_with("act") {
                return Err(format!("{stage}: a decision ended as `load`"));
            }
        }
        Ok(())
    }
}

const INIT: &str = r#"{"game":"blade","variant":"readme","seat":0,"players":2,"seed":7}"#;
const OBSERVATIONS: [&str; 2] = [
    r#"{"phase":"play","seat":0,"legal":["1","B","M"],"hand":[1,2,3]}"#,
    r#"{"phase":"draw","seat":0,"legal":["x"],"deep":[[[[[[[[[[]]]]]]]]]],"s":"\u0000é"}"#,
];

/// Load, start and two decisions, checking on the way the properties every fault must have.
pub fn run(kind: Kind, name: &str, bytes: &[u8], limits: &Limits) -> Result<Run, String> {
    let mut run = Run { summary: String::new(), verdicts: Vec::new() };
    let program = match shared().load(name, kind, bytes) {
        Ok(p) => p,
        Err(f) => {
            record(&mut run, "load", &f, limits)?;
            return Ok(run);
        }
    };
    writeln!(run.summary, "load: ok {}", program.hash()).unwrap();
    let mut instance = match program.start(limits, 7, INIT) {
        Ok(i) => i,
        Err(f) => {
            record(&mut run, "start", &f, limits)?;
            return Ok(run);
        }
    };
    writeln!(run.summary, "start: ok fuel {} memory {}", instance.fuel_init(), instance.memory_peak())
        .unwrap();
    for (i, obs) in OBSERVATIONS.iter().enumerate() {
        let stage = format!("act {i}");
        match instance.act(obs) {
            Ok(reply) => {
                if reply.len() > cardarena_sandbox::MAX_REPLY_BYTES {
                    return Err(format!("{stage}: a reply of {} bytes was accepted", reply.len()));
                }
                writeln!(run.summary, "{stage}: {reply:?} fuel {}", instance.fuel_used_last()).unwrap();
            }
            Err(f) => record(&mut run, &stage, &f, limits)?,
        }
        if instance.memory_peak() > limits.memory_bytes {
            return Err(format!(
                "{stage}: memory peak {} over the cap {}",
                instance.memory_peak(),
                limits.memory_bytes
            ));
        }
        writeln!(
            run.summary,
            "  log {:?} total {} memory {}",
            instance.take_log(),
            instance.fuel_total(),
            instance.memory_peak()
        )
        .unwrap();
    }
    Ok(run)
}

/// Adds a fault to the summary after checking it: a message, a peak within the cap.
fn record(run: &mut Run, stage: &str, f: &Fault, limits: &Limits) -> Result<(), String> {
    if f.message.trim().is_empty() {
        return Err(format!("{stage}: a {} fault with no message", f.verdict));
    }
    if f.memory_peak > limits.memory_bytes {
        return Err(format!(
            "{stage}: {} fault with memory peak {} over the cap {}",
            f.verdict, f.memory_peak, limits.memory_bytes
        ));
    }
    run.verdicts.push((stage.to_string(), f.verdict));
    writeln!(run.summary, "{stage}: {f}\n  trace {:?}", f.trace).unwrap();
    Ok(())
}

/// How far a run got, from its summary, as coverage labels: `refused at load`, `failed at start`
/// or `reached a decision`; `decision fault: V` for each verdict V a decision ended with;
/// `hit memory` when any stage ended as `memory`; `peak over half the cap` and `peak over 90% of
/// the cap` when the bot's memory peak passed those.
pub fn coverage(summary: &str, cap: u64) -> Vec<String> {
    let mut labels = Vec::new();
    let stage = |name: &str| summary.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(": "));
    if !stage("load").is_some_and(|s| s.starts_with("ok ")) {
        labels.push("refused at load".to_string());
    } else if !stage("start").is_some_and(|s| s.starts_with("ok ")) {
        labels.push("failed at start".to_string());
    } else {
        labels.push("reached a decision".to_string());
    }
    // A fault's line is `stage: verdict: message (...)`; a reply's is `act N: "reply" fuel N`.
    let mut hit_memory = false;
    for line in summary.lines() {
        let Some((stage, rest)) = line.split_once(": ") else { continue };
        let is_stage = stage == "load" || stage == "start" || stage.starts_with("act ");
        if !is_stage || rest.starts_with("ok ") || rest.starts_with('"') {
            continue;
        }
        let Some((verdict, _)) = rest.split_once(": ") else { continue };
        hit_memory |= verdict == "memory";
        if stage.starts_with("act ") {
            let label = format!("decision fault: {verdict}");
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
    }
    if hit_memory {
        labels.push("hit memory".to_string());
    }
    // Peaks: `memory N` in a decision's log line, `memory peak N bytes` in a fault.
    let peak = summary
        .split("memory ")
        .skip(1)
        .filter_map(|s| {
            s.trim_start_matches("peak ").split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        })
        .max()
        .unwrap_or(0u64);
    if peak > cap / 2 {
        labels.push("peak over half the cap".to_string());
    }
    if peak > cap / 10 * 9 {
        labels.push("peak over 90% of the cap".to_string());
    }
    labels
}
