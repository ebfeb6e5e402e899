//! Who plays whom, on which deal, in which seat.
//!
//! Fairness comes from duplicate deals: deal `d` of an event has one seed, derived from the event
//! seed, and with `duplicate = true` it is played once per seat rotation (two-player: both seat
//! orders; Intensity: the four cyclic rotations, so each bot of a table sits in each seat once),
//! always with fresh bot instances. Every pairing or table of an event plays the same deals.
//!
//! Matches are listed deal by deal (deal 0 for every pairing, then deal 1, …) so that a
//! tournament stopped halfway has an even sample of every pairing.

use crate::games::rng::{derive_seed, Rng, Stream};

use super::config::{Event, Format};

/// One match to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchPlan {
    /// Swiss round (0 for other formats).
    pub round: u32,
    /// The deal number within the event.
    pub deal: u32,
    /// The match seed (the same for every rotation of a deal).
    pub seed: u64,
    /// The entrant (index into the event's bots) in each seat.
    pub seats: Vec<usize>,
}

/// The seed of deal `deal` of an event.
pub fn deal_seed(event_seed: u64, deal: u32) -> u64 {
    derive_seed(&[event_seed, u64::from(deal)])
}

/// The seat orders of one deal at one table (`table` lists entrants in their first seat order).
pub fn rotations(table: &[usize], deal: u32, duplicate: bool) -> Vec<Vec<usize>> {
    let n = table.len();
    let rotate = |r: usize| (0..n).map(|s| table[(s + r) % n]).collect::<Vec<_>>();
    if duplicate {
        (0..n).map(rotate).collect()
    } else {
        vec![rotate(deal as usize % n)]
    }
}

/// The tables (pairings or groups of 4) of a non-Swiss event.
pub fn tables(event: &Event, players: usize) -> Vec<Vec<usize>> {
    let n = event.bots.len();
    match (event.format, players) {
        (Format::Gauntlet, _) => {
            let champion = event.champion.expect("a gauntlet has a champion");
            let others: Vec<usize> = (0..n).filter(|&b| b != champion).collect();
            if players == 2 {
                others.iter().map(|&o| vec![champion, o]).collect()
            } else {
                // the champion with every combination of three others
                combinations(&others, players - 1)
                    .into_iter()
                    .map(|mut c| {
                        c.insert(0, champion);
                        c
                    })
                    .collect::<Vec<_>>()
                    .into_iter()
                    .take(event.max_tables as usize)
                    .collect()
            }
        }
        _ => {
            let all: Vec<usize> = (0..n).collect();
            let mut combos = combinations(&all, players);
            // `max_tables` bounds the tables of 4 (their number grows as n^4); every pair of a
            // two-player round robin always plays.
            if players > 2 && combos.len() > event.max_tables as usize {
                // A seeded sample, kept in lexicographic order.
                let mut rng = Rng::new(event.seed, Stream::Arena);
                rng.shuffle(&mut combos);
                combos.truncate(event.max_tables as usize);
                combos.sort();
            }
            combos
        }
    }
}

/// Every match of a round-robin or gauntlet event, in play order.
pub fn plan(event: &Event, players: usize) -> Vec<MatchPlan> {
    let tables = tables(event, players);
    let mut out = Vec::new();
    for deal in 0..event.deals {
        let seed = deal_seed(event.seed, deal);
        for table in &tables {
            for seats in rotations(table, deal, event.duplicate) {
                out.push(MatchPlan { round: 0, deal, seed, seats });
            }
        }
    }
    out
}

/// The matches of Swiss round `round`, given every entrant's score so far and the pairings already
/// played (as sorted entrant lists). Bots are ranked by score (then by their order in the file);
/// two-player: the top unpaired bot meets the next one it has not met yet (or the next one at
/// all); with an odd number, the lowest-ranked bot without a bye sits out. Four-player: groups of
/// four in rank order; the lowest-ranked leftovers sit out.
pub fn plan_swiss_round(
    event: &Event,
    players: usize,
    round: u32,
    scores: &[f64],
    met: &[Vec<usize>],
    byes: &[usize],
) -> (Vec<MatchPlan>, Vec<usize>) {
    let n = event.bots.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut sitting_out = Vec::new();
    let extra = n % players;
    if extra > 0 {
        // lowest-ranked bots that have had the fewest byes
        let mut candidates: Vec<usize> = order.iter().rev().copied().collect();
        candidates.sort_by_key(|b| byes.iter().filter(|x| *x == b).count());
        sitting_out = candidates.into_iter().take(extra).collect();
        order.retain(|b| !sitting_out.contains(b));
    }
    let mut tables: Vec<Vec<usize>> = Vec::new();
    if players == 2 {
        let mut free = order.clone();
        while let Some(a) = (!free.is_empty()).then(|| free.remove(0)) {
            let pick = free
                .iter()
                .position(|&b| {
                    let mut pair = vec![a, b];
                    pair.sort();
                    !met.contains(&pair)
                })
                .unwrap_or(0);
            let b = free.remove(pick);
            tables.push(vec![a, b]);
        }
    } else {
        tables = order.chunks(players).map(|c| c.to_vec()).collect();
    }
    let mut out = Vec::new();
    for d in 0..event.deals {
        let deal = round * event.deals + d;
        let seed = deal_seed(event.seed, deal);
        for table in &tables {
            for seats in rotations(table, deal, event.duplicate) {
                out.push(MatchPlan { round, deal, seed, seats });
            }
        }
    }
    (out, sitting_out)
}

/// All `k`-element subsets of `items`, in lexicographic order.
pub fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(items: &[usize], k: usize, start: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..items.len() {
            current.push(items[i]);
            go(items, k, i + 1, current, out);
            current.pop();
        }
    }
    go(items, k, 0, &mut current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::config::{parse, Event};
    use std::path::Path;

    fn event(text: &str) -> Event {
        parse(text, Path::new("arena.toml"), &crate::Games::builtin()).unwrap().events.remove(0)
    }

    #[test]
    fn round_robin_plays_every_pair_both_ways_on_the_same_deal() {
        let e = event("[[event]]\ngame = \"blade\"\nbots = [\"a.lua\", \"b.lua\", \"c.lua\"]\ndeals = 2\n");
        let p = plan(&e, 2);
        assert_eq!(p.len(), 3 * 2 * 2);
        assert_eq!(p[0].seats, vec![0, 1]);
        assert_eq!(p[1].seats, vec![1, 0]);
        assert_eq!(p[0].seed, p[1].seed);
        assert_ne!(p[0].seed, p[6].seed);
        assert!(p[..6].iter().all(|m| m.deal == 0));
    }

    #[test]
    fn intensity_tables_rotate_every_bot_through_every_seat() {
        let e = event("[[event]]\ngame = \"intensity\"\nbots = [\"a.lua\", \"b.lua\", \"c.lua\", \"d.lua\", \"e.lua\"]\ndeals = 1\n");
        let p = plan(&e, 4);
        assert_eq!(p.len(), 5 * 4); // C(5,4) tables × 4 rotations
        for table in p.chunks(4) {
            for seat in 0..4 {
                let mut who: Vec<usize> = table.iter().map(|m| m.seats[seat]).collect();
                who.sort();
                assert_eq!(who, {
                    let mut t = table[0].seats.clone();
                    t.sort();
                    t
                });
            }
        }
    }

    #[test]
    fn many_intensity_bots_are_sampled_deterministically() {
        let bots: Vec<String> = (0..12).map(|i| format!("\"b{i}.lua\"")).collect();
        let text = format!("[[event]]\ngame = \"intensity\"\nmax_tables = 10\nbots = [{}]\n", bots.join(","));
        let e = event(&text);
        let t = tables(&e, 4);
        assert_eq!(t.len(), 10);
        assert_eq!(t, tables(&e, 4));
    }

    #[test]
    fn a_two_player_round_robin_plays_every_pair_however_many_bots() {
        // docs/tournament.md: `max_tables` is for tables of 4; 12 bots make 66 pairs > 35.
        let bots: Vec<String> = (0..12).map(|i| format!("\"b{i}.lua\"")).collect();
        let e = event(&format!("[[event]]\ngame = \"blade\"\nbots = [{}]\n", bots.join(",")));
        let t = tables(&e, 2);
        assert_eq!(t.len(), 66);
        assert_eq!(t, combinations(&(0..12).collect::<Vec<_>>(), 2));
    }

    #[test]
    fn gauntlet_puts_the_champion_against_each_other_bot() {
        let e = event("[[event]]\ngame = \"ecard\"\nformat = \"gauntlet\"\nchampion = \"b.lua\"\nbots = [\"a.lua\", \"b.lua\", \"c.lua\"]\n");
        assert_eq!(tables(&e, 2), vec![vec![1, 0], vec![1, 2]]);
    }

    #[test]
    fn swiss_pairs_neighbours_and_avoids_rematches() {
        let e = event("[[event]]\ngame = \"blade\"\nformat = \"swiss\"\ndeals = 1\nbots = [\"a.lua\", \"b.lua\", \"c.lua\", \"d.lua\", \"e.lua\"]\n");
        let (p, out) = plan_swiss_round(&e, 2, 1, &[3.0, 2.0, 1.0, 0.0, 5.0], &[vec![0, 4]], &[]);
        assert_eq!(out, vec![3]);
        let pairs: Vec<Vec<usize>> = p.iter().step_by(2).map(|m| m.seats.clone()).collect();
        assert_eq!(pairs, vec![vec![4, 1], vec![0, 2]]);
        assert!(p.iter().all(|m| m.deal == 1));
    }
}
