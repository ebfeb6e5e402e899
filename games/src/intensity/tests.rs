//! Rule tests for Intensity. Each names the rule it checks and cites its source.

use proptest::prelude::*;

use super::*;
use crate::rng::{Rng, Stream};
use crate::testkit::{observation_json, random_playout, replay};

const SPEC_EXAMPLES: &str = include_str!("../../../tests/data/intensity/spec_examples.trace");

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|w| Card::new(w.parse().expect("a number")).expect("a card")).collect()
}

/// A game dealt these hands (pass not yet made).
fn dealt(hands: [&str; 4]) -> Intensity {
    let hands = hands.iter().map(|h| cards(h)).collect();
    Intensity::from_setup(Setup { variant: Variant::Standard, hands }).expect("valid deal")
}

/// A game in the play phase whose hands after the pass are exactly `post`: each seat passes
/// the three lowest cards of the next seat's `post` hand.
fn after_pass(post: [&str; 4]) -> Intensity {
    let post: Vec<Vec<Card>> = post.iter().map(|h| cards(h)).collect();
    let low3 = |s: usize| -> Vec<Card> { post[s][..3].to_vec() };
    let hands: Vec<Vec<Card>> = (0..PLAYERS)
        .map(|s| {
            let mut h: Vec<Card> = post[s][3..].to_vec();
            h.extend(low3(pass_target(s)));
            h
        })
        .collect();
    let mut g = Intensity::from_setup(Setup { variant: Variant::Standard, hands }).unwrap();
    for s in 0..PLAYERS {
        let give = low3(pass_target(s));
        g.play(s, &format!("pass {}", cards_string(&give))).expect("pass is legal");
    }
    for (s, want) in post.iter().enumerate() {
        assert_eq!(g.hand(s), want.as_slice(), "helper reached the wanted hands");
    }
    g
}

/// Plays these cards, each by the seat whose turn it is, checked.
fn play_cards(g: &mut Intensity, seq: &str) {
    for card in seq.split_whitespace() {
        let seat = g.turn().expect("someone to play");
        g.play(seat, &format!("play {card}")).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn legal(g: &Intensity, seat: Seat) -> Vec<String> {
    g.legal_strings(seat)
}

fn plays(list: &str) -> Vec<String> {
    list.split_whitespace().map(|c| format!("play {c}")).collect()
}

/// Every card's place: hands, current trick and finished tricks.
fn places(g: &Intensity) -> Vec<Card> {
    let mut all: Vec<Card> = g.hands.iter().flatten().copied().collect();
    all.extend(&g.trick);
    all.extend(g.tricks.iter().flat_map(|t| t.cards));
    all
}

// The four hands used by the hand-built rule tests (after the pass). Seat 0 has no 2x, seat
// 1 no 1x, seat 3 only 3x/4x besides 10.
const HANDS: [&str; 4] = [
    "11 12 13 14 30 31 40 41 42 43",
    "20 21 22 23 24 32 33 44 45 46",
    "15 16 17 18 25 26 34 35 47 48",
    "10 19 27 28 29 36 37 38 39 49",
];

// ---- the spec's examples ----

#[test]
fn spec_examples_give_the_same_legal_moves() {
    // seed-games.md §4(c): the two verbatim examples of the COMP1511 spec.
    let mut game: Option<Intensity> = None;
    let mut deals: Vec<(Seat, Vec<Card>)> = Vec::new();
    let mut checked = 0;
    for (n, raw) in SPEC_EXAMPLES.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let ctx = format!("spec_examples.trace line {}: {line}", n + 1);
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let (seat, tail): (Seat, &str) = match rest.split_once(' ') {
            Some((s, t)) => (s.parse().unwrap_or(usize::MAX), t),
            None => (rest.parse().unwrap_or(usize::MAX), ""),
        };
        if word != "example" && word != "deal" && game.is_none() {
            // First directive after the deals: deal the remaining cards and start.
            let mut hands: Vec<Vec<Card>> = vec![Vec::new(); PLAYERS];
            for (s, h) in &deals {
                hands[*s] = h.clone();
            }
            let mut rest: Vec<Card> =
                Card::all().filter(|c| !deals.iter().any(|(_, h)| h.contains(c))).collect();
            for hand in hands.iter_mut().filter(|h| h.is_empty()) {
                *hand = rest.drain(..HAND_SIZE).collect();
            }
            let setup = Setup { variant: Variant::Standard, hands };
            game = Some(Intensity::from_setup(setup).expect(&ctx));
        }
        match word {
            "example" => {
                game = None;
                deals.clear();
            }
            "deal" => deals.push((seat, cards(tail))),
            _ => {
                let g = game.as_mut().expect(&ctx);
                match word {
                    "act" => g.play(seat, tail).expect(&ctx),
                    "expect-turn" => assert_eq!(g.turn(), Some(seat), "{ctx}"),
                    "expect-hand" => assert_eq!(g.hand(seat), cards(tail), "{ctx}"),
                    "expect-trick" => assert_eq!(g.trick, cards(rest), "{ctx}"),
                    "expect-previous" => {
                        let prev: Vec<Card> = g.tricks.iter().flat_map(|t| t.cards).collect();
                        assert_eq!(prev, cards(rest), "{ctx}");
                    }
                    "expect-passed" => {
                        assert_eq!(g.observe(seat).passed, cards(tail), "{ctx}")
                    }
                    "expect-received" => {
                        assert_eq!(g.observe(seat).received, cards(tail), "{ctx}")
                    }
                    "expect-legal" => {
                        let want: Vec<String> = tail.split(", ").map(|a| a.trim().to_string()).collect();
                        assert_eq!(legal(g, seat), want, "{ctx}");
                        assert_eq!(g.observe(seat).legal, want, "{ctx}");
                    }
                    "expect-legal-count" => {
                        assert_eq!(legal(g, seat).len().to_string(), tail, "{ctx}")
                    }
                    "expect-legal-includes" => {
                        assert!(legal(g, seat).iter().any(|a| a == tail), "{ctx}")
                    }
                    "expect-legal-all-triples" => {
                        let h = g.hand(seat).to_vec();
                        let mut want = Vec::new();
                        for a in &h {
                            for b in h.iter().filter(|b| *b > a) {
                                for c in h.iter().filter(|c| *c > b) {
                                    want.push(format!("pass {a} {b} {c}"));
                                }
                            }
                        }
                        assert_eq!(legal(g, seat), want, "{ctx}");
                    }
                    _ => panic!("unknown directive: {ctx}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "the trace was read ({checked} directives)");
}

// ---- vocabulary and notation ----

#[test]
fn variant_names_round_trip() {
    for v in Variant::ALL {
        assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
    }
    assert_eq!(Variant::ALL[0].to_string(), "standard");
    let err = "hearts".parse::<Variant>().unwrap_err();
    assert_eq!(err.known, "standard");
    assert_eq!(Intensity::variants(), &Variant::ALL);
}

#[test]
fn actions_are_written_as_the_contract_says() {
    // CONTRACT.md §1 intensity: "pass 12 33 47" (ascending), "play 33".
    let pass: Action = "pass 12 33 47".parse().unwrap();
    assert_eq!(pass, Action::Pass([Card(12), Card(33), Card(47)]));
    assert_eq!(pass.to_string(), "pass 12 33 47");
    let play: Action = "play 33".parse().unwrap();
    assert_eq!(play, Action::Play(Card(33)));
    assert_eq!(play.to_string(), "play 33");
    for bad in [
        "pass 33 12 47",
        "pass 12 12 47",
        "pass 12 33",
        "pass 12 33 47 48",
        "pass 12 33 50",
        "play 9",
        "play 50",
        "play 033",
        "play +33",
        "play  33",
        " play 33",
        "play 33 ",
        "Play 33",
        "33",
        "",
    ] {
        let err = bad.parse::<Action>().unwrap_err();
        assert_eq!(err.game, "intensity");
        assert_eq!(err.input, bad);
    }
}

#[test]
fn calves_are_30_to_39_and_the_buffalo_is_47() {
    // seed-games.md §4(b) rule 1 and rule 8.
    let calves: Vec<u8> = Card::all().filter(|c| c.is_calf()).map(Card::number).collect();
    assert_eq!(calves, (30..=39).collect::<Vec<_>>());
    assert!(Card::BUFFALO.is_buffalo() && !Card::BUFFALO.is_calf());
    assert_eq!(Card::all().map(Card::penalty).sum::<i64>(), TOTAL_PENALTY);
    assert_eq!(Card(47).penalty(), 7);
    assert_eq!(Card(35).penalty(), 1);
    assert_eq!(Card(48).penalty(), 0);
    assert_eq!(Card::new(9), None);
    assert_eq!(Card::new(50), None);
    assert_eq!(serde_json::to_string(&Card(33)).unwrap(), "33");
    assert!(serde_json::from_str::<Card>("50").is_err());
}

// ---- setup ----

#[test]
fn deal_gives_each_seat_ten_of_the_forty_cards() {
    // seed-games.md §4(b) rules 1-2.
    let setup = Intensity::deal(Variant::Standard, 7);
    assert_eq!(setup.hands.len(), 4);
    let mut all: Vec<Card> = setup.hands.iter().flatten().copied().collect();
    assert!(setup.hands.iter().all(|h| h.len() == 10 && h.is_sorted()));
    all.sort();
    assert_eq!(all, Card::all().collect::<Vec<_>>());
    assert_eq!(Intensity::deal(Variant::Standard, 7), setup, "same seed, same deal");
    assert_ne!(Intensity::deal(Variant::Standard, 8), setup);
}

#[test]
fn setup_json_round_trips() {
    let setup = Intensity::deal(Variant::Standard, 3);
    let json = serde_json::to_string(&setup).unwrap();
    assert!(json.starts_with("{\"variant\":\"standard\",\"hands\":[["), "{json}");
    let back: Setup = serde_json::from_str(&json).unwrap();
    assert_eq!(back, setup);
    assert!(serde_json::from_str::<Setup>(&json.replace("standard", "classic")).is_err());
}

#[test]
fn from_setup_rejects_a_bad_deal() {
    let good = Intensity::deal(Variant::Standard, 1);
    let mut short = good.clone();
    short.hands[2].pop();
    assert!(Intensity::from_setup(short).unwrap_err().0.contains("seat 2 holds 9"));
    let mut three = good.clone();
    three.hands.pop();
    assert!(Intensity::from_setup(three).unwrap_err().0.contains("3 hands"));
    let mut twice = good.clone();
    twice.hands[1][0] = twice.hands[3][4];
    let err = Intensity::from_setup(twice).unwrap_err().0;
    assert!(err.contains("dealt twice") && err.contains("seats 1 and 3"), "{err}");
    assert!(Intensity::from_setup(good).is_ok());
}

// ---- the pass ----

#[test]
fn the_spec_referee_sample_deal_is_a_valid_setup() {
    // The COMP1511 spec's referee output, "Deal:" (seed-games.md §4(c)).
    let g = dealt([
        "10 22 23 24 28 29 35 38 41 42",
        "11 12 15 17 21 25 27 43 44 47",
        "20 26 30 32 33 36 37 39 40 45",
        "13 14 16 18 19 31 34 46 48 49",
    ]);
    assert_eq!(g.to_act(), vec![0, 1, 2, 3]);
    assert_eq!(legal(&g, 0).len(), 120);
    assert_eq!(legal(&g, 0)[0], "pass 10 22 23");
    assert_eq!(legal(&g, 0)[119], "pass 38 41 42");
}

#[test]
fn all_four_pass_at_once_and_pending_choices_are_invisible() {
    // seed-games.md §4(b) rule 3: simultaneous; nobody sees its cards before choosing.
    let mut g = Intensity::new(Variant::Standard, 11);
    assert_eq!(g.phase(), Phase::Pass);
    assert_eq!(g.to_act(), vec![0, 1, 2, 3]);
    let before: Vec<String> = (0..4).map(|s| observation_json(&g, s)).collect();
    for s in [1, 2] {
        let first = legal(&g, s)[0].clone();
        g.play(s, &first).unwrap();
    }
    assert_eq!(g.to_act(), vec![0, 3]);
    assert_eq!(g.phase(), Phase::Pass);
    // Seats still to choose see exactly what they saw before anybody chose.
    assert_eq!(observation_json(&g, 0), before[0]);
    assert_eq!(observation_json(&g, 3), before[3]);
    // A seat that chose sees no trace of its own pending choice but its empty `legal`.
    let obs1 = g.observe(1);
    assert!(obs1.legal.is_empty() && obs1.passed.is_empty() && obs1.received.is_empty());
    assert_eq!(obs1.hand.len(), 10);
    // And a different pending choice gives the same observations.
    let mut h = Intensity::new(Variant::Standard, 11);
    for s in [1, 2] {
        let last = legal(&h, s)[119].clone();
        h.play(s, &last).unwrap();
    }
    for s in 0..4 {
        assert_eq!(observation_json(&g, s), observation_json(&h, s), "seat {s}");
    }
    // Choosing twice is refused.
    let again = g.play(1, "pass 10 11 12");
    assert!(again.is_err());
}

#[test]
fn passing_goes_left() {
    // seed-games.md §4(b) rule 3: 0->1->2->3->0, receive from the right.
    let mut g = Intensity::new(Variant::Standard, 5);
    let dealt: Vec<Vec<Card>> = (0..4).map(|s| g.hand(s).to_vec()).collect();
    let mut gave = Vec::new();
    for s in 0..4 {
        let choice = legal(&g, s)[17 * s + 3].clone();
        g.play(s, &choice).unwrap();
        let Ok(Action::Pass(p)) = choice.parse::<Action>() else { unreachable!() };
        gave.push(p);
    }
    assert_eq!(g.phase(), Phase::Play);
    for s in 0..4 {
        let left = (s + 1) % 4;
        let right = (s + 3) % 4;
        for c in gave[s] {
            assert!(g.hand(left).contains(&c) && !g.hand(s).contains(&c));
        }
        let obs = g.observe(s);
        assert_eq!((obs.pass_to, obs.receive_from), (left, right));
        assert_eq!(obs.passed, gave[s].to_vec());
        assert_eq!(obs.received, gave[right].to_vec());
        let mut want: Vec<Card> = dealt[s].iter().copied().filter(|c| !gave[s].contains(c)).collect();
        want.extend(gave[right]);
        want.sort();
        assert_eq!(g.hand(s), want);
    }
}

// ---- the play ----

#[test]
fn seat_zero_leads_the_first_trick() {
    // seed-games.md §4(b) rule 4.
    let g = after_pass(HANDS);
    assert_eq!(g.to_act(), vec![0]);
    assert_eq!(g.turn(), Some(0));
    assert!(legal(&g, 1).is_empty());
}

#[test]
fn must_follow_the_led_suit() {
    // seed-games.md §4(b) rule 5.
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "40");
    assert_eq!(legal(&g, 1), plays("44 45 46"));
    play_cards(&mut g, "46");
    assert_eq!(legal(&g, 2), plays("47 48"));
    assert!(g.play(2, "play 15").is_err());
}

#[test]
fn a_void_seat_may_play_any_card() {
    // seed-games.md §4(b) rule 5: "otherwise any card", and later seats must still follow.
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "11");
    assert_eq!(legal(&g, 1), plays("20 21 22 23 24 32 33 44 45 46"));
    play_cards(&mut g, "24");
    assert_eq!(legal(&g, 2), plays("15 16 17 18"), "still follows the led 1x, not 2x");
}

#[test]
fn highest_card_of_the_led_suit_wins() {
    // seed-games.md §4(b) rule 6: an off-suit higher card does not win.
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "11 46 15 10");
    let t = g.tricks()[0];
    assert_eq!(t.winner, 2, "15 beats 11 and 10; the 46 is off-suit");
    // A fresh deal where whole suits sit in single hands.
    let mut g = after_pass([
        "11 12 13 14 15 16 17 18 19 40",
        "20 21 22 23 24 25 26 27 28 29",
        "30 31 32 33 34 35 36 37 38 39",
        "10 41 42 43 44 45 46 47 48 49",
    ]);
    play_cards(&mut g, "40 20 30 49");
    assert_eq!(g.tricks()[0].winner, 3);
    play_cards(&mut g, "10 11 21 31");
    assert_eq!(g.tricks()[1].winner, 0, "the 11 beats the led 10");
    play_cards(&mut g, "12 22 32 41");
    assert_eq!(g.tricks()[2].winner, 0, "the leader wins when nobody follows");
}

#[test]
fn winner_leads_the_next_trick() {
    // seed-games.md §4(b) rule 4.
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "11 46 15 10");
    assert_eq!(g.tricks()[0].winner, 2);
    assert_eq!(g.turn(), Some(2));
    assert_eq!(g.to_act(), vec![2]);
    assert_eq!(g.current_trick().leader, 2);
    play_cards(&mut g, "25 27");
    assert_eq!(g.turn(), Some(0), "play goes clockwise after the leader");
}

#[test]
fn calf_cannot_lead_until_one_is_played_in_an_earlier_trick() {
    // seed-games.md §4(b) rule 7; §4(d): a calf dumped off-suit counts as played.
    let mut g = after_pass(HANDS);
    assert_eq!(legal(&g, 0), plays("11 12 13 14 40 41 42 43"), "no 30, 31 lead");
    // Seat 1 is void in 1x and dumps the 32 on the 11; seat 2 wins with the 18.
    play_cards(&mut g, "11 32");
    assert!(!g.calves_broken(), "only a finished trick counts");
    play_cards(&mut g, "18 10");
    assert!(g.calves_broken());
    assert_eq!(g.tricks()[0].winner, 2);
    assert_eq!(g.tricks()[0].penalty, 1);
    play_cards(&mut g, "15 19 12 20");
    // Seat 3 won with 19 and may now lead a calf.
    assert_eq!(g.turn(), Some(3));
    assert_eq!(legal(&g, 3), plays("27 28 29 36 37 38 39 49"));
}

#[test]
fn a_leader_holding_only_calves_may_lead_one() {
    // seed-games.md §4(b) rule 7: "or they have only calves in their hand".
    let mut g = after_pass([
        "30 31 32 33 34 35 36 37 38 39",
        "10 11 12 13 14 15 16 17 18 19",
        "20 21 22 23 24 25 26 27 28 29",
        "40 41 42 43 44 45 46 47 48 49",
    ]);
    assert!(!g.calves_broken());
    assert_eq!(legal(&g, 0), plays("30 31 32 33 34 35 36 37 38 39"));
    play_cards(&mut g, "30 19 29 49");
    assert_eq!(g.tricks()[0].winner, 0);
    assert_eq!(g.tricks()[0].penalty, 1);
}

#[test]
fn the_buffalo_may_be_led_any_time() {
    // seed-games.md §4(b) rule 7: "no restriction on when the buffalo can be played first".
    let mut g = after_pass([
        "11 12 13 14 15 16 17 18 19 47",
        "10 20 21 22 23 24 25 26 27 28",
        "29 30 31 32 33 34 35 36 37 38",
        "39 40 41 42 43 44 45 46 48 49",
    ]);
    assert!(legal(&g, 0).contains(&"play 47".to_string()));
    play_cards(&mut g, "47 28 38 49");
    assert_eq!(g.tricks()[0].winner, 3);
    assert_eq!(g.tricks()[0].penalty, 8);
    assert_eq!(g.points(), [0, 0, 0, 8]);
}

#[test]
fn winner_takes_one_per_calf_and_seven_for_the_buffalo() {
    // seed-games.md §4(b) rule 8.
    let mut g = after_pass([
        "10 11 12 13 14 15 16 17 18 19",
        "20 21 22 23 24 25 26 27 28 29",
        "30 31 32 33 34 35 36 37 38 39",
        "40 41 42 43 44 45 46 47 48 49",
    ]);
    play_cards(&mut g, "10 20 30 47");
    assert_eq!(
        g.tricks()[0],
        Trick { leader: 0, cards: [Card(10), Card(20), Card(30), Card(47)], winner: 0, penalty: 8 }
    );
    play_cards(&mut g, "11 21 31 40");
    assert_eq!(g.points(), [9, 0, 0, 0]);
    let obs = g.observe(2);
    assert_eq!(obs.penalties, [9, 0, 0, 0]);
    // Play it out: seat 0 leads and wins every trick (nobody else has 1x).
    play_cards(&mut g, "12 22 32 41 13 23 33 42 14 24 34 43 15 25 35 44");
    play_cards(&mut g, "16 26 36 45 17 27 37 46 18 28 38 48 19 29 39 49");
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.points(), [TOTAL_PENALTY, 0, 0, 0]);
    let out = g.outcome().unwrap();
    assert_eq!(out.points, vec![17, 0, 0, 0]);
    assert_eq!(out.ranks, vec![4, 1, 1, 1], "ties share the better rank");
}

#[test]
fn placings_with_ties_share_the_better_rank() {
    // CONTRACT.md §1 intensity: fewest penalty points first; tied places share.
    let mut g = Intensity::new(Variant::Standard, 21);
    let mut rng = Rng::new(21, Stream::Arena);
    while let Some(&s) = g.to_act().first() {
        let l = legal(&g, s);
        g.play(s, &l[rng.below(l.len())]).unwrap();
    }
    // Equalise the points with fault penalties: 20, 20, 30, 30.
    let p = g.points();
    for (s, want) in [20, 20, 30, 30].into_iter().enumerate() {
        g.add_penalty(s, want - p[s]);
    }
    let out = g.outcome().unwrap();
    assert_eq!(out.points, vec![20, 20, 30, 30]);
    assert_eq!(out.ranks, vec![1, 1, 3, 3]);
    assert_eq!(Outcome::lower_wins(vec![4, 0, 13, 0]).ranks, vec![3, 1, 4, 1]);
}

#[test]
fn add_penalty_counts_in_points_and_is_public() {
    // CONTRACT.md §1 intensity: a failed or illegal decision costs +5.
    assert_eq!(Intensity::FAULT_POLICY, FaultPolicy::PenaltyAndRandomMove(5));
    let mut g = after_pass(HANDS);
    g.add_penalty(2, 5);
    g.add_penalty(2, 5);
    g.add_penalty(0, 5);
    assert_eq!(g.points(), [5, 0, 10, 0]);
    for s in 0..4 {
        let obs = g.observe(s);
        assert_eq!(obs.penalties, [5, 0, 10, 0]);
        assert_eq!(obs.fault_penalties, [5, 0, 10, 0]);
    }
    play_cards(&mut g, "11 32 18 10");
    assert_eq!(g.observe(1).penalties, [5, 0, 11, 0]);
    assert_eq!(g.observe(1).fault_penalties, [5, 0, 10, 0]);
}

#[test]
fn forfeit_places_faulty_seats_last() {
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "11 32 18 10");
    let out = g.forfeit(&[0]);
    assert_eq!(out.points, vec![0, 0, 1, 0]);
    assert_eq!(out.ranks, vec![4, 1, 3, 1]);
}

// ---- legal order and checked play ----

#[test]
fn legal_order_is_lexicographic_triples_then_ascending_cards() {
    let g = Intensity::new(Variant::Standard, 9);
    for s in 0..4 {
        let l = g.legal_actions(s);
        assert_eq!(l.len(), 120);
        let keys: Vec<[Card; 3]> = l
            .iter()
            .map(|a| match a {
                Action::Pass(p) => *p,
                Action::Play(_) => panic!("play in the pass phase"),
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "strictly lexicographic");
        assert!(keys.iter().all(|k| k[0] < k[1] && k[1] < k[2]));
    }
    let g = after_pass(HANDS);
    let l = legal(&g, 0);
    assert_eq!(l, plays("11 12 13 14 40 41 42 43"));
}

#[test]
fn play_rejects_anything_not_listed_and_leaves_the_state_unchanged() {
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "40");
    let before = g.clone();
    for bad in ["play 11", "play 20", "play 47", "pass 44 45 46", "play 4", "xyz", ""] {
        assert!(g.play(1, bad).is_err(), "{bad}");
        assert_eq!(g, before);
    }
    assert!(g.play(0, "play 11").is_err(), "not seat 0's turn");
    assert!(g.play(7, "play 44").is_err(), "no seat 7");
    assert_eq!(g, before);
    assert!(g.legal_actions(7).is_empty());
    g.play(1, "play 44").unwrap();
}

#[test]
fn observation_shows_the_trick_history_and_counts() {
    let mut g = after_pass(HANDS);
    play_cards(&mut g, "11 32 18 10 15 19");
    let obs = g.observe(0);
    assert_eq!(obs.game, "intensity");
    assert_eq!(obs.phase, Phase::Play);
    assert_eq!(obs.turn, Some(0));
    assert_eq!(obs.trick, CurrentTrick { leader: 2, cards: cards("15 19") });
    assert_eq!(obs.tricks.len(), 1);
    assert_eq!(obs.cards_left, [9, 9, 8, 8]);
    assert!(obs.calves_broken);
    let json = observation_json(&g, 0);
    assert!(json.starts_with("{\"game\":\"intensity\",\"variant\":\"standard\",\"seat\":0,"));
    assert!(json.contains("\"trick\":{\"leader\":2,\"cards\":[15,19]}"), "{json}");
    assert!(g.summary().contains("trick 2/10, S2 led: [15 19]"), "{}", g.summary());
}

// ---- properties ----

fn check_conservation(g: &Intensity) -> Result<(), TestCaseError> {
    let mut all = places(g);
    all.sort();
    prop_assert_eq!(all, Card::all().collect::<Vec<_>>());
    for s in 0..PLAYERS {
        prop_assert!(g.hands[s].is_sorted());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_play_never_panics_and_always_ends(seed in any::<u64>(), pick in any::<u64>()) {
        let p = random_playout::<Intensity>(Variant::Standard, seed, pick, 44)
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(p.actions.len(), 44);
        prop_assert_eq!(p.state.phase(), Phase::Over);
        prop_assert!(!p.state.summary().is_empty());
    }

    #[test]
    fn cards_are_conserved_at_every_step(seed in any::<u64>(), pick in any::<u64>()) {
        let p = random_playout::<Intensity>(Variant::Standard, seed, pick, 44)
            .map_err(TestCaseError::fail)?;
        let mut g = Intensity::new(Variant::Standard, seed);
        check_conservation(&g)?;
        for (seat, action) in &p.actions {
            g.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
            check_conservation(&g)?;
            let left: usize = g.observe(*seat).cards_left.iter().sum();
            prop_assert_eq!(left + g.trick.len() + 4 * g.tricks.len(), 40);
        }
    }

    #[test]
    fn penalties_add_up_to_seventeen_plus_faults(
        seed in any::<u64>(),
        pick in any::<u64>(),
        faults in proptest::collection::vec((0usize..4, 0i64..3), 0..4),
    ) {
        let p = random_playout::<Intensity>(Variant::Standard, seed, pick, 44)
            .map_err(TestCaseError::fail)?;
        let mut g = p.state;
        let mut won = [0i64; 4];
        for t in g.tricks() {
            prop_assert_eq!(t.penalty, t.cards.iter().map(|c| c.penalty()).sum::<i64>());
            let led = t.cards[0].suit();
            let best = t.cards.iter().filter(|c| c.suit() == led).max().unwrap();
            let at = t.cards.iter().position(|c| c == best).unwrap();
            prop_assert_eq!(t.winner, (t.leader + at) % 4);
            won[t.winner] += t.penalty;
        }
        for w in g.tricks().windows(2) {
            prop_assert_eq!(w[1].leader, w[0].winner);
        }
        prop_assert_eq!(g.tricks()[0].leader, 0);
        prop_assert_eq!(won.iter().sum::<i64>(), TOTAL_PENALTY);
        prop_assert_eq!(g.points(), won);
        let mut extra = [0i64; 4];
        for (s, n) in faults {
            g.add_penalty(s, 5 * n);
            extra[s] += 5 * n;
        }
        let out = g.outcome().unwrap();
        let want: Vec<i64> = (0..4).map(|s| won[s] + extra[s]).collect();
        prop_assert_eq!(&out.points, &want);
        prop_assert_eq!(out.ranks, Outcome::lower_wins(want).ranks);
    }

    #[test]
    fn observation_hides_what_the_seat_cannot_see(
        seed in any::<u64>(),
        pick in any::<u64>(),
        cut in 0usize..=44,
        seat in 0usize..4,
        which in any::<prop::sample::Index>(),
    ) {
        let p = random_playout::<Intensity>(Variant::Standard, seed, pick, 44)
            .map_err(TestCaseError::fail)?;
        let prefix = &p.actions[..cut];
        let setup_a = Intensity::deal(Variant::Standard, seed);
        let a: Intensity = replay(setup_a.clone(), prefix).map_err(TestCaseError::fail)?;
        // What `seat` has seen: its deal, what it received (once the pass resolved), and
        // every card played so far.
        let mut seen: Vec<Card> = setup_a.hands[seat].clone();
        seen.extend(a.observe(seat).received);
        seen.extend(&a.trick);
        seen.extend(a.tricks.iter().flat_map(|t| t.cards));
        let owner = |c: Card| setup_a.hands.iter().position(|h| h.contains(&c)).unwrap();
        let hidden: Vec<Card> = Card::all().filter(|c| !seen.contains(c)).collect();
        let pairs: Vec<(Card, Card)> = hidden
            .iter()
            .flat_map(|&x| hidden.iter().map(move |&y| (x, y)))
            .filter(|&(x, y)| x < y && owner(x) != owner(y))
            .collect();
        prop_assume!(!pairs.is_empty());
        let (x, y) = *which.get(&pairs);
        let mut setup_b = setup_a.clone();
        for hand in &mut setup_b.hands {
            for c in hand.iter_mut() {
                if *c == x {
                    *c = y;
                } else if *c == y {
                    *c = x;
                }
            }
        }
        // Skip if the swap makes the prefix illegal (a swapped card was in a chosen pass).
        let b: Intensity = match replay(setup_b, prefix) {
            Ok(b) => b,
            Err(_) => return Ok(()),
        };
        prop_assert_ne!(&a, &b);
        prop_assert_eq!(observation_json(&a, seat), observation_json(&b, seat));
    }

    #[test]
    fn play_accepts_exactly_the_listed_actions(
        seed in any::<u64>(),
        pick in any::<u64>(),
        cut in 0usize..44,
    ) {
        let p = random_playout::<Intensity>(Variant::Standard, seed, pick, 44)
            .map_err(TestCaseError::fail)?;
        let g: Intensity = replay(Intensity::deal(Variant::Standard, seed), &p.actions[..cut])
            .map_err(TestCaseError::fail)?;
        for seat in 0..4 {
            let listed = g.legal_strings(seat);
            let mut tries: Vec<String> = Card::all().map(|c| format!("play {c}")).collect();
            let h = g.hand(seat);
            if h.len() >= 3 {
                tries.push(format!("pass {}", cards_string(&h[..3])));
                tries.push(format!("pass {}", cards_string(&h[h.len() - 3..])));
            }
            tries.push("pass 10 11 12".into());
            for t in tries {
                let mut h = g.clone();
                let ok = h.play(seat, &t).is_ok();
                prop_assert_eq!(ok, listed.contains(&t), "{} by seat {}", t, seat);
                if !ok {
                    prop_assert_eq!(&h, &g);
                }
            }
        }
    }
}
