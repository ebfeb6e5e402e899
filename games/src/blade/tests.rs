//! Rule tests for Blade. Each names the rule it checks and cites its source.

use proptest::prelude::*;

use super::*;
use crate::testkit::{observation_json, random_playout, replay};

// ---- helpers ---------------------------------------------------------------------------------

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|t| t.parse().expect("card")).collect()
}

/// A field written as in the controller's log: `7 2 4X` (X = bolted).
fn field(s: &str) -> Vec<FieldCard> {
    s.split_whitespace()
        .map(|t| match t.strip_suffix('X') {
            Some(c) => FieldCard { card: c.parse().expect("card"), valid: false },
            None => FieldCard { card: t.parse().expect("card"), valid: true },
        })
        .collect()
}

fn field_text(f: &[FieldCard]) -> String {
    f.iter().map(|c| format!("{}{}", c.card, if c.valid { "" } else { "X" })).collect::<Vec<_>>().join(" ")
}

/// A position built directly (no validation), with `seat` to play. Decks are draw piles listed
/// bottom first (the last card is drawn next).
fn position(variant: Variant, to_play: Seat, hands: [&str; 2], fields: [&str; 2], decks: [&str; 2]) -> Blade {
    let mut hands = hands.map(cards);
    for hand in &mut hands {
        hand.sort();
    }
    Blade {
        variant,
        decks: decks.map(cards),
        hands,
        fields: fields.map(field),
        spent: Vec::new(),
        history: Vec::new(),
        stage: Stage::Turn(to_play),
    }
}

/// A position whose fields have just been cleared and set up again from seat 0.
fn set_up(variant: Variant, hands: [&str; 2], decks: [&str; 2]) -> Blade {
    let mut state = position(variant, 0, hands, ["", ""], decks);
    state.reinit();
    state
}

fn play(state: &mut Blade, seat: Seat, card: &str) {
    if let Err(e) = state.play(seat, card) {
        panic!("{e}\n{}", state.summary());
    }
}

fn multiset(cards: impl IntoIterator<Item = Card>) -> [u8; 9] {
    let mut counts = [0u8; 9];
    for c in cards {
        counts[c.index()] += 1;
    }
    counts
}

/// Every card of the state, wherever it is.
fn all_cards(state: &Blade) -> [u8; 9] {
    multiset(
        (0..2)
            .flat_map(|s| {
                let hand = state.hands[s].iter().copied();
                let deck = state.decks[s].iter().copied();
                let field = state.fields[s].iter().map(|c| c.card);
                hand.chain(deck).chain(field).collect::<Vec<_>>()
            })
            .chain(state.spent.iter().copied()),
    )
}

// ---- vocabulary ------------------------------------------------------------------------------

#[test]
fn variant_names_round_trip() {
    // CONTRACT.md §1 blade: variants `readme` (default) and `controller`.
    for v in Variant::ALL {
        assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        assert_eq!(serde_json::to_string(&v).unwrap(), format!("\"{v}\""));
    }
    assert_eq!(Blade::variants()[0], Variant::Readme);
    assert!("Readme".parse::<Variant>().is_err());
}

#[test]
fn action_notation_is_exactly_the_contract_strings() {
    // CONTRACT.md §1 blade: actions "1".."7", "B", "M".
    for (card, text) in Card::ALL.into_iter().zip(["1", "2", "3", "4", "5", "6", "7", "B", "M"]) {
        assert_eq!(Action(card).to_string(), text);
        assert_eq!(text.parse::<Action>(), Ok(Action(card)));
    }
    for bad in ["", "0", "8", "10", "b", "m", " 1", "1 ", "X", "bolt"] {
        let err = bad.parse::<Action>().unwrap_err();
        assert_eq!(err.game, "blade");
        assert_eq!(err.input, bad);
    }
}

#[test]
fn deck_compositions_match_the_variants() {
    // CONTRACT.md §1 blade / seed-games.md §1(b) rule 1.
    let count = |v: Variant, c: &str| v.cards().iter().filter(|x| x.as_str() == c).count();
    let readme: Vec<usize> =
        ["1", "2", "3", "4", "5", "6", "7", "B", "M"].iter().map(|c| count(Variant::Readme, c)).collect();
    assert_eq!(readme, [2, 3, 4, 4, 4, 3, 2, 6, 4]);
    let controller: Vec<usize> =
        ["1", "2", "3", "4", "5", "6", "7", "B", "M"].iter().map(|c| count(Variant::Controller, c)).collect();
    assert_eq!(controller, [2, 4, 4, 4, 4, 3, 2, 6, 3]);
    assert_eq!(Variant::Readme.cards().len(), 32);
    assert_eq!(Variant::Controller.cards().len(), 32);
}

#[test]
fn card_values_count_bolt_and_mirror_as_one() {
    // seed-games.md §1(b) rule 2.
    let values: Vec<u32> = Card::ALL.iter().map(|c| c.value()).collect();
    assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 1, 1]);
}

// ---- setup -----------------------------------------------------------------------------------

#[test]
fn deal_gives_two_sixteen_card_decks_of_the_variants_cards() {
    // seed-games.md §1(b) rule 3: each seat a private 16-card deck, 10 drawn into the hand.
    for v in Variant::ALL {
        for seed in 0..20 {
            let setup = Blade::deal(v, seed);
            assert_eq!(setup.decks[0].len(), 16);
            assert_eq!(setup.decks[1].len(), 16);
            assert_eq!(multiset(setup.decks.iter().flatten().copied()), v.composition());
            let state = Blade::from_setup(setup.clone()).unwrap();
            for seat in 0..2 {
                let mut hand = setup.hand(seat);
                hand.sort();
                assert_eq!(state.hand(seat), hand.as_slice());
                assert_eq!(setup.draw_pile(seat).len(), 6);
            }
            assert_eq!(Blade::deal(v, seed), setup, "same seed, same deal");
        }
    }
    assert_ne!(Blade::deal(Variant::Readme, 1), Blade::deal(Variant::Readme, 2));
}

#[test]
fn setup_json_round_trips_and_reads_the_documented_format() {
    let setup = Blade::deal(Variant::Controller, 7);
    let json = serde_json::to_string(&setup).unwrap();
    assert!(json.starts_with("{\"variant\":\"controller\",\"decks\":[[\""), "{json}");
    assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
    let written = r#"{"variant":"controller","decks":[
        ["3","6","5","3","6","7","B","5","2","4","B","B","5","1","B","B"],
        ["1","2","4","4","3","3","M","B","M","5","2","6","7","4","2","M"]]}"#;
    let setup: Setup = serde_json::from_str(written).unwrap();
    assert_eq!(setup.draw_pile(0), cards("7 6 3 5 6 3"));
    assert_eq!(setup.hand(1), cards("M 2 4 7 6 2 5 M B M"));
    assert!(Blade::from_setup(setup).is_ok());
    assert!(serde_json::from_str::<Setup>(r#"{"variant":"readme","decks":[["X"],[]]}"#).is_err());
}

#[test]
fn from_setup_rejects_wrong_counts_and_wrong_cards() {
    let good = Blade::deal(Variant::Readme, 3);
    let mut short = good.clone();
    short.decks[1].pop();
    let err = Blade::from_setup(short).unwrap_err();
    assert!(err.0.contains("seat 1's deck has 15 cards"), "{err}");

    // A controller deck is not a readme deck: one 2 too many, one M too few.
    let mut other = Blade::deal(Variant::Controller, 3);
    other.variant = Variant::Readme;
    let err = Blade::from_setup(other).unwrap_err();
    assert!(err.0.contains("2×4 (expected 3)") && err.0.contains("M×3 (expected 4)"), "{err}");

    let mut moved = good.clone();
    let card = moved.decks[0].pop().unwrap();
    moved.decks[1].push(card);
    assert!(Blade::from_setup(moved).is_err());
}

#[test]
fn lower_set_up_score_moves_first() {
    // seed-games.md §1(b) rule 4: the seat with the lower field score moves first.
    let state = set_up(Variant::Readme, ["2 3", "4 5"], ["6", "2"]);
    assert_eq!(state.to_act(), vec![1]);
    let state = set_up(Variant::Readme, ["2 3", "4 5"], ["1", "2"]);
    assert_eq!(state.to_act(), vec![0]);
}

#[test]
fn set_up_places_bolt_and_mirror_as_plain_cards_worth_one() {
    // seed-games.md §1(b) rule 4: B/M drawn at set-up count as 1, no effect.
    let state = set_up(Variant::Readme, ["2 3", "4 5"], ["B", "3"]);
    assert_eq!(state.field(0), field("B").as_slice());
    assert_eq!(state.score(0), 1);
    assert_eq!(state.to_act(), vec![0]);
}

#[test]
fn tied_set_up_clears_the_fields_and_sets_up_again() {
    // seed-games.md §1(b) rule 4: repeat until the scores differ; tied cards are discarded.
    let state = set_up(Variant::Readme, ["2 3", "4 5"], ["6 M", "2 B"]);
    assert_eq!(state.field(0), field("6").as_slice());
    assert_eq!(state.field(1), field("2").as_slice());
    assert_eq!(state.spent(), cards("M B").as_slice());
    assert_eq!(
        state.history(),
        &[
            Event::Place { seat: 0, card: Card::Mirror, from: Source::Deck },
            Event::Place { seat: 1, card: Card::Bolt, from: Source::Deck },
            Event::Reinit { score: 1 },
            Event::Place { seat: 0, card: Card::Six, from: Source::Deck },
            Event::Place { seat: 1, card: Card::Two, from: Source::Deck },
        ]
    );
    assert_eq!(state.to_act(), vec![1]);
}

#[test]
fn set_up_pick_from_hand_when_the_deck_is_empty() {
    // CONTRACT.md §1 blade: a set-up pick from hand; seat 0 picks first and seat 1 sees its card.
    let mut state = set_up(Variant::Readme, ["2 5", "3 B"], ["", ""]);
    assert_eq!(state.to_act(), vec![0]);
    assert_eq!(state.legal_strings(0), ["2", "5"]);
    let obs1 = state.observe(1);
    assert_eq!((obs1.phase, obs1.to_act), (Phase::Setup, Some(0)));
    assert!(obs1.legal.is_empty());
    play(&mut state, 0, "5");
    assert_eq!(state.to_act(), vec![1]);
    let obs1 = state.observe(1);
    assert_eq!(obs1.phase, Phase::Setup);
    assert_eq!(obs1.fields[0], field("5"), "seat 1 sees seat 0's set-up card");
    assert_eq!(obs1.legal, ["3", "B"]);
    play(&mut state, 1, "B");
    assert_eq!(state.field(1), field("B").as_slice(), "placed as a plain card, no effect");
    assert_eq!(state.field(0), field("5").as_slice());
    assert_eq!(state.to_act(), vec![1], "1 < 5: seat 1 moves first");
    assert_eq!(state.hand(0), cards("2").as_slice());
    assert_eq!(state.hand(1), cards("3").as_slice());
    assert_eq!(
        state.history(),
        &[
            Event::Place { seat: 0, card: Card::Five, from: Source::Hand },
            Event::Place { seat: 1, card: Card::Bolt, from: Source::Hand },
        ]
    );
}

#[test]
fn set_up_pick_is_a_decision_even_with_one_card() {
    // CONTRACT.md §1 blade: "A set-up pick from hand is always a decision, even with one card".
    let state = set_up(Variant::Controller, ["4", "2 3"], ["", ""]);
    assert_eq!(state.to_act(), vec![0]);
    assert_eq!(state.legal_strings(0), ["4"]);
    assert_eq!(state.observe(0).phase, Phase::Setup);
}

#[test]
fn readme_set_up_with_empty_deck_and_hand_is_a_draw() {
    // CONTRACT.md §1 blade, readme: init with empty deck and empty hand = draw.
    let state = set_up(Variant::Readme, ["", "3 4"], ["", ""]);
    assert_eq!(state.ending(), Some(Ending { winner: None, reason: EndReason::SetupOutOfCards }));
    assert_eq!(state.outcome().unwrap().points, [1, 1]);
    // Seat 0 picks first; then seat 1 is out of cards: still a draw.
    let mut state = set_up(Variant::Readme, ["3 4", ""], ["", ""]);
    play(&mut state, 0, "4");
    assert_eq!(state.ending(), Some(Ending { winner: None, reason: EndReason::SetupOutOfCards }));
}

#[test]
fn controller_set_up_with_empty_deck_and_hand_loses_unless_the_opponent_is_out_too() {
    // CONTRACT.md §1 blade, controller: a draw only if the opponent is also out of cards,
    // otherwise the opponent wins (seed-games.md §1(b) rule 4).
    let state = set_up(Variant::Controller, ["", "3 4"], ["", ""]);
    assert_eq!(state.ending(), Some(Ending { winner: Some(1), reason: EndReason::SetupOutOfCards }));
    assert_eq!(state.outcome().unwrap().points, [0, 2]);

    // Seat 0 places one of two cards and still holds one: seat 1 (out of cards) loses.
    let mut state = set_up(Variant::Controller, ["3 4", ""], ["", ""]);
    play(&mut state, 0, "4");
    assert_eq!(state.ending(), Some(Ending { winner: Some(0), reason: EndReason::SetupOutOfCards }));

    // Seat 0 places its last card: both are out of cards, a draw worth 2 each.
    let mut state = set_up(Variant::Controller, ["4", ""], ["", ""]);
    play(&mut state, 0, "4");
    assert_eq!(state.ending(), Some(Ending { winner: None, reason: EndReason::SetupOutOfCards }));
    assert_eq!(state.outcome().unwrap().points, [2, 2]);

    let state = set_up(Variant::Controller, ["", ""], ["", ""]);
    assert_eq!(state.ending(), Some(Ending { winner: None, reason: EndReason::SetupOutOfCards }));
}

// ---- turns -----------------------------------------------------------------------------------

#[test]
fn number_card_is_added_to_the_field() {
    // seed-games.md §1(b) rule 6: 2..7 are pushed onto the own field.
    let mut state = position(Variant::Readme, 0, ["2 6", "5"], ["3", "2 6"], ["", ""]);
    play(&mut state, 0, "6");
    assert_eq!(state.field(0), field("3 6").as_slice());
    assert_eq!((state.score(0), state.score(1)), (9, 8));
    assert_eq!(state.to_act(), vec![1]);
}

#[test]
fn number_card_removes_own_bolted_top_card_first() {
    // seed-games.md §1(b) rule 6: 2..7 first remove the own invalidated (top) card.
    let mut state = position(Variant::Readme, 0, ["4 2", "5"], ["3 6X", "5"], ["", ""]);
    play(&mut state, 0, "4");
    assert_eq!(state.field(0), field("3 4").as_slice());
    assert_eq!(state.spent(), cards("6").as_slice());
}

#[test]
fn bolt_invalidates_opponents_top_card() {
    // seed-games.md §1(b) rule 6: B invalidates the opponent's top card and is not placed.
    let mut state = position(Variant::Readme, 0, ["B 2", "5"], ["3", "2 6"], ["", ""]);
    play(&mut state, 0, "B");
    assert_eq!(state.field(1), field("2 6X").as_slice());
    assert_eq!(state.field(0), field("3").as_slice());
    assert_eq!((state.score(0), state.score(1)), (3, 2));
    assert_eq!(state.spent(), cards("B").as_slice());
    assert_eq!(state.to_act(), vec![1]);
}

#[test]
fn bolt_removes_an_already_bolted_top_card_first() {
    // seed-games.md §1(b) rule 6: B removes the opponent's invalidated card, then bolts the new top.
    let mut state = position(Variant::Readme, 0, ["B 2", "5"], ["5 5", "7 5 6X"], ["", ""]);
    play(&mut state, 0, "B");
    assert_eq!(state.field(1), field("7 5X").as_slice());
    assert_eq!((state.score(0), state.score(1)), (10, 7));
    assert_eq!(state.spent(), cards("6 B").as_slice());
}

#[test]
fn bolt_that_leaves_the_mover_behind_loses() {
    // seed-games.md §1(b) rule 8: a Bolt succeeds only if the mover ends strictly ahead.
    let mut state = position(Variant::Readme, 0, ["B 2", "5"], ["3", "7 2"], ["", ""]);
    play(&mut state, 0, "B");
    assert_eq!(state.ending(), Some(Ending { winner: Some(1), reason: EndReason::FellBehind }));
    assert_eq!(state.outcome().unwrap().points, [0, 2]);
}

#[test]
fn mirror_swaps_fields() {
    // seed-games.md §1(b) rule 6: M exchanges the fields entirely, bolted cards included.
    let mut state = position(Variant::Readme, 0, ["M 2", "5"], ["2", "7 3 4X"], ["", ""]);
    play(&mut state, 0, "M");
    assert_eq!(state.field(0), field("7 3 4X").as_slice());
    assert_eq!(state.field(1), field("2").as_slice());
    assert_eq!(state.spent(), cards("M").as_slice());
    assert_eq!(state.to_act(), vec![1]);
}

#[test]
fn one_revives_bolted_top_card() {
    // seed-games.md §1(b) rule 6: a 1 re-validates the own bolted top card and is not placed.
    let mut state = position(Variant::Readme, 0, ["1 2", "5"], ["3 6X", "5"], ["", ""]);
    play(&mut state, 0, "1");
    assert_eq!(state.field(0), field("3 6").as_slice());
    assert_eq!(state.score(0), 9);
    assert_eq!(state.spent(), cards("1").as_slice());
    assert_eq!(state.to_act(), vec![1]);
}

#[test]
fn one_is_placed_as_a_one_when_the_top_card_is_valid() {
    // seed-games.md §1(b) rule 6 / CONTRACT.md §1 blade readme: otherwise placed as a 1.
    let mut state = position(Variant::Readme, 0, ["1 2", "5"], ["3", "4"], ["", ""]);
    play(&mut state, 0, "1");
    assert_eq!(state.history()[0], Event::Play { seat: 0, card: Card::One, scores: [4, 4] });
    // 4 = 4: a tie, so the fields (3 1 and 4) are cleared.
    assert_eq!(state.spent(), cards("3 1 4").as_slice());
}

#[test]
fn tie_after_a_play_reinits_fields_keeping_hands() {
    // seed-games.md §1(b) rule 5 / §1(d): a tie re-inits; fields cleared, hands kept, the lower
    // set-up score moves first.
    let mut state = position(Variant::Readme, 0, ["2 7", "5 6"], ["3", "5"], ["1 4", "6"]);
    play(&mut state, 0, "2");
    assert_eq!(state.hand(0), cards("7").as_slice());
    assert_eq!(state.hand(1), cards("5 6").as_slice());
    assert_eq!(state.field(0), field("4").as_slice());
    assert_eq!(state.field(1), field("6").as_slice());
    assert_eq!(state.deck(0), cards("1").as_slice());
    assert!(state.deck(1).is_empty());
    assert_eq!(
        state.history(),
        &[
            Event::Play { seat: 0, card: Card::Two, scores: [5, 5] },
            Event::Reinit { score: 5 },
            Event::Place { seat: 0, card: Card::Four, from: Source::Deck },
            Event::Place { seat: 1, card: Card::Six, from: Source::Deck },
        ]
    );
    assert_eq!(state.to_act(), vec![0]);
}

#[test]
fn falling_behind_loses() {
    // seed-games.md §1(b) rule 5: after the play, a lower score loses.
    let mut state = position(Variant::Readme, 0, ["2 7", "5"], ["3", "7"], ["", ""]);
    play(&mut state, 0, "2");
    assert_eq!(state.ending(), Some(Ending { winner: Some(1), reason: EndReason::FellBehind }));
}

#[test]
fn mirror_as_last_card_loses() {
    // CONTRACT.md §1 blade: B or M as the last hand card is legal and loses at once, unapplied.
    let mut state = position(Variant::Readme, 0, ["M", "5"], ["2", "7 2"], ["", ""]);
    assert_eq!(state.legal_strings(0), ["M"]);
    play(&mut state, 0, "M");
    assert_eq!(state.ending(), Some(Ending { winner: Some(1), reason: EndReason::LastCardEffect }));
    assert_eq!(state.field(0), field("2").as_slice(), "the mirror is not applied");
    assert_eq!(state.outcome().unwrap().points, [0, 2]);
    assert_eq!(state.history()[0], Event::Play { seat: 0, card: Card::Mirror, scores: [2, 9] });
}

#[test]
fn bolt_as_last_card_loses() {
    // CONTRACT.md §1 blade: even a Bolt that would have won.
    let mut state = position(Variant::Controller, 1, ["5", "B"], ["2 7", "3"], ["", ""]);
    play(&mut state, 1, "B");
    assert_eq!(state.ending(), Some(Ending { winner: Some(0), reason: EndReason::LastCardEffect }));
    assert_eq!(state.field(0), field("2 7").as_slice());
    assert_eq!(state.outcome().unwrap().points, [2, 0]);
}

#[test]
fn running_out_of_hand_while_the_opponent_still_has_cards_loses() {
    // seed-games.md §1(b) rule 5 / §1(d): an empty hand at the start of the turn loses if the
    // opponent still holds cards; settled with no decision.
    let mut state = position(Variant::Readme, 0, ["5", "6 2"], ["3", "4"], ["", ""]);
    play(&mut state, 0, "5");
    play(&mut state, 1, "6");
    assert_eq!(state.ending(), Some(Ending { winner: Some(1), reason: EndReason::OutOfCards }));
    assert!(state.to_act().is_empty());
}

#[test]
fn both_hands_empty_the_higher_field_wins() {
    // seed-games.md §1(b) rule 5: both hands empty, compare the fields.
    let mut state = position(Variant::Readme, 0, ["5", "6"], ["3", "4"], ["", ""]);
    play(&mut state, 0, "5");
    play(&mut state, 1, "6");
    assert_eq!(state.ending(), Some(Ending { winner: Some(1), reason: EndReason::FinalScores }));
    assert_eq!(state.outcome().unwrap().points, [0, 2]);
    assert_eq!(state.outcome().unwrap().ranks, [2, 1]);
}

#[test]
fn legal_actions_are_the_distinct_hand_cards_in_order() {
    // CONTRACT.md §1 blade: `legal` = the distinct cards in hand, in the order 1..7, B, M.
    let state = position(Variant::Readme, 0, ["M 5 B 1 5 7 B", "2"], ["3", "4"], ["", ""]);
    assert_eq!(state.legal_strings(0), ["1", "5", "7", "B", "M"]);
    assert!(state.legal_strings(1).is_empty());
    assert_eq!(state.observe(0).hand, cards("1 5 5 7 B B M"));
}

#[test]
fn play_rejects_anything_not_listed_and_leaves_the_state_unchanged() {
    let state = Blade::new(Variant::Readme, 11);
    let seat = state.to_act()[0];
    let legal = state.legal_strings(seat);
    let mut tries: Vec<(Seat, String)> = vec![
        (seat, "X".into()),
        (seat, "8".into()),
        (seat, "b".into()),
        (seat, "".into()),
        (1 - seat, legal[0].clone()),
    ];
    for card in Card::ALL {
        if !legal.contains(&card.to_string()) {
            tries.push((seat, card.to_string()));
        }
    }
    assert!(tries.len() > 5, "the test needs a card missing from the hand");
    for (who, action) in tries {
        let mut copy = state.clone();
        assert!(copy.play(who, &action).is_err(), "{action:?} by seat {who} was accepted");
        assert_eq!(copy.summary(), state.summary());
        assert_eq!(copy.history(), state.history());
        for s in 0..2 {
            assert_eq!(observation_json(&copy, s), observation_json(&state, s));
        }
    }
}

#[test]
fn forfeit_gives_the_faulty_seat_zero_and_both_faulty_a_draw() {
    // CONTRACT.md §1: the faulty bot loses; both faulting is a draw.
    for v in Variant::ALL {
        let state = Blade::new(v, 5);
        assert_eq!(state.forfeit(&[0]), Outcome { points: vec![0, 2], ranks: vec![2, 1] });
        assert_eq!(state.forfeit(&[1]), Outcome { points: vec![2, 0], ranks: vec![1, 2] });
        let d = v.draw_points();
        assert_eq!(state.forfeit(&[0, 1]), Outcome { points: vec![d, d], ranks: vec![1, 1] });
    }
    assert_eq!(Blade::FAULT_POLICY, crate::FaultPolicy::Forfeit);
}

#[test]
fn observation_shows_what_the_seat_may_know() {
    let state = Blade::from_setup(sample_match().0).unwrap();
    let obs = state.observe(0);
    assert_eq!(obs.game, "blade");
    assert_eq!(obs.phase, Phase::Turn);
    assert_eq!(obs.to_act, Some(1));
    assert!(obs.legal.is_empty());
    assert_eq!(obs.hand, cards("1 2 4 5 5 B B B B B"));
    assert_eq!(obs.scores, [7, 3]);
    assert_eq!(obs.deck_counts, [5, 5]);
    assert_eq!(obs.hand_counts, [10, 10]);
    // Unseen: the 32 controller cards minus the own hand and the two set-up cards 7 and 3.
    let mut unseen = Variant::Controller.composition();
    for c in cards("1 2 4 5 5 B B B B B 7 3") {
        unseen[c.index()] -= 1;
    }
    assert_eq!(multiset(obs.unseen.iter().copied()), unseen);
    let json = observation_json(&state, 1);
    assert!(json.starts_with(r#"{"game":"blade","variant":"controller","seat":1,"phase":"turn","to_act":1,"legal":["2","4","5","6","7","B","M"],"hand":["2","2","4","5","6","7","B","M","M","M"],"fields":[[{"card":"7","valid":true}],[{"card":"3","valid":true}]],"scores":[7,3],"deck_counts":[5,5],"hand_counts":[10,10],"unseen":["#), "{json}");
    assert!(json.ends_with(r#""history":[{"kind":"place","seat":0,"card":"7","from":"deck"},{"kind":"place","seat":1,"card":"3","from":"deck"}],"result":null}"#), "{json}");
}

// ---- the published sample match --------------------------------------------------------------

const SAMPLE_MATCH: &str = include_str!("../../../tests/data/blade/sample_match.trace");

/// The sample match's setup and its other lines, comments stripped.
fn sample_match() -> (Setup, Vec<Vec<&'static str>>) {
    let mut variant = None;
    let mut decks: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
    let mut rest = Vec::new();
    for line in SAMPLE_MATCH.lines() {
        let line = line.split('#').next().unwrap_or("");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.as_slice() {
            [] => {}
            ["variant", name] => variant = Some(name.parse::<Variant>().unwrap()),
            ["deck", seat, cards @ ..] => {
                decks[seat.parse::<usize>().unwrap()] = cards.iter().map(|c| c.parse().unwrap()).collect()
            }
            _ => rest.push(tokens),
        }
    }
    (Setup { variant: variant.expect("a variant line"), decks }, rest)
}

#[test]
fn controller_replays_published_sample_match() {
    // seed-games.md §1(c) sample_match: same decks, same moves, same field scores after every
    // turn (8:7, 9:8, ..., 14:11) and the same winner (Player 0 wins, 2:0).
    let (setup, lines) = sample_match();
    assert_eq!(setup.variant, Variant::Controller);
    let mut state = Blade::from_setup(setup.clone()).expect("the published decks are a controller deal");
    let mut places = Vec::new();
    let mut plays = 0;
    for tokens in lines {
        match tokens.as_slice() {
            ["hand", seat, hand @ ..] => {
                let seat: usize = seat.parse().unwrap();
                let mut drawn = setup.hand(seat);
                drawn.sort();
                assert_eq!(drawn, cards(&hand.join(" ")), "seat {seat}'s hand");
            }
            ["place", seat, card, from] => places.push(format!("{seat} {card} {from}")),
            ["play", seat, card, "|", rest @ ..] => {
                let seat: usize = seat.parse().unwrap();
                let parts: Vec<String> = rest.split(|t| *t == "|").map(|p| p.join(" ")).collect();
                let [f0, f1, scores] = parts.as_slice() else { panic!("bad play line {rest:?}") };
                assert_eq!(state.to_act(), vec![seat], "turn {plays}: who moves");
                play(&mut state, seat, card);
                assert_eq!(field_text(state.field(0)), *f0, "turn {plays}: seat 0's field");
                assert_eq!(field_text(state.field(1)), *f1, "turn {plays}: seat 1's field");
                assert_eq!(format!("{} {}", state.score(0), state.score(1)), *scores, "turn {plays}");
                plays += 1;
            }
            ["result", winner, reason, p0, p1] => {
                let ending = state.ending().expect("the match is over");
                let winner = if *winner == "draw" { None } else { Some(winner.parse().unwrap()) };
                assert_eq!(ending.winner, winner);
                assert_eq!(serde_json::to_string(&ending.reason).unwrap(), format!("\"{reason}\""));
                let points = vec![p0.parse::<i64>().unwrap(), p1.parse::<i64>().unwrap()];
                assert_eq!(state.outcome().unwrap().points, points);
            }
            other => panic!("unknown trace line {other:?}"),
        }
    }
    assert_eq!(plays, 20);
    let placed: Vec<String> = state
        .history()
        .iter()
        .filter_map(|e| match e {
            Event::Place { seat, card, from } => {
                Some(format!("{seat} {card} {}", serde_json::to_value(from).unwrap().as_str().unwrap()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(placed, places);
}

// ---- properties ------------------------------------------------------------------------------

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Readme), Just(Variant::Controller)]
}

/// Checks the invariants of one state: cards conserved, fields well-formed, scores right.
fn check_state(state: &Blade) -> Result<(), TestCaseError> {
    prop_assert_eq!(all_cards(state), state.variant.composition(), "cards conserved");
    prop_assert_eq!(state.decks[0].len(), state.decks[1].len(), "decks stay equal");
    for seat in 0..2 {
        let f = &state.fields[seat];
        // seed-games.md §1(b) rule 7: at most one invalidated card, always the top one.
        let invalid: Vec<usize> = (0..f.len()).filter(|&i| !f[i].valid).collect();
        prop_assert!(invalid.is_empty() || invalid == vec![f.len() - 1], "field {}", field_text(f));
        let expected: u32 = f.iter().map(|c| if c.valid { c.card.value() } else { 0 }).sum();
        prop_assert_eq!(state.score(seat), expected);
        prop_assert!(state.hands[seat].windows(2).all(|w| w[0] <= w[1]), "hand sorted");
    }
    match state.stage {
        // seed-games.md §1(b) rule 8: during turns the fields are never empty.
        Stage::Turn(seat) => {
            prop_assert!(!state.fields[0].is_empty() && !state.fields[1].is_empty());
            prop_assert!(!state.hands[seat].is_empty(), "an empty hand is settled, never asked");
        }
        Stage::Pick(seat) => {
            prop_assert!(state.decks[seat].is_empty() && !state.hands[seat].is_empty());
        }
        Stage::Over(_) => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn random_play_never_panics_and_always_ends(variant in variant_strategy(), seed: u64, pick: u64) {
        let playout = random_playout::<Blade>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
        prop_assert!(playout.state.is_over());
    }

    #[test]
    fn cards_are_conserved_and_fields_stay_well_formed(variant in variant_strategy(), seed: u64, pick: u64) {
        let playout = random_playout::<Blade>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
        let mut state = Blade::new(variant, seed);
        check_state(&state)?;
        for (seat, action) in &playout.actions {
            state.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
            check_state(&state)?;
        }
    }

    #[test]
    fn points_add_up(variant in variant_strategy(), seed: u64, pick: u64) {
        // CONTRACT.md §1 blade: readme win 2 / draw 1 / loss 0; controller win 2 / draw 2 each.
        let playout = random_playout::<Blade>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
        let state = playout.state;
        let ending = state.ending().expect("over");
        let outcome = state.outcome().expect("over");
        let d = variant.draw_points();
        match ending.winner {
            Some(0) => prop_assert_eq!(&outcome.points, &vec![2, 0]),
            Some(_) => prop_assert_eq!(&outcome.points, &vec![0, 2]),
            None => prop_assert_eq!(&outcome.points, &vec![d, d]),
        }
        if ending.reason == EndReason::FinalScores {
            prop_assert!(state.hands[0].is_empty() && state.hands[1].is_empty());
            match ending.winner {
                Some(w) => prop_assert!(state.score(w) > state.score(1 - w)),
                None => prop_assert_eq!(state.score(0), state.score(1)),
            }
        }
        if ending.reason == EndReason::LastCardEffect {
            let Some(Event::Play { seat, card, .. }) = state.history.last() else {
                return Err(TestCaseError::fail("no last play"));
            };
            prop_assert!(card.is_effect());
            prop_assert_eq!(ending.winner, Some(1 - seat));
        }
    }

    #[test]
    fn observation_hides_hidden_cards(
        variant in variant_strategy(),
        seed: u64,
        pick: u64,
        cut: usize,
        seat in 0usize..2,
        i: usize,
        j: usize,
    ) {
        // CONTRACT.md §2: two deals that differ only in cards `seat` has not seen give it
        // byte-identical observations. Unseen by `seat`: the opponent's hand and the undrawn
        // parts of both decks (deck order is hidden from its owner too).
        let setup_a = Blade::deal(variant, seed);
        let playout = random_playout::<Blade>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
        let prefix = &playout.actions[..cut % (playout.actions.len() + 1)];
        let a = replay::<Blade>(setup_a.clone(), prefix).map_err(TestCaseError::fail)?;
        let other = 1 - seat;
        let mut hidden: Vec<(usize, usize)> = (6..16).map(|k| (other, k)).collect();
        hidden.extend((0..a.decks[seat].len()).map(|k| (seat, k)));
        hidden.extend((0..a.decks[other].len()).map(|k| (other, k)));
        let (p, q) = (hidden[i % hidden.len()], hidden[j % hidden.len()]);
        let mut setup_b = setup_a.clone();
        let (cp, cq) = (setup_a.decks[p.0][p.1], setup_a.decks[q.0][q.1]);
        prop_assume!(cp != cq);
        setup_b.decks[p.0][p.1] = cq;
        setup_b.decks[q.0][q.1] = cp;
        // The opponent may have played the moved card in the prefix: skip such cases.
        let Ok(b) = replay::<Blade>(setup_b, prefix) else { return Ok(()) };
        prop_assert_eq!(observation_json(&a, seat), observation_json(&b, seat));
    }

    #[test]
    fn legal_is_sorted_distinct_and_matches_the_hand(variant in variant_strategy(), seed: u64, pick: u64) {
        // CONTRACT.md §1 blade: legal = the distinct cards in hand, in the order 1..7, B, M.
        let playout = random_playout::<Blade>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
        let mut state = Blade::new(variant, seed);
        for (seat, action) in &playout.actions {
            let legal = state.legal_actions(*seat);
            prop_assert!(legal.windows(2).all(|w| w[0].0 < w[1].0));
            let mut hand = state.hand(*seat).to_vec();
            hand.dedup();
            prop_assert_eq!(legal.iter().map(|a| a.0).collect::<Vec<_>>(), hand);
            state.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }
}

#[test]
fn docs_example_observation_is_current() {
    // docs/games/blade.md pastes seat 1's observation before turn 10 of the sample match.
    let docs = include_str!("../../../docs/games/blade.md");
    let (setup, _) = sample_match();
    let mut state = Blade::from_setup(setup.clone()).unwrap();
    for (seat, card) in
        [(1, "5"), (0, "2"), (1, "2"), (0, "4"), (1, "4"), (0, "5"), (1, "6"), (0, "5"), (1, "7"), (0, "B")]
    {
        play(&mut state, seat, card);
    }
    assert!(docs.contains(&format!("```json\n{}\n```", observation_json(&state, 1))));
    assert!(docs.contains(&format!("```\n{}\n```", state.summary())));
    assert!(docs.contains(&format!("```json\n{}\n```", serde_json::to_string(&setup).unwrap())));
}

// ---- the hand-written JSON encoder -----------------------------------------------------------

/// CONTRACT.md §2: a WASM bot receives the observation's JSON. `write_json` must give the bytes
/// of the derived `Serialize` for every value a field can take, including the endings, sources
/// and bolted cards random matches may not reach (tests/it/observations.rs covers real matches).
#[test]
fn write_json_is_serde_json_for_every_field_value() {
    let reasons = [
        EndReason::FellBehind,
        EndReason::LastCardEffect,
        EndReason::OutOfCards,
        EndReason::FinalScores,
        EndReason::SetupOutOfCards,
    ];
    let endings = reasons
        .into_iter()
        .flat_map(|reason| [None, Some(0), Some(1)].map(|winner| Some(Ending { winner, reason })));
    for (i, result) in std::iter::once(None).chain(endings).enumerate() {
        let obs = BladeObservation {
            game: Blade::NAME,
            variant: Variant::ALL[i % 2],
            seat: i % 2,
            phase: [Phase::Setup, Phase::Turn, Phase::Over][i % 3],
            to_act: result.is_none().then_some(1),
            legal: if i % 2 == 0 {
                vec!["1".into(), "B".into(), "a\"b\\c\n".into(), "漢".into()]
            } else {
                vec![]
            },
            hand: Card::ALL.to_vec(),
            fields: [field("7 2 4X 1 B M"), if i % 3 == 0 { vec![] } else { field("3X 5 6") }],
            scores: [i as u32 * 7, 123_456],
            deck_counts: [16, i],
            hand_counts: [0, 10],
            unseen: if i % 2 == 0 { vec![] } else { Card::ALL.to_vec() },
            history: vec![
                Event::Place { seat: 0, card: Card::Bolt, from: Source::Deck },
                Event::Place { seat: 1, card: Card::Seven, from: Source::Hand },
                Event::Play { seat: 1, card: Card::Mirror, scores: [17, 0] },
                Event::Reinit { score: 21 },
            ],
            result,
        };
        let mut written = Vec::new();
        obs.write_json(&mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), serde_json::to_string(&obs).unwrap(), "case {i}");
    }
}
