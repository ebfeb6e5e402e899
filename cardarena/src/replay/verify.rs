//! `arena replay --verify`: plays a recorded match again with the same bots (checked by content
//! hash), seed, variant and limits, and compares it decision by decision with the record.

use std::path::{Path, PathBuf};

use crate::bots::bot::is_builtin_name;
use crate::games::Seat;
use crate::play::person::{is_person, Recorded};
use crate::play::registry::{self, BotSource, Loader};
use crate::play::resim::walk;
use crate::play::runner::{DecisionRecord, FaultRecord, Replay};
use crate::play::Match;
use crate::play::{HostError, Hosted};

/// Where to find the bots of a replay.
#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    /// A folder to resolve relative bot paths against when they are not found from the current
    /// folder (the replay file's folder, or the database's, which is the tournament file's).
    pub base: Option<PathBuf>,
    /// Bot files to use instead of the recorded paths, by seat.
    pub overrides: Vec<(Seat, String)>,
}

/// The result of a verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    /// Whether the match played again is identical to the record.
    pub identical: bool,
    /// What to print: warnings (changed files, missing limits), then the verdict.
    pub report: String,
}

/// Verifies `replay` (`source` names it in messages).
///
/// # Errors
/// The replay is damaged, or a bot file is missing or cannot be loaded (the message names the
/// seat and the file).
pub fn verify<G: Hosted>(
    replay: &Replay,
    source: &str,
    opts: &VerifyOptions,
) -> Result<Verification, HostError> {
    walk::<G>(replay, source)?;
    let variant = registry::variant::<G>(Some(&replay.variant))?;
    let loader = Loader::new();
    let mut report = String::new();
    let mut sources = Vec::new();
    for (seat, entry) in replay.bots.iter().enumerate() {
        let given = opts.overrides.iter().rev().find(|(s, _)| *s == seat).map(|(_, p)| p.clone());
        if given.is_none() && is_person(&entry.name) {
            // Nothing plays a person's moves again: they come from the record.
            sources.push(None);
            continue;
        }
        let name = given.clone().unwrap_or_else(|| entry.name.clone());
        let path = if is_builtin_name(&name) {
            name.clone()
        } else if let Some(Ok((protocol, file))) = crate::play::legacy::parse_name(&name) {
            format!("legacy:{}:{}", protocol.name(), find_file(file, opts.base.as_deref(), seat)?)
        } else {
            find_file(&name, opts.base.as_deref(), seat)?
        };
        let bot = loader
            .resolve::<G>(&path)
            .map_err(|e| HostError::Request(format!("seat {seat}: {}", e.chain())))?;
        let hash = bot.entry().hash;
        if hash != entry.hash {
            let what = if is_builtin_name(&name) {
                format!("seat {seat}: built-in {name} is of another arena version than the one that played the match")
            } else {
                format!(
                    "seat {seat}: {path} is not the file that played the match (hash {}, recorded {})",
                    &hash[..12],
                    short(&entry.hash)
                )
            };
            report.push_str(&format!("warning: {what}; its decisions may differ\n"));
        }
        sources.push(Some(bot));
    }
    let limits = if replay.limits.len() == G::PLAYERS {
        replay.limits.clone()
    } else {
        if sources.iter().flatten().any(|s| matches!(s, BotSource::File { .. })) {
            report.push_str("warning: the replay does not record the limits (an older arena wrote it); using the defaults\n");
        }
        vec![None; G::PLAYERS]
    };
    let again = sources
        .iter()
        .zip(&replay.bots)
        .zip(&limits)
        .enumerate()
        .fold(Match::<G>::new(variant, replay.seed), |t, (seat, ((s, entry), l))| match s {
            Some(s) => t.seat_with(entry.clone(), s, l.as_ref()),
            None => t.seat_bot(entry.clone(), Box::new(Recorded::new(replay, seat))),
        })
        .play();
    let name = |s: Seat| replay.bots[s].name.as_str();

    for seat in 0..G::PLAYERS {
        let was: Vec<&FaultRecord> = replay.faults[seat].iter().filter(|f| f.decision.is_none()).collect();
        let now: Vec<&FaultRecord> = again.faults[seat].iter().filter(|f| f.decision.is_none()).collect();
        if was != now {
            report.push_str(&format!(
                "DIFFERS at the start of seat {seat} ({}): recorded {}, now {}\n",
                name(seat),
                init_text(&was),
                init_text(&now)
            ));
            return Ok(Verification { identical: false, report });
        }
    }
    let n = replay.decisions.len().max(again.decisions.len());
    for i in 0..n {
        match (replay.decisions.get(i), again.decisions.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => {
                report.push_str(&format!("DIFFERS at decision #{i} (seat {}, {}):\n", a.seat, name(a.seat)));
                report.push_str(&differences(a, b));
                return Ok(Verification { identical: false, report });
            }
            (Some(a), None) => {
                report.push_str(&format!(
                    "DIFFERS at decision #{i}: the record goes on (seat {} played {:?}) but the match played again ended after {} decisions\n",
                    a.seat, a.played, again.decisions.len()
                ));
                return Ok(Verification { identical: false, report });
            }
            (None, Some(b)) => {
                report.push_str(&format!(
                    "DIFFERS at decision #{i}: the record ends after {} decisions but the match played again goes on (seat {} plays {:?})\n",
                    replay.decisions.len(), b.seat, b.played
                ));
                return Ok(Verification { identical: false, report });
            }
            (None, None) => unreachable!("i < n"),
        }
    }
    if again.outcome != replay.outcome || again.faults != replay.faults {
        report.push_str(&format!(
            "DIFFERS in the result: recorded points {:?} ranks {:?}, now points {:?} ranks {:?}\n",
            replay.outcome.points, replay.outcome.ranks, again.outcome.points, again.outcome.ranks
        ));
        return Ok(Verification { identical: false, report });
    }
    for (seat, entry) in replay.bots.iter().enumerate().filter(|(s, _)| sources[*s].is_none()) {
        report.push_str(&format!(
            "seat {seat} ({}) is a person: their moves are taken from the record (each one legal where it was made); the other seats played again\n",
            entry.name
        ));
    }
    report.push_str(&format!(
        "verified: {} decisions played again; every reply, fuel count, log line and fault is identical, and so is the result\n",
        replay.decisions.len()
    ));
    Ok(Verification { identical: true, report })
}

fn short(hash: &str) -> &str {
    crate::play::runner::prefix(hash, 12)
}

fn init_text(faults: &[&FaultRecord]) -> String {
    match faults.first() {
        None => "started".to_string(),
        Some(f) => format!("failed ({}: {})", f.verdict, f.message),
    }
}

/// What differs between two versions of one decision, one line per field.
pub fn differences(was: &DecisionRecord, now: &DecisionRecord) -> String {
    let mut out = String::new();
    let line = |out: &mut String, field: &str, a: String, b: String| {
        if a != b {
            out.push_str(&format!("  {field:<7} recorded {a}\n  {:<7} now      {b}\n", ""));
        }
    };
    line(&mut out, "seat", was.seat.to_string(), now.seat.to_string());
    line(&mut out, "legal", format!("{:?}", was.legal), format!("{:?}", now.legal));
    line(&mut out, "reply", format!("{:?}", was.reply), format!("{:?}", now.reply));
    line(&mut out, "played", format!("{:?}", was.played), format!("{:?}", now.played));
    line(&mut out, "fuel", format!("{:?}", was.fuel), format!("{:?}", now.fuel));
    line(&mut out, "log", format!("{:?}", was.log), format!("{:?}", now.log));
    let fault = |f: &Option<FaultRecord>| match f {
        None => "no fault".to_string(),
        Some(f) => format!("{}: {}", f.verdict, f.message),
    };
    line(&mut out, "fault", fault(&was.fault), fault(&now.fault));
    if out.is_empty() {
        // Only the trace or memory numbers of the fault differ.
        line(&mut out, "fault", format!("{:?}", was.fault), format!("{:?}", now.fault));
    }
    out
}

/// Finds a recorded bot path: as given (from the current folder), else under `base`.
fn find_file(name: &str, base: Option<&Path>, seat: Seat) -> Result<String, HostError> {
    if Path::new(name).is_file() {
        return Ok(name.to_string());
    }
    if let Some(base) = base {
        let p = base.join(name);
        if p.is_file() {
            return Ok(p.display().to_string());
        }
    }
    let looked = match base {
        Some(b) => format!("from the current folder and from {}", b.display()),
        None => "from the current folder".to_string(),
    };
    Err(HostError::Request(format!(
        "seat {seat}: bot file {name} not found ({looked}); give its path with --bot {seat}=PATH"
    )))
}
