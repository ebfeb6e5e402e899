//! A seat played by a person rather than a program: at the terminal (`arena play … human`), on
//! a web page (the ladder's "play in the browser"), or taken from a record (`arena replay
//! --verify` of a match a person played).
//!
//! A person's seat is recorded under a name [`is_person`] knows (`human`, or `human:<who>`)
//! and the hash `builtin_hash("human")`. Nothing can play a person's moves again, so verifying
//! such a match takes them from the record ([`Recorded`]) and plays every other seat again:
//! the bots' decisions, the deal and the outcome are checked, the person's moves are only
//! checked to be legal where they were made.

use std::collections::VecDeque;

use crate::bots::bot::{builtin_hash, Bot, Fault};
use crate::games::{Observation, Seat};
use crate::play::registry::HUMAN;
use crate::play::runner::{BotEntry, Replay};
use crate::play::Hosted;

/// Whether a seat's recorded name is a person's: `human` or `human:<who>`.
pub fn is_person(name: &str) -> bool {
    name == HUMAN || name.strip_prefix(HUMAN).is_some_and(|rest| rest.starts_with(':'))
}

/// The replay entry of a person called `who` (`human:<who>`; `human` when `who` is empty).
pub fn person_entry(who: &str) -> BotEntry {
    let name = if who.is_empty() { HUMAN.to_string() } else { format!("{HUMAN}:{who}") };
    BotEntry { name, hash: builtin_hash(HUMAN) }
}

/// One decision put to a person.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Prompt {
    /// Their seat.
    pub seat: Seat,
    /// How many decisions this seat made before this one in the match (0 for the first).
    pub decision: usize,
    /// Their board drawn from their observation alone (`View::render_observation`, as the
    /// replay viewer's seat frames show it).
    pub view: String,
    /// The observation as a bot would receive it (JSON).
    pub observation: String,
    /// The legal actions, in the observation's order.
    pub legal: Vec<String>,
}

/// Someone who answers [`Prompt`]s: the action (checked against the legal ones by the match
/// runner, like a bot's reply), or a fault (they left, they resigned).
pub trait Person: Send {
    /// The action for this prompt.
    ///
    /// # Errors
    /// A fault of the person's seat (it is recorded like a bot's).
    fn act(&mut self, prompt: &Prompt) -> Result<String, Fault>;
}

/// A [`Person`] in a seat of game `G`: turns each observation into a [`Prompt`].
pub struct PersonBot {
    person: Box<dyn Person>,
    decisions: usize,
}

impl PersonBot {
    /// `person` as a bot.
    pub fn new(person: Box<dyn Person>) -> PersonBot {
        PersonBot { person, decisions: 0 }
    }
}

impl<G: Hosted> Bot<G> for PersonBot {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        let prompt = Prompt {
            seat: obs.seat(),
            decision: self.decisions,
            view: G::render_observation(obs),
            observation: serde_json::to_string(obs).expect("observations serialize"),
            legal: obs.legal().to_vec(),
        };
        self.decisions += 1;
        self.person.act(&prompt)
    }
}

/// A person's seat of a recorded match, answering as the record says: each decision's reply, or
/// its fault when it had no reply. Past the record it faults (the match played again then
/// differs from the record, which the verification reports).
pub struct Recorded {
    answers: VecDeque<Result<String, Fault>>,
}

impl Recorded {
    /// The answers of `seat` in `replay`.
    pub fn new(replay: &Replay, seat: Seat) -> Recorded {
        let answers = replay
            .decisions
            .iter()
            .filter(|d| d.seat == seat)
            .map(|d| match (&d.reply, &d.fault) {
                (Some(reply), _) => Ok(reply.clone()),
                (None, Some(f)) => Err(f.fault.clone()),
                (None, None) => Err(Fault::new(
                    crate::bots::bot::Verdict::Invalid,
                    "the record has neither a reply nor a fault here",
                )),
            })
            .collect();
        Recorded { answers }
    }
}

impl<G: Hosted> Bot<G> for Recorded {
    fn act(&mut self, _obs: &G::Observation) -> Result<String, Fault> {
        self.answers.pop_front().unwrap_or_else(|| {
            Err(Fault::new(
                crate::bots::bot::Verdict::Invalid,
                "the record of this person's moves ends before the match played again does",
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ecard::Ecard;
    use crate::games::Game;
    use crate::play::registry::BotSource;
    use crate::play::Match;

    #[test]
    fn person_names_are_human_or_human_colon_someone() {
        assert!(is_person("human") && is_person("human:alice"));
        assert!(!is_person("humane.lua") && !is_person("greedy") && !is_person("human.lua"));
        assert_eq!(person_entry("alice").name, "human:alice");
        assert_eq!(person_entry("").name, "human");
    }

    struct First;
    impl Person for First {
        fn act(&mut self, p: &Prompt) -> Result<String, Fault> {
            Ok(p.legal[0].clone())
        }
    }

    /// A person's recorded moves, played again against the same bot, give the same match.
    #[test]
    fn a_recorded_person_replays_the_match_they_played() {
        let variant = Ecard::variants()[0];
        let greedy = BotSource::Builtin("greedy".into());
        let limits = Default::default();
        let played = Match::<Ecard>::new(variant, 7)
            .seat_bot(person_entry("alice"), Box::new(PersonBot::new(Box::new(First))))
            .seat(&greedy, &limits)
            .play();
        assert!(played.decisions.iter().any(|d| d.seat == 0));
        let again = Match::<Ecard>::new(variant, 7)
            .seat_bot(person_entry("alice"), Box::new(Recorded::new(&played, 0)))
            .seat(&greedy, &limits)
            .play();
        assert_eq!(again, played);
    }
}
