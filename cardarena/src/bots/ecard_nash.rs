//! E-card's `nash` and `strong` bots: exact equilibria of the plays' matrix games.
//!
//! Each play of a round is a simultaneous 2×2 zero-sum game: both seats choose their special card
//! or a Citizen. Three of the four outcomes end the round; Citizen against Citizen leads to the
//! next play (or, at the third play of `readme`, to a drawn round), so the games are solved by
//! backward induction over the number of Citizen draws, each 2×2 game exactly (a saddle point if
//! there is one, else the unique mixed equilibrium by the indifference conditions).
//!
//! - `nash` plays the equilibrium of the **round points** game (mine minus the opponent's), the
//!   game the strategy note of CONTRACT.md §1 ecard describes, computed in exact rationals
//!   ([`round_equilibrium`]). In `manga` it comes out uniform over the cards held (seed-games.md
//!   §2(e)); in `readme` the special card is played with probability 1/9, 1/8, 1/7 at plays 1, 2,
//!   3 by both sides (docs/games/ecard.md has the table).
//! - `strong` solves the **match** game instead: the value is the probability of winning the
//!   match (a draw counting one half), by backward induction over (round, score difference,
//!   Citizen draws), so a trailing seat takes the risks that can still win and a leading one
//!   plays safe ([`MatchEquilibrium`]). On top of that equilibrium it models the opponent: for
//!   each (opponent side, play) it counts how often the opponent has shown its special card in
//!   the rounds so far (a prior of [`PRIOR_WEIGHT`] pseudo-observations at the equilibrium
//!   probability), and plays the best reply to that estimate when it gains more than
//!   [`MIN_GAIN`] in match-win probability over the equilibrium mix; otherwise the equilibrium
//!   mix. Against an opponent that plays the (fully mixed) round equilibrium, every reply earns
//!   the same expected points, so the exploitation costs nothing on average there.
//!
//! Both bots decide from the observation alone (the counts are rebuilt from `history` each time)
//! and draw their mixed choices from `Rng::new(seed, Stream::Bot(seat))`.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::bots::bot::{Bot, Fault};
use crate::games::ecard::{Card, Ecard, EcardObservation, Side, Variant, CITIZENS, GROUP, ROUNDS};
use crate::games::rng::{Rng, Stream};
use crate::games::Seat;

/// Pseudo-observations of the equilibrium probability in the opponent model.
pub const PRIOR_WEIGHT: f64 = 2.0;

/// The least gain in match-win probability (over the equilibrium mix, against the opponent
/// model) for which `strong` plays the best reply instead of the equilibrium mix.
pub const MIN_GAIN: f64 = 0.002;

// ---------------------------------------------------------------------------------------------
// Numbers: exact rationals and f64 behind one small trait
// ---------------------------------------------------------------------------------------------

/// What the solver needs of a number type.
pub trait Num:
    Copy
    + PartialOrd
    + fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The integer `n`.
    fn int(n: i64) -> Self;
}

impl Num for f64 {
    fn int(n: i64) -> f64 {
        n as f64
    }
}

/// An exact fraction `num / den` in lowest terms, `den > 0`. The numbers in E-card's games are
/// tiny (denominators below 100), so `i128` never comes near overflowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `num / den`.
    ///
    /// # Panics
    /// If `den == 0`.
    pub fn new(num: i128, den: i128) -> Ratio {
        assert!(den != 0, "Ratio with a zero denominator");
        let g = gcd(num, den).max(1) * den.signum();
        Ratio { num: num / g, den: den / g }
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some((self.num * other.den).cmp(&(other.num * self.den)))
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl Sub for Ratio {
    type Output = Ratio;
    fn sub(self, o: Ratio) -> Ratio {
        self + -o
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.num, self.den * o.den)
    }
}

impl Div for Ratio {
    type Output = Ratio;
    fn div(self, o: Ratio) -> Ratio {
        Ratio::new(self.num * o.den, self.den * o.num)
    }
}

impl Neg for Ratio {
    type Output = Ratio;
    fn neg(self) -> Ratio {
        Ratio { num: -self.num, den: self.den }
    }
}

impl Num for Ratio {
    fn int(n: i64) -> Ratio {
        Ratio::new(i128::from(n), 1)
    }
}

// ---------------------------------------------------------------------------------------------
// The 2×2 zero-sum solver
// ---------------------------------------------------------------------------------------------

/// An equilibrium of a 2×2 zero-sum game `m[row][col]` (payoffs to the row player, who
/// maximizes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution<T> {
    /// The probability that the row player plays row 0.
    pub row: T,
    /// The probability that the column player plays column 0.
    pub col: T,
    /// The value of the game to the row player.
    pub value: T,
}

/// Solves the 2×2 zero-sum game `m` exactly: a saddle point (an entry that is the least of its
/// row and the greatest of its column) if there is one, both players then playing pure; else the
/// unique completely mixed equilibrium, where each player's mix makes the other indifferent.
pub fn solve<T: Num>(m: [[T; 2]; 2]) -> Solution<T> {
    let (zero, one) = (T::int(0), T::int(1));
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let v = m[i][j];
        if v <= m[i][1 - j] && v >= m[1 - i][j] {
            let row = if i == 0 { one } else { zero };
            let col = if j == 0 { one } else { zero };
            return Solution { row, col, value: v };
        }
    }
    // No saddle point: a - b - c + d != 0 (else some entry would be a saddle).
    let [[a, b], [c, d]] = m;
    let denom = a - b - c + d;
    Solution { row: (d - c) / denom, col: (d - b) / denom, value: (a * d - b * c) / denom }
}

// ---------------------------------------------------------------------------------------------
// The plays of a round
// ---------------------------------------------------------------------------------------------

/// The score change (mine minus the opponent's) when a round ends with `mine` against `theirs`.
fn delta(side: Side, mine: Card, theirs: Card) -> i64 {
    match mine.versus(theirs) {
        Ordering::Equal => 0,
        Ordering::Greater => side.win_points(),
        Ordering::Less => -side.other().win_points(),
    }
}

/// The game of one play, for a seat on `side` after `draws` Citizen draws: `Forced(v)` when
/// neither seat holds a Citizen (the fifth play of `manga`), else the matrix over
/// (my special, my Citizen) × (their special, their Citizen). `end(d)` is the value of the
/// round ending with score change `d`; `after_draw` the value of a Citizen draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayGame<T> {
    /// One legal card each: the value of the outcome.
    Forced(T),
    /// The payoff matrix to me.
    Matrix([[T; 2]; 2]),
}

fn play_game<T: Num>(side: Side, draws: usize, end: &dyn Fn(i64) -> T, after_draw: T) -> PlayGame<T> {
    let (mine, theirs) = (side.special(), side.other().special());
    if draws >= usize::from(CITIZENS) {
        return PlayGame::Forced(end(delta(side, mine, theirs)));
    }
    PlayGame::Matrix([
        [end(delta(side, mine, theirs)), end(delta(side, mine, Card::Citizen))],
        [end(delta(side, Card::Citizen, theirs)), after_draw],
    ])
}

/// The equilibrium at one play: my probability of the special card, the opponent's, and the
/// value to me.
pub type PlayEquilibrium<T> = Solution<T>;

/// Solves the plays of a round backwards from the last: entry `k` is the equilibrium of the play
/// after `k` Citizen draws (`max_plays` entries). `end(d)` values the round's end.
fn solve_round<T: Num>(side: Side, max_plays: usize, end: &dyn Fn(i64) -> T) -> Vec<PlayEquilibrium<T>> {
    let one = T::int(1);
    let mut out: Vec<PlayEquilibrium<T>> = Vec::with_capacity(max_plays);
    for k in (0..max_plays).rev() {
        let after_draw = match out.last() {
            Some(next) => next.value,
            None => end(0), // readme: a Citizen draw at the last play ends the round drawn
        };
        let solution = match play_game(side, k, end, after_draw) {
            PlayGame::Forced(value) => Solution { row: one, col: one, value },
            PlayGame::Matrix(m) => solve(m),
        };
        out.push(solution);
    }
    out.reverse();
    out
}

/// The exact equilibrium of the round points game (mine minus the opponent's) for a seat on
/// `side`: entry `k` is the play after `k` Citizen draws; `row` is my probability of playing my
/// special card, `col` the opponent's, `value` the expected points difference from there.
pub fn round_equilibrium(variant: Variant, side: Side) -> Vec<PlayEquilibrium<Ratio>> {
    solve_round(side, variant.max_plays(), &|d| Ratio::int(d))
}

/// The expected points difference (mine minus the opponent's) over the rest of the match, for a
/// seat on `side` in round index `round` after `draws` Citizen draws of it, of playing its special
/// card (entry 0) or a Citizen (entry 1) while the opponent plays the round equilibrium at this
/// play and both play it in every later play and round ([`round_equilibrium`], `nash`'s
/// strategy). When the seat holds no Citizen (the fifth play of `manga`) both entries are the
/// forced play's value.
pub fn action_values(variant: Variant, side: Side, round: usize, draws: usize) -> [f64; 2] {
    let plays = round_equilibrium(variant, side);
    let draws = draws.min(plays.len() - 1);
    let after_draw = plays.get(draws + 1).map_or(Ratio::int(0), |s| s.value);
    let now = match play_game(side, draws, &|d| Ratio::int(d), after_draw) {
        PlayGame::Forced(v) => [v.to_f64(); 2],
        PlayGame::Matrix(m) => {
            let q = plays[draws].col;
            let one = Ratio::int(1);
            [(q * m[0][0] + (one - q) * m[0][1]).to_f64(), (q * m[1][0] + (one - q) * m[1][1]).to_f64()]
        }
    };
    let later: f64 = (round + 1..ROUNDS)
        .map(|r| round_equilibrium(variant, side_in(r, round, side))[0].value.to_f64())
        .sum();
    now.map(|v| v + later)
}

// ---------------------------------------------------------------------------------------------
// The match game
// ---------------------------------------------------------------------------------------------

/// Score differences kept in the match table: `-SPAN..=SPAN` (no reachable one exceeds 36).
const SPAN: i64 = 40;

fn index(d: i64) -> usize {
    (d.clamp(-SPAN, SPAN) + SPAN) as usize
}

/// My side in round index `round` (0-based), knowing it is `side` in round index `now`.
fn side_in(round: usize, now: usize, side: Side) -> Side {
    if round / GROUP % 2 == now / GROUP % 2 {
        side
    } else {
        side.other()
    }
}

/// The equilibrium of the whole match with the value "probability of winning the match, a draw
/// counting one half", for one seat.
#[derive(Clone, Debug)]
pub struct MatchEquilibrium {
    max_plays: usize,
    /// My side in round index 0.
    side0: Side,
    /// `table[r][index(d)]`: the value at the start of round index `r` (0..=12) with score
    /// difference `d` (mine minus the opponent's).
    table: Vec<Vec<f64>>,
}

impl MatchEquilibrium {
    /// Solves the match for a seat holding `side0` in round 1 of `variant`.
    pub fn new(variant: Variant, side0: Side) -> MatchEquilibrium {
        let max_plays = variant.max_plays();
        let last: Vec<f64> = (-SPAN..=SPAN)
            .map(|d| match d.cmp(&0) {
                Ordering::Greater => 1.0,
                Ordering::Equal => 0.5,
                Ordering::Less => 0.0,
            })
            .collect();
        let mut table = vec![last];
        for round in (0..ROUNDS).rev() {
            let side = side_in(round, 0, side0);
            let next = table.last().expect("the table starts with the match's end");
            let row = (-SPAN..=SPAN)
                .map(|d| solve_round(side, max_plays, &|delta| next[index(d + delta)])[0].value)
                .collect();
            table.push(row);
        }
        table.reverse();
        MatchEquilibrium { max_plays, side0, table }
    }

    /// The value at the start of round index `round` with score difference `diff`.
    #[cfg(test)]
    pub fn value(&self, round: usize, diff: i64) -> f64 {
        self.table[round.min(ROUNDS)][index(diff)]
    }

    /// The game of the open play in round index `round`, score difference `diff`, after `draws`
    /// Citizen draws, with the later plays of the round at equilibrium.
    pub fn play(&self, round: usize, diff: i64, draws: usize) -> (PlayGame<f64>, Solution<f64>) {
        let side = side_in(round, 0, self.side0);
        let next = &self.table[(round + 1).min(ROUNDS)];
        let end = |delta: i64| next[index(diff + delta)];
        let plays = solve_round(side, self.max_plays, &end);
        let draws = draws.min(self.max_plays - 1);
        let after_draw = plays.get(draws + 1).map_or(end(0), |s| s.value);
        (play_game(side, draws, &end, after_draw), plays[draws])
    }
}

// ---------------------------------------------------------------------------------------------
// The bots
// ---------------------------------------------------------------------------------------------

/// The card to play for probability `p_special` of the special card, or the only legal card.
fn draw_card(obs: &EcardObservation, p_special: f64, rng: &mut Rng) -> Card {
    let special = obs.side.special();
    let has_citizen = obs.legal.iter().any(|s| s == Card::Citizen.letter());
    if !has_citizen {
        return special;
    }
    // Always draw, so that the stream advances the same way whatever the probability.
    if rng.unit_f64() < p_special {
        special
    } else {
        Card::Citizen
    }
}

fn no_legal() -> Fault {
    Fault::new(crate::bots::bot::Verdict::Crash, "E-card bot asked to act with no legal action")
}

/// `nash`: the exact equilibrium of the round points game ([`round_equilibrium`]).
pub struct NashBot {
    rng: Rng,
    /// `p[side][k]`: the probability of the special card after `k` draws, per variant.
    tables: Vec<(Variant, [Vec<f64>; 2])>,
}

impl NashBot {
    /// The `nash` bot for `seat` of the match with `seed`.
    pub fn new(seed: u64, seat: Seat) -> NashBot {
        let tables = Variant::ALL
            .into_iter()
            .map(|v| {
                let p = |side| round_equilibrium(v, side).iter().map(|s| s.row.to_f64()).collect();
                (v, [p(Side::Emperor), p(Side::Slave)])
            })
            .collect();
        NashBot { rng: Rng::new(seed, Stream::Bot(seat)), tables }
    }

    /// The probability of the special card in this observation's play.
    pub fn p_special(&self, obs: &EcardObservation) -> f64 {
        let (_, table) = self.tables.iter().find(|(v, _)| *v == obs.variant).unwrap_or(&self.tables[0]);
        let per_play = &table[usize::from(obs.side == Side::Slave)];
        per_play.get(obs.plays.len()).copied().unwrap_or(1.0)
    }
}

impl crate::bots::bot::Bot<Ecard> for NashBot {
    fn act(&mut self, obs: &EcardObservation) -> Result<String, Fault> {
        if obs.legal.is_empty() {
            return Err(no_legal());
        }
        let p = self.p_special(obs);
        Ok(draw_card(obs, p, &mut self.rng).to_string())
    }
}

/// How often the opponent has shown its special card: `[side][draws] = (chances, specials)`,
/// counted over the finished rounds and the current one (plays with a choice only).
pub fn opponent_counts(obs: &EcardObservation) -> [[(u32, u32); 4]; 2] {
    let them = 1 - obs.seat;
    let mut counts = [[(0u32, 0u32); 4]; 2];
    let mut add = |side: Side, plays: &[[Card; 2]]| {
        for (k, play) in plays.iter().enumerate().take(usize::from(CITIZENS)) {
            let slot = &mut counts[usize::from(side == Side::Slave)][k];
            slot.0 += 1;
            slot.1 += u32::from(play[them] == side.special());
        }
    };
    for record in &obs.history {
        add(record.side(them), &record.plays);
    }
    add(obs.opponent_side, &obs.plays);
    counts
}

/// `strong`: the match equilibrium plus a best reply to the opponent's observed frequencies.
pub struct StrongBot {
    rng: Rng,
    /// Solved on the first decision, for the variant and side schedule of the match.
    solved: Option<(Variant, Side, MatchEquilibrium)>,
}

impl StrongBot {
    /// The `strong` bot for `seat` of the match with `seed`.
    pub fn new(seed: u64, seat: Seat) -> StrongBot {
        StrongBot { rng: Rng::new(seed, Stream::Bot(seat)), solved: None }
    }

    /// The probability with which to play the special card now.
    pub fn p_special(&mut self, obs: &EcardObservation) -> f64 {
        let now = obs.round.saturating_sub(1).min(ROUNDS - 1);
        let side0 = side_in(0, now, obs.side);
        let stale = !matches!(&self.solved, Some((v, s, _)) if *v == obs.variant && *s == side0);
        if stale {
            self.solved = Some((obs.variant, side0, MatchEquilibrium::new(obs.variant, side0)));
        }
        let Some((_, _, eq)) = &self.solved else { return 1.0 };
        let diff = obs.scores[obs.seat] - obs.scores[1 - obs.seat];
        let draws = obs.plays.len();
        let (game, solution) = eq.play(now, diff, draws);
        let PlayGame::Matrix(m) = game else { return 1.0 };
        // The opponent model: its frequency of the special card at this play, on this side,
        // shrunk toward its equilibrium probability.
        let (chances, specials) =
            opponent_counts(obs)[usize::from(obs.opponent_side == Side::Slave)][draws.min(3)];
        let q = (f64::from(specials) + PRIOR_WEIGHT * solution.col) / (f64::from(chances) + PRIOR_WEIGHT);
        let v_special = q * m[0][0] + (1.0 - q) * m[0][1];
        let v_citizen = q * m[1][0] + (1.0 - q) * m[1][1];
        let v_mix = solution.row * v_special + (1.0 - solution.row) * v_citizen;
        if v_special.max(v_citizen) - v_mix > MIN_GAIN {
            if v_special > v_citizen {
                1.0
            } else {
                0.0
            }
        } else {
            solution.row
        }
    }
}

impl crate::bots::bot::Bot<Ecard> for StrongBot {
    fn act(&mut self, obs: &EcardObservation) -> Result<String, Fault> {
        if obs.legal.is_empty() {
            return Err(no_legal());
        }
        let p = self.p_special(obs);
        Ok(draw_card(obs, p, &mut self.rng).to_string())
    }
}

/// The `nash` bot as a boxed [`Bot`].
pub fn nash_bot(seed: u64, seat: Seat) -> Box<dyn Bot<Ecard>> {
    Box::new(NashBot::new(seed, seat))
}

/// The `strong` bot as a boxed [`Bot`] (E-card's strong bot is exact: no search budget).
pub fn strong_bot(seed: u64, seat: Seat) -> Box<dyn Bot<Ecard>> {
    Box::new(StrongBot::new(seed, seat))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    fn q(n: i128, d: i128) -> Ratio {
        Ratio::new(n, d)
    }

    #[test]
    fn the_solver_finds_saddles_and_mixed_equilibria() {
        // Matching pennies: 1/2 each, value 0.
        let s = solve([[Ratio::int(1), Ratio::int(-1)], [Ratio::int(-1), Ratio::int(1)]]);
        assert_eq!((s.row, s.col, s.value), (q(1, 2), q(1, 2), q(0, 1)));
        // A saddle at (1, 0): row 1 dominates, column 0 is then best for the column player.
        let s = solve([[1.0, 5.0], [3.0, 6.0]]);
        assert_eq!((s.row, s.col, s.value), (0.0, 1.0, 3.0));
    }

    /// seed-games.md §2(e): in the 5-play structure (`manga`) the equilibrium is uniform over
    /// the cards held, for both sides; the Slave side's value is +1/5 per round at 5:1.
    #[test]
    fn manga_equilibrium_is_uniform_over_the_cards() {
        for side in [Side::Emperor, Side::Slave] {
            let eq = round_equilibrium(Variant::Manga, side);
            assert_eq!(eq.len(), 5);
            for (k, s) in eq.iter().enumerate() {
                let cards = 5 - k as i128;
                assert_eq!(s.row, q(1, cards), "{side:?} after {k} draws");
                assert_eq!(s.col, q(1, cards), "{side:?} after {k} draws");
            }
            // Value with n cards each: Emperor (n-6)/n, Slave (6-n)/n.
            let sign = if side == Side::Emperor { 1 } else { -1 };
            assert_eq!(eq[0].value, q(-sign, 5));
        }
    }

    /// CONTRACT.md §1 ecard strategy note: in `readme`, at the third play (E+2C against S+2C)
    /// each special card is played with probability 1/7. Backwards: 1/8 at play 2, 1/9 at play 1;
    /// the Emperor side's value is 1/7, 1/4, 1/3.
    #[test]
    fn readme_equilibrium_matches_the_strategy_note() {
        let emperor = round_equilibrium(Variant::Readme, Side::Emperor);
        let slave = round_equilibrium(Variant::Readme, Side::Slave);
        let p: Vec<Ratio> = emperor.iter().map(|s| s.row).collect();
        assert_eq!(p, vec![q(1, 9), q(1, 8), q(1, 7)]);
        let v: Vec<Ratio> = emperor.iter().map(|s| s.value).collect();
        assert_eq!(v, vec![q(1, 3), q(1, 4), q(1, 7)]);
        for k in 0..3 {
            assert_eq!(slave[k].row, emperor[k].col);
            assert_eq!(slave[k].col, emperor[k].row);
            assert_eq!(slave[k].value, -emperor[k].value);
        }
    }

    /// An independent check of the `readme` solution: the indifference conditions. At each play,
    /// against the opponent's equilibrium mix both of a seat's cards earn the play's value
    /// (payoffs written out by hand: E–S −5, E–C +1, C–S +1, C–C the next play's value, 0 after
    /// the third draw).
    #[test]
    fn readme_equilibrium_satisfies_the_indifference_conditions() {
        let eq = round_equilibrium(Variant::Readme, Side::Emperor);
        for k in 0..3 {
            let next = if k == 2 { Ratio::int(0) } else { eq[k + 1].value };
            let (p, s) = (eq[k].row, eq[k].col); // P(Emperor plays E), P(Slave plays S)
            let one = Ratio::int(1);
            let emperor_e = s * Ratio::int(-5) + (one - s) * Ratio::int(1);
            let emperor_c = s * Ratio::int(1) + (one - s) * next;
            let slave_s = p * Ratio::int(-5) + (one - p) * Ratio::int(1);
            let slave_c = p * Ratio::int(1) + (one - p) * next;
            assert_eq!(emperor_e, emperor_c, "play {}", k + 1);
            assert_eq!(slave_s, slave_c, "play {}", k + 1);
            assert_eq!(emperor_e, eq[k].value);
        }
    }

    /// In `manga` every round ends decided, so the match game's plays have constant win/lose
    /// payoffs and its equilibrium is uniform over the cards at any score where the round can
    /// still change the match (seed-games.md §2(e)).
    #[test]
    fn manga_match_equilibrium_is_uniform_at_every_score() {
        for side0 in [Side::Emperor, Side::Slave] {
            let eq = MatchEquilibrium::new(Variant::Manga, side0);
            for round in 0..ROUNDS {
                for diff in -20..=20 {
                    for draws in 0..4 {
                        let (game, s) = eq.play(round, diff, draws);
                        let PlayGame::Matrix(m) = game else { panic!("a choice after {draws} draws") };
                        if (m[0][0] - m[0][1]).abs() < 1e-12 {
                            continue; // the match is decided whatever happens: any play is optimal
                        }
                        let uniform = 1.0 / (5 - draws) as f64;
                        assert!((s.row - uniform).abs() < 1e-9, "{round} {diff} {draws}: {s:?}");
                    }
                }
            }
            assert!((0.0..=1.0).contains(&eq.value(0, 0)));
        }
    }

    #[test]
    fn match_equilibrium_takes_risks_only_when_trailing() {
        // readme, last round, seat on the Slave side: 3 behind, only a Slave win (+5) wins the
        // match, so the Slave is played more than the round equilibrium's 1/9; 3 ahead, it
        // cannot lose the match at all (a lost round costs 1).
        let eq = MatchEquilibrium::new(Variant::Readme, Side::Emperor);
        // Round index 11 is in group 4, where a seat that starts as Emperor is the Slave side.
        let (_, behind) = eq.play(11, -3, 0);
        assert!(behind.row > 1.0 / 9.0 + 0.01, "{behind:?}");
        assert!((eq.value(11, 3) - 1.0).abs() < 1e-12);
        assert!(eq.value(11, -6).abs() < 1e-12);
    }

    fn play_match(variant: Variant, seed: u64, names: [&str; 2]) -> Vec<String> {
        let mut g = Ecard::new(variant, seed);
        let mut bots: Vec<Box<dyn Bot<Ecard>>> = names
            .iter()
            .enumerate()
            .map(|(seat, n)| crate::bots::bot::builtin::<Ecard>(n, seed, seat).expect("built-in"))
            .collect();
        let mut out = Vec::new();
        while !g.is_over() {
            let seats = g.to_act();
            let observations: Vec<EcardObservation> = seats.iter().map(|&s| g.observe(s)).collect();
            let mut chosen = Vec::new();
            for (&seat, obs) in seats.iter().zip(&observations) {
                let action = bots[seat].act(obs).expect("an action");
                assert!(obs.legal.contains(&action), "{action} not in {:?}", obs.legal);
                chosen.push((seat, action));
            }
            for (seat, action) in chosen {
                g.play(seat, &action).expect("legal");
                out.push(action);
            }
        }
        out
    }

    #[test]
    fn nash_and_strong_are_deterministic_and_legal() {
        for variant in Variant::ALL {
            for seed in 0..10 {
                for names in [["nash", "strong"], ["strong", "random"], ["greedy", "nash"]] {
                    assert_eq!(play_match(variant, seed, names), play_match(variant, seed, names));
                }
            }
        }
    }
}
