//! Rule tests (each cites its rule) and property tests for Lost Cities.

use proptest::prelude::*;

use super::*;
use crate::rng::Rng;
use crate::testkit::{observation_json, random_playout, replay};

// ---- helpers ----------------------------------------------------------------------------------

fn c(s: &str) -> Card {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(c).collect()
}

/// A setup with the given hands and first deck cards; the other cards follow in canonical order.
fn setup_with(variant: Variant, hand0: &str, hand1: &str, deck_front: &str) -> Setup {
    let mut rest = variant.full_deck();
    for card in cards(hand0).into_iter().chain(cards(hand1)).chain(cards(deck_front)) {
        assert!(remove_one(&mut rest, card), "{card} used twice in the test setup");
    }
    let mut deck = cards(deck_front);
    deck.extend(rest);
    Setup { variant, hands: [cards(hand0), cards(hand1)], deck }
}

fn start(hand0: &str, hand1: &str, deck_front: &str) -> LostCities {
    LostCities::from_setup(setup_with(Variant::Classic, hand0, hand1, deck_front))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[track_caller]
fn act(g: &mut LostCities, seat: Seat, action: &str) {
    if let Err(e) = g.play(seat, action) {
        panic!("{e}; legal: {:?}", g.legal_strings(seat));
    }
}

/// Plays an action that must be refused, and checks that the state did not change.
#[track_caller]
fn refused(g: &mut LostCities, seat: Seat, action: &str) {
    let before = g.clone();
    assert!(g.play(seat, action).is_err(), "{action:?} was accepted for seat {seat}");
    assert_eq!(*g, before, "a refused {action:?} changed the state");
}

fn legal(g: &LostCities, seat: Seat) -> Vec<String> {
    g.legal_strings(seat)
}

/// A full turn: the first legal discard, then the first legal draw (the deck).
fn discard_and_draw_deck(g: &mut LostCities) {
    let seat = g.to_act()[0];
    let discard = legal(g, seat).into_iter().find(|a| a.starts_with("discard ")).expect("discard");
    act(g, seat, &discard);
    act(g, seat, "draw deck");
}

// ---- vocabulary and notation ------------------------------------------------------------------

#[test]
fn variant_names_round_trip() {
    // CONTRACT.md §1 lost-cities: variants `classic` (default) and `six-suits`.
    for v in Variant::ALL {
        assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
    }
    assert_eq!(LostCities::variants()[0], Variant::Classic);
    assert_eq!(Variant::SixSuits.name(), "six-suits");
    assert!("Classic".parse::<Variant>().is_err());
}

#[test]
fn card_notation_is_value_then_suit_letter() {
    // CONTRACT.md §1 lost-cities: investments as `ID`, numbers `2`..`10`, suit letter last.
    assert_eq!(c("ID"), Card::investment(Suit::Desert));
    assert_eq!(c("10O"), Card::number(Suit::Ocean, 10));
    assert_eq!(c("7P"), Card::number(Suit::Purple, 7));
    for bad in ["", "D", "1D", "11D", "07D", "iD", "Id", "7d", "InvD", "7X", " 7D", "7D ", "0D"] {
        assert!(bad.parse::<Card>().is_err(), "{bad:?} parsed");
    }
    for v in Variant::ALL {
        for card in v.full_deck() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
    }
}

#[test]
fn action_notation_is_exactly_the_contracts() {
    // CONTRACT.md §1 lost-cities: "play 7D", "discard 7D", "play IO", "draw deck", "draw D".
    let all = [
        ("play 7D", Action::Play(c("7D"))),
        ("discard 7D", Action::Discard(c("7D"))),
        ("play IO", Action::Play(c("IO"))),
        ("discard 10V", Action::Discard(c("10V"))),
        ("draw deck", Action::Draw(Source::Deck)),
        ("draw D", Action::Draw(Source::Pile(Suit::Desert))),
        ("draw P", Action::Draw(Source::Pile(Suit::Purple))),
    ];
    for (text, action) in all {
        assert_eq!(text.parse::<Action>(), Ok(action), "{text}");
        assert_eq!(action.to_string(), text);
    }
    for bad in [
        "",
        "play",
        "play ",
        "play 7d",
        "Play 7D",
        "play  7D",
        "play 7D ",
        "discard id",
        "draw",
        "draw Deck",
        "draw d",
        "draw DO",
        "draw 7D",
        "7D",
        "d7d",
        "n",
        "pass",
    ] {
        assert!(bad.parse::<Action>().is_err(), "{bad:?} parsed");
    }
}

// ---- scoring (seed-games.md §3(b) rule 6) -----------------------------------------------------

#[test]
fn inv_inv_6_8_10_scores_12() {
    // seed-games.md §3(b) rule 6: the quiz's own example, Inv Inv 6 8 10 => (24 - 20) * 3 = 12.
    assert_eq!(expedition_score(&cards("ID ID 6D 8D 10D")), 12);
}

#[test]
fn eight_cards_earn_a_bonus_of_20_that_is_not_multiplied() {
    // seed-games.md §3(b) rule 6: +20 for 8+ cards, investments counted, bonus not multiplied.
    assert_eq!(expedition_score(&cards("2D 3D 4D 5D 6D 7D 8D 9D")), (44 - 20) + 20);
    assert_eq!(expedition_score(&cards("ID 2D 3D 4D 5D 6D 7D 8D")), (35 - 20) * 2 + 20);
    assert_eq!(expedition_score(&cards("ID 2D 3D 4D 5D 6D 7D")), (27 - 20) * 2);
    assert_eq!(expedition_score(&cards("ID ID ID 2D 3D 4D 5D 6D 7D 8D 9D 10D")), (54 - 20) * 4 + 20);
}

#[test]
fn unstarted_expedition_scores_zero() {
    // CONTRACT.md §1 lost-cities: unstarted expeditions score 0.
    assert_eq!(expedition_score(&[]), 0);
    let g = LostCities::new(Variant::Classic, 1);
    assert_eq!(g.scores(), [0, 0]);
}

#[test]
fn investments_only_score_minus_20_times_one_plus_k() {
    // seed-games.md §3(b) rule 6: an Inv-only pile of k Inv scores -20 * (1 + k).
    assert_eq!(expedition_score(&cards("IM")), -40);
    assert_eq!(expedition_score(&cards("IM IM")), -60);
    assert_eq!(expedition_score(&cards("IM IM IM")), -80);
    // A single low card: (2 - 20) * 1.
    assert_eq!(expedition_score(&cards("2M")), -18);
}

#[test]
fn score_is_the_sum_over_expeditions() {
    // seed-games.md §3(b) rule 7: a player's score is the sum over suits.
    let mut g = start("ID 6D 8D 2O 3O 4O 5O 6O", "2M 3M 4M 5M 6M 7M 8M 9M", "");
    for (card0, card1) in [("ID", "2M"), ("6D", "3M"), ("8D", "4M"), ("2O", "5M")] {
        act(&mut g, 0, &format!("play {card0}"));
        act(&mut g, 0, "draw deck");
        act(&mut g, 1, &format!("play {card1}"));
        act(&mut g, 1, "draw deck");
    }
    assert_eq!(g.score(0), (14 - 20) * 2 + (2 - 20));
    assert_eq!(g.score(1), 14 - 20);
    assert_eq!(g.observe(1).scores, [g.score(0), g.score(1)]);
}

// ---- expedition order (seed-games.md §3(b) rule 4) --------------------------------------------

#[test]
fn expedition_numbers_must_strictly_increase() {
    // seed-games.md §3(b) rule 4: strictly increasing numbers.
    let mut g = start("3D 5D 7D 2O 3O 4O 5O 6O", "2M 3M 4M 5M 6M 7M 8M 9M", "");
    act(&mut g, 0, "play 5D");
    act(&mut g, 0, "draw deck");
    act(&mut g, 1, "discard 2M");
    act(&mut g, 1, "draw deck");
    let l = legal(&g, 0);
    assert!(l.contains(&"play 7D".to_string()));
    assert!(!l.contains(&"play 3D".to_string()));
    assert!(l.contains(&"discard 3D".to_string()));
    refused(&mut g, 0, "play 3D");
    act(&mut g, 0, "play 7D");
    assert_eq!(g.expedition(0, Suit::Desert), cards("5D 7D").as_slice());
    assert!(!can_extend(&cards("5D 7D"), c("7D")), "equal is not higher");
    assert!(!can_extend(&cards("5D 7D"), c("6D")));
    assert!(can_extend(&cards("5D 7D"), c("8D")));
}

#[test]
fn investments_only_before_the_first_number_and_inv_after_inv_is_ok() {
    // seed-games.md §3(b) rule 4: Inv only before any number; on an Inv any card may follow.
    let mut g = start("ID ID ID 4D 2O 3O 4O 5O", "2M 3M 4M 5M 6M 7M 8M 9M", "");
    // Duplicate investments give one legal string each, not one per copy.
    let l = legal(&g, 0);
    assert_eq!(l.iter().filter(|a| *a == "play ID").count(), 1);
    assert_eq!(l.iter().filter(|a| *a == "discard ID").count(), 1);
    act(&mut g, 0, "play ID");
    act(&mut g, 0, "draw deck");
    discard_and_draw_deck(&mut g);
    assert!(legal(&g, 0).contains(&"play ID".to_string()), "Inv after Inv");
    act(&mut g, 0, "play ID");
    act(&mut g, 0, "draw deck");
    discard_and_draw_deck(&mut g);
    act(&mut g, 0, "play 4D");
    act(&mut g, 0, "draw deck");
    discard_and_draw_deck(&mut g);
    let l = legal(&g, 0);
    assert!(!l.contains(&"play ID".to_string()), "no Inv after a number: {l:?}");
    assert!(l.contains(&"discard ID".to_string()));
    refused(&mut g, 0, "play ID");
    assert_eq!(g.expedition(0, Suit::Desert), cards("ID ID 4D").as_slice());
    assert_eq!(g.score(0), (4 - 20) * 3);
}

// ---- drawing (seed-games.md §3(b) rule 3, §3(d)) ----------------------------------------------

#[test]
fn cannot_draw_back_the_card_discarded_this_turn() {
    // CONTRACT.md §1 lost-cities: draw from any discard pile except the card you discarded this
    // turn (seed-games.md §3(d): the quiz server's `@last_play`).
    let mut g = start("5D 6D 7D 2O 3O 4O 5O 6O", "2M 3M 4M 5M 6M 7M 8M 9M", "");
    act(&mut g, 0, "discard 5D");
    assert_eq!(legal(&g, 0), ["draw deck"]);
    refused(&mut g, 0, "draw D");
    assert_eq!(g.observe(1).discarded_this_turn, Some(Suit::Desert));
    act(&mut g, 0, "draw deck");
    assert_eq!(g.observe(1).discarded_this_turn, None);
    // Seat 1 discards on another pile: it may take 5D, not its own card.
    act(&mut g, 1, "discard 2M");
    assert_eq!(legal(&g, 1), ["draw deck", "draw D"]);
    refused(&mut g, 1, "draw M");
    act(&mut g, 1, "draw D");
    assert!(g.hand(1).contains(&c("5D")));
    assert!(g.discard_pile(Suit::Desert).is_empty());
    let last = g.history().last().copied().expect("history");
    assert_eq!(
        last,
        Event { seat: 1, action: Action::Draw(Source::Pile(Suit::Desert)), card: Some(c("5D")) }
    );
    assert_eq!(g.observe(0).known_hands[1], cards("5D"));
}

#[test]
fn may_draw_from_any_other_pile_including_one_discarded_on_earlier() {
    // seed-games.md §3(d): `@last_play` is reset after every draw and never set by expedition
    // plays, so after playing to an expedition every non-empty pile may be drawn.
    let mut g = start("5D 6D 7D 2O 3O 4O 5O 6O", "2M 3M 4M 5M 6M 7M 8M 9M", "");
    act(&mut g, 0, "discard 5D");
    act(&mut g, 0, "draw deck");
    act(&mut g, 1, "discard 2M");
    act(&mut g, 1, "draw deck");
    // Seat 0 discards on O: may draw D (its own earlier discard) and M, not O.
    act(&mut g, 0, "discard 2O");
    assert_eq!(legal(&g, 0), ["draw deck", "draw D", "draw M"]);
    act(&mut g, 0, "draw D");
    act(&mut g, 1, "play 3M");
    // After an expedition play, every non-empty pile may be drawn, even M.
    assert_eq!(legal(&g, 1), ["draw deck", "draw O", "draw M"]);
    act(&mut g, 1, "draw M");
    assert!(g.hand(1).contains(&c("2M")));
}

// ---- the end (seed-games.md §3(b) rule 5, CONTRACT.md 200-turn cap) ---------------------------

#[test]
fn game_ends_right_after_the_draw_that_empties_the_deck() {
    // seed-games.md §3(b) rule 5: the game ends immediately after the draw that empties the deck;
    // with all-deck draws that is exactly 44 turns (§3(d)).
    let mut g = LostCities::new(Variant::Classic, 3);
    while g.deck_size() > 1 {
        assert!(!g.is_over());
        discard_and_draw_deck(&mut g);
    }
    assert_eq!(g.turns(), 43);
    let seat = g.to_act()[0];
    assert_eq!(seat, 1);
    let discard = legal(&g, seat).into_iter().find(|a| a.starts_with("discard ")).expect("discard");
    act(&mut g, seat, &discard);
    assert!(!g.is_over(), "not over before the draw");
    act(&mut g, seat, "draw deck");
    assert!(g.is_over());
    assert_eq!(g.turns(), 44);
    assert_eq!(g.deck_size(), 0);
    assert!(g.to_act().is_empty());
    assert!(legal(&g, 0).is_empty() && legal(&g, 1).is_empty());
    assert_eq!(g.observe(0).phase, Phase::Over);
    assert_eq!(g.observe(0).to_move, None);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.points, vec![0, 0]);
    assert_eq!(outcome.ranks, vec![1, 1]);
    refused(&mut g, 0, "draw deck");
    refused(&mut g, 1, "draw deck");
}

#[test]
fn drawing_a_discard_does_not_shrink_the_deck_or_end_the_game() {
    // seed-games.md §3(b) rule 5: drawing from discard piles does not shrink the deck.
    let mut g = LostCities::new(Variant::Classic, 3);
    while g.deck_size() > 1 {
        discard_and_draw_deck(&mut g);
    }
    let seat = g.to_act()[0];
    let first = legal(&g, seat)[0].clone();
    act(&mut g, seat, &first);
    let draw = legal(&g, seat).into_iter().find(|a| a != "draw deck").expect("a pile to draw");
    act(&mut g, seat, &draw);
    assert!(!g.is_over());
    assert_eq!(g.deck_size(), 1);
    assert_eq!(g.to_act(), vec![1 - seat]);
}

#[test]
fn game_ends_after_200_turns_in_total() {
    // CONTRACT.md §1 lost-cities: arena addition, the game also ends after 200 turns in total
    // (both seats counted), scored as it stands.
    let mut g = LostCities::new(Variant::Classic, 5);
    let mut n = 0;
    while !g.is_over() {
        let seat = g.to_act()[0];
        assert!(g.turns() < MAX_TURNS);
        let l = legal(&g, seat);
        // Play the first legal action (a play when possible) and stall by drawing a discard.
        let action = if g.phase() == Phase::Play { l[0].clone() } else { l[l.len() - 1].clone() };
        act(&mut g, seat, &action);
        n += 1;
    }
    assert_eq!(g.turns(), MAX_TURNS);
    assert_eq!(n, 2 * MAX_TURNS);
    assert!(g.deck_size() > 0, "the deck lasted, the cap ended the game");
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.points, g.scores().to_vec());
    assert_ne!(outcome.points, vec![0, 0], "the test should score something");
    assert_eq!(outcome, Outcome::higher_wins(g.scores().to_vec()));
}

#[test]
fn seat_0_moves_first_and_turns_alternate() {
    // CONTRACT.md §1 lost-cities: seat 0 moves first; a turn is a play then a draw.
    let mut g = LostCities::new(Variant::Classic, 9);
    assert_eq!(g.to_act(), vec![0]);
    assert!(legal(&g, 1).is_empty());
    let first = legal(&g, 0)[0].clone();
    refused(&mut g, 1, &first);
    refused(&mut g, 0, "draw deck");
    act(&mut g, 0, &first);
    assert_eq!(g.to_act(), vec![0]);
    assert_eq!(g.phase(), Phase::Draw);
    assert_eq!(g.hand(0).len(), 7);
    act(&mut g, 0, "draw deck");
    assert_eq!(g.to_act(), vec![1]);
    assert_eq!(g.hand(0).len(), 8);
    assert_eq!(g.turns(), 1);
}

// ---- deal and setup ---------------------------------------------------------------------------

#[test]
fn classic_has_60_cards_and_six_suits_has_72() {
    // CONTRACT.md §1 lost-cities: classic 60 cards (5 suits × (3 Inv + 2..10)); six-suits adds
    // suit P, 72 cards. Deal 8 each.
    for (variant, total, suits) in [(Variant::Classic, 60, 5), (Variant::SixSuits, 72, 6)] {
        let g = LostCities::new(variant, 11);
        let mut all = g.all_cards();
        all.sort();
        assert_eq!(all.len(), total);
        assert_eq!(all, variant.full_deck());
        assert_eq!(g.deck_size(), total - 16);
        assert_eq!(g.hand(0).len(), 8);
        assert_eq!(g.hand(1).len(), 8);
        for &suit in variant.suits() {
            let n = all.iter().filter(|c| c.suit == suit).count();
            assert_eq!(n, 12);
            assert_eq!(all.iter().filter(|c| c.suit == suit && c.is_investment()).count(), 3);
        }
        let obs = g.observe(0);
        assert_eq!(obs.suits.len(), suits);
        assert_eq!(obs.discards.0.len(), suits);
    }
    let six = LostCities::new(Variant::SixSuits, 11);
    assert!(six.all_cards().iter().any(|c| c.suit == Suit::Purple));
    assert!(LostCities::new(Variant::Classic, 11).all_cards().iter().all(|c| c.suit != Suit::Purple));
}

#[test]
fn deal_alternates_and_is_reproducible() {
    // CONTRACT.md §1: the same seed gives the same match; seed-games.md §3(b) rule 2: deal
    // alternately.
    let a = Setup::deal(Variant::Classic, 42);
    assert_eq!(a, Setup::deal(Variant::Classic, 42));
    assert_ne!(a, Setup::deal(Variant::Classic, 43));
    let mut shuffled = Variant::Classic.full_deck();
    Rng::new(42, Stream::Deal).shuffle(&mut shuffled);
    for i in 0..8 {
        assert_eq!(a.hands[0][i], shuffled[2 * i]);
        assert_eq!(a.hands[1][i], shuffled[2 * i + 1]);
    }
    assert_eq!(a.deck, shuffled[16..]);
    // deck[0] is the first card drawn.
    let mut g = LostCities::from_setup(a.clone()).expect("valid");
    let first = legal(&g, 0)[0].clone();
    act(&mut g, 0, &first);
    act(&mut g, 0, "draw deck");
    assert!(g.hand(0).contains(&a.deck[0]));
}

#[test]
fn setup_json_round_trips() {
    let setup = Setup::deal(Variant::SixSuits, 7);
    let json = serde_json::to_string(&setup).expect("serialize");
    assert!(json.starts_with("{\"variant\":\"six-suits\",\"hands\":[[\""), "{json}");
    let back: Setup = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(back, setup);
    let bad = json.replacen("\"hands\":[[\"", "\"hands\":[[\"Q", 1);
    assert!(serde_json::from_str::<Setup>(&bad).is_err());
}

#[test]
fn from_setup_rejects_wrong_cards_and_counts() {
    let good = Setup::deal(Variant::Classic, 1);
    assert!(LostCities::from_setup(good.clone()).is_ok());

    let mut short_hand = good.clone();
    let moved = short_hand.hands[0].pop().expect("card");
    short_hand.deck.push(moved);
    let err = LostCities::from_setup(short_hand).expect_err("7-card hand");
    assert!(err.0.contains("seat 0 holds 7 cards"), "{err}");

    let mut duplicate = good.clone();
    let dup = duplicate.deck[1];
    duplicate.deck[0] = dup;
    let err = LostCities::from_setup(duplicate).expect_err("duplicate");
    assert!(err.0.contains("missing") && err.0.contains(&format!("extra [{dup}]")), "{err}");

    let mut purple = good.clone();
    purple.deck[0] = c("5P");
    assert!(LostCities::from_setup(purple).is_err(), "P is not a classic suit");

    let mut missing = good.clone();
    missing.deck.pop();
    assert!(LostCities::from_setup(missing).is_err());

    let mut bogus = good;
    bogus.deck[0] = Card::number(Suit::Desert, 11);
    assert!(LostCities::from_setup(bogus).is_err());
}

// ---- outcome, forfeit, observation -----------------------------------------------------------

#[test]
fn forfeit_loses_in_every_column() {
    // CONTRACT.md §1: the faulty bot loses; both faulty is a draw. docs/tournament.md (a fault
    // never pays): the faulty seat keeps at most its opponent's score − 1, even when the opponent's started expedition counts
    // −20 in the score as it stands (else a bot that crashes at once would keep a lead).
    let mut g = start("2D 3D 4D 5D 6D 7D 8D 9D", "2M 3M 4M 5M 6M 7M 8M 9M", "");
    assert_eq!(g.forfeit(&[0]), Outcome { points: vec![-1, 0], ranks: vec![2, 1] });
    act(&mut g, 0, "play 2D");
    act(&mut g, 0, "draw deck");
    assert_eq!(g.scores(), [-18, 0]);
    assert_eq!(g.forfeit(&[1]), Outcome { points: vec![-18, -19], ranks: vec![1, 2] });
    assert_eq!(g.forfeit(&[0]), Outcome { points: vec![-18, 0], ranks: vec![2, 1] });
    assert_eq!(g.forfeit(&[0, 1]), Outcome { points: vec![-18, -18], ranks: vec![1, 1] });
    assert_eq!(LostCities::FAULT_POLICY, FaultPolicy::Forfeit);
}

#[test]
fn observation_shows_own_hand_sorted_and_only_counts_of_the_other() {
    // CONTRACT.md §2: own hand, public cards, counts of hidden cards.
    let g = start("9V 2D ID 10O 3J IO 5M 2M", "2O 3O 4O 5O 6O 7O 8O 9O", "");
    let obs = g.observe(0);
    assert_eq!(obs.hand, cards("ID 2D IO 10O 2M 5M 3J 9V"));
    assert_eq!(obs.hand_sizes, [8, 8]);
    let json = observation_json(&g, 0);
    assert!(!json.contains("\"9O\""), "seat 1's hand leaked: {json}");
    assert!(json.starts_with("{\"game\":\"lost-cities\",\"variant\":\"classic\",\"seat\":0,"));
    let obs1 = g.observe(1);
    assert!(obs1.legal.is_empty());
    assert_eq!(obs1.to_move, Some(0));
    assert_eq!(obs1.phase, Phase::Play);
    assert_eq!(obs1.deck_size, 44);
}

#[test]
fn legal_order_is_hand_order_play_before_discard_then_deck_then_piles() {
    // docs/games/lost-cities.md "legal": hand order, play X before discard X; draw deck first,
    // then piles in suit order.
    let mut g = start("9V 2D ID ID 3J IO 5M 2M", "2O 3O 4O 5O 6O 7O 8O 9O", "");
    assert_eq!(
        legal(&g, 0),
        [
            "play ID",
            "discard ID",
            "play 2D",
            "discard 2D",
            "play IO",
            "discard IO",
            "play 2M",
            "discard 2M",
            "play 5M",
            "discard 5M",
            "play 3J",
            "discard 3J",
            "play 9V",
            "discard 9V",
        ]
    );
    act(&mut g, 0, "play 5M");
    act(&mut g, 0, "draw deck");
    act(&mut g, 1, "discard 9O");
    act(&mut g, 1, "draw deck");
    let l = legal(&g, 0);
    assert!(l.contains(&"discard 2M".to_string()) && !l.contains(&"play 2M".to_string()));
    act(&mut g, 0, "discard 9V");
    assert_eq!(legal(&g, 0), ["draw deck", "draw O"]);
}

#[test]
fn swapping_unseen_cards_changes_the_state_but_not_the_observation() {
    // CONTRACT.md §2: nothing a seat may not know appears in its observation. Seat 1's hand card
    // 9O and the deck's last card 10V trade places; seat 0 cannot tell.
    let hand1 = "2O 3O 4O 5O 6O 7O 8O 9O";
    let a_setup = setup_with(Variant::Classic, "2D 3D 4D 5D 6D 7D 8D 9D", hand1, "");
    let mut b_setup = a_setup.clone();
    let last = b_setup.deck.len() - 1;
    assert_eq!(b_setup.deck[last], c("10V"));
    b_setup.deck[last] = c("9O");
    b_setup.hands[1][7] = c("10V");
    let mut a = LostCities::from_setup(a_setup).expect("valid");
    let mut b = LostCities::from_setup(b_setup).expect("valid");
    for g in [&mut a, &mut b] {
        act(g, 0, "play 2D");
        act(g, 0, "draw deck");
        act(g, 1, "discard 2O");
        act(g, 1, "draw deck");
        act(g, 0, "play 3D");
    }
    assert_ne!(a, b);
    assert_eq!(observation_json(&a, 0), observation_json(&b, 0));
    assert_ne!(observation_json(&a, 1), observation_json(&b, 1));
}

// ---- properties -------------------------------------------------------------------------------

fn variant_of(six: bool) -> Variant {
    if six {
        Variant::SixSuits
    } else {
        Variant::Classic
    }
}

const MAX_ACTIONS: usize = 2 * MAX_TURNS as usize + 2;

/// Scores an expedition card by card (an independent restatement of seed-games.md §3(b) rule 6).
fn reference_score(pile: &[Card]) -> i64 {
    let mut multiplier = 1;
    let mut total = -20;
    for card in pile {
        match card.value {
            Value::Investment => multiplier += 1,
            Value::Number(n) => total += i64::from(n),
        }
    }
    match pile.len() {
        0 => 0,
        n if n >= 8 => total * multiplier + 20,
        _ => total * multiplier,
    }
}

/// Every action of any variant, plus strings that are not actions at all.
fn candidate_strings() -> Vec<String> {
    let mut out: Vec<String> = Variant::SixSuits
        .full_deck()
        .into_iter()
        .flat_map(|c| [format!("play {c}"), format!("discard {c}")])
        .collect();
    out.dedup();
    out.push("draw deck".into());
    out.extend(Suit::ALL.iter().map(|s| format!("draw {s}")));
    out.extend(["", "play", "draw", "pass", "play 11D", "discard 1D", "draw deck ", "n"].map(String::from));
    out
}

/// An independent statement of legality (CONTRACT.md §1 lost-cities, seed-games.md §3(b)).
fn independently_legal(g: &LostCities, seat: Seat, action: &Action) -> bool {
    if g.is_over() || g.to_act() != vec![seat] {
        return false;
    }
    let in_variant = |suit: Suit| g.variant().suits().contains(&suit);
    match (g.phase(), action) {
        (Phase::Play, Action::Play(card)) => {
            g.hand(seat).contains(card)
                && match g.expedition(seat, card.suit).last() {
                    None => true,
                    Some(top) => match (top.number_value(), card.number_value()) {
                        (None, _) => true,
                        (Some(t), Some(n)) => n > t,
                        (Some(_), None) => false,
                    },
                }
        }
        (Phase::Play, Action::Discard(card)) => g.hand(seat).contains(card),
        (Phase::Draw, Action::Draw(Source::Deck)) => true,
        (Phase::Draw, Action::Draw(Source::Pile(suit))) => {
            in_variant(*suit) && !g.discard_pile(*suit).is_empty() && g.discarded_this_turn != Some(*suit)
        }
        _ => false,
    }
}

/// The documented order of `legal` as a strictly increasing key.
fn order_key(action: &Action) -> (u8, Card, u8) {
    let placeholder = Card::investment(Suit::Desert);
    match *action {
        Action::Play(card) => (0, card, 0),
        Action::Discard(card) => (0, card, 1),
        Action::Draw(Source::Deck) => (1, placeholder, 0),
        Action::Draw(Source::Pile(suit)) => (2, Card::investment(suit), 0),
    }
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_play_never_panics_and_always_ends(seed: u64, pick: u64, six: bool) {
        // CONTRACT.md §1 lost-cities: ends when the deck empties or after 200 turns.
        let variant = variant_of(six);
        let p = random_playout::<LostCities>(variant, seed, pick, MAX_ACTIONS)
            .map_err(TestCaseError::fail)?;
        let g = p.state;
        prop_assert!(g.deck_size() == 0 || g.turns() == MAX_TURNS);
        prop_assert!(g.turns() <= MAX_TURNS);
        prop_assert_eq!(p.actions.len(), 2 * g.turns() as usize);
    }

    #[test]
    fn cards_are_conserved_at_every_step(seed: u64, pick: u64, six: bool) {
        // Every card is in exactly one place (deck, a hand, an expedition, a pile) at every step.
        let variant = variant_of(six);
        let p = random_playout::<LostCities>(variant, seed, pick, MAX_ACTIONS)
            .map_err(TestCaseError::fail)?;
        let full = variant.full_deck();
        let mut g = LostCities::new(variant, seed);
        prop_assert_eq!(sorted(g.all_cards()), full.clone());
        for (seat, action) in &p.actions {
            g.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(sorted(g.all_cards()), full.clone());
            let drawing = usize::from(g.phase() == Phase::Draw);
            let mover = g.to_act().first().copied().unwrap_or(0);
            for s in 0..2 {
                let expected = if s == mover { HAND_SIZE - drawing } else { HAND_SIZE };
                prop_assert_eq!(g.hand(s).len(), expected);
            }
            // Known cards really are in the hand that holds them.
            for s in 0..2 {
                for k in &g.known[s] {
                    prop_assert!(g.hand(s).contains(k));
                }
            }
        }
    }

    #[test]
    fn points_add_up_as_the_rules_say(seed: u64, pick: u64, six: bool) {
        // seed-games.md §3(b) rules 6–7: per-expedition score summed over suits; higher wins.
        let variant = variant_of(six);
        let g = random_playout::<LostCities>(variant, seed, pick, MAX_ACTIONS)
            .map_err(TestCaseError::fail)?
            .state;
        let outcome = g.outcome().expect("over");
        for seat in 0..2 {
            let by_hand: i64 =
                variant.suits().iter().map(|&s| reference_score(g.expedition(seat, s))).sum();
            prop_assert_eq!(outcome.points[seat], by_hand);
            prop_assert_eq!(g.observe(seat).scores.to_vec(), outcome.points.clone());
        }
        let [a, b] = [outcome.points[0], outcome.points[1]];
        let ranks = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![1, 2],
            std::cmp::Ordering::Less => vec![2, 1],
            std::cmp::Ordering::Equal => vec![1, 1],
        };
        prop_assert_eq!(outcome.ranks, ranks);
    }

    #[test]
    fn no_observation_leaks(
        seed: u64,
        pick: u64,
        six: bool,
        cut: usize,
        seat in 0usize..2,
        i: usize,
        j: usize,
    ) {
        // CONTRACT.md §2: two states that differ only in cards `seat` has not seen give it
        // byte-identical observations.
        let variant = variant_of(six);
        let p = random_playout::<LostCities>(variant, seed, pick, MAX_ACTIONS)
            .map_err(TestCaseError::fail)?;
        let actions = &p.actions[..cut % (p.actions.len() + 1)];
        let setup_a = Setup::deal(variant, seed);
        let a: LostCities = replay(setup_a.clone(), actions).map_err(TestCaseError::fail)?;
        let opp = 1 - seat;

        // Card faces `seat` has seen: its hand now, and every card that was ever public.
        let mut seen: Vec<Card> = a.history().iter().filter_map(|e| e.card).collect();
        seen.extend(a.hand(seat));
        let mut hidden = variant.full_deck();
        hidden.retain(|c| !seen.contains(c));
        hidden.dedup();
        let in_opp_hand: Vec<Card> =
            hidden.iter().copied().filter(|c| a.hand(opp).contains(c)).collect();
        let in_deck: Vec<Card> =
            hidden.iter().copied().filter(|c| a.deck.contains(c)).collect();
        // Prefer x in the opponent's hand and y in the deck; else any two hidden faces.
        let (xs, ys) = if !in_opp_hand.is_empty() && !in_deck.is_empty() {
            (in_opp_hand, in_deck)
        } else {
            (hidden.clone(), hidden)
        };
        if xs.is_empty() {
            return Ok(());
        }
        let x = xs[i % xs.len()];
        let ys: Vec<Card> = ys.into_iter().filter(|y| *y != x).collect();
        if ys.is_empty() {
            return Ok(());
        }
        let y = ys[j % ys.len()];
        prop_assert_ne!(x, y);

        // Swap one copy of x with one copy of y in the setup (both are in the opponent's hand or
        // the deck there, never in the seat's own hand).
        let mut setup_b = setup_a.clone();
        prop_assert!(!setup_b.hands[seat].contains(&x) && !setup_b.hands[seat].contains(&y));
        {
            let [h0, h1] = &mut setup_b.hands;
            let opp_hand = if opp == 0 { h0 } else { h1 };
            let mut places: Vec<&mut Card> =
                opp_hand.iter_mut().chain(setup_b.deck.iter_mut()).collect();
            let px = places.iter().position(|c| **c == x).expect("x is somewhere");
            let py = places.iter().position(|c| **c == y).expect("y is somewhere");
            *places[px] = y;
            *places[py] = x;
        }
        let b: LostCities = match replay(setup_b, actions) {
            Ok(b) => b,
            Err(_) => return Ok(()),
        };
        // (Two hidden cards of the opponent's hand swap into the same sorted hand: no change.)
        prop_assert_eq!(observation_json(&a, seat), observation_json(&b, seat));
    }

}

proptest! {
    // Fewer cases: each one checks ~130 candidate strings at many steps.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn legal_actions_are_ordered_and_nothing_else_is_accepted(seed: u64, pick: u64, six: bool) {
        // legal_actions is in the documented order, lists exactly the legal actions (by an
        // independent statement of the rules), and `play` refuses anything else unchanged.
        let variant = variant_of(six);
        let p = random_playout::<LostCities>(variant, seed, pick, MAX_ACTIONS)
            .map_err(TestCaseError::fail)?;
        let candidates = candidate_strings();
        let mut g = LostCities::new(variant, seed);
        // Every 5th step (odd, so both play and draw phases are checked), to keep it quick.
        for (step, (seat, action)) in p.actions.iter().enumerate() {
            let before = g.clone();
            for s in (0..2).filter(|_| step % 5 == 0) {
                let legal = g.legal_actions(s);
                let ordered = legal.windows(2).all(|w| order_key(&w[0]) < order_key(&w[1]));
                prop_assert!(ordered, "{:?}", legal);
                for text in &candidates {
                    let parsed = text.parse::<Action>().ok();
                    let listed = parsed.is_some_and(|a| legal.contains(&a));
                    let ok = parsed.is_some_and(|a| independently_legal(&g, s, &a));
                    prop_assert_eq!(listed, ok, "{} for seat {}", text, s);
                    if !listed {
                        prop_assert!(g.play(s, text).is_err(), "{} accepted", text);
                    }
                }
            }
            prop_assert_eq!(&g, &before, "a refused action changed the state");
            g.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
    }
}

/// The notation in observations (`Card::name`, the Serialize of actions) is the Display one,
/// which the parser reads back (CONTRACT.md §1 lost-cities: `play 7D`, `discard ID`, `draw deck`,
/// `draw D`).
#[test]
fn serialized_cards_and_actions_are_their_notation() {
    for card in Variant::SixSuits.full_deck() {
        assert_eq!(card.name(), card.to_string());
        assert_eq!(serde_json::to_string(&card).unwrap(), format!("\"{card}\""));
        for action in [Action::Play(card), Action::Discard(card)] {
            assert_eq!(serde_json::to_string(&action).unwrap(), format!("\"{action}\""));
        }
    }
    for source in std::iter::once(Source::Deck).chain(Suit::ALL.iter().map(|&s| Source::Pile(s))) {
        let action = Action::Draw(source);
        assert_eq!(serde_json::to_string(&action).unwrap(), format!("\"{action}\""));
        assert_eq!(action.to_string().parse::<Action>().unwrap(), action);
    }
}
