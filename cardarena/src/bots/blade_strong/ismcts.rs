//! An information-set tree search for Blade (single-observer ISMCTS with UCT), measured against
//! the determinized search of the parent module; not a built-in bot (docs/games/blade.md, "An
//! information-set tree search").
//!
//! One tree over the public action sequence from the decision on: an edge is a card played by a
//! seat, so the tree holds the deciding seat's cards **and the opponent's replies** and the
//! replies to those. Each iteration takes one determinization of the hidden cards (from a pool
//! weighted by the parent's opponent model, [`Replay::likelihood`]), descends the tree choosing
//! among the cards that are legal in that determinization by UCB1 with availability counts (a
//! card's prior chances are the iterations in which it could be played), adds one new edge (the
//! card the playout policy rates best among the untried ones), plays the rest with the parent's
//! playout policy and backs the result up, each edge valued for the seat that played it. The set-up
//! cards drawn after a tie are chance events inside the determinization (edges do not record
//! them). The card played is the root's most visited.

use super::{rate, rollout, Params, Pos, Replay, MIN_WORK, WORK_PER_DET};
use crate::bots::bot::{Bot, Fault, Verdict};
use crate::bots::Greedy;
use crate::games::blade::{Blade, BladeObservation, Card};
use crate::games::rng::{Rng, Stream};
use crate::games::Seat;

/// The knobs of the tree search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeParams {
    /// UCB1's exploration constant (rewards in −1..=1).
    pub(crate) explore: f64,
    /// Determinizations in the weighted pool the iterations draw from.
    pub(crate) pool: u32,
}

impl TreeParams {
    pub(crate) const DEFAULT: TreeParams = TreeParams { explore: 1.0, pool: 100 };
}

/// One node: the edge into it (seat and card), its statistics for that seat, and its children.
struct Node {
    seat: u8,
    card: u8,
    visits: u32,
    /// Iterations in which the edge was legal when its parent was visited.
    avail: u32,
    /// Summed results for `seat` (+1 win, 0 draw, −1 loss).
    total: f64,
    children: Vec<u32>,
}

/// The weighted determinizations of a decision, drawn by their cumulative weights.
struct Pool {
    positions: Vec<Pos>,
    cumulative: Vec<f64>,
}

impl Pool {
    fn new(
        obs: &BladeObservation,
        size: u32,
        params: &Params,
        rng: &mut Rng,
        work: &mut u64,
    ) -> Option<Pool> {
        let replay = Replay::new(obs);
        let mut hidden = obs.unseen.clone();
        let mut positions = Vec::with_capacity(size as usize);
        let mut cumulative = Vec::with_capacity(size as usize);
        let mut sum = 0.0;
        for _ in 0..size.max(1) {
            rng.shuffle(&mut hidden);
            let pos = Pos::from_observation(obs, &hidden)?;
            *work += replay.turns.len() as u64;
            sum += replay.likelihood(&pos, 1 - obs.seat, params);
            positions.push(pos);
            cumulative.push(sum);
        }
        if sum.is_finite() && sum > 0.0 {
            Some(Pool { positions, cumulative })
        } else {
            let n = positions.len();
            Some(Pool { positions, cumulative: (1..=n).map(|i| i as f64).collect() })
        }
    }

    fn draw(&self, rng: &mut Rng) -> Pos {
        let total = *self.cumulative.last().expect("a pool is never empty");
        let x = rng.unit_f64() * total;
        let i = self.cumulative.partition_point(|&c| c <= x).min(self.positions.len() - 1);
        self.positions[i]
    }
}

/// The tree search's visits per card of `obs`'s decision (in `legal` order), with the work of
/// `budget` determinizations of the parent's search (moves played in the tree and in playouts,
/// opponent turns replayed by the model). `None`: not a decision of the seat, or counts that do
/// not add up.
pub(crate) fn search(
    obs: &BladeObservation,
    budget: u32,
    params: &Params,
    tree: &TreeParams,
    rng: &mut Rng,
) -> Option<Vec<(Card, u32, f64)>> {
    let cap = (u64::from(budget) * WORK_PER_DET).max(MIN_WORK);
    let mut work = 0u64;
    let pool = Pool::new(obs, tree.pool, params, rng, &mut work)?;
    let mut nodes = vec![Node { seat: 0, card: 0, visits: 0, avail: 0, total: 0.0, children: Vec::new() }];
    let mut path: Vec<u32> = Vec::with_capacity(32);
    while work < cap {
        let mut pos = pool.draw(rng);
        path.clear();
        path.push(0);
        let mut at = 0usize;
        while let Some(mover) = pos.mover() {
            let (moves, n) = pos.moves();
            let mut best: Option<(f64, u32)> = None;
            let mut untried = [true; 9];
            let ln_parent = |avail: u32| f64::from(avail.max(1)).ln();
            for &child in &nodes[at].children {
                let c = &nodes[child as usize];
                if usize::from(c.seat) != mover {
                    continue;
                }
                if let Some(i) = moves[..n].iter().position(|&m| m == c.card) {
                    untried[i] = false;
                }
            }
            // Expand: the untried card the playout policy rates best.
            let fresh = if untried[..n].iter().any(|&u| u) {
                let view = super::unseen_by(&pos, mover);
                (0..n)
                    .filter(|&i| untried[i])
                    .map(|i| (rate(&pos, moves[i], false, Some(&view)), i))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .map(|(_, i)| i)
            } else {
                None
            };
            // Every legal edge that exists has been available once more.
            for k in 0..nodes[at].children.len() {
                let child = nodes[at].children[k];
                let c = &mut nodes[child as usize];
                if usize::from(c.seat) == mover && moves[..n].contains(&c.card) {
                    c.avail += 1;
                }
            }
            if let Some(i) = fresh {
                let card = moves[i];
                let id = nodes.len() as u32;
                nodes.push(Node {
                    seat: mover as u8,
                    card,
                    visits: 0,
                    avail: 1,
                    total: 0.0,
                    children: Vec::new(),
                });
                nodes[at].children.push(id);
                path.push(id);
                pos.play(card);
                work += 1;
                break;
            }
            for &child in &nodes[at].children {
                let c = &nodes[child as usize];
                if usize::from(c.seat) != mover || !moves[..n].contains(&c.card) {
                    continue;
                }
                let visits = f64::from(c.visits.max(1));
                let ucb = c.total / visits + tree.explore * (ln_parent(c.avail) / visits).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, child));
                }
            }
            let Some((_, child)) = best else { break };
            pos.play(nodes[child as usize].card);
            work += 1;
            path.push(child);
            at = child as usize;
        }
        let result = f64::from(rollout(&pos, params, rng, &mut work));
        for &id in &path {
            let node = &mut nodes[id as usize];
            node.visits += 1;
            node.total += if node.seat == 0 { result } else { -result };
        }
    }
    let cards: Vec<Card> = obs.legal.iter().filter_map(|s| s.parse().ok()).collect();
    let root = &nodes[0];
    Some(
        cards
            .iter()
            .map(|&card| {
                root.children
                    .iter()
                    .map(|&c| &nodes[c as usize])
                    .find(|c| usize::from(c.card) == card.index())
                    .map_or((card, 0, 0.0), |c| (card, c.visits, c.total / f64::from(c.visits.max(1))))
            })
            .collect(),
    )
}

/// The tree search as a bot: the most visited card, ties to the better mean, then the cheaper card.
pub(crate) struct TreeBot {
    rng: Rng,
    budget: u32,
    tree: TreeParams,
}

impl TreeBot {
    /// The tree search for `seat` of the match with `seed`, with the work of `budget`
    /// determinizations of the parent's search (`None`: its default).
    pub(crate) fn new(seed: u64, seat: Seat, budget: Option<u32>, tree: TreeParams) -> TreeBot {
        let budget = budget.unwrap_or(super::DEFAULT_BUDGET).max(1);
        TreeBot { rng: Rng::new(seed, Stream::Bot(seat)), budget, tree }
    }
}

impl Bot<Blade> for TreeBot {
    fn act(&mut self, obs: &BladeObservation) -> Result<String, Fault> {
        if obs.legal.is_empty() {
            return Err(Fault::new(Verdict::Crash, "blade tree search asked to act with no legal action"));
        }
        let greedy = Blade::greedy_action(obs, &mut self.rng).0;
        if obs.legal.len() == 1 {
            return Ok(greedy.to_string());
        }
        let Some(stats) = search(obs, self.budget, &Params::DEFAULT, &self.tree, &mut self.rng) else {
            return Ok(greedy.to_string());
        };
        let best = stats
            .iter()
            .copied()
            .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map_or(greedy, |(card, _, _)| card);
        Ok(best.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blade::Variant;
    use crate::games::Game;

    fn actions(seed: u64) -> Vec<String> {
        let mut state = Blade::new(Variant::Readme, seed);
        let tree = TreeParams::DEFAULT;
        let mut bots = [TreeBot::new(seed, 0, Some(8), tree), TreeBot::new(seed, 1, Some(8), tree)];
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
    fn tree_search_is_deterministic_and_legal() {
        for seed in 0..10 {
            assert_eq!(actions(seed), actions(seed), "seed {seed}");
        }
    }
}
