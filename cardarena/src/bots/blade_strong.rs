//! Blade's `strong` bot: determinized search over the hidden cards (perfect-information Monte
//! Carlo), exact where the position is small enough.
//!
//! The hidden cards are the opponent's hand and both decks (the own deck's order is hidden from
//! its owner too). Their multiset is the observation's `unseen`; everything else (both fields
//! with their bolted cards, the own hand, the counts) is public or known. One **determinization**
//! deals `unseen`, shuffled by the bot's rng, into the opponent's hand and the two decks (in
//! drawing order); the result is a full position that agrees with the observation by
//! construction ([`Pos::from_observation`]). For every determinization and every legal card the
//! bot plays the card in a compact copy of the rules ([`Pos`], checked against the engine move
//! for move by the tests) and values the result from its own seat (+1 win, 0 draw, −1 loss):
//!
//! - by [`ROLLOUTS`] playout of a quick, deterministic policy for both seats that sees only the
//!   mover's own hand, like a real player (go ahead with the cheapest card, spend B/M before
//!   they are the last cards, keep 1s against Bolts, see [`rollout_choice`]);
//! - or **exactly**, by alpha–beta over the perfect-information game to its end, when both hands
//!   together hold at most [`EXACT_CARDS`] cards and the search finishes within [`NODE_LIMIT`]
//!   nodes. Off by default (0 cards): with every hidden card known to both seats it values
//!   positions no better than the playouts do (docs/games/blade.md).
//!
//! **Opponent model.** Each determinization is weighted by how likely the opponent's past turns
//! are if it held that hand ([`Replay::likelihood`]), the opponent being one of two players:
//! one that plays like the playout policy (a softmax of its rating), or one that plays any of
//! its cards (uniform); the weight is the mixture of the two likelihoods (prior 0.2 on the
//! first), which is Bayes over the opponent's type as well as over its hand. Against a player
//! like the policy, a determinization in which the opponent had a cheaper card that went ahead,
//! yet played a dearer one, counts less; against one whose cards the policy does not explain
//! (another searcher), the weights stay near uniform instead of trusting a wrong model.
//!
//! The card with the highest weighted total over the determinizations is played; ties go to the
//! cheaper card. The budget is the number of determinizations per decision (default
//! [`DEFAULT_BUDGET`]; decisions with fewer than 6 candidate cards get proportionally more, so
//! every decision plays about as many playouts), and the work of a decision (moves played in
//! playouts and opponent turns replayed) is capped at [`WORK_PER_DET`] per determinization of
//! the budget, which bounds the first, widest decisions. The work goes in rounds of
//! **sequential halving**: after each round the worse half of the cards still in play drops out,
//! so the best cards get the most playouts. The same determinizations are used for every card
//! (common random numbers). Nothing is carried between decisions. [`LEVELS`] are the `strong:N`
//! levels.

use crate::bots::bot::{Bot, Fault, Verdict};
use crate::bots::search::{drop_worse_half, halving_rounds};
use crate::bots::{Greedy, Level};
use crate::games::blade::{Blade, BladeObservation, Card, Event, Phase, Source, Variant};
use crate::games::rng::{Rng, Stream};
use crate::games::Seat;

#[cfg(test)]
mod ismcts;
#[cfg(test)]
mod judge;

/// Determinizations per decision when no budget is given.
pub const DEFAULT_BUDGET: u32 = 250;
/// `strong:1` … `strong:4`: the lowest two play some random cards, `strong:3` searches with 4
/// determinizations, `strong:4` with the default (docs/zoo.md has their ratings; budgets of 30
/// and 2000 rated less than +50 from their neighbours, so they are not levels).
pub const LEVELS: &[Level] = &[
    Level { budget: Some(4), random_per_mille: 500 },
    Level { budget: Some(4), random_per_mille: 200 },
    Level::search(4),
    Level::search(DEFAULT_BUDGET),
];
/// The level plain `strong` plays (1-based): [`DEFAULT_BUDGET`].
pub const DEFAULT_LEVEL: usize = 4;
/// Exact search is tried when both hands together hold at most this many cards.
pub const EXACT_CARDS: usize = 0;
/// The most nodes one exact search may visit before it gives up for playouts.
pub const NODE_LIMIT: u32 = 4000;
/// The most work a decision may do per determinization of its budget: moves played in playouts
/// plus opponent turns replayed by the model, at least [`MIN_WORK`].
pub const WORK_PER_DET: u64 = 36;
/// The least work cap, so that the smallest budgets search as many determinizations as asked.
pub const MIN_WORK: u64 = 1000;
/// Playouts per (determinization, card) when the position is not solved exactly.
pub const ROLLOUTS: u32 = 1;

/// The search's knobs (the constants above).
#[derive(Clone, Copy, Debug)]
struct Params {
    exact_cards: usize,
    node_limit: u32,
    rollouts: u32,
    peek: bool,
    noise: f64,
    /// Opponent model: temperature and floor of [`Replay::likelihood`]; `temp` 0: no inference.
    temp: f64,
    floor: f64,
    /// Opponent model as a mixture of two players (Bayes over the opponent's type): with prior
    /// `mix` it plays like the playout policy (a softmax of the rating at `temp`, each turn's
    /// probability at least `floor`), else any of its distinct cards uniformly. 1.0: the policy
    /// player alone, unnormalized (each turn `exp(-(rating - best) / temp)`, at least `floor`).
    mix: f64,
    /// Decisions with fewer candidate cards than this get proportionally more determinizations.
    wide: u32,
    /// The playout policy (and the opponent model) rate a move by the chance that the opponent
    /// has no answer, from the mover's view of the unseen cards (as `greedy` does).
    hyper: bool,
    /// Sequential halving over the cards (see [`evaluate`]).
    halving: bool,
}

impl Params {
    const DEFAULT: Params = Params {
        exact_cards: EXACT_CARDS,
        node_limit: NODE_LIMIT,
        rollouts: ROLLOUTS,
        peek: false,
        noise: 0.0,
        temp: 0.5,
        floor: 0.02,
        mix: 0.2,
        wide: 6,
        hyper: true,
        halving: true,
    };
}

// ---------------------------------------------------------------------------------------------
// A compact copy of the rules (CONTRACT.md §1 blade, seed-games.md §1(b))
// ---------------------------------------------------------------------------------------------

const ONE: u8 = 0;
const BOLT: u8 = 7;
const MIRROR: u8 = 8;
/// Flag on a field card: bolted (worth 0).
const BOLTED: u8 = 0x10;
/// Room on one field; the most cards a field can hold is 2 set-up cards + 20 plays.
const FIELD_CAP: usize = 32;

fn value(card: u8) -> u16 {
    match card & !BOLTED {
        c @ 1..=6 => u16::from(c) + 1,
        _ => 1, // 1, B and M
    }
}

fn is_effect(card: u8) -> bool {
    card == BOLT || card == MIRROR
}

/// A field: cards bottom first, with the score kept up to date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    cards: [u8; FIELD_CAP],
    len: u8,
    score: u16,
}

impl Field {
    const EMPTY: Field = Field { cards: [0; FIELD_CAP], len: 0, score: 0 };

    fn top_bolted(&self) -> bool {
        self.len > 0 && self.cards[usize::from(self.len) - 1] & BOLTED != 0
    }

    fn push(&mut self, card: u8) {
        if usize::from(self.len) < FIELD_CAP {
            self.cards[usize::from(self.len)] = card;
            self.len += 1;
            self.score += value(card);
        }
    }

    /// Removes a bolted top card (worth 0, so the score stays).
    fn pop_bolted(&mut self) {
        if self.top_bolted() {
            self.len -= 1;
        }
    }

    /// A Bolt lands: a bolted top card goes, then the new top card is bolted.
    fn bolt(&mut self) {
        self.pop_bolted();
        if self.len > 0 {
            let top = &mut self.cards[usize::from(self.len) - 1];
            if *top & BOLTED == 0 {
                self.score -= value(*top);
                *top |= BOLTED;
            }
        }
    }

    /// A `1` in a turn: revives a bolted top card, else lies on the field.
    fn one(&mut self) {
        if self.top_bolted() {
            let top = &mut self.cards[usize::from(self.len) - 1];
            *top &= !BOLTED;
            self.score += value(*top);
        } else {
            self.push(ONE);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Pick(u8),
    Turn(u8),
    /// Over; the winner, `None` for a draw.
    Over(Option<u8>),
}

/// A full Blade position (every card known), cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    controller: bool,
    /// Hand counts per card index.
    hands: [[u8; 9]; 2],
    hand_len: [u8; 2],
    /// Draw piles; index `deck_len - 1` is drawn next.
    decks: [[u8; 16]; 2],
    deck_len: [u8; 2],
    fields: [Field; 2],
    stage: Stage,
}

impl Pos {
    fn score(&self, seat: usize) -> u16 {
        self.fields[seat].score
    }

    fn mover(&self) -> Option<usize> {
        match self.stage {
            Stage::Pick(s) | Stage::Turn(s) => Some(usize::from(s)),
            Stage::Over(_) => None,
        }
    }

    fn take(&mut self, seat: usize, card: u8) {
        self.hands[seat][usize::from(card)] -= 1;
        self.hand_len[seat] -= 1;
    }

    fn end(&mut self, winner: Option<usize>) {
        self.stage = Stage::Over(winner.map(|s| s as u8));
    }

    /// The set-up from `seat` on, repeated while the fields tie (as `Blade::run_setup`).
    fn run_setup(&mut self, mut seat: usize) {
        loop {
            while seat < 2 {
                if self.deck_len[seat] > 0 {
                    self.deck_len[seat] -= 1;
                    let card = self.decks[seat][usize::from(self.deck_len[seat])];
                    self.fields[seat].push(card);
                } else if self.hand_len[seat] == 0 {
                    let other = 1 - seat;
                    let out = self.deck_len[other] == 0 && self.hand_len[other] == 0;
                    self.end(if !self.controller || out { None } else { Some(other) });
                    return;
                } else {
                    self.stage = Stage::Pick(seat as u8);
                    return;
                }
                seat += 1;
            }
            if self.score(0) == self.score(1) {
                self.fields = [Field::EMPTY; 2];
                seat = 0;
            } else {
                self.begin_turn(if self.score(0) < self.score(1) { 0 } else { 1 });
                return;
            }
        }
    }

    fn begin_turn(&mut self, seat: usize) {
        let other = 1 - seat;
        if self.hand_len[seat] > 0 {
            self.stage = Stage::Turn(seat as u8);
        } else if self.hand_len[other] == 0 {
            let winner = match self.score(seat).cmp(&self.score(other)) {
                std::cmp::Ordering::Greater => Some(seat),
                std::cmp::Ordering::Less => Some(other),
                std::cmp::Ordering::Equal => None,
            };
            self.end(winner);
        } else {
            self.end(Some(other));
        }
    }

    /// Plays `card` (which must be in the mover's hand) for the mover.
    fn play(&mut self, card: u8) {
        match self.stage {
            Stage::Pick(s) => {
                let seat = usize::from(s);
                self.take(seat, card);
                self.fields[seat].push(card);
                self.run_setup(seat + 1);
            }
            Stage::Turn(s) => self.play_turn(usize::from(s), card),
            Stage::Over(_) => {}
        }
    }

    fn play_turn(&mut self, seat: usize, card: u8) {
        let other = 1 - seat;
        let last = self.hand_len[seat] == 1;
        self.take(seat, card);
        if last && is_effect(card) {
            self.end(Some(other));
            return;
        }
        land(&mut self.fields, seat, card);
        match self.score(seat).cmp(&self.score(other)) {
            std::cmp::Ordering::Less => self.end(Some(other)),
            std::cmp::Ordering::Equal => {
                self.fields = [Field::EMPTY; 2];
                self.run_setup(0);
            }
            std::cmp::Ordering::Greater => self.begin_turn(other),
        }
    }

    /// The distinct cards in the mover's hand, in card order.
    fn moves(&self) -> ([u8; 9], usize) {
        let mut out = [0u8; 9];
        let mut n = 0;
        if let Some(seat) = self.mover() {
            for card in 0..9u8 {
                if self.hands[seat][usize::from(card)] > 0 {
                    out[n] = card;
                    n += 1;
                }
            }
        }
        (out, n)
    }

    /// The result for seat 0 once over: +1 win, 0 draw, −1 loss.
    fn result(&self) -> Option<i8> {
        match self.stage {
            Stage::Over(Some(0)) => Some(1),
            Stage::Over(Some(_)) => Some(-1),
            Stage::Over(None) => Some(0),
            _ => None,
        }
    }

    /// The position of the observation with the hidden cards dealt from `hidden` (the
    /// opponent's hand first, then the own deck, then the opponent's deck, each in drawing
    /// order). `None` if the observation does not describe a decision of its seat or `hidden`
    /// does not fit its counts.
    fn from_observation(obs: &BladeObservation, hidden: &[Card]) -> Option<Pos> {
        let me = obs.seat;
        let them = 1 - me;
        let stage = match (obs.phase, obs.to_act) {
            (Phase::Setup, Some(s)) if s == me => Stage::Pick(s as u8),
            (Phase::Turn, Some(s)) if s == me => Stage::Turn(s as u8),
            _ => return None,
        };
        let (opp, decks) = (obs.hand_counts[them], obs.deck_counts);
        if opp + decks[0] + decks[1] != hidden.len() || obs.hand.len() != obs.hand_counts[me] {
            return None;
        }
        if obs.hand.len() > 10 || opp > 10 || decks.iter().any(|&d| d > 16) {
            return None;
        }
        let mut pos = Pos {
            controller: obs.variant == Variant::Controller,
            hands: [[0; 9]; 2],
            hand_len: [obs.hand.len() as u8, opp as u8],
            decks: [[0; 16]; 2],
            deck_len: [decks[0] as u8, decks[1] as u8],
            fields: [Field::EMPTY; 2],
            stage,
        };
        pos.hand_len.swap(0, me); // [me, them] -> by seat
        for &card in &obs.hand {
            pos.hands[me][card.index()] += 1;
        }
        let (opp_hand, rest) = hidden.split_at(opp);
        for &card in opp_hand {
            pos.hands[them][card.index()] += 1;
        }
        let (mine, theirs) = rest.split_at(decks[me]);
        for (seat, pile) in [(me, mine), (them, theirs)] {
            // `pile` is in drawing order; the last slot is drawn first.
            for (i, &card) in pile.iter().rev().enumerate() {
                pos.decks[seat][i] = card.index() as u8;
            }
        }
        for (seat, field) in obs.fields.iter().enumerate() {
            if field.len() > FIELD_CAP {
                return None;
            }
            for fc in field {
                let card = fc.card.index() as u8;
                pos.fields[seat].push(card);
                if !fc.valid {
                    let f = &mut pos.fields[seat];
                    let top = &mut f.cards[usize::from(f.len) - 1];
                    f.score -= value(card);
                    *top |= BOLTED;
                }
            }
        }
        Some(pos)
    }
}

// ---------------------------------------------------------------------------------------------
// Exact search and playouts
// ---------------------------------------------------------------------------------------------

/// Alpha–beta over the perfect-information game, values for seat 0 in −1..=1. `None` once more
/// than `limit` nodes have been visited.
fn solve(pos: &Pos, mut alpha: i8, mut beta: i8, nodes: &mut u32, limit: u32) -> Option<i8> {
    if let Some(r) = pos.result() {
        return Some(r);
    }
    *nodes += 1;
    if *nodes > limit {
        return None;
    }
    let maximizing = pos.mover() == Some(0);
    let (moves, n) = pos.moves();
    // Children that end the match are settled first: a win for the mover cuts at once.
    let mut children = [*pos; 9];
    let mut open = [false; 9];
    let mut best: i8 = if maximizing { -2 } else { 2 };
    for i in 0..n {
        children[i].play(moves[i]);
        match children[i].result() {
            Some(r) => {
                best = if maximizing { best.max(r) } else { best.min(r) };
            }
            None => open[i] = true,
        }
    }
    for i in 0..n {
        if maximizing {
            alpha = alpha.max(best);
        } else {
            beta = beta.min(best);
        }
        if alpha >= beta {
            return Some(best);
        }
        if !open[i] {
            continue;
        }
        let v = solve(&children[i], alpha, beta, nodes, limit)?;
        best = if maximizing { best.max(v) } else { best.min(v) };
    }
    Some(best)
}

/// What the playout policy and the final tie-break charge for spending `card` in `pos`.
fn cost(pos: &Pos, seat: usize, card: u8) -> f64 {
    match card {
        BOLT | MIRROR => 6.0,
        ONE if pos.fields[seat].top_bolted() => 0.5,
        ONE => 3.5,
        c => f64::from(value(c)),
    }
}

/// The playout policy's card for the mover of `pos`: among the cards that go strictly ahead,
/// the cheapest (plus a little noise), preferring a card the opponent's (determinized) hand has
/// no answer to, and a B/M first when the rest of the hand would be only B/M;
/// failing that a card that ties (a re-init), failing that anything. A set-up pick places the
/// cheapest card, avoiding a tie with the opponent's field.
fn rollout_choice(pos: &Pos, params: &Params, rng: &mut Rng) -> u8 {
    let (moves, n) = pos.moves();
    let mut best = (f64::INFINITY, moves[0]);
    let pool = params.hyper.then(|| unseen_by(pos, pos.mover().unwrap_or(0)));
    for &card in &moves[..n] {
        let noise =
            if params.noise > 0.0 { params.noise * f64::from(rng.next_u32() >> 22) / 1024.0 } else { 0.0 };
        let rate = rate(pos, card, params.peek, pool.as_ref()) + noise;
        if rate < best.0 {
            best = (rate, card);
        }
    }
    best.1
}

/// The playout policy's rating of `card` for the mover of `pos` (lower is better), without
/// noise; `peek`: prefer a card the opponent's (determinized) hand has no answer to; `pool`
/// (the cards the mover cannot see, [`unseen_by`]): rate by the chance that the opponent has
/// no answer, as `greedy` does.
fn rate(pos: &Pos, card: u8, peek: bool, pool: Option<&[u8; 9]>) -> f64 {
    let seat = pos.mover().unwrap_or(0);
    let other = 1 - seat;
    if let Stage::Pick(_) = pos.stage {
        let tie = pos.fields[other].score == pos.score(seat) + value(card);
        let base = if is_effect(card) { 0.0 } else { f64::from(value(card)) };
        return base + if tie { 10.0 } else { 0.0 };
    }
    let mut child = *pos;
    child.play(card);
    let ahead = match child.stage {
        Stage::Over(w) => {
            if w == Some(seat as u8) {
                -100.0
            } else {
                1000.0
            }
        }
        Stage::Turn(s) if usize::from(s) == other => {
            if let Some(pool) = pool {
                -NO_ANSWER * p_no_answer(pool, &child, seat)
            } else if !peek || has_answer(&child) {
                0.0
            } else {
                -NO_ANSWER
            }
        }
        _ => 100.0, // a re-init
    };
    let effects_in_hand =
        u32::from(pos.hands[seat][usize::from(BOLT)] + pos.hands[seat][usize::from(MIRROR)]);
    let left = u32::from(pos.hand_len[seat]) - 1;
    let effects_left = effects_in_hand - u32::from(is_effect(card));
    let only_effects = left > 0 && effects_left == left;
    let bolts_unseen = pool.is_none_or(|p| p[usize::from(BOLT)] > 0);
    let cost = if card == ONE && !pos.fields[seat].top_bolted() && !bolts_unseen {
        1.0
    } else {
        cost(pos, seat, card)
    };
    ahead + cost + if only_effects { 60.0 } else { 0.0 }
}

/// The cards `seat` cannot see in `pos` (the opponent's hand and both decks), per card index.
fn unseen_by(pos: &Pos, seat: usize) -> [u8; 9] {
    let mut pool = pos.hands[1 - seat];
    for s in 0..2 {
        for &c in &pos.decks[s][..usize::from(pos.deck_len[s])] {
            pool[usize::from(c)] += 1;
        }
    }
    pool
}

/// Card `card`, played by `seat`, lands on `fields` (a turn's effect, before its end checks).
fn land(fields: &mut [Field; 2], seat: usize, card: u8) {
    match card {
        ONE => fields[seat].one(),
        BOLT => fields[1 - seat].bolt(),
        MIRROR => fields.swap(0, 1),
        _ => {
            fields[seat].pop_bolted();
            fields[seat].push(card);
        }
    }
}

/// The field scores of `seat` and of its opponent after `card`, played by `seat`, lands on
/// `fields`: what [`land`] gives without copying the fields (a hot path of the playouts; a test
/// checks the two agree).
fn landed_scores(fields: &[Field; 2], seat: usize, card: u8) -> (u16, u16) {
    let (own, theirs) = (&fields[seat], &fields[1 - seat]);
    let (mut mine, mut other) = (own.score, theirs.score);
    match card {
        ONE if own.top_bolted() => mine += value(own.cards[usize::from(own.len) - 1]),
        BOLT => {
            // A bolted top card goes; the card below it (or the top itself) is bolted.
            let len = usize::from(theirs.len) - usize::from(theirs.top_bolted());
            if len > 0 {
                other -= value(theirs.cards[len - 1]);
            }
        }
        MIRROR => (mine, other) = (other, mine),
        c => mine += value(c),
    }
    (mine, other)
}

/// The chance, as `seat` sees it before its move, that the opponent holds no card that goes
/// strictly ahead in `child` (the position after the move, the opponent to play): a
/// hypergeometric draw of the opponent's hand from `pool`, the cards `seat` cannot see.
fn p_no_answer(pool: &[u8; 9], child: &Pos, seat: usize) -> f64 {
    let other = 1 - seat;
    let hand = usize::from(child.hand_len[other]);
    let mut answers = 0usize;
    let mut total = 0usize;
    for (x, &n) in pool.iter().enumerate() {
        total += usize::from(n);
        if n == 0 || (hand == 1 && is_effect(x as u8)) {
            continue;
        }
        let (theirs, mine) = landed_scores(&child.fields, other, x as u8);
        if theirs > mine {
            answers += usize::from(n);
        }
    }
    if hand > total || hand > total - answers {
        return 0.0;
    }
    let bad = total - answers;
    (0..hand).map(|i| (bad - i) as f64 / (total - i) as f64).product()
}

/// One opponent turn of [`Replay`]: the fields before it, the card played, the hand cards each
/// seat had spent before it, and the cards placed from the decks before it.
type Turn = ([Field; 2], u8, [[u8; 9]; 2], [u8; 9]);

/// The opponent's past turns, replayed from the public history: for each, the fields before
/// it, the card it played, and the hand cards both seats had spent by then (so a sampled
/// current hand gives the hand it held then).
struct Replay {
    /// Per opponent turn: fields before it, the card, cards each seat spent before it, and the
    /// cards placed from the decks before it.
    turns: Vec<Turn>,
    /// Hand cards each seat spent over the whole history.
    spent: [[u8; 9]; 2],
    /// Cards placed from the decks over the whole history.
    from_decks: [u8; 9],
}

impl Replay {
    fn new(obs: &BladeObservation) -> Replay {
        let them = 1 - obs.seat;
        let mut fields = [Field::EMPTY; 2];
        let mut spent = [[0u8; 9]; 2];
        let mut from_decks = [0u8; 9];
        let mut turns = Vec::new();
        for event in &obs.history {
            match *event {
                Event::Place { seat, card, from } => {
                    if from == Source::Hand {
                        spent[seat][card.index()] += 1;
                    } else {
                        from_decks[card.index()] += 1;
                    }
                    fields[seat].push(card.index() as u8);
                }
                Event::Play { seat, card, .. } => {
                    let c = card.index() as u8;
                    if seat == them {
                        turns.push((fields, c, spent, from_decks));
                    }
                    spent[seat][card.index()] += 1;
                    land(&mut fields, seat, c);
                }
                Event::Reinit { .. } => fields = [Field::EMPTY; 2],
            }
        }
        Replay { turns, spent, from_decks }
    }

    /// How likely the opponent's past plays are if it holds `pos`'s hand now: with `params.mix`
    /// 1, if it plays like the playout policy, softened (each turn `exp(-(rating - best rating)
    /// / temp)`, at least `floor`); below 1, the mixture `mix × P(plays | policy player) + (1 −
    /// mix) × P(plays | uniform player)`, the policy player choosing by a softmax of the rating
    /// at `temp` (each turn's probability at least `floor`), the uniform one any distinct card.
    fn likelihood(&self, pos: &Pos, them: usize, params: &Params) -> f64 {
        let (temp, floor, hyper) = (params.temp, params.floor, params.hyper);
        let me = 1 - them;
        let mut weight = 1.0;
        let mut uniform = 1.0;
        for (fields, card, spent_then, decks_then) in &self.turns {
            let mut p = *pos;
            p.fields = *fields;
            p.deck_len = [0, 0];
            if hyper {
                // The decks then: today's, and the cards placed from them since (one pile will do).
                let mut pile = unseen_by(pos, them);
                for (i, slot) in pile.iter_mut().enumerate() {
                    *slot = *slot - pos.hands[me][i] + self.from_decks[i] - decks_then[i];
                }
                let mut n = 0usize;
                for (c, &k) in pile.iter().enumerate() {
                    for _ in 0..k {
                        if n < 16 {
                            p.decks[0][n] = c as u8;
                            n += 1;
                        }
                    }
                }
                p.deck_len = [n as u8, 0];
            }
            p.stage = Stage::Turn(them as u8);
            for seat in [me, them] {
                let mut len = 0u8;
                let then = pos.hands[seat].iter().zip(&self.spent[seat]).zip(&spent_then[seat]);
                for (slot, ((&now, &spent), &spent_before)) in p.hands[seat].iter_mut().zip(then) {
                    *slot = now + spent - spent_before;
                    len += *slot;
                }
                p.hand_len[seat] = len;
            }
            let (moves, n) = p.moves();
            let pool = hyper.then(|| unseen_by(&p, them));
            let mut ratings = [0.0; 9];
            for (r, &c) in ratings.iter_mut().zip(&moves[..n]) {
                *r = rate(&p, c, false, pool.as_ref());
            }
            let best = ratings[..n].iter().copied().fold(f64::INFINITY, f64::min);
            let played = rate(&p, *card, false, pool.as_ref());
            let e = (-(played - best) / temp).exp();
            if params.mix >= 1.0 {
                weight *= e.max(floor);
            } else {
                let sum: f64 = ratings[..n].iter().map(|r| (-(r - best) / temp).exp()).sum();
                weight *= (e / sum).max(floor);
                uniform /= n.max(1) as f64;
            }
        }
        if params.mix >= 1.0 {
            weight
        } else {
            params.mix * weight + (1.0 - params.mix) * uniform
        }
    }
}

/// What the playout policy gains for a move after which the opponent has no card that goes
/// strictly ahead (it sees the determinized hand).
const NO_ANSWER: f64 = 8.0;

/// Whether the mover of `pos` (a turn) has a card that puts it strictly ahead.
fn has_answer(pos: &Pos) -> bool {
    let (moves, n) = pos.moves();
    let seat = pos.mover().unwrap_or(0);
    moves[..n].iter().any(|&card| {
        let mut child = *pos;
        child.play(card);
        match child.stage {
            Stage::Over(w) => w == Some(seat as u8),
            Stage::Turn(s) => usize::from(s) != seat,
            Stage::Pick(_) => false,
        }
    })
}

/// One playout to the end with [`rollout_choice`] for both seats; the result for seat 0.
fn rollout(pos: &Pos, params: &Params, rng: &mut Rng, work: &mut u64) -> i8 {
    let mut p = *pos;
    loop {
        if let Some(r) = p.result() {
            return r;
        }
        *work += 1;
        let card = rollout_choice(&p, params, rng);
        p.play(card);
    }
}

// ---------------------------------------------------------------------------------------------
// The bot
// ---------------------------------------------------------------------------------------------

/// The totals of one decision: per legal card (in `legal` order) the summed value over the
/// determinizations, for the deciding seat.
fn evaluate(obs: &BladeObservation, budget: u32, params: Params, rng: &mut Rng) -> Option<Vec<(Card, f64)>> {
    let cards: Vec<Card> = obs.legal.iter().filter_map(|s| s.parse().ok()).collect();
    let sign = if obs.seat == 0 { 1.0 } else { -1.0 };
    let mut totals: Vec<(Card, f64)> = cards.iter().map(|&c| (c, 0.0)).collect();
    let mut hidden = obs.unseen.clone();
    let replay = (params.temp > 0.0).then(|| Replay::new(obs));
    // Narrow decisions get more determinizations: their rollouts are fewer per determinization.
    let dets = budget.max(budget * params.wide / totals.len().max(1) as u32);
    // The work cap keeps the widest, longest decisions (the first ones) within the time of the
    // others: moves played in playouts plus opponent turns replayed by the model.
    let cap = (u64::from(budget) * WORK_PER_DET).max(MIN_WORK);
    // Sequential halving: the search runs in rounds of equal work, and after each round the
    // worse half of the cards still in play drops out, so the best cards get the most playouts.
    let rounds = if params.halving { halving_rounds(totals.len(), dets) } else { 1 };
    let mut alive = vec![true; totals.len()];
    let mut work = 0u64;
    let mut det = 0u32;
    for round in 1..=rounds {
        let (round_cap, round_dets) = (cap * u64::from(round) / u64::from(rounds), dets * round / rounds);
        while det < round_dets && work < round_cap {
            det += 1;
            work += replay.as_ref().map_or(0, |r| r.turns.len() as u64);
            rng.shuffle(&mut hidden);
            let pos = Pos::from_observation(obs, &hidden)?;
            let weight = replay.as_ref().map_or(1.0, |r| r.likelihood(&pos, 1 - obs.seat, &params));
            let small = usize::from(pos.hand_len[0]) + usize::from(pos.hand_len[1]) <= params.exact_cards;
            for ((card, total), _) in totals.iter_mut().zip(&alive).filter(|(_, &a)| a) {
                let mut child = pos;
                child.play(card.index() as u8);
                let mut nodes = 0;
                let exact = if small { solve(&child, -1, 1, &mut nodes, params.node_limit) } else { None };
                let v = match exact {
                    Some(v) => f64::from(v),
                    None => {
                        let n = params.rollouts.max(1);
                        (0..n).map(|_| f64::from(rollout(&child, &params, rng, &mut work))).sum::<f64>()
                            / f64::from(n)
                    }
                };
                *total += weight * sign * v;
            }
        }
        if round < rounds {
            for i in drop_worse_half(&mut alive, |i| totals[i].1, None) {
                totals[i].1 = f64::NEG_INFINITY;
            }
        }
    }
    Some(totals)
}

/// The search's sampling for the analysis (`crate::analyse`): one determinization at a time,
/// weighted by the opponent model as [`evaluate`] weights it, every card of the decision played
/// out in it from one rollout seed (common random numbers).
pub(crate) struct Sampler<'a> {
    obs: &'a BladeObservation,
    replay: Replay,
    hidden: Vec<Card>,
}

impl<'a> Sampler<'a> {
    /// The sampler of `obs`'s decision.
    pub(crate) fn new(obs: &'a BladeObservation) -> Sampler<'a> {
        Sampler { obs, replay: Replay::new(obs), hidden: obs.unseen.clone() }
    }

    /// One determinization: its weight and, per card of `cards`, one playout's result for the
    /// deciding seat (+1 win, 0 draw, −1 loss). `None`: the observation's counts do not add up.
    pub(crate) fn sample(&mut self, cards: &[Card], rng: &mut Rng) -> Option<(f64, Vec<f64>)> {
        let params = Params::DEFAULT;
        rng.shuffle(&mut self.hidden);
        let pos = Pos::from_observation(self.obs, &self.hidden)?;
        let weight = self.replay.likelihood(&pos, 1 - self.obs.seat, &params);
        let sign = if self.obs.seat == 0 { 1.0 } else { -1.0 };
        let seed = rng.next_u64();
        let mut work = 0;
        let results = cards
            .iter()
            .map(|card| {
                let mut child = pos;
                child.play(card.index() as u8);
                let mut playout = Rng::new(seed, Stream::Bot(self.obs.seat));
                sign * f64::from(rollout(&child, &params, &mut playout, &mut work))
            })
            .collect();
        Some((weight, results))
    }
}

/// The strong bot's card for `obs`, with `budget` determinizations: the best total, ties going
/// to the greedy bot's card, then to the cheaper card.
fn choose(obs: &BladeObservation, budget: u32, params: Params, rng: &mut Rng) -> Card {
    let greedy = Blade::greedy_action(obs, rng).0;
    if obs.legal.len() == 1 {
        // One distinct card: nothing to search.
        return greedy;
    }
    let totals = match evaluate(obs, budget, params, rng) {
        Some(t) if !t.is_empty() => t,
        // Not a decision of this seat, or counts that do not add up: the greedy choice.
        _ => return greedy,
    };
    let own_bolted = obs.fields[obs.seat].last().is_some_and(|c| !c.valid);
    let tie_cost = |card: Card| match card {
        _ if card == greedy => -1.0,
        Card::Bolt | Card::Mirror => 6.0,
        Card::One if own_bolted => 0.5,
        Card::One => 3.5,
        c => f64::from(c.value()),
    };
    let mut best = totals[0];
    for &(card, total) in &totals[1..] {
        let better = total > best.1 + 1e-9 || (total > best.1 - 1e-9 && tie_cost(card) < tie_cost(best.0));
        if better {
            best = (card, total);
        }
    }
    best.0
}

/// The `strong` Blade bot.
pub struct StrongBot {
    rng: Rng,
    budget: u32,
    params: Params,
}

impl StrongBot {
    /// The strong bot for `seat` of the match with `seed`, `budget` determinizations per
    /// decision (`None`: [`DEFAULT_BUDGET`]).
    pub fn new(seed: u64, seat: Seat, budget: Option<u32>) -> StrongBot {
        let budget = budget.unwrap_or(DEFAULT_BUDGET).max(1);
        StrongBot { rng: Rng::new(seed, Stream::Bot(seat)), budget, params: Params::DEFAULT }
    }
}

impl Bot<Blade> for StrongBot {
    fn act(&mut self, obs: &BladeObservation) -> Result<String, Fault> {
        if obs.legal.is_empty() {
            return Err(Fault::new(Verdict::Crash, "blade strong bot asked to act with no legal action"));
        }
        Ok(choose(obs, self.budget, self.params, &mut self.rng).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    /// The position of `state` for its mover, with the true hidden cards.
    fn true_pos(state: &Blade) -> Option<Pos> {
        let seat = *state.to_act().first()?;
        let them = 1 - seat;
        let obs = state.observe(seat);
        let mut hidden: Vec<Card> = state.hand(them).to_vec();
        hidden.extend(state.deck(seat).iter().rev());
        hidden.extend(state.deck(them).iter().rev());
        Pos::from_observation(&obs, &hidden)
    }

    fn same(pos: &Pos, state: &Blade) -> bool {
        let stage_ok = match (pos.stage, state.ending()) {
            (Stage::Over(w), Some(e)) => w.map(usize::from) == e.winner,
            (Stage::Over(_), None) | (_, Some(_)) => false,
            (_, None) => pos.mover() == state.to_act().first().copied(),
        };
        stage_ok
            && (0..2).all(|s| {
                let mut counts = [0u8; 9];
                for c in state.hand(s) {
                    counts[c.index()] += 1;
                }
                pos.score(s) == state.score(s) as u16
                    && pos.hands[s] == counts
                    && usize::from(pos.deck_len[s]) == state.deck(s).len()
                    && usize::from(pos.fields[s].len) == state.field(s).len()
            })
    }

    /// The compact rules agree with the engine (CONTRACT.md §1 blade) move for move: random
    /// matches in both variants, the position rebuilt from each observation with the true hidden
    /// cards, then every legal card played in both.
    #[test]
    fn compact_rules_match_the_engine() {
        for variant in Variant::ALL {
            for seed in 0..150 {
                let mut state = Blade::new(variant, seed);
                let mut rng = Rng::new(seed, Stream::Bot(0));
                while !state.is_over() {
                    let seat = state.to_act()[0];
                    let pos = true_pos(&state).expect("a position");
                    assert!(same(&pos, &state), "{variant} seed {seed}: rebuilt position differs");
                    for action in state.legal_actions(seat) {
                        let (mut p, mut s) = (pos, state.clone());
                        p.play(action.0.index() as u8);
                        s.play_unchecked(seat, &action);
                        assert!(same(&p, &s), "{variant} seed {seed}: {} differs\n{}", action.0, s.summary());
                    }
                    let legal = state.legal_actions(seat);
                    let action = legal[rng.below(legal.len())];
                    state.play_unchecked(seat, &action);
                }
            }
        }
    }

    #[test]
    fn landed_scores_agree_with_land() {
        // Fields built by random turns (every card kind, bolts on bolted tops included); at
        // every step each card from each seat must score as landing it does.
        let mut rng = Rng::new(7, Stream::Deal);
        for _ in 0..300 {
            let mut fields = [Field::EMPTY; 2];
            fields[0].push(rng.below(9) as u8);
            fields[1].push(rng.below(9) as u8);
            for _ in 0..20 {
                for seat in 0..2 {
                    for card in 0..9u8 {
                        let mut f = fields;
                        land(&mut f, seat, card);
                        let want = (f[seat].score, f[1 - seat].score);
                        assert_eq!(landed_scores(&fields, seat, card), want, "{fields:?} {seat} {card}");
                    }
                }
                land(&mut fields, rng.below(2), rng.below(9) as u8);
            }
        }
    }

    #[test]
    fn exact_search_finds_the_forced_win() {
        // Seat 0 to move, hand 7 B; fields 3 (seat 0) against 2 6 (8). Playing B (bolting the
        // 6: 3 vs 2) keeps the 7 for the opponent's answer; playing 7 first leaves B as the
        // last card, which loses. Seat 1 holds only a 2 and a 5 (decks empty).
        let mut pos = Pos {
            controller: false,
            hands: [[0; 9]; 2],
            hand_len: [2, 2],
            decks: [[0; 16]; 2],
            deck_len: [0, 0],
            fields: [Field::EMPTY; 2],
            stage: Stage::Turn(0),
        };
        pos.hands[0][6] = 1;
        pos.hands[0][usize::from(BOLT)] = 1;
        pos.hands[1][1] = 1;
        pos.hands[1][4] = 1;
        pos.fields[0].push(2);
        pos.fields[1].push(1);
        pos.fields[1].push(5);
        let value_of = |card: u8| {
            let mut child = pos;
            child.play(card);
            solve(&child, -1, 1, &mut 0, NODE_LIMIT).expect("small")
        };
        // B: 3 vs 2; seat 1 answers 5 (7) or 2 (4), seat 0 plays 7 (10) and seat 1's last card
        // stays below 10. 7 first: 10 vs 8; seat 1 plays 5 (13); seat 0 holds only B: loses.
        assert_eq!(value_of(BOLT), 1);
        assert_eq!(value_of(6), -1);
    }

    fn actions(seed: u64, budget: u32) -> Vec<String> {
        let mut state = Blade::new(Variant::Readme, seed);
        let mut bots = [StrongBot::new(seed, 0, Some(budget)), StrongBot::new(seed, 1, Some(budget))];
        let mut out = Vec::new();
        while let Some(&seat) = state.to_act().first() {
            let obs = state.observe(seat);
            let action = bots[seat].act(&obs).expect("an action");
            assert!(obs.legal.contains(&action), "{action} not in {:?}", obs.legal);
            state.play(seat, &action).expect("legal");
            out.push(action);
        }
        out
    }

    #[test]
    fn strong_is_deterministic_and_legal() {
        for seed in 0..20 {
            assert_eq!(actions(seed, 4), actions(seed, 4), "seed {seed}");
        }
    }
}
