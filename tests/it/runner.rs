//! The match runner: fault policy, replay contents and determinism, for every game.

use cardarena::bots::bot::{builtin, Bot, Fault, Verdict};
use cardarena::games::blade::Blade;
use cardarena::games::ecard::Ecard;
use cardarena::games::intensity::Intensity;
use cardarena::games::lost_cities::LostCities;
use cardarena::games::{Game, Observation};
use cardarena::play::runner::{run_match, BotEntry, MatchSpec, Quiet, Replay};
use cardarena::Hosted;

fn spec<G: Game>(seed: u64, names: &[&str]) -> MatchSpec<G> {
    MatchSpec {
        variant: G::variants()[0],
        seed,
        entries: names.iter().map(|n| BotEntry { name: n.to_string(), hash: "h".into() }).collect(),
    }
}

fn builtins<G: Hosted>(seed: u64, names: &[&str]) -> Vec<Box<dyn Bot<G>>> {
    names.iter().enumerate().map(|(seat, n)| builtin::<G>(n, seed, seat).unwrap()).collect()
}

/// Replies with a fixed string every time.
struct Says(&'static str);
impl<G: Game> Bot<G> for Says {
    fn act(&mut self, _obs: &G::Observation) -> Result<String, Fault> {
        Ok(self.0.to_string())
    }
}

/// Faults with a crash at its `n`th decision, plays the first legal action before.
struct CrashesAt(usize, usize);
impl<G: Game> Bot<G> for CrashesAt {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        self.1 += 1;
        if self.1 > self.0 {
            Err(Fault::new(Verdict::Crash, "boom"))
        } else {
            Ok(obs.legal()[0].clone())
        }
    }
}

/// Re-applies every played action of a replay to the written-out deal: an independent check
/// that the replay is complete and the recorded outcome follows from it.
fn recheck<G: Game>(replay: &Replay) -> G {
    let setup: G::Setup = serde_json::from_value(replay.deal.clone()).expect("deal parses");
    let mut state = G::from_setup(setup).expect("deal valid");
    for d in &replay.decisions {
        if let Some(action) = &d.played {
            state.play(d.seat, action).expect("recorded action is legal");
        }
    }
    state
}

fn same_seed_same_replay<G: Hosted>() {
    let names: Vec<&str> = ["greedy", "random", "random", "greedy"][..G::PLAYERS].to_vec();
    for seed in 0..5 {
        let a = run_match(&spec::<G>(seed, &names), &mut builtins::<G>(seed, &names), &mut Quiet);
        let b = run_match(&spec::<G>(seed, &names), &mut builtins::<G>(seed, &names), &mut Quiet);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        let state = recheck::<G>(&a);
        assert_eq!(state.outcome().as_ref(), Some(&a.outcome), "{} seed {seed}", G::NAME);
        assert!(a.decisions.iter().all(|d| d.played.as_ref().is_some_and(|p| d.legal.contains(p))));
    }
}

#[test]
fn same_seed_same_replay_and_replay_rechecks() {
    same_seed_same_replay::<Blade>();
    same_seed_same_replay::<Ecard>();
    same_seed_same_replay::<LostCities>();
    same_seed_same_replay::<Intensity>();
}

/// `first_faults` and `first_ranks`: the faults and ranks when both bots crash at their first
/// decision (which seats the game asks first decides them).
fn illegal_reply_forfeits<G: Hosted>(first_faults: [usize; 2], first_ranks: [u32; 2]) {
    // CONTRACT.md §1: in 2-player games the faulty bot loses the match.
    for faulty in 0..2 {
        let mut bots = builtins::<G>(1, &["random", "random"]);
        bots[faulty] = Box::new(Says("not an action"));
        let r = run_match(&spec::<G>(1, &["a", "b"]), &mut bots, &mut Quiet);
        assert_eq!(r.outcome.ranks[faulty], 2, "{}", G::NAME);
        assert_eq!(r.outcome.ranks[1 - faulty], 1);
        assert_eq!(r.faults[faulty].len(), 1);
        assert_eq!(r.faults[faulty][0].verdict, Verdict::Invalid);
        assert!(r.faults[1 - faulty].is_empty());
        let failed = r.decisions.iter().find(|d| d.fault.is_some()).unwrap();
        assert_eq!(failed.seat, faulty);
        assert_eq!(failed.reply.as_deref(), Some("not an action"));
        assert_eq!(r.faults[faulty][0].decision, r.decisions.iter().position(|d| d.fault.is_some()));
        // nothing of the last decision point was applied
        assert_eq!(r.decisions.last().unwrap().played, None);
    }
    // A crash later in the match also loses.
    let mut bots = builtins::<G>(1, &["random", "random"]);
    bots[1] = Box::new(CrashesAt(2, 0));
    let r = run_match(&spec::<G>(1, &["a", "b"]), &mut bots, &mut Quiet);
    assert_eq!(r.outcome.ranks, vec![1, 2]);
    assert_eq!(r.faults[1][0].verdict, Verdict::Crash);
    // Two bots that crash at once: whoever faults first loses and the match ends there; if
    // both fault at the same (simultaneous) decision point, it is a draw.
    let mut bots: Vec<Box<dyn Bot<G>>> = vec![Box::new(CrashesAt(0, 0)), Box::new(CrashesAt(0, 0))];
    let r = run_match(&spec::<G>(1, &["a", "b"]), &mut bots, &mut Quiet);
    assert_eq!([r.faults[0].len(), r.faults[1].len()], first_faults, "{}", G::NAME);
    assert_eq!(r.outcome.ranks, first_ranks, "{}", G::NAME);
}

#[test]
fn two_player_fault_loses_the_match() {
    // Blade, seed 1: the set-up cards come from the decks (5 for seat 0, 4 for seat 1) and the
    // lower field moves first (docs/games/blade.md, "Set-up"): seat 1 alone faults.
    illegal_reply_forfeits::<Blade>([0, 1], [1, 2]);
    // E-card: both seats play at once (docs/games/ecard.md), so both fault: a draw.
    illegal_reply_forfeits::<Ecard>([1, 1], [1, 1]);
    // Lost Cities: seat 0 moves first (docs/games/lost-cities.md, "Rules").
    illegal_reply_forfeits::<LostCities>([1, 0], [2, 1]);
}

#[test]
fn ecard_both_faulty_is_a_draw() {
    // CONTRACT.md §1: both bots faulting is a draw. E-card plays are simultaneous, so both can
    // fault at the same decision point.
    let mut bots: Vec<Box<dyn Bot<Ecard>>> = vec![Box::new(Says("X")), Box::new(Says("E E"))];
    let r = run_match(&spec::<Ecard>(3, &["a", "b"]), &mut bots, &mut Quiet);
    assert_eq!(r.outcome.ranks, vec![1, 1]);
    assert_eq!(r.faults[0][0].verdict, Verdict::Invalid);
    assert_eq!(r.faults[1][0].verdict, Verdict::Invalid);
}

#[test]
fn illegal_action_is_told_apart_from_invalid() {
    // "E" is E-card notation; the slave side never holds E, so the first seat that is slave side
    // and replies "E"... seat 1 is slave side in round 1.
    let mut bots: Vec<Box<dyn Bot<Ecard>>> = vec![Box::new(Says("C")), Box::new(Says("E"))];
    let r = run_match(&spec::<Ecard>(3, &["a", "b"]), &mut bots, &mut Quiet);
    assert_eq!(r.faults[1][0].verdict, Verdict::Illegal);
    assert!(r.faults[1][0].message.contains("legal"), "{}", r.faults[1][0].message);
    assert_eq!(r.outcome.ranks, vec![1, 2]);
}

#[test]
fn intensity_fault_costs_five_and_a_random_move() {
    // CONTRACT.md §1 intensity: +5 penalty and a seeded random legal move; the bot stays in.
    let names = ["random", "random", "random", "random"];
    let clean = run_match(&spec::<Intensity>(9, &names), &mut builtins::<Intensity>(9, &names), &mut Quiet);
    let mut bots = builtins::<Intensity>(9, &names);
    bots[2] = Box::new(Says("play 99"));
    let r = run_match(&spec::<Intensity>(9, &names), &mut bots, &mut Quiet);
    // seat 2 faults at every one of its 11 decisions (1 pass + 10 plays) and stays in
    assert_eq!(r.faults[2].len(), 11);
    // "play 99" is no action of the notation (cards are 10..49): invalid, not illegal
    assert!(r.faults[2].iter().all(|f| f.verdict == Verdict::Invalid), "{:?}", r.faults[2]);
    assert!(r
        .decisions
        .iter()
        .filter(|d| d.seat == 2)
        .all(|d| d.played.as_ref().is_some_and(|p| d.legal.contains(p))));
    let penalties_in_tricks: i64 = 17;
    assert_eq!(r.outcome.points.iter().sum::<i64>(), penalties_in_tricks + 55);
    assert!(r.outcome.points[2] >= 55);
    assert_eq!(clean.outcome.points.iter().sum::<i64>(), penalties_in_tricks);
    // same seed, same arena moves
    let mut bots = builtins::<Intensity>(9, &names);
    bots[2] = Box::new(Says("play 99"));
    let again = run_match(&spec::<Intensity>(9, &names), &mut bots, &mut Quiet);
    assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&again).unwrap());
}
