//! A replay as frames for the web viewer: one frame per decision and one for the end, each with
//! the spectator's board and every seat's view, built by re-simulating the replay
//! ([`crate::play::resim::walk`]) so that the viewer needs no rules of its own.

use serde::Serialize;

use crate::games::view::View;
pub use crate::games::view::{CardSpan, Table};
use crate::games::{Outcome, Seat};
use crate::play::resim::walk;
use crate::play::runner::{BotEntry, FaultRecord, Replay};
use crate::play::{GameId, HostError, Hosted};

/// The frames format version (the `viewer` field), raised when a field changes meaning.
pub const FRAMES_FORMAT: u32 = 1;

/// A whole match for the viewer.
#[derive(Clone, Debug, Serialize)]
pub struct Frames {
    /// Format version, [`FRAMES_FORMAT`].
    pub viewer: u32,
    /// Game name.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// The match seed, as decimal text (a `u64` does not fit a JavaScript number).
    pub seed: String,
    /// Seats at the table.
    pub players: usize,
    /// The bots in seat order, with their content hashes.
    pub bots: Vec<BotEntry>,
    /// What the outcome's points are (`GameId::points_word`).
    pub points_word: &'static str,
    /// Whether fewer points are better (Intensity's penalty points).
    pub fewer_points_better: bool,
    /// The result.
    pub outcome: Outcome,
    /// `Some(seat)` when these frames hold only what that seat saw ([`Frames::for_seat`]); the
    /// viewer then shows that seat's point of view only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// One frame per decision (the position it was made in), then one for the end: as many as
    /// the replay's decisions plus one.
    pub frames: Vec<Frame>,
}

/// One step of the match.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// Its index in [`Frames::frames`].
    pub step: usize,
    /// The position as a spectator sees it (every hidden card), the game's text board
    /// ([`View::render_state`]).
    pub board: String,
    /// The same position laid out with its cards as cards, for games that have such a layout
    /// ([`View::table_of_state`]); the viewer then draws it instead of the text board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Table>,
    /// Every seat's hand as that seat sees it (its observation's `hand`).
    pub hands: Vec<Vec<CardSpan>>,
    /// What each seat sees of this position, in seat order.
    pub seats: Vec<SeatFrame>,
    /// The decision made in this position; `None` in the last frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Move>,
    /// The faults of this step: of its decision, and in the first frame the failures at start.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub badges: Vec<Badge>,
    /// A remark on the step (in the last frame: a fault ended the match).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One seat's view of a frame's position.
#[derive(Clone, Debug, Serialize)]
pub struct SeatFrame {
    /// The seat's board, drawn from its observation alone ([`View::render_observation`]).
    pub view: String,
    /// The seat's view laid out with its cards as cards ([`View::table_of_observation`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Table>,
    /// When this seat decides in this frame: the observation JSON exactly as the bot received it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<String>,
    /// When this seat decides and is a legacy stdin/stdout program: the exact stdin of its run
    /// (docs/legacy-bots.md), which is what it received instead of the JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdin: Option<String>,
}

/// A decision, as the replay records it.
#[derive(Clone, Debug, Serialize)]
pub struct Move {
    /// Index into the replay's decisions.
    pub index: usize,
    /// The seat that decided.
    pub seat: Seat,
    /// Other seats decided blind in the same position (E-card plays, the Intensity pass).
    pub simultaneous: bool,
    /// What the bot replied (`None`: no reply).
    pub reply: Option<String>,
    /// The action applied (`None`: the fault ended the match).
    pub played: Option<String>,
    /// What the other seats learn of the played action ([`View::public_action`]).
    pub public: Option<String>,
    /// Fuel used, for sandboxed bots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuel: Option<u64>,
    /// Lines the bot logged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
}

/// A fault, shown on the step where it happened.
#[derive(Clone, Debug, Serialize)]
pub struct Badge {
    /// The faulty seat.
    pub seat: Seat,
    /// The verdict (`fuel`, `memory`, `illegal`, ...).
    pub verdict: String,
    /// The decision it happened at; `None` for a failure at start.
    pub decision: Option<usize>,
    /// The fault's message.
    pub message: String,
    /// Its traceback or backtrace, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
}

impl Badge {
    fn new(seat: Seat, f: &FaultRecord) -> Badge {
        Badge {
            seat,
            verdict: f.verdict.to_string(),
            decision: f.decision,
            message: f.message.clone(),
            trace: f.trace.clone(),
        }
    }
}

/// The frames of a replay of `G`; `file` names it in errors.
///
/// # Errors
/// The replay is not a consistent match of `G` (as [`walk`]).
pub fn frames_of<G: Hosted>(replay: &Replay, file: &str) -> Result<Frames, HostError> {
    let walked = walk::<G>(replay, file)?;
    let mut frames = Vec::with_capacity(replay.decisions.len() + 1);
    for p in &walked.points {
        let received: Vec<(String, Option<String>)> = p
            .seats
            .iter()
            .map(|&s| {
                let obs = p.before.observe(s);
                let json = serde_json::to_string(&obs).expect("observations serialize");
                (json, crate::play::legacy::stdin_text(&replay.bots[s].name, &obs))
            })
            .collect();
        for (k, &seat) in p.seats.iter().enumerate() {
            let index = p.first + k;
            let d = &replay.decisions[index];
            let mut frame = position::<G>(&p.before, index);
            (frame.seats[seat].observation, frame.seats[seat].stdin) =
                (Some(received[k].0.clone()), received[k].1.clone());
            frame.decision = Some(Move {
                index,
                seat,
                simultaneous: p.seats.len() > 1,
                reply: d.reply.clone(),
                played: d.played.clone(),
                public: d.played.as_deref().map(G::public_action),
                fuel: d.fuel,
                log: d.log.clone(),
            });
            frame.badges = d.fault.iter().map(|f| Badge::new(seat, f)).collect();
            frames.push(frame);
        }
    }
    let mut end = position::<G>(&walked.end, frames.len());
    if walked.points.last().is_some_and(|p| p.after.is_none()) {
        end.note = Some("the match ends here: the fault forfeits it".to_string());
    }
    frames.push(end);
    // Failures at start belong to the first step.
    for (seat, faults) in replay.faults.iter().enumerate() {
        for f in faults.iter().filter(|f| f.decision.is_none()) {
            frames[0].badges.insert(0, Badge::new(seat, f));
        }
    }
    Ok(Frames {
        viewer: FRAMES_FORMAT,
        game: replay.game.clone(),
        variant: replay.variant.clone(),
        seed: replay.seed.to_string(),
        players: G::PLAYERS,
        bots: replay.bots.clone(),
        points_word: GameId::of::<G>().points_word(),
        fewer_points_better: G::FEWER_POINTS_BETTER,
        outcome: replay.outcome.clone(),
        seat: None,
        frames,
    })
}

impl Frames {
    /// Only what `seat` saw, for a page that must not hold the rest (a person playing a bot, a
    /// player shown their own matches): its board as the spectator's, its own hand, its own
    /// observations, moves and faults; other seats' moves as far as it learns them (nothing of a
    /// simultaneous choice, [`View::public_action`] of the others) without their replies, fuel or
    /// logs; other seats' hands, views and faults left out.
    ///
    /// # Panics
    /// `seat` is not a seat of the game.
    pub fn for_seat(&self, seat: Seat) -> Frames {
        assert!(seat < self.players, "seat {seat} of a {}-player game", self.players);
        let mut out = self.clone();
        out.seat = Some(seat);
        for frame in &mut out.frames {
            frame.board = frame.seats[seat].view.clone();
            frame.table = frame.seats[seat].table.clone();
            for (s, (hand, view)) in frame.hands.iter_mut().zip(&mut frame.seats).enumerate() {
                if s != seat {
                    hand.clear();
                    *view = SeatFrame { view: String::new(), table: None, observation: None, stdin: None };
                }
            }
            if let Some(m) = frame.decision.as_mut().filter(|m| m.seat != seat) {
                m.played = if m.simultaneous { None } else { m.public.clone() };
                m.public = m.played.clone();
                m.reply = None;
                m.fuel = None;
                m.log.clear();
            }
            frame.badges.retain(|b| b.seat == seat);
        }
        out
    }
}

/// A frame of `state` without a decision: the boards and hands of every seat.
fn position<G: Hosted>(state: &G, step: usize) -> Frame {
    let mut hands = Vec::with_capacity(G::PLAYERS);
    let mut seats = Vec::with_capacity(G::PLAYERS);
    for s in 0..G::PLAYERS {
        let obs = state.observe(s);
        hands.push(hand::<G>(&obs));
        seats.push(SeatFrame {
            view: G::render_observation(&obs),
            table: G::table_of_observation(&obs),
            observation: None,
            stdin: None,
        });
    }
    Frame {
        step,
        board: state.render_state(),
        table: state.table_of_state(),
        hands,
        seats,
        decision: None,
        badges: Vec::new(),
        note: None,
    }
}

/// The `hand` of an observation (every game's observation has one), as card spans.
fn hand<G: View>(obs: &G::Observation) -> Vec<CardSpan> {
    hand_of_value(&serde_json::to_value(obs).expect("observations serialize"), CardSpan::of::<G>)
}

/// One decision as a live page draws it (a person playing a bot, shown only their seat): the
/// hand of the seat's observation (its JSON, as the bot would receive it) and the legal moves,
/// as the viewer's card spans (a move that is not a card gets the class a card of its text
/// would).
///
/// # Errors
/// The observation is not JSON.
pub fn live_cards(
    game: GameId,
    observation: &str,
    moves: &[String],
) -> Result<(Vec<CardSpan>, Vec<CardSpan>), HostError> {
    let value: serde_json::Value = serde_json::from_str(observation)
        .map_err(|e| HostError::Damaged(format!("an observation of {}: {e}", game.name())))?;
    let span = |text: String| CardSpan { class: game.card_class(&text), text };
    Ok((hand_of_value(&value, span), moves.iter().map(|m| span(m.clone())).collect()))
}

fn hand_of_value(value: &serde_json::Value, span: impl Fn(String) -> CardSpan) -> Vec<CardSpan> {
    let cards = value.get("hand").and_then(|h| h.as_array()).cloned().unwrap_or_default();
    cards
        .iter()
        .map(|c| {
            let text = match c {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            span(text)
        })
        .collect()
}

#[cfg(test)]
mod tests;
