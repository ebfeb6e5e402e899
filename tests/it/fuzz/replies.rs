//! Reply strings through every game's parser, at positions reached by random legal play: the
//! runner's judgement (`runner::judge_reply`), the checked `Game::play`, and the legacy
//! protocols' stdout readers (`legacy::blade_reply`, `legacy::comp1511_reply`).

use cardarena::bots::bot::Verdict;
use cardarena::games::{Game, Observation};
use cardarena::play::legacy;
use cardarena::play::runner::judge_reply;

use super::gen::Gen;

/// A reply a bot might send: a legal one changed a little, one of another position, or junk.
fn reply(g: &mut Gen, legal: &[String]) -> String {
    let base = if legal.is_empty() { String::new() } else { g.pick(legal).clone() };
    match g.below(10) {
        0 => base,
        1 => base.to_lowercase(),
        2 => base.to_uppercase(),
        3 => format!("{}{base}{}", g.weird_text(2), g.weird_text(2)),
        4 => {
            let bytes = g.mutate_bytes(base.as_bytes());
            String::from_utf8_lossy(&bytes).into_owned()
        }
        5 => g.extreme_int().to_string(),
        6 => format!("{base} {base}"),
        7 => base.repeat(1 + g.below(3000)),
        8 => {
            let n = g.below(12);
            String::from_utf8_lossy(&g.bytes(n)).into_owned()
        }
        _ => g.weird_text(12),
    }
}

/// One case: a game, a position, a seat to act there, and a few replies.
pub fn case(seed: u64) -> Result<String, String> {
    let mut g = Gen::new(seed);
    let names = cardarena::Games::builtin().names();
    let game = g.pick(&names).clone();
    let game = game.as_str();
    struct Case<'a> {
        game: &'a str,
        g: &'a mut Gen,
        out: Option<Result<String, String>>,
    }
    impl cardarena::AddGame for Case<'_> {
        fn add<G: cardarena::Hosted>(mut self) -> Self {
            if G::NAME == self.game {
                self.out = Some(case_in::<G>(self.g));
            }
            self
        }
    }
    cardarena::add_builtin(Case { game, g: &mut g, out: None })
        .out
        .unwrap_or_else(|| Err(format!("no game {game}")))
}

fn observation_text<G: Game>(state: &G) -> String {
    (0..G::PLAYERS).map(|s| serde_json::to_string(&state.observe(s)).unwrap()).collect::<Vec<_>>().join("\n")
}

fn case_in<G: Game>(g: &mut Gen) -> Result<String, String> {
    let variants = G::variants();
    let mut state = G::new(*g.pick(variants), g.u64());
    let steps = g.below(200);
    for _ in 0..steps {
        let to_act = state.to_act();
        if to_act.is_empty() {
            break;
        }
        let seat = *g.pick(&to_act);
        let legal = state.legal_actions(seat);
        state.play_unchecked(seat, g.pick(&legal));
    }
    let mut summary = String::new();
    let to_act = state.to_act();
    if to_act.is_empty() {
        return Ok(format!("{}: over", G::NAME));
    }
    let seat = *g.pick(&to_act);
    let obs = state.observe(seat);
    let legal = obs.legal().to_vec();
    for _ in 0..8 {
        let reply = reply(g, &legal);
        let judged = judge_reply::<G>(&legal, &reply);
        match &judged {
            Ok(()) if !legal.contains(&reply) => return Err(format!("{reply:?} accepted but not legal")),
            Err(_) if legal.contains(&reply) => return Err(format!("legal {reply:?} refused")),
            Err(f) if f.message.is_empty() => return Err(format!("{reply:?}: a fault with no message")),
            Err(f) if f.verdict == Verdict::Illegal && reply.parse::<G::Action>().is_err() => {
                return Err(format!("{reply:?} judged illegal but does not parse"));
            }
            _ => {}
        }
        // A reply that parses is written back the same way it parses (the notation round-trips).
        if let Ok(action) = reply.parse::<G::Action>() {
            let again: G::Action =
                action.to_string().parse().map_err(|e| format!("{action} does not parse back: {e}"))?;
            if again != action {
                return Err(format!("{reply:?} parses to {action:?}, which parses back as {again:?}"));
            }
        }
        let before = observation_text(&state);
        let mut after = state.clone();
        match after.play(seat, &reply) {
            Ok(()) => {
                if judged.is_err() && reply.parse::<G::Action>().map(|a| a.to_string()) == Ok(reply.clone()) {
                    return Err(format!("{reply:?} played but the runner refuses it"));
                }
            }
            Err(e) => {
                if observation_text(&after) != before {
                    return Err(format!("{reply:?} refused ({e}) but the position changed"));
                }
            }
        }
        summary.push_str(&format!("{reply:?}: {:?}\n", judged.map_err(|f| f.message)));
    }
    legacy_replies(g, &state, seat, &mut summary)?;
    Ok(summary)
}

/// The legacy protocols read numbers from a program's stdout; whatever it printed, the adapter
/// gives a reply for the runner to judge or a fault.
fn legacy_replies<G: Game>(g: &mut Gen, state: &G, seat: usize, summary: &mut String) -> Result<(), String> {
    let obs = state.observe(seat);
    let any: &dyn std::any::Any = &obs;
    for _ in 0..4 {
        let stdout = match g.below(4) {
            0 => g.extreme_int().to_string().into_bytes(),
            1 => format!("{}{}\n", g.weird_text(3), g.below(100)).into_bytes(),
            2 => g.mutate_bytes(b"  -12abc\n"),
            _ => {
                let n = g.below(64);
                g.bytes(n)
            }
        };
        let result = if let Some(o) = any.downcast_ref::<cardarena::games::blade::BladeObservation>() {
            legacy::blade_reply(&o.hand, &stdout)
        } else if let Some(o) = any.downcast_ref::<cardarena::games::intensity::IntensityObservation>() {
            legacy::comp1511_reply(o.phase, &stdout)
        } else {
            return Ok(());
        };
        // The adapter's reply then goes through the runner's judgement like any other.
        let judged = result.as_ref().map(|r| judge_reply::<G>(obs.legal(), r).map_err(|f| f.verdict));
        summary.push_str(&format!(
            "legacy {stdout:?}: {:?} {judged:?}\n",
            result.as_ref().map_err(|f| &f.message)
        ));
    }
    Ok(())
}
