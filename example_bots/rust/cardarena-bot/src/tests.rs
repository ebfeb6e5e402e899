//! Native tests (`cargo test -p cardarena-bot`): the observation types (the arena's own, from
//! `cardarena-games`) read the example observations of `docs/games/*.md`, and the glue works.

use super::*;

/// The first ```json block of the "## Observation" section of `docs/games/<game>.md`.
fn doc_example(game: &str) -> String {
    let path = format!("{}/../../../docs/games/{game}.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let section =
        text.split("\n## Observation").nth(1).unwrap_or_else(|| panic!("{path}: no Observation section"));
    let block = section.split("```json\n").nth(1).unwrap_or_else(|| panic!("{path}: no json block"));
    block.split("\n```").next().unwrap().to_owned()
}

#[test]
fn blade_doc_example_parses() {
    let obs: blade::Observation = serde_json::from_str(&doc_example("blade")).unwrap();
    assert_eq!(obs.seat, 1);
    assert_eq!(obs.phase, blade::Phase::Turn);
    assert_eq!(obs.legal, ["2", "B", "M"]);
    assert_eq!(obs.hand[0], blade::Card::Two);
    assert_eq!(obs.fields[1].last(), Some(&blade::FieldCard { card: blade::Card::Seven, valid: false }));
    let field_score = |s: usize| obs.fields[s].iter().map(|c| c.worth()).sum::<u32>();
    assert_eq!([field_score(0), field_score(1)], obs.scores);
    assert_eq!(
        obs.history[0],
        blade::Event::Place { seat: 0, card: blade::Card::Seven, from: blade::Source::Deck }
    );
    assert_eq!(obs.result, None);
}

#[test]
fn ecard_doc_example_parses() {
    let obs: ecard::Observation = serde_json::from_str(&doc_example("ecard")).unwrap();
    assert_eq!((obs.round, obs.play, obs.max_plays), (4, 2, 3));
    assert_eq!(obs.side, ecard::Side::Emperor);
    assert_eq!(obs.opponent_hand[0], ecard::Card::Slave);
    assert_eq!(obs.plays, [[ecard::Card::Citizen, ecard::Card::Citizen]]);
    assert_eq!(obs.history[2].result, ecard::RoundResult::Drawn);
    assert_eq!(obs.history[2].winner, None);
    assert_eq!(obs.legal, ["E", "C"]);
}

#[test]
fn lost_cities_doc_example_parses() {
    use lost_cities::{expedition_score, Card, Suit};
    let obs: lost_cities::Observation = serde_json::from_str(&doc_example("lost-cities")).unwrap();
    assert_eq!(obs.suits, [Suit::Desert, Suit::Ocean, Suit::Mountain, Suit::Jungle, Suit::Volcano]);
    assert_eq!(obs.hand[0], Card::number(Suit::Desert, 2));
    assert_eq!(obs.expedition(1, Suit::Desert), [Card::investment(Suit::Desert)]);
    assert_eq!(obs.pile(Suit::Ocean).len(), 3);
    assert_eq!(obs.history[1].card, None);
    assert_eq!(obs.discarded_this_turn, None);
    for (s, exp) in obs.expeditions.iter().enumerate() {
        let total: i64 = exp.iter().map(|(_, e)| expedition_score(e)).sum();
        assert_eq!(total, obs.scores[s], "seat {s}");
    }
}

#[test]
fn intensity_doc_example_parses() {
    let obs: intensity::Observation = serde_json::from_str(&doc_example("intensity")).unwrap();
    assert_eq!(obs.legal, ["play 23"]);
    assert_eq!(obs.trick.cards.iter().map(|c| c.number()).collect::<Vec<_>>(), [24, 26]);
    assert_eq!(obs.tricks[0].winner, 2);
    assert_eq!(obs.turn, Some(0));
    assert!(!obs.calves_broken);
}

#[test]
fn a_field_missing_or_of_another_game_is_refused() {
    let without_legal = doc_example("ecard").replace(r#","legal":["E","C"]"#, "");
    assert!(serde_json::from_str::<ecard::Observation>(&without_legal).is_err());
    assert!(serde_json::from_str::<blade::Observation>(&doc_example("ecard")).is_err());
}

#[test]
fn any_observation_dispatches_on_game() {
    for (game, legal) in
        [("blade", "2"), ("ecard", "E"), ("lost-cities", "play 2D"), ("intensity", "play 23")]
    {
        let obs: AnyObservation = serde_json::from_str(&doc_example(game)).unwrap();
        assert_eq!(obs.legal()[0], legal, "{game}");
    }
    assert!(serde_json::from_str::<AnyObservation>(r#"{"game":"chess"}"#).is_err());
}

#[test]
fn card_and_action_notation_round_trips() {
    for c in blade::Card::ALL {
        assert_eq!(c.as_str().parse::<blade::Card>(), Ok(c));
    }
    assert_eq!(blade::Card::Seven.value(), 7);
    assert_eq!(blade::Card::Mirror.value(), 1);
    for s in ["ID", "2D", "10P", "7V"] {
        assert_eq!(s.parse::<lost_cities::Card>().unwrap().to_string(), s);
    }
    for s in ["1D", "11D", "IX", "", "D"] {
        assert!(s.parse::<lost_cities::Card>().is_err(), "{s}");
    }
    let card = |n| intensity::Card::new(n).unwrap();
    assert_eq!(intensity::Action::Pass([card(12), card(33), card(47)]).to_string(), "pass 12 33 47");
    assert_eq!(intensity::Action::Play(card(33)).to_string(), "play 33");
}

#[test]
fn lost_cities_rules_helpers() {
    use lost_cities::{can_extend, expedition_score, Card, Suit};
    let c = |v| if v == 0 { Card::investment(Suit::Desert) } else { Card::number(Suit::Desert, v) };
    assert!(can_extend(&[], c(0)));
    assert!(can_extend(&[c(0)], c(0)));
    assert!(!can_extend(&[c(3)], c(0)));
    assert!(!can_extend(&[c(3)], c(3)));
    // The quiz's own example: Inv Inv 6 8 10 scores (24 - 20) * 3 = 12.
    assert_eq!(expedition_score(&[c(0), c(0), c(6), c(8), c(10)]), 12);
    assert_eq!(expedition_score(&[]), 0);
}

#[test]
fn rng_is_deterministic_and_in_range() {
    let (mut a, mut b) = (Rng::new(42), Rng::new(42));
    for _ in 0..100 {
        assert_eq!(a.next_u64(), b.next_u64());
        let n = a.below(7);
        assert!(n < 7);
        b.below(7);
        let u = a.unit();
        assert!((0.0..1.0).contains(&u));
        b.unit();
    }
    assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
}

/// A bot that answers its seat and the last legal action, to test the glue natively.
#[derive(Default)]
struct Echo {
    seat: usize,
}

impl Bot for Echo {
    type Observation = ecard::Observation;
    fn init(&mut self, info: &InitInfo) {
        self.seat = info.seat;
    }
    fn act(&mut self, obs: &ecard::Observation) -> String {
        format!("{} {}", self.seat, obs.legal.last().unwrap())
    }
}

std::thread_local! {
    static ECHO: std::cell::RefCell<Option<Echo>> = const { std::cell::RefCell::new(None) };
}

/// What the host does: alloc, write the bytes there, call.
fn write(bytes: &[u8]) -> (i32, i32) {
    let ptr = __private::alloc(bytes.len() as i32);
    __private::test_write(bytes);
    (ptr, bytes.len() as i32)
}

#[test]
fn glue_calls_init_and_act_and_packs_the_reply() {
    let (p, n) = write(br#"{"game":"ecard","variant":"readme","seat":1,"players":2,"seed":9}"#);
    __private::init::<Echo>(&ECHO, p, n);
    let (p, n) = write(doc_example("ecard").as_bytes());
    let packed = __private::act::<Echo>(&ECHO, p, n);
    let len = (packed as u64 & 0xffff_ffff) as usize;
    assert_eq!(len, "1 C".len());
    assert_eq!(__private::test_reply(), "1 C");
}
