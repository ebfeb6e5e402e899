//! Standings of one event: match results, the game's own points, faults, fuel, ratings.
//!
//! The table is ranked by **score per match** ([`match_score`]: the share of the table beaten,
//! win 1, draw ½, loss 0; in Intensity 1, ⅔, ⅓, 0 by placing, tied places sharing), then by the
//! share of matches with a fault (fewer first), then by the game's own **points** per match
//! ([`game_points`]), then by the fitted rating. A faulty two-player match is a loss in every
//! column (see `Game::forfeit`), and between equal scores the bot that faulted ranks below, so
//! a fault never pays: a forfeit's points are at most a narrow loss, which may be better than
//! the wide loss playing on would have given, but they only break ties after the faults.
//!
//! Points per match, by game: Blade 2/1/0 (controller: 2 for a draw), E-card the round points
//! scored, Lost Cities the score difference (own minus opponent's), Intensity the penalty points
//! taken (fewer is better). A win is rank 1 alone at the table, a draw rank 1 shared, a loss
//! anything else.

use std::collections::BTreeMap;

use serde::Serialize;
use skillratings::elo::{elo, EloConfig, EloRating};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::trueskill::{trueskill, trueskill_multi_team, TrueSkillConfig, TrueSkillRating};
use skillratings::{MultiTeamOutcome, Outcomes};

use super::config::Event;
use super::schedule::MatchPlan;
use super::{MatchResult, MatchSummary};
use crate::play::runner::BotEntry;
use crate::play::GameId;
use crate::stats::ratings::{self, Placing};

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The bot as named in the file.
    pub bot: String,
    /// Its content hash.
    pub hash: String,
    /// Matches played.
    pub matches: u64,
    /// Match score summed over matches ([`match_score`]: win 1, draw ½, loss 0).
    pub score: f64,
    /// Points by the game's own scoring (see the module docs; Intensity: penalty points).
    pub points: f64,
    /// Place in the table (1 = best; by score per match, then points per match, then rating).
    pub rank: u32,
    /// Plackett–Luce / Bradley–Terry rating fitted to all matches (Elo scale, field mean 1500).
    pub rating: f64,
    /// 95% interval of `rating`, low end.
    pub ci_low: f64,
    /// 95% interval of `rating`, high end.
    pub ci_high: f64,
    /// The fitted rating minus the leader's (rank 1), with the 95% interval of that difference
    /// (`ratings::Fitted::difference`); `None` for the leader. Below 0 at 95% when `high < 0`.
    pub vs_leader: Option<Difference>,
    /// Faults by verdict (only verdicts that occurred).
    pub faults: BTreeMap<String, u64>,
    /// Matches with at least one fault of this bot.
    pub faulted_matches: u64,
    /// Matches won (rank 1 alone).
    pub wins: u64,
    /// Matches drawn (rank 1 shared).
    pub draws: u64,
    /// Matches lost.
    pub losses: u64,
    /// Mean fuel per decision (sandboxed bots only).
    pub mean_fuel_per_decision: Option<f64>,
    /// Matches per bin of the game's points in a match ([`EventStandings::points_bins`]), for
    /// the HTML report's histograms (not in the JSON).
    #[serde(skip)]
    pub points_histogram: Vec<u64>,
    /// Incremental Elo (skillratings, K = 32), in match order.
    pub elo: f64,
    /// Incremental Glicko-2 rating (skillratings defaults).
    pub glicko2: f64,
    /// TrueSkill conservative estimate μ − 3σ (skillratings defaults).
    pub trueskill: f64,
}

/// A rating difference (Elo) with its own 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// The difference.
    pub diff: f64,
    /// 95% interval, low end.
    pub low: f64,
    /// 95% interval, high end.
    pub high: f64,
}

/// The standings of one event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventStandings {
    /// Event name.
    pub name: String,
    /// Game.
    pub game: String,
    /// Variant.
    pub variant: String,
    /// Format name.
    pub format: String,
    /// Matches counted (the first `matches` of the plan, in plan order).
    pub matches: u64,
    /// Matches in the event's plan (Swiss: every round's, as far as they are known).
    pub planned: u64,
    /// How the table is ranked.
    pub ranked_by: String,
    /// What the `points` column is.
    pub points_are: String,
    /// Whether fewer points are better (Intensity's penalty points; not in the JSON).
    #[serde(skip)]
    pub fewer_points_better: bool,
    /// The bots that could not be loaded, with why (they forfeit every match).
    pub not_loaded: Vec<NotLoaded>,
    /// Standings in rank order.
    pub standings: Vec<Standing>,
    /// The bots in file order (the rows and columns of `matrix`).
    pub matrix_bots: Vec<String>,
    /// `matrix[i][j]`: how often bot `i` (file order) placed above bot `j` at the same table.
    pub matrix: Vec<Vec<u64>>,
    /// The bins of every bot's `points_histogram` (not in the JSON).
    #[serde(skip)]
    pub points_bins: PointsBins,
}

/// Bins of the points a bot made in one match, shared by every bot of an event: bin `k` holds
/// `low + k·width ≤ points < low + (k + 1)·width`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointsBins {
    /// The lowest points of any bot in any match.
    pub low: f64,
    /// The width of a bin (whole points).
    pub width: f64,
    /// The number of bins.
    pub count: usize,
}

impl PointsBins {
    /// At most `max` bins of whole-point width covering `values`.
    fn covering(values: impl Iterator<Item = f64> + Clone, max: usize) -> PointsBins {
        let low = values.clone().fold(f64::INFINITY, f64::min);
        let high = values.fold(f64::NEG_INFINITY, f64::max);
        if !low.is_finite() {
            return PointsBins::default();
        }
        let width = ((high - low + 1.0) / max as f64).ceil().max(1.0);
        PointsBins { low, width, count: ((high - low) / width).floor() as usize + 1 }
    }

    fn bin(&self, points: f64) -> usize {
        (((points - self.low) / self.width).floor() as usize).min(self.count - 1)
    }
}

/// A bot of an event that could not be loaded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NotLoaded {
    /// The bot as named in the file.
    pub bot: String,
    /// Why it could not be loaded.
    pub error: String,
}

/// How every table is ranked (printed under it and in the JSON).
pub const RANKED_BY: &str = "score per match (win 1, draw ½, loss 0; at a table of 4: 1, ⅔, ⅓, 0 by placing), then fewer matches with a fault, then points per match, then rating";

/// A seat's match score: the share of the table it beat, 1 for first alone, 0 for last alone,
/// ties halved (two players: win 1, draw ½, loss 0).
pub fn match_score(ranks: &[u32], seat: usize) -> f64 {
    let mine = ranks[seat];
    let beaten = ranks.iter().filter(|&&r| r > mine).count() as f64;
    let tied = ranks.iter().filter(|&&r| r == mine).count() as f64 - 1.0;
    (beaten + 0.5 * tied) / (ranks.len() - 1) as f64
}

/// Points for `seat` in a match, by the game's own scoring ([`crate::games::Game::event_points`]).
pub fn game_points(game: GameId, s: &MatchSummary, seat: usize) -> f64 {
    game.event_points(&s.points, seat)
}

/// Computes the standings from the matches (in plan order).
/// (`planned` is set to the matches given and `not_loaded` left empty: the tournament sets them.)
pub fn compute(
    event: &Event,
    game: GameId,
    variant: &str,
    entries: &[BotEntry],
    plans: &[MatchPlan],
    summaries: &[MatchSummary],
) -> EventStandings {
    let n = entries.len();
    let rows: Vec<Standing> = entries
        .iter()
        .map(|e| Standing {
            bot: e.name.clone(),
            hash: e.hash.clone(),
            matches: 0,
            score: 0.0,
            points: 0.0,
            rank: 0,
            rating: 1500.0,
            ci_low: 1500.0,
            ci_high: 1500.0,
            vs_leader: None,
            points_histogram: Vec::new(),
            faults: BTreeMap::new(),
            faulted_matches: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            mean_fuel_per_decision: None,
            elo: 0.0,
            glicko2: 0.0,
            trueskill: 0.0,
        })
        .collect();
    // Three passes over the matches in plan order, each sequential (the ratings are
    // incremental): the counts with Elo and Glicko-2, then the fitted ratings, beside TrueSkill
    // (the costliest with more than two seats: its factor graph). Inside the caller's thread
    // pool the two run at once: the same numbers, a shorter tail after the last match.
    let counts_and_fit = || {
        let mut rows = rows;
        let mut fuel = vec![(0u64, 0u64); n];
        let mut matrix = vec![vec![0u64; n]; n];
        let mut placings = Vec::with_capacity(plans.len());
        let mut match_points: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut elos = vec![EloRating::new(); n];
        let mut glickos = vec![Glicko2Rating::new(); n];
        let (ec, gc) = (EloConfig::new(), Glicko2Config::new());
        for (plan, s) in plans.iter().zip(summaries) {
            for (seat, &e) in plan.seats.iter().enumerate() {
                let row = &mut rows[e];
                row.matches += 1;
                row.score += match_score(&s.ranks, seat);
                let points = game_points(game, s, seat);
                row.points += points;
                match_points[e].push(points);
                match MatchResult::of(&s.ranks, seat) {
                    MatchResult::Win => row.wins += 1,
                    MatchResult::Draw => row.draws += 1,
                    MatchResult::Loss => row.losses += 1,
                }
                row.faulted_matches += u64::from(!s.faults[seat].is_empty());
                for v in &s.faults[seat] {
                    *row.faults.entry(v.name().to_string()).or_insert(0) += 1;
                }
                fuel[e].0 += s.fuel[seat];
                fuel[e].1 += s.metered_decisions[seat];
                for (other_seat, &o) in plan.seats.iter().enumerate() {
                    if s.ranks[seat] < s.ranks[other_seat] {
                        matrix[e][o] += 1;
                    }
                }
            }
            placings.push(Placing::from_ranks(&plan.seats, &s.ranks));
            // incremental ratings: pairwise for Elo and Glicko-2 (TrueSkill: `trueskill_ratings`)
            let seats = &plan.seats;
            let (old_elo, old_glicko) = (elos.clone(), glickos.clone());
            for a in 0..seats.len() {
                for b in a + 1..seats.len() {
                    let outcome = outcome(s.ranks[a], s.ranks[b]);
                    let (ea, eb) = elo(&old_elo[seats[a]], &old_elo[seats[b]], &outcome, &ec);
                    elos[seats[a]].rating += ea.rating - old_elo[seats[a]].rating;
                    elos[seats[b]].rating += eb.rating - old_elo[seats[b]].rating;
                    let (ga, gb) = glicko2(&old_glicko[seats[a]], &old_glicko[seats[b]], &outcome, &gc);
                    if seats.len() == 2 {
                        glickos[seats[a]] = ga;
                        glickos[seats[b]] = gb;
                    } else {
                        glickos[seats[a]].rating += (ga.rating - old_glicko[seats[a]].rating) / 3.0;
                        glickos[seats[b]].rating += (gb.rating - old_glicko[seats[b]].rating) / 3.0;
                    }
                }
            }
        }
        let fitted = ratings::fit_all(n, &placings);
        let bins = PointsBins::covering(match_points.iter().flatten().copied(), 12);
        for (row, points) in rows.iter_mut().zip(&match_points) {
            row.points_histogram = vec![0; bins.count];
            for &p in points {
                row.points_histogram[bins.bin(p)] += 1;
            }
        }
        (rows, fuel, matrix, elos, glickos, fitted, bins)
    };
    let trueskill = || trueskill_ratings(n, plans, summaries);
    let ((mut rows, fuel, matrix, elos, glickos, fitted, points_bins), trues) =
        if rayon::current_thread_index().is_some() {
            rayon::join(counts_and_fit, trueskill)
        } else {
            (counts_and_fit(), trueskill())
        };
    for (e, row) in rows.iter_mut().enumerate() {
        row.rating = fitted.ratings[e].rating;
        row.ci_low = fitted.ratings[e].low;
        row.ci_high = fitted.ratings[e].high;
        row.mean_fuel_per_decision = (fuel[e].1 > 0).then(|| fuel[e].0 as f64 / fuel[e].1 as f64);
        row.elo = elos[e].rating;
        row.glicko2 = glickos[e].rating;
        row.trueskill = trues[e].rating - 3.0 * trues[e].uncertainty;
    }
    let mut order: Vec<usize> = (0..n).collect();
    // Per match, so that a bot with fewer tables (a sampled Intensity round robin, a Swiss bye)
    // is neither helped nor hurt; in a full round robin it is the order of the sums.
    let per_match = |x: f64, r: &Standing| if r.matches == 0 { 0.0 } else { x / r.matches as f64 };
    let sign = if game.fewer_points_better() { -1.0 } else { 1.0 };
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&rows[a], &rows[b]);
        per_match(rb.score, rb)
            .total_cmp(&per_match(ra.score, ra))
            .then(
                per_match(ra.faulted_matches as f64, ra).total_cmp(&per_match(rb.faulted_matches as f64, rb)),
            )
            .then((sign * per_match(rb.points, rb)).total_cmp(&(sign * per_match(ra.points, ra))))
            .then(rb.rating.total_cmp(&ra.rating))
            .then(a.cmp(&b))
    });
    let mut standings = Vec::with_capacity(n);
    for (place, &e) in order.iter().enumerate() {
        let mut row = rows[e].clone();
        row.rank = place as u32 + 1;
        if place > 0 {
            let d = fitted.difference(e, order[0]);
            row.vs_leader = Some(Difference { diff: d.rating, low: d.low, high: d.high });
        }
        standings.push(row);
    }
    EventStandings {
        name: event.name.clone(),
        game: game.name().to_string(),
        variant: variant.to_string(),
        format: event.format.name().to_string(),
        matches: summaries.len() as u64,
        planned: summaries.len() as u64,
        ranked_by: RANKED_BY.to_string(),
        points_are: game.points_are().to_string(),
        fewer_points_better: game.fewer_points_better(),
        not_loaded: Vec::new(),
        standings,
        matrix_bots: entries.iter().map(|e| e.name.clone()).collect(),
        matrix,
        points_bins,
    }
}

/// The outcome for the first of two seats with these ranks (1 is the best).
fn outcome(first: u32, second: u32) -> Outcomes {
    match first.cmp(&second) {
        std::cmp::Ordering::Less => Outcomes::WIN,
        std::cmp::Ordering::Greater => Outcomes::LOSS,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
    }
}

/// TrueSkill ratings after every match in plan order: one multi-team game per match.
///
/// A two-seat match takes skillratings' closed-form two-player update: the factor graph of two
/// teams of one has no loop, so it is the same update (equal to ~1e-13, see the test), without
/// the graph's allocations, which dominate the standings' time after a long two-player
/// tournament (BENCHMARKS.md).
fn trueskill_ratings(n: usize, plans: &[MatchPlan], summaries: &[MatchSummary]) -> Vec<TrueSkillRating> {
    let config = TrueSkillConfig::new();
    let mut trues = vec![TrueSkillRating::new(); n];
    for (plan, s) in plans.iter().zip(summaries) {
        let seats = &plan.seats;
        if let ([a, b], [ra, rb]) = (&seats[..], &s.ranks[..]) {
            (trues[*a], trues[*b]) = trueskill(&trues[*a], &trues[*b], &outcome(*ra, *rb), &config);
            continue;
        }
        let teams: Vec<[TrueSkillRating; 1]> = seats.iter().map(|&e| [trues[e]]).collect();
        let input: Vec<(&[TrueSkillRating], MultiTeamOutcome)> =
            teams.iter().zip(&s.ranks).map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r as usize))).collect();
        if let Ok(new) = trueskill_multi_team(&input, &config, None) {
            for (&e, team) in seats.iter().zip(new) {
                trues[e] = team[0];
            }
        }
    }
    trues
}

/// The standings as a readable table with a legend (and the win matrix for up to 10 bots);
/// `all_ratings` adds the incremental Elo, Glicko-2 and TrueSkill columns.
pub fn render(ev: &EventStandings, all_ratings: bool) -> String {
    let covers = if ev.matches < ev.planned {
        format!(
            "first {} of {} matches in plan order (stopped early: run again to resume)",
            ev.matches, ev.planned
        )
    } else {
        format!("{} matches", ev.matches)
    };
    let mut out = format!("== {} — {} ({}), {}, {covers}\n", ev.name, ev.game, ev.variant, ev.format);
    let width = ev.standings.iter().map(|s| s.bot.chars().count()).max().unwrap_or(3).clamp(3, 40);
    let points = crate::play::games::points_heading(ev.fewer_points_better);
    let mut head = format!(
        "{:>4}  {:<width$}  {:>7}  {:>7}  {:>14}  {:>8}  {:>17}  {:>21}  {:>10}  ",
        "rank",
        "bot",
        "score",
        "matches",
        "W-D-L",
        points,
        "rating (95% CI)",
        "vs leader (95% CI)",
        "fuel/dec"
    );
    if all_ratings {
        head.push_str(&format!("{:>6}  {:>7}  {:>9}  ", "elo", "glicko2", "trueskill"));
    }
    out.push_str(&head);
    out.push_str("faults\n");
    for s in &ev.standings {
        let faults = if s.faults.is_empty() {
            "-".to_string()
        } else {
            s.faults.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" ")
        };
        let fuel = s.mean_fuel_per_decision.map(|f| format!("{f:.0}")).unwrap_or_else(|| "-".into());
        let vs_leader = s
            .vs_leader
            .map(|d| format!("{:+.0} ({:+.0}..{:+.0})", d.diff, d.low, d.high))
            .unwrap_or_else(|| "-".into());
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>7.1}  {:>7}  {:>14}  {:>8.1}  {:>5.0} ({:>4.0}..{:<4.0})  {:>21}  {:>10}  ",
            s.rank,
            s.bot,
            s.score,
            s.matches,
            format!("{}-{}-{}", s.wins, s.draws, s.losses),
            s.points,
            s.rating,
            s.ci_low,
            s.ci_high,
            vs_leader,
            fuel,
        ));
        if all_ratings {
            out.push_str(&format!("{:>6.0}  {:>7.0}  {:>9.2}  ", s.elo, s.glicko2, s.trueskill));
        }
        out.push_str(&faults);
        out.push('\n');
    }
    out.push_str(&format!(
        "  ranked by {}. {points}: {}. rating: Plackett–Luce fit to the placings, Elo scale, field mean 1500, 95% interval; vs leader: rating minus the first's, with the interval of that difference (below 0 at 95% when it ends below 0){}. {}.\n",
        ev.ranked_by,
        ev.points_are,
        if all_ratings { "; elo, glicko2, trueskill (μ − 3σ): incremental, in match order" } else { " (--ratings all: Elo, Glicko-2, TrueSkill too)" },
        if ev.fewer_points_better { "A fault costs penalty points and a random move" } else { "A match with a fault is lost in every column" }
    ));
    for f in &ev.not_loaded {
        let first = f.error.lines().next().unwrap_or_default();
        out.push_str(&format!("  not loaded, forfeits every match: {}: {first}\n", f.bot));
    }
    let n = ev.matrix.len();
    if (2..=10).contains(&n) {
        // rows and columns in rank order, labelled by name
        let index = |bot: &str| ev.matrix_bots.iter().position(|b| b == bot).expect("a bot of the event");
        let order: Vec<usize> = ev.standings.iter().map(|s| index(&s.bot)).collect();
        let label = |i: usize| short(&ev.matrix_bots[i], 12);
        let col = order.iter().map(|&i| label(i).chars().count()).max().unwrap_or(1).max(4);
        out.push_str("placed above (times the row's bot placed above the column's at the same table):\n");
        out.push_str(&format!("{:<width$}", ""));
        for &j in &order {
            out.push_str(&format!("  {:>col$}", label(j)));
        }
        out.push('\n');
        for &i in &order {
            out.push_str(&format!("{:<width$}", ev.matrix_bots[i]));
            for &j in &order {
                let cell = if i == j { "-".to_string() } else { ev.matrix[i][j].to_string() };
                out.push_str(&format!("  {cell:>col$}"));
            }
            out.push('\n');
        }
    }
    out
}

/// `name` cut to at most `max` characters (its end kept: file names differ there).
fn short(name: &str, max: usize) -> String {
    let n = name.chars().count();
    if n <= max {
        return name.to_string();
    }
    let tail: String = name.chars().skip(n - (max - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-seat shortcut in `trueskill_ratings` is the factor graph's update: the same
    /// ratings as `trueskill_multi_team` on two teams of one, match after match, for wins,
    /// losses and draws between three bots.
    #[test]
    fn two_seat_trueskill_equals_the_multi_team_update() {
        let config = TrueSkillConfig::new();
        let mut plans = Vec::new();
        let mut summaries = Vec::new();
        let mut reference = vec![TrueSkillRating::new(); 3];
        for i in 0..300u64 {
            let seats = vec![(i % 3) as usize, ((i + 1 + i / 3) % 3) as usize];
            if seats[0] == seats[1] {
                continue;
            }
            // the lower entrant mostly wins, sometimes loses or draws
            let lower_first = seats[0] < seats[1];
            let ranks = match ((i * 7) % 5, lower_first) {
                (0 | 3 | 4, true) | (1, false) => vec![1, 2],
                (0 | 3 | 4, false) | (1, true) => vec![2, 1],
                _ => vec![1, 1],
            };
            let teams = [[reference[seats[0]]], [reference[seats[1]]]];
            let input = [
                (&teams[0][..], MultiTeamOutcome::new(ranks[0] as usize)),
                (&teams[1][..], MultiTeamOutcome::new(ranks[1] as usize)),
            ];
            let new = trueskill_multi_team(&input, &config, None).unwrap();
            reference[seats[0]] = new[0][0];
            reference[seats[1]] = new[1][0];
            plans.push(MatchPlan { round: 0, deal: i as u32, seed: i, seats });
            summaries.push(MatchSummary {
                bots: Vec::new(),
                points: vec![0, 0],
                ranks,
                faults: vec![Vec::new(), Vec::new()],
                fuel: vec![0, 0],
                metered_decisions: vec![0, 0],
                memory_peak: Vec::new(),
            });
        }
        let fast = trueskill_ratings(3, &plans, &summaries);
        for (f, r) in fast.iter().zip(&reference) {
            assert!((f.rating - r.rating).abs() < 1e-9, "{f:?} vs {r:?}");
            assert!((f.uncertainty - r.uncertainty).abs() < 1e-9, "{f:?} vs {r:?}");
        }
        // and the matches moved the ratings apart, in the entrants' order
        assert!(reference[0].rating > reference[1].rating + 1.0, "{reference:?}");
        assert!(reference[1].rating > reference[2].rating + 1.0, "{reference:?}");
    }
}
