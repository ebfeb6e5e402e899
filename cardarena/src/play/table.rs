//! The one way a match is played: seat the bots of a [`Match`], then [`Match::play`]. Every
//! caller (the command line, tournaments, `check`, `grade`, `sprt`, `verify`, `bench`, the
//! [`crate::Arena`] façade) goes through it, so that a replay always records the same things.

use cardarena_sandbox::Limits;

use crate::bots::bot::Bot;
use crate::play::limits::LimitsConfig;
use crate::play::registry::BotSource;
use crate::play::runner::{run_match, BotEntry, MatchObserver, MatchSpec, Quiet, Replay};
use crate::play::Hosted;

/// One match of game `G` being set up: the variant, the seed, and the seats filled in order.
pub struct Match<G: Hosted> {
    variant: G::Variant,
    seed: u64,
    entries: Vec<BotEntry>,
    bots: Vec<Box<dyn Bot<G>>>,
    limits: Vec<Option<Limits>>,
}

impl<G: Hosted> Match<G> {
    /// A match of `variant` dealt from `seed`, with no seat filled yet.
    pub fn new(variant: G::Variant, seed: u64) -> Match<G> {
        Match { variant, seed, entries: Vec::new(), bots: Vec::new(), limits: Vec::new() }
    }

    /// Seats a loaded bot next, under `limits` for its kind (a built-in has none).
    pub fn seat(self, source: &BotSource, limits: &LimitsConfig) -> Match<G> {
        let exact = source.limits(limits);
        self.seat_with(source.entry(), source, exact.as_ref())
    }

    /// Seats a loaded bot next under exactly these limits (`None`: its kind's defaults), recorded
    /// under `entry` (re-playing a replay records the names and hashes it had).
    pub fn seat_with(self, entry: BotEntry, source: &BotSource, limits: Option<&Limits>) -> Match<G> {
        self.seat_wrapped(entry, source, limits, |bot| bot)
    }

    /// As [`Match::seat_with`], with the bot passed through `wrap` first (a bot that watches
    /// its own decisions, or that a stopped run makes fail at once: [`crate::bots::bot::Around`]).
    pub fn seat_wrapped(
        mut self,
        entry: BotEntry,
        source: &BotSource,
        limits: Option<&Limits>,
        wrap: impl FnOnce(Box<dyn Bot<G>>) -> Box<dyn Bot<G>>,
    ) -> Match<G> {
        let seat = self.bots.len();
        self.bots.push(wrap(source.instantiate_exact::<G>(self.seed, seat, limits)));
        self.limits.push(limits.cloned());
        self.entries.push(entry);
        self
    }

    /// Seats any [`Bot`] next (a person at the terminal, a bot under test), recorded as `entry`
    /// with no sandbox limits.
    pub fn seat_bot(mut self, entry: BotEntry, bot: Box<dyn Bot<G>>) -> Match<G> {
        self.bots.push(bot);
        self.limits.push(None);
        self.entries.push(entry);
        self
    }

    /// Plays the match to its end.
    ///
    /// # Panics
    /// If the number of seats filled is not `G::PLAYERS` (a caller's bug).
    pub fn play(self) -> Replay {
        self.play_observed(&mut Quiet)
    }

    /// Plays the match, telling `observer` every event as it happens (the game log of `arena play`).
    ///
    /// # Panics
    /// As [`Match::play`].
    pub fn play_observed(self, observer: &mut dyn MatchObserver<G>) -> Replay {
        self.play_measured(observer).0
    }

    /// Plays the match as [`Match::play_observed`], and also returns each seat's peak memory in
    /// bytes (sandboxed bots; `None` for the others), for `arena check`.
    ///
    /// # Panics
    /// As [`Match::play`].
    pub fn play_measured(mut self, observer: &mut dyn MatchObserver<G>) -> (Replay, Vec<Option<u64>>) {
        let spec = MatchSpec::<G> { variant: self.variant, seed: self.seed, entries: self.entries };
        let mut replay = run_match(&spec, &mut self.bots, observer);
        replay.limits = self.limits;
        (replay, self.bots.iter().map(|b| b.memory_peak()).collect())
    }
}
