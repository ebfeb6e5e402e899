//! The rules of Kuhn poker. Each test names the rule it checks: Kuhn, "A simplified two-person
//! poker" (1950), as OpenSpiel's `kuhn_poker` plays it (player 0 first, pass/bet, returns ±1/±2).

use cardarena_games::testkit::random_playout;
use cardarena_games::{Game, Observation};
use kuhn_arena::exact::deals;
use kuhn_arena::game::{Action, Card, Kuhn, Setup, Variant};

/// The hand of `cards` after `betting`, each action checked.
fn hand<S: AsRef<str>>(cards: [Card; 2], betting: &[S]) -> Kuhn {
    let mut state = Kuhn::from_setup(Setup { cards }).expect("a valid deal");
    for action in betting {
        let seat = state.to_act()[0];
        state.play(seat, action.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    }
    state
}

/// No betting yet.
const START: [&str; 0] = [];

/// Every line of betting, complete or not, in the order the hand is played.
fn lines() -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = vec![vec![]];
    let mut i = 0;
    while i < lines.len() {
        let state = hand([Card::J, Card::Q], &lines[i]);
        if let Some(&seat) = state.to_act().first() {
            for action in state.legal_strings(seat) {
                let mut next = lines[i].clone();
                next.push(action);
                lines.push(next);
            }
        }
        i += 1;
    }
    lines
}

#[test]
fn a_deal_gives_each_seat_one_of_the_three_cards_and_every_deal_comes_up() {
    // Kuhn 1950: each player is dealt one card of the three; the six deals are equally likely.
    let mut counts = [0usize; 6];
    for seed in 0..6000 {
        let Setup { cards } = Kuhn::deal(Variant::Standard, seed);
        let k = deals().iter().position(|d| *d == cards).expect("two different cards");
        counts[k] += 1;
    }
    for (deal, n) in deals().iter().zip(counts) {
        assert!((850..1150).contains(&n), "deal {deal:?} came up {n} times in 6000");
    }
    assert_eq!(Kuhn::deal(Variant::Standard, 7), Kuhn::deal(Variant::Standard, 7), "a seed is one deal");
}

#[test]
fn a_setup_with_one_card_twice_is_refused() {
    let err = Kuhn::from_setup(Setup { cards: [Card::Q, Card::Q] }).unwrap_err();
    assert!(err.to_string().contains("both seats hold Q"), "{err}");
}

#[test]
fn seat_0_acts_first_and_the_players_alternate() {
    // Kuhn 1950 / OpenSpiel: player 0 passes or bets first; then player 1; after pass-bet,
    // player 0 again.
    let cards = [Card::K, Card::J];
    assert_eq!(hand(cards, &START).to_act(), vec![0]);
    assert_eq!(hand(cards, &START).legal_strings(0), ["check", "bet"]);
    assert!(hand(cards, &START).legal_actions(1).is_empty());
    assert_eq!(hand(cards, &["check"]).to_act(), vec![1]);
    assert_eq!(hand(cards, &["check"]).legal_strings(1), ["check", "bet"]);
    assert_eq!(hand(cards, &["bet"]).to_act(), vec![1]);
    assert_eq!(hand(cards, &["bet"]).legal_strings(1), ["fold", "call"]);
    assert_eq!(hand(cards, &["check", "bet"]).to_act(), vec![0]);
    assert_eq!(hand(cards, &["check", "bet"]).legal_strings(0), ["fold", "call"]);
}

#[test]
fn a_call_before_a_bet_a_second_bet_and_acting_out_of_turn_are_refused() {
    // One bet of 1 and no raise (Kuhn 1950): `call`/`fold` only facing the bet, `check`/`bet`
    // only before it.
    let cards = [Card::K, Card::J];
    let mut state = hand(cards, &START);
    assert!(state.play(0, "call").is_err());
    assert!(state.play(0, "fold").is_err());
    assert!(state.play(1, "check").unwrap_err().reason.contains("not to act"));
    assert!(state.play(0, "Bet").unwrap_err().reason.contains("\"check\", \"bet\""));
    let mut state = hand(cards, &["check", "bet"]);
    assert!(state.play(0, "bet").is_err());
    assert!(state.play(0, "check").is_err());
    assert_eq!(state, hand(cards, &["check", "bet"]), "a refused action changes nothing");
}

#[test]
fn the_five_endings_pay_what_kuhn_and_openspiel_pay() {
    // OpenSpiel kuhn_poker returns: pass-pass: ±1 to the higher card; bet-call and
    // pass-bet-call: ±2 to the higher card; bet-fold: +1 to player 0; pass-bet-fold: +1 to
    // player 1. Zero-sum.
    for cards in deals() {
        let high = if cards[0] > cards[1] { 1 } else { -1 };
        let endings: [(&[&str], i64); 5] = [
            (&["check", "check"], high),
            (&["bet", "call"], 2 * high),
            (&["check", "bet", "call"], 2 * high),
            (&["bet", "fold"], 1),
            (&["check", "bet", "fold"], -1),
        ];
        for (betting, seat0) in endings {
            let state = hand(cards, betting);
            let outcome = state.outcome().unwrap_or_else(|| panic!("{cards:?} {betting:?} is over"));
            assert_eq!(outcome.points, [seat0, -seat0], "{cards:?} {betting:?}");
            assert_eq!(outcome.ranks, if seat0 > 0 { [1, 2] } else { [2, 1] });
            assert!(state.to_act().is_empty());
        }
    }
    // Every other line is unfinished.
    for line in lines() {
        let over = hand([Card::J, Card::Q], &line).is_over();
        assert_eq!(over, line.len() >= 2 && line != ["check", "bet"], "{line:?}");
    }
}

#[test]
fn the_pot_is_the_antes_and_one_chip_per_bet_or_call() {
    let cards = [Card::Q, Card::K];
    assert_eq!(hand(cards, &START).pot(), 2);
    assert_eq!(hand(cards, &["check"]).pot(), 2);
    assert_eq!(hand(cards, &["check", "bet"]).pot(), 3);
    assert_eq!(hand(cards, &["check", "bet", "call"]).pot(), 4);
    assert_eq!(hand(cards, &["bet", "fold"]).pot(), 3);
}

#[test]
fn a_faulty_seat_folds_and_loses_its_stake() {
    // The arena's forfeit for a two-player game: the faulty seat loses, zero-sum here.
    let cards = [Card::K, Card::J];
    assert_eq!(hand(cards, &START).forfeit(&[0]).points, [-1, 1]);
    assert_eq!(hand(cards, &["bet"]).forfeit(&[1]).points, [1, -1]);
    assert_eq!(hand(cards, &["check", "bet"]).forfeit(&[0]).points, [-1, 1]);
    let both = hand(cards, &START).forfeit(&[0, 1]);
    assert_eq!((both.points, both.ranks), (vec![0, 0], vec![1, 1]));
}

#[test]
fn an_observation_is_the_same_whatever_the_hidden_card() {
    // The observation holds only what its seat may know: for every deal, every line of betting
    // (finished or not) and both seats, giving the opponent the other unseen card changes
    // nothing in it (nor in its JSON, what a bot receives).
    for cards in deals() {
        for seat in 0..2 {
            let other = 1 - seat;
            let third = Card::ALL.into_iter().find(|c| !cards.contains(c)).expect("three cards");
            let mut swapped = cards;
            swapped[other] = third;
            for line in lines() {
                let (a, b) = (hand(cards, &line).observe(seat), hand(swapped, &line).observe(seat));
                assert_eq!(a, b, "{cards:?} vs {swapped:?} after {line:?}, seat {seat}");
                let json = |o| serde_json::to_string(o).expect("serializes");
                assert_eq!(json(&a), json(&b));
            }
        }
    }
}

#[test]
fn an_observation_shows_the_own_card_and_the_betting() {
    let state = hand([Card::K, Card::Q], &["bet"]);
    let json = serde_json::to_string(&state.observe(1)).expect("serializes");
    assert_eq!(
        json,
        r#"{"game":"kuhn","variant":"standard","seat":1,"card":"Q","betting":["bet"],"pot":3,"legal":["fold","call"]}"#
    );
    let mut bytes = Vec::new();
    state.observe(1).write_json(&mut bytes).expect("writes");
    assert_eq!(String::from_utf8(bytes).expect("UTF-8"), json, "write_json is the JSON a WASM bot gets");
    assert!(state.observe(0).legal().is_empty(), "seat 0 is not to act");
}

#[test]
fn the_notation_reads_what_it_writes() {
    for action in Action::ALL {
        assert_eq!(action.to_string().parse::<Action>(), Ok(action));
    }
    assert_eq!("standard".parse::<Variant>(), Ok(Variant::Standard));
    assert!("leduc".parse::<Variant>().unwrap_err().to_string().contains("variants: standard"));
}

#[test]
fn random_playouts_keep_the_invariants_every_game_keeps() {
    for seed in 0..200 {
        let playout = random_playout::<Kuhn>(Variant::Standard, seed, seed + 1, 3).expect("invariants hold");
        let points = playout.state.outcome().expect("over").points;
        assert_eq!(points[0] + points[1], 0, "zero-sum");
    }
}
