//! Rule tests for E-card. Each names the rule it checks and cites its source.

use proptest::prelude::*;

use super::*;
use crate::rng::{Rng, Stream};
use crate::testkit::{observation_json, random_playout, replay};

fn new(variant: Variant) -> Ecard {
    Ecard::new(variant, 0)
}

/// Both seats place their card (seat 0 first); panics if either is refused.
fn both(g: &mut Ecard, c0: &str, c1: &str) {
    g.play(0, c0).expect("seat 0's card is legal");
    g.play(1, c1).expect("seat 1's card is legal");
}

/// The two cards `(seat 0, seat 1)` for the given sides' cards in the current round.
fn by_seat(g: &Ecard, emperor_card: &'static str, slave_card: &'static str) -> [&'static str; 2] {
    if g.emperor_seat() == 0 {
        [emperor_card, slave_card]
    } else {
        [slave_card, emperor_card]
    }
}

/// Plays one whole round in `readme` or `manga` that ends as `result`.
fn play_round(g: &mut Ecard, result: RoundResult) {
    let [e, s] = match result {
        RoundResult::EmperorSide => by_seat(g, "E", "C"),
        RoundResult::SlaveSide => by_seat(g, "E", "S"),
        RoundResult::Drawn => {
            for _ in 0..3 {
                both(g, "C", "C");
            }
            return;
        }
    };
    both(g, e, s);
}

#[test]
fn every_pairing_of_cards() {
    // CONTRACT.md §1 ecard: Emperor beats Citizen, Citizen beats Slave, Slave beats Emperor,
    // Citizen vs Citizen is a draw. (E-E and S-S cannot occur in play: they are ties.)
    use Card::*;
    use Ordering::*;
    let table = [
        (Emperor, Emperor, Equal),
        (Emperor, Citizen, Greater),
        (Emperor, Slave, Less),
        (Citizen, Emperor, Less),
        (Citizen, Citizen, Equal),
        (Citizen, Slave, Greater),
        (Slave, Emperor, Greater),
        (Slave, Citizen, Less),
        (Slave, Slave, Equal),
    ];
    for (a, b, expected) in table {
        assert_eq!(a.versus(b), expected, "{a} vs {b}");
        assert_eq!(b.versus(a), expected.reverse(), "{b} vs {a}");
    }
}

#[test]
fn emperor_beats_citizen_and_scores_one() {
    // CONTRACT.md §1 ecard: Emperor beats Citizen; an Emperor-side win scores 1.
    let mut g = new(Variant::Readme);
    both(&mut g, "E", "C");
    assert_eq!(g.scores(), [1, 0]);
    let r = &g.history()[0];
    assert_eq!((r.result, r.winner, r.points), (RoundResult::EmperorSide, Some(0), [1, 0]));
    assert_eq!(r.plays, vec![[Card::Emperor, Card::Citizen]]);
    assert_eq!(g.round_number(), 2);
}

#[test]
fn citizen_beats_slave_and_scores_one_for_the_emperor_side() {
    // CONTRACT.md §1 ecard: Citizen beats Slave; the Emperor side wins the round (1 point).
    let mut g = new(Variant::Readme);
    both(&mut g, "C", "S");
    assert_eq!(g.scores(), [1, 0]);
    assert_eq!(g.history()[0].result, RoundResult::EmperorSide);
}

#[test]
fn slave_beats_emperor_and_scores_five() {
    // CONTRACT.md §1 ecard: Slave beats Emperor; a Slave-side win scores 5.
    let mut g = new(Variant::Readme);
    both(&mut g, "E", "S");
    assert_eq!(g.scores(), [0, 5]);
    let r = &g.history()[0];
    assert_eq!((r.result, r.winner, r.points), (RoundResult::SlaveSide, Some(1), [0, 5]));
}

#[test]
fn slave_win_pays_five_times_an_emperor_win() {
    // CONTRACT.md §1 ecard / seed-games.md §2(b) rule 6: 5x payout for the Slave side.
    let mut g = new(Variant::Readme);
    play_round(&mut g, RoundResult::EmperorSide); // seat 0 emperor wins: +1
    play_round(&mut g, RoundResult::SlaveSide); // seat 1 slave wins: +5
    assert_eq!(g.scores(), [EMPEROR_WIN_POINTS, 5 * EMPEROR_WIN_POINTS]);
    assert_eq!(SLAVE_WIN_POINTS, 5 * EMPEROR_WIN_POINTS);
}

#[test]
fn citizen_draw_removes_both_cards_and_the_round_goes_on() {
    // CONTRACT.md §1 ecard: Citizen vs Citizen is a draw, both cards removed, next play.
    let mut g = new(Variant::Readme);
    both(&mut g, "C", "C");
    assert_eq!(g.round_number(), 1);
    assert_eq!(g.play_number(), 2);
    assert_eq!(g.hand(0), vec![Card::Emperor, Card::Citizen, Card::Citizen, Card::Citizen]);
    assert_eq!(g.hand(1), vec![Card::Slave, Card::Citizen, Card::Citizen, Card::Citizen]);
    assert_eq!(g.plays(), &[[Card::Citizen, Card::Citizen]]);
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!(g.to_act(), vec![0, 1]);
}

#[test]
fn third_citizen_tie_ends_round_drawn() {
    // CONTRACT.md §1 ecard (readme): at most 3 plays; a third C-vs-C ends the round drawn.
    let mut g = new(Variant::Readme);
    both(&mut g, "C", "C");
    both(&mut g, "C", "C");
    assert_eq!(g.play_number(), 3);
    both(&mut g, "C", "C");
    assert_eq!(g.round_number(), 2);
    assert_eq!(g.play_number(), 1);
    assert_eq!(g.scores(), [0, 0]);
    let r = &g.history()[0];
    assert_eq!((r.result, r.winner, r.points), (RoundResult::Drawn, None, [0, 0]));
    assert_eq!(r.plays.len(), 3);
    // The next round starts with full hands.
    assert_eq!(g.hand(0).len(), 5);
    assert_eq!(g.hand(1).len(), 5);
}

#[test]
fn manga_goes_on_to_a_forced_fifth_play_emperor_vs_slave() {
    // CONTRACT.md §1 ecard (manga) / seed-games.md §2(b) rule 4: plays go on until the round
    // is decided, at most 5; the 5th is forced E vs S, which the Slave side wins.
    let mut g = new(Variant::Manga);
    for play in 1..=4 {
        assert_eq!(g.play_number(), play);
        assert_eq!(g.legal_strings(0), ["E", "C"]);
        both(&mut g, "C", "C");
        assert_eq!(g.round_number(), 1);
    }
    assert_eq!(g.play_number(), 5);
    assert_eq!(g.legal_strings(0), ["E"]);
    assert_eq!(g.legal_strings(1), ["S"]);
    assert!(g.play(0, "C").is_err());
    both(&mut g, "E", "S");
    let r = &g.history()[0];
    assert_eq!(r.plays.len(), 5);
    assert_eq!((r.result, r.winner, r.points), (RoundResult::SlaveSide, Some(1), [0, 5]));
}

#[test]
fn manga_third_citizen_tie_does_not_end_the_round() {
    // CONTRACT.md §1 ecard: the 3-play limit is readme's; manga goes on.
    let mut g = new(Variant::Manga);
    for _ in 0..3 {
        both(&mut g, "C", "C");
    }
    assert_eq!((g.round_number(), g.play_number()), (1, 4));
    both(&mut g, "C", "S");
    assert_eq!(g.scores(), [1, 0]);
}

#[test]
fn sides_swap_after_rounds_3_6_9() {
    // CONTRACT.md §1 ecard: sides swap after rounds 3, 6, 9; seat 0 is Emperor in group 1.
    for variant in Variant::ALL {
        let mut g = new(variant);
        let mut emperors = Vec::new();
        while !g.is_over() {
            emperors.push(g.emperor_seat());
            assert_eq!(g.side(g.emperor_seat()), Side::Emperor);
            let e = g.emperor_seat();
            assert_eq!(g.hand(e)[0], Card::Emperor);
            assert_eq!(g.hand(1 - e)[0], Card::Slave);
            play_round(&mut g, RoundResult::EmperorSide);
        }
        assert_eq!(emperors, [0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
        let recorded: Vec<Seat> = g.history().iter().map(|r| r.emperor).collect();
        assert_eq!(recorded, emperors);
        assert_eq!(g.scores(), [6, 6]);
    }
}

#[test]
fn equal_totals_draw_even_when_one_seat_won_more_rounds() {
    // CONTRACT.md §1 ecard: totals decide, equal totals draw (rounds won do not count).
    // Seat 1 wins round 1 as the Slave side (5); seat 0 wins its five other Emperor rounds (5).
    let mut g = new(Variant::Readme);
    for round in 0..ROUNDS {
        assert!(g.outcome().is_none());
        let result = match round {
            0 => RoundResult::SlaveSide,
            _ if g.emperor_seat() == 0 => RoundResult::EmperorSide,
            _ => RoundResult::Drawn,
        };
        play_round(&mut g, result);
    }
    assert_eq!(g.scores(), [5, 5]);
    let outcome = g.outcome().expect("over after 12 rounds");
    assert_eq!(outcome, Outcome { points: vec![5, 5], ranks: vec![1, 1] });
}

#[test]
fn totals_decide_the_winner_and_equal_totals_draw() {
    // CONTRACT.md §1 ecard: higher total after 12 rounds wins; equal totals draw.
    // Round 1: seat 1 (Slave) wins +5; rounds 2-3: seat 0 (Emperor) +1 each; the rest drawn.
    let mut g = new(Variant::Readme);
    play_round(&mut g, RoundResult::SlaveSide);
    play_round(&mut g, RoundResult::EmperorSide);
    play_round(&mut g, RoundResult::EmperorSide);
    for _ in 3..ROUNDS - 1 {
        play_round(&mut g, RoundResult::Drawn);
    }
    assert!(g.outcome().is_none());
    let mut seat1_wins = g.clone();
    play_round(&mut seat1_wins, RoundResult::Drawn);
    assert_eq!(seat1_wins.scores(), [2, 5]);
    assert_eq!(seat1_wins.outcome(), Some(Outcome { points: vec![2, 5], ranks: vec![2, 1] }));
    // Round 12: seat 1 is the Emperor side; a Slave win for seat 0 gives it 7 > 5.
    assert_eq!(g.emperor_seat(), 1);
    let mut seat0_wins = g.clone();
    play_round(&mut seat0_wins, RoundResult::SlaveSide);
    assert_eq!(seat0_wins.outcome(), Some(Outcome { points: vec![7, 5], ranks: vec![1, 2] }));
    // Equal totals: all twelve rounds drawn.
    let mut g = new(Variant::Readme);
    for _ in 0..ROUNDS {
        play_round(&mut g, RoundResult::Drawn);
    }
    assert_eq!(g.outcome(), Some(Outcome { points: vec![0, 0], ranks: vec![1, 1] }));
    assert!(g.to_act().is_empty());
    assert!(g.legal_actions(0).is_empty() && g.legal_actions(1).is_empty());
}

#[test]
fn each_play_is_a_simultaneous_decision_of_both_seats() {
    // CONTRACT.md §1 ecard: both choices in a play are simultaneous.
    let mut g = new(Variant::Readme);
    assert_eq!(g.to_act(), vec![0, 1]);
    g.play(1, "S").expect("seat 1 may choose first");
    assert_eq!(g.to_act(), vec![0]);
    assert!(g.legal_actions(1).is_empty());
    assert!(g.play(1, "C").is_err(), "a seat chooses once per play");
    g.play(0, "E").expect("seat 0 chooses");
    assert_eq!(g.scores(), [0, 5]);
    assert_eq!(g.to_act(), vec![0, 1]);
}

#[test]
fn pending_choice_is_invisible() {
    // CONTRACT.md §1 ecard: neither observation may reveal the other's pending card.
    let fresh = new(Variant::Readme);
    let before: Vec<String> = (0..2).map(|s| observation_json(&fresh, s)).collect();
    for card in ["E", "C"] {
        let mut g = fresh.clone();
        g.play(0, card).expect("legal");
        assert_eq!(observation_json(&g, 1), before[1], "seat 1 sees nothing of seat 0's {card}");
        assert!(!g.summary().is_empty());
    }
    for card in ["S", "C"] {
        let mut g = fresh.clone();
        g.play(1, card).expect("legal");
        assert_eq!(observation_json(&g, 0), before[0], "seat 0 sees nothing of seat 1's {card}");
    }
}

#[test]
fn legal_is_special_card_first_then_citizen() {
    // docs/games/ecard.md: the order of `legal` is the special card, then "C".
    let mut g = new(Variant::Readme);
    assert_eq!(g.legal_strings(0), ["E", "C"]);
    assert_eq!(g.legal_strings(1), ["S", "C"]);
    assert_eq!(g.observe(1).legal, ["S", "C"]);
    for _ in 0..3 {
        play_round(&mut g, RoundResult::EmperorSide);
    }
    assert_eq!(g.legal_strings(0), ["S", "C"]);
    assert_eq!(g.legal_strings(1), ["E", "C"]);
    assert!(g.legal_strings(2).is_empty());
}

#[test]
fn play_rejects_unlisted_actions_and_leaves_the_state_unchanged() {
    // Game::play: anything not in `legal_actions` is refused with the state untouched.
    let mut g = new(Variant::Readme);
    g.play(0, "C").expect("legal");
    let cases = [
        (0, "E"), // seat 0 already chose
        (1, "E"), // the Slave side has no Emperor
        (1, "s"), // notation is upper case
        (1, " S"),
        (1, ""),
        (1, "CC"),
        (2, "C"), // no such seat
    ];
    for (seat, action) in cases {
        let before = g.clone();
        let err = g.play(seat, action).expect_err("refused");
        assert_eq!((err.seat, err.action.as_str()), (seat, action));
        assert_eq!(g, before, "state unchanged after {seat} {action:?}");
    }
    // The Emperor side has no Slave.
    let mut fresh = new(Variant::Manga);
    assert!(fresh.play(0, "S").is_err());
    assert_eq!(fresh, new(Variant::Manga));
}

#[test]
fn notation_round_trips() {
    for card in Card::ALL {
        assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        assert_eq!(serde_json::to_string(&card).expect("json"), format!("\"{card}\""));
    }
    let err = "X".parse::<Card>().expect_err("not a card");
    assert_eq!(err.input, "X");
    for variant in Variant::ALL {
        assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
    }
    assert_eq!(Ecard::variants()[0], Variant::Readme);
    assert!("Manga".parse::<Variant>().is_err());
}

#[test]
fn seed_is_ignored_and_setup_is_written_out() {
    // Task: there is no randomness in the deal; seat 0 is the Emperor side first.
    for variant in Variant::ALL {
        assert_eq!(Ecard::deal(variant, 0), Ecard::deal(variant, 0xDEAD_BEEF));
        assert_eq!(Ecard::new(variant, 1), Ecard::new(variant, 2));
    }
    let setup = Ecard::deal(Variant::Readme, 7);
    let json = serde_json::to_string(&setup).expect("json");
    assert_eq!(json, r#"{"variant":"readme","first_emperor":0}"#);
    let back: Setup = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, setup);
    let mirrored: Setup = serde_json::from_str(r#"{"variant":"manga","first_emperor":1}"#).expect("parses");
    let g = Ecard::from_setup(mirrored).expect("seat 1 may start as Emperor");
    assert_eq!(g.emperor_seat(), 1);
    assert_eq!(g.legal_strings(1), ["E", "C"]);
    let bad = Setup { variant: Variant::Readme, first_emperor: 2 };
    let err = Ecard::from_setup(bad).expect_err("no seat 2");
    assert!(err.0.contains("first_emperor"), "{err}");
    assert!(serde_json::from_str::<Setup>(r#"{"variant":"classic","first_emperor":0}"#).is_err());
}

#[test]
fn forfeit_loses_for_the_faulty_seat_in_every_column() {
    // CONTRACT.md §1: the faulty bot loses; both faulting is a draw. A faulty seat keeps at
    // most its opponent's points − 1 (a fault never pays: docs/tournament.md).
    let mut g = new(Variant::Readme);
    play_round(&mut g, RoundResult::SlaveSide);
    assert_eq!(g.forfeit(&[1]), Outcome { points: vec![0, -1], ranks: vec![1, 2] });
    assert_eq!(g.forfeit(&[0]), Outcome { points: vec![0, 5], ranks: vec![2, 1] });
    assert_eq!(g.forfeit(&[0, 1]), Outcome { points: vec![0, 0], ranks: vec![1, 1] });
    assert_eq!(Ecard::FAULT_POLICY, FaultPolicy::Forfeit);
}

#[test]
fn observation_shows_the_public_history() {
    // CONTRACT.md §2: own hand, public cards, counts, scores and the public history.
    let mut g = new(Variant::Readme);
    both(&mut g, "C", "C");
    both(&mut g, "C", "S");
    both(&mut g, "C", "C");
    let obs = g.observe(1);
    assert_eq!((obs.round, obs.play, obs.max_plays, obs.rounds), (2, 2, 3, 12));
    assert_eq!((obs.side, obs.opponent_side), (Side::Slave, Side::Emperor));
    assert_eq!(obs.hand, vec![Card::Slave, Card::Citizen, Card::Citizen, Card::Citizen]);
    assert_eq!(obs.opponent_hand, vec![Card::Emperor, Card::Citizen, Card::Citizen, Card::Citizen]);
    assert_eq!(obs.scores, [1, 0]);
    assert_eq!(obs.plays, vec![[Card::Citizen, Card::Citizen]]);
    assert_eq!(obs.history.len(), 1);
    assert_eq!(obs.legal, ["S", "C"]);
    let json = observation_json(&g, 1);
    assert!(json.starts_with(r#"{"game":"ecard","variant":"readme","seat":1,"phase":"play","#), "{json}");
    assert!(
        json.contains(
            r#""history":[{"round":1,"emperor":0,"plays":[["C","C"],["C","S"]],"result":"emperor","winner":0,"points":[1,0]}]"#
        ),
        "{json}"
    );
}

/// Every card of the current round is in exactly one place: a hand or a resolved play
/// (a pending card is still in its hand); every finished round used cards of its sides only.
fn check_conservation(g: &Ecard) -> Result<(), String> {
    for record in g.history() {
        for seat in 0..2 {
            let side = record.side(seat);
            let cards: Vec<Card> = record.plays.iter().map(|p| p[seat]).collect();
            let specials = cards.iter().filter(|&&c| c != Card::Citizen).count();
            let citizens = cards.len() - specials;
            if cards.iter().any(|&c| c != Card::Citizen && c != side.special())
                || specials > 1
                || citizens > CITIZENS as usize
            {
                return Err(format!("round {} seat {seat} played {cards:?}", record.round));
            }
        }
    }
    if g.is_over() {
        return if g.hand(0).is_empty() && g.hand(1).is_empty() && g.plays().is_empty() {
            Ok(())
        } else {
            Err("cards left after the match".into())
        };
    }
    for seat in 0..2 {
        let mut all = g.hand(seat);
        all.extend(g.plays().iter().map(|p| p[seat]));
        all.sort();
        let mut full = Hand::full(g.side(seat)).cards();
        full.sort();
        if all != full {
            return Err(format!("seat {seat}: hand + played = {all:?}, expected {full:?}"));
        }
    }
    Ok(())
}

/// Points add up: every round scores 0, 1 or 5 for its winner only, as its result says, and
/// the scores are the sums of the rounds' points.
fn check_points(g: &Ecard) -> Result<(), String> {
    let mut sums = [0, 0];
    for r in g.history() {
        let expected = match r.winner {
            None => [0, 0],
            Some(w) => {
                let mut p = [0, 0];
                p[w] = r.side(w).win_points();
                p
            }
        };
        let result_ok = match (r.result, r.winner) {
            (RoundResult::Drawn, None) => true,
            (RoundResult::EmperorSide, Some(w)) => w == r.emperor,
            (RoundResult::SlaveSide, Some(w)) => w != r.emperor,
            _ => false,
        };
        if r.points != expected || !result_ok {
            return Err(format!("round {r:?} scored wrongly"));
        }
        let last = r.plays.last().ok_or("a round without plays")?;
        let decided = last[0].versus(last[1]) != Ordering::Equal;
        if decided != r.winner.is_some()
            || r.plays[..r.plays.len() - 1].iter().any(|p| p != &[Card::Citizen; 2])
        {
            return Err(format!("round {r:?}: plays do not match its result"));
        }
        sums[0] += r.points[0];
        sums[1] += r.points[1];
    }
    if sums != g.scores() {
        return Err(format!("scores {:?} != sum of rounds {sums:?}", g.scores()));
    }
    Ok(())
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Readme), Just(Variant::Manga)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_play_never_panics_and_always_ends(variant in variant_strategy(), seed: u64, pick: u64) {
        let playout = random_playout::<Ecard>(variant, seed, pick, 2 * ROUNDS * variant.max_plays())
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(playout.state.history().len(), ROUNDS);
        let again = replay::<Ecard>(Ecard::deal(variant, seed), &playout.actions)
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(again, playout.state);
    }

    #[test]
    fn cards_are_conserved_and_points_add_up(variant in variant_strategy(), seed: u64, pick: u64) {
        let playout = random_playout::<Ecard>(variant, seed, pick, 200).map_err(TestCaseError::fail)?;
        let mut g = Ecard::new(variant, seed);
        check_conservation(&g).map_err(TestCaseError::fail)?;
        for (seat, action) in &playout.actions {
            g.play(*seat, action).map_err(|e| TestCaseError::fail(e.to_string()))?;
            check_conservation(&g).map_err(TestCaseError::fail)?;
            check_points(&g).map_err(TestCaseError::fail)?;
        }
        let outcome = g.outcome().expect("over");
        prop_assert_eq!(outcome.points, g.scores().to_vec());
        let max = g.history().iter().filter(|r| r.winner.is_some()).count() as i64 * SLAVE_WIN_POINTS;
        prop_assert!(g.scores()[0] + g.scores()[1] <= max);
    }

    /// The only hidden information in E-card is a card chosen in the open play: after any
    /// prefix, a seat's observation is byte-identical whether the opponent has not chosen
    /// yet or has chosen any of its legal cards.
    #[test]
    fn no_observation_leaks_a_pending_choice(
        variant in variant_strategy(),
        pick: u64,
        prefix in 0usize..40,
    ) {
        let mut g = Ecard::new(variant, 0);
        let mut rng = Rng::new(pick, Stream::Arena);
        for _ in 0..prefix {
            if g.is_over() {
                break;
            }
            let seat = g.to_act()[rng.below(g.to_act().len())];
            let legal = g.legal_strings(seat);
            g.play(seat, &legal[rng.below(legal.len())]).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        for watcher in 0..2 {
            let other = 1 - watcher;
            if !g.to_act().contains(&other) {
                continue;
            }
            let seen = observation_json(&g, watcher);
            for card in g.legal_strings(other) {
                let mut chosen = g.clone();
                chosen.play(other, &card).map_err(|e| TestCaseError::fail(e.to_string()))?;
                if chosen.round_number() != g.round_number() || chosen.play_number() != g.play_number() {
                    continue; // the play resolved: the card is now revealed, as it should be
                }
                prop_assert_eq!(&observation_json(&chosen, watcher), &seen,
                    "seat {} learns seat {}'s pending {}", watcher, other, card);
            }
        }
    }
}
