//! Which duplicate sets a matchmaking tick queues: a pure function of the ladder's state (the
//! players with their games, ratings and recent opponents) and the tick's seed, so a ladder day
//! can be replayed.
//!
//! Per job: the first bot is drawn with weight 1/(games+1) (new bots play more); its opponents
//! are drawn among the nearest in conservative rating (the lower end of the 95% interval),
//! leaving out its last [`RECENT`] opponents while others are available, and bots of the same
//! owner unless the ladder allows it. Games counted include the jobs of this tick.

use cardarena::games::rng::{derive_seed, Rng, Stream};

use super::config::Board;
use super::jobs::Job;

/// Opponents a bot does not meet again while others are available.
pub const RECENT: usize = 5;

/// Opponents drawn from this many nearest in rating (at least the seats to fill).
pub const NEAREST: usize = 4;

/// A bot's current version as matchmaking sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// The version id (what plays).
    pub version: i64,
    /// The owner's user id.
    pub owner: i64,
    /// Matches played on this board.
    pub games: u64,
    /// Conservative rating (the 95% interval's lower end; 1500 before any match).
    pub rating: f64,
    /// The versions it met most recently, newest first.
    pub recent: Vec<i64>,
}

/// The jobs of one tick on one board: up to `jobs` duplicate sets of `players`-seat tables.
/// `entrants` may come in any order (they are sorted by version id first).
pub fn pick(
    board: &Board,
    entrants: &[Entrant],
    players: usize,
    jobs: u32,
    same_owner: bool,
    tick_seed: u64,
    tick: i64,
) -> Vec<Job> {
    let mut pool: Vec<Entrant> = entrants.to_vec();
    pool.sort_by_key(|e| e.version);
    let mut rng = Rng::new(tick_seed, Stream::Arena);
    let mut out = Vec::new();
    for j in 0..jobs {
        let weights: Vec<f64> = pool.iter().map(|e| 1.0 / (e.games as f64 + 1.0)).collect();
        let total: f64 = weights.iter().sum();
        if pool.len() < players || total <= 0.0 {
            break;
        }
        let mut x = rng.unit_f64() * total;
        let mut first = pool.len() - 1;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                first = i;
                break;
            }
            x -= w;
        }
        let Some(table) = opponents(&pool, first, players, same_owner, &mut rng) else { continue };
        for &i in &table {
            pool[i].games += 1;
        }
        let versions: Vec<i64> = table.iter().map(|&i| pool[i].version).collect();
        for &i in &table {
            let others: Vec<i64> = versions.iter().copied().filter(|&v| v != pool[i].version).collect();
            pool[i].recent.splice(0..0, others);
            pool[i].recent.truncate(RECENT * (players - 1));
        }
        out.push(Job::Play {
            game: board.game.name().to_string(),
            variant: board.variant.clone(),
            seed: derive_seed(&[tick_seed, u64::from(j)]),
            tick,
            versions,
        });
    }
    out
}

/// The table for `first`: it, then `players - 1` opponents drawn from the nearest in rating.
fn opponents(
    pool: &[Entrant],
    first: usize,
    players: usize,
    same_owner: bool,
    rng: &mut Rng,
) -> Option<Vec<usize>> {
    let me = &pool[first];
    let recent: Vec<i64> = me.recent.iter().take(RECENT * (players - 1)).copied().collect();
    let allowed = |i: &usize| *i != first && (same_owner || pool[*i].owner != me.owner);
    let fresh: Vec<usize> =
        (0..pool.len()).filter(allowed).filter(|&i| !recent.contains(&pool[i].version)).collect();
    let mut candidates =
        if fresh.len() >= players - 1 { fresh } else { (0..pool.len()).filter(allowed).collect() };
    if candidates.len() < players - 1 {
        return None;
    }
    candidates.sort_by(|&a, &b| {
        let (da, db) = ((pool[a].rating - me.rating).abs(), (pool[b].rating - me.rating).abs());
        da.total_cmp(&db).then(pool[a].version.cmp(&pool[b].version))
    });
    candidates.truncate(NEAREST.max(players - 1));
    rng.shuffle(&mut candidates);
    let mut table = vec![first];
    // With owners kept apart, two opponents of one owner do not sit at one table either.
    for c in candidates {
        if table.len() == players {
            break;
        }
        if same_owner || table.iter().all(|&t| pool[t].owner != pool[c].owner) {
            table.push(c);
        }
    }
    (table.len() == players).then_some(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardarena::play::games::GameId;

    fn entrant(version: i64, owner: i64, games: u64, rating: f64) -> Entrant {
        Entrant { version, owner, games, rating, recent: Vec::new() }
    }

    fn board(game: GameId) -> Board {
        Board { game, variant: game.variants()[0].clone() }
    }

    fn tables(jobs: &[Job]) -> Vec<Vec<i64>> {
        jobs.iter()
            .map(|j| match j {
                Job::Play { versions, .. } => versions.clone(),
                Job::Validate { .. } => panic!("matchmaking queues only matches"),
            })
            .collect()
    }

    #[test]
    fn same_state_and_seed_same_jobs_in_any_input_order() {
        let es: Vec<Entrant> =
            (1..=8).map(|v| entrant(v, v, v as u64 * 3, 1400.0 + 20.0 * v as f64)).collect();
        let mut reversed = es.clone();
        reversed.reverse();
        let b = board(GameId::of::<cardarena::games::blade::Blade>());
        let a = pick(&b, &es, 2, 20, false, 99, 1);
        assert_eq!(a, pick(&b, &reversed, 2, 20, false, 99, 1));
        assert_ne!(tables(&a), tables(&pick(&b, &es, 2, 20, false, 100, 1)));
    }

    #[test]
    fn new_bots_play_more() {
        // Version 1 is new, the others have played 50 matches each: in 200 ticks of one job
        // the new bot sits at far more tables than an old one.
        let mut es: Vec<Entrant> = (2..=6).map(|v| entrant(v, v, 50, 1500.0)).collect();
        es.push(entrant(1, 1, 0, 1500.0));
        let mut count = [0u32; 7];
        for tick in 0..200 {
            for t in tables(&pick(
                &board(GameId::of::<cardarena::games::blade::Blade>()),
                &es,
                2,
                1,
                false,
                tick,
                tick as i64,
            )) {
                for v in t {
                    count[v as usize] += 1;
                }
            }
        }
        let old_max = count[2..].iter().max().copied().unwrap();
        assert!(count[1] > 2 * old_max, "{count:?}");
    }

    #[test]
    fn owners_kept_apart_unless_allowed() {
        // Two owners with two bots each: every table is across owners.
        let es = vec![
            entrant(1, 10, 0, 1500.0),
            entrant(2, 10, 0, 1500.0),
            entrant(3, 20, 0, 1500.0),
            entrant(4, 20, 0, 1500.0),
        ];
        let owner = |v: i64| es.iter().find(|e| e.version == v).unwrap().owner;
        for t in
            tables(&pick(&board(GameId::of::<cardarena::games::blade::Blade>()), &es, 2, 30, false, 5, 0))
        {
            assert_ne!(owner(t[0]), owner(t[1]), "{t:?}");
        }
        // One owner only: no table at all, unless allowed.
        let solo = vec![entrant(1, 10, 0, 1500.0), entrant(2, 10, 0, 1500.0)];
        assert!(
            pick(&board(GameId::of::<cardarena::games::blade::Blade>()), &solo, 2, 5, false, 5, 0).is_empty()
        );
        assert_eq!(
            pick(&board(GameId::of::<cardarena::games::blade::Blade>()), &solo, 2, 5, true, 5, 0).len(),
            5
        );
    }

    #[test]
    fn opponents_are_near_in_rating_and_vary() {
        // Ten bots 100 points apart; the bot at 1500 meets its nearest, and not the same one
        // again (the last RECENT opponents are left out while others remain).
        let es: Vec<Entrant> = (0..10)
            .map(|k| entrant(k + 1, k + 1, if k == 5 { 0 } else { 1000 }, 1000.0 + 100.0 * k as f64))
            .collect();
        let jobs = pick(&board(GameId::of::<cardarena::games::blade::Blade>()), &es, 2, 6, false, 3, 0);
        // The first seat is the bot drawn first; version 6 is new, so it is drawn every time.
        let met: Vec<i64> = tables(&jobs).iter().filter(|t| t[0] == 6).map(|t| t[1]).collect();
        assert_eq!(met.len(), 6, "{met:?}");
        // Its first opponent is among its four nearest: 5 and 7 (100 away), 4 and 8 (200 away).
        assert!([4, 5, 7, 8].contains(&met[0]), "{met:?}");
        // Then its recent opponents are left out, so the next ones are the nearest of the rest:
        // the first three all within 300 points, and no opponent twice in six matches.
        assert!(met[..3].iter().all(|o| (o - 6).abs() <= 3), "{met:?}");
        let distinct: std::collections::BTreeSet<_> = met.iter().collect();
        assert_eq!(distinct.len(), 6, "the same opponent again: {met:?}");
    }

    #[test]
    fn intensity_tables_have_four_distinct_bots() {
        let es: Vec<Entrant> = (1..=7).map(|v| entrant(v, v, 0, 1500.0)).collect();
        let jobs =
            pick(&board(GameId::of::<cardarena::games::intensity::Intensity>()), &es, 4, 10, false, 8, 2);
        assert_eq!(jobs.len(), 10);
        for t in tables(&jobs) {
            let distinct: std::collections::BTreeSet<_> = t.iter().collect();
            assert_eq!((t.len(), distinct.len()), (4, 4), "{t:?}");
        }
    }
}
