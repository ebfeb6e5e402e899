//! Reading a replay back and re-simulating it against the rules, decision point by decision
//! point ([`walk`]): what `arena replay` draws, `--verify` checks and crash capsules are made
//! from.
//!
//! A replay is untrusted input: every inconsistency (bad JSON, a deal that is not a deal of the
//! game, a seat that was not to act, an action that is not legal) is an error naming the source
//! and the decision, never a panic.

use std::path::Path;

use crate::games::{FaultPolicy, Game, Seat};
use crate::play::runner::{Replay, REPLAY_FORMAT};
use crate::play::HostError;

/// Reads a replay file.
///
/// # Errors
/// The file cannot be read, is not a replay, or was written by a newer arena.
pub fn load_file(path: &Path) -> Result<Replay, HostError> {
    let text = std::fs::read_to_string(path)
        .map_err(HostError::io(format!("cannot read replay file {}", path.display())))?;
    let replay: Replay = serde_json::from_str(&text).map_err(|e| {
        HostError::Damaged(format!(
            "{} is not a replay file (see `arena docs replay` for the format): {e}",
            path.display()
        ))
    })?;
    check_format(&replay, &path.display().to_string())?;
    Ok(replay)
}

pub fn check_format(replay: &Replay, source: &str) -> Result<(), HostError> {
    if replay.format > REPLAY_FORMAT {
        return Err(HostError::Damaged(format!(
            "{source}: replay format {} is newer than this arena's ({REPLAY_FORMAT}); update the arena",
            replay.format
        )));
    }
    Ok(())
}

/// One decision point of a replayed match: the seats asked together and the positions around it.
#[derive(Clone, Debug)]
pub struct Point<G: Game> {
    /// Index into [`Replay::decisions`] of the point's first decision (one per seat in `seats`).
    pub first: usize,
    /// The seats asked, in seat order.
    pub seats: Vec<Seat>,
    /// The position the observations were built from.
    pub before: G,
    /// The position after the point's actions; `None` when a fault ended the match at this point
    /// (nothing of it was applied).
    pub after: Option<G>,
}

/// A replay re-simulated against the rules.
#[derive(Clone, Debug)]
pub struct Walk<G: Game> {
    /// The dealt position.
    pub start: G,
    /// Every decision point, in order.
    pub points: Vec<Point<G>>,
    /// The last position.
    pub end: G,
}

/// Re-simulates `replay` from its deal with its played actions; `source` names it in errors.
///
/// # Errors
/// The replay is not a consistent match of `G` (the message names the source and the decision).
pub fn walk<G: Game>(replay: &Replay, source: &str) -> Result<Walk<G>, HostError> {
    if replay.game != G::NAME {
        return Err(HostError::Damaged(format!(
            "{source}: a replay of {:?}, not of {}",
            replay.game,
            G::NAME
        )));
    }
    let n = G::PLAYERS;
    if replay.bots.len() != n
        || replay.faults.len() != n
        || replay.outcome.points.len() != n
        || replay.outcome.ranks.len() != n
    {
        return Err(HostError::Damaged(format!(
            "{source}: {} is a {n}-player game but the replay's bots, faults or outcome are not one per seat",
            G::NAME
        )));
    }
    let setup: G::Setup = serde_json::from_value(replay.deal.clone())
        .map_err(|e| HostError::Damaged(format!("{source}: `deal` is not a {} deal: {e}", G::NAME)))?;
    let start = G::from_setup(setup).map_err(|e| HostError::Damaged(format!("{source}: `deal`: {e}")))?;
    if start.variant().to_string() != replay.variant {
        return Err(HostError::Damaged(format!(
            "{source}: `variant` is {:?} but the deal is of variant {}",
            replay.variant,
            start.variant()
        )));
    }
    // The fault policy as the runner applies it: in a penalty game, a fault at start or at a
    // decision adds the penalty before the decision point's actions are applied.
    let penalty = match G::FAULT_POLICY {
        FaultPolicy::PenaltyAndRandomMove(points) => Some(points),
        FaultPolicy::Forfeit => None,
    };
    let mut start = start;
    if let Some(points) = penalty {
        for (seat, faults) in replay.faults.iter().enumerate() {
            for _ in faults.iter().filter(|f| f.decision.is_none()) {
                start.add_penalty(seat, points);
            }
        }
    }
    let mut state = start.clone();
    let mut points = Vec::new();
    let decisions = &replay.decisions;
    let mut i = 0;
    let mut ended_by_fault = false;
    while i < decisions.len() {
        if ended_by_fault || state.is_over() {
            return Err(HostError::Damaged(format!(
                "{source}: decision #{i} comes after the end of the match"
            )));
        }
        let seats = state.to_act();
        if i + seats.len() > decisions.len() {
            return Err(HostError::Damaged(format!(
                "{source}: decision #{i}: the replay stops in the middle of a decision point (seats {:?} were to act)",
                seats
            )));
        }
        let before = state.clone();
        let group = &decisions[i..i + seats.len()];
        ended_by_fault = group.iter().any(|d| d.played.is_none());
        if let Some(points) = penalty {
            for d in group.iter().filter(|d| d.fault.is_some()) {
                if d.seat < n {
                    state.add_penalty(d.seat, points);
                }
            }
        }
        for (k, (d, &seat)) in group.iter().zip(&seats).enumerate() {
            let index = i + k;
            if d.seat != seat {
                return Err(HostError::Damaged(format!(
                    "{source}: decision #{index} is by seat {} but seat {seat} was to act",
                    d.seat
                )));
            }
            if ended_by_fault {
                if d.played.is_some() {
                    return Err(HostError::Damaged(format!(
                        "{source}: decision #{index} has a move although its decision point ended the match"
                    )));
                }
                continue;
            }
            let action = d.played.as_deref().unwrap_or_default();
            state
                .play(seat, action)
                .map_err(|e| HostError::Damaged(format!("{source}: decision #{index} (seat {seat}): {e}")))?;
        }
        if ended_by_fault && replay.faults.iter().flatten().all(|f| f.decision.is_none_or(|d| d < i)) {
            return Err(HostError::Damaged(format!(
                "{source}: decision #{i}: no move was played but no fault ended the match there"
            )));
        }
        points.push(Point {
            first: i,
            seats: seats.clone(),
            before,
            after: (!ended_by_fault).then(|| state.clone()),
        });
        i += seats.len();
    }
    let fault_at_init = replay.faults.iter().flatten().any(|f| f.decision.is_none());
    if !ended_by_fault && !state.is_over() && !fault_at_init {
        return Err(HostError::Damaged(format!(
            "{source}: the replay stops after {} decisions but the match is not over",
            decisions.len()
        )));
    }
    if let Some(outcome) = state.outcome() {
        if outcome != replay.outcome {
            return Err(HostError::Damaged(format!(
                "{source}: the recorded outcome (points {:?}, ranks {:?}) is not the rules' (points {:?}, ranks {:?})",
                replay.outcome.points,
                replay.outcome.ranks,
                outcome.points,
                outcome.ranks
            )));
        }
    }
    Ok(Walk { start, points, end: state })
}
