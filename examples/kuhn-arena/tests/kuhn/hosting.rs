//! The glue of `src/host.rs`: the built-in bots by name, the board, the observation's schema.

use cardarena::play::Hosted;
use cardarena_games::view::View;
use cardarena_games::Game;
use kuhn_arena::game::{Card, Kuhn, Setup};
use kuhn_arena::host::{builtin_bot, builtin_bot_names};

#[test]
fn the_built_in_names_give_bots_and_a_bad_alpha_says_why() {
    for name in ["nash", "nash:0", "nash:0.2", "nash:1/6", "nash:1/3", "best-response"] {
        assert!(matches!(builtin_bot(name, 1, 0), Some(Ok(_))), "{name}");
    }
    for name in ["nash:0.34", "nash:-0.1", "nash:x", "nash:1/0", "nash:"] {
        let err = builtin_bot(name, 1, 0).expect("a nash name").err().expect("refused");
        assert!(err.contains("[0, 1/3]"), "{name}: {err}");
    }
    assert!(builtin_bot("greedy", 1, 0).is_none(), "not a name of Kuhn's");
    assert!(builtin_bot("random", 1, 0).is_none(), "the arena's own");
    assert_eq!(builtin_bot_names(), ["nash", "nash:ALPHA", "best-response"]);
}

#[test]
fn nash_draws_its_alpha_per_match_from_the_seed() {
    use kuhn_arena::bots::{Nash, ALPHA_MAX};
    let alphas: Vec<f64> = (0..200).map(|seed| Nash::drawn(seed, 0).alpha()).collect();
    assert!(alphas.iter().all(|a| (0.0..=ALPHA_MAX).contains(a)));
    assert_eq!(Nash::drawn(5, 0).alpha(), alphas[5], "the same seed, the same α");
    let low = alphas.iter().filter(|a| **a < ALPHA_MAX / 2.0).count();
    assert!((70..130).contains(&low), "{low} of 200 below 1/6: not uniform");
    assert_eq!(Nash::named("1/6", 0, 0).expect("valid").alpha(), 1.0 / 6.0);
}

#[test]
fn the_board_shows_a_seat_its_card_the_betting_and_the_pot_only() {
    let mut state = Kuhn::from_setup(Setup { cards: [Card::K, Card::J] }).expect("valid");
    state.play(0, "bet").expect("legal");
    let board = Kuhn::render_observation(&state.observe(1));
    assert_eq!(board, "kuhn: seat 1, your card J\n  betting: bet (seat 0)\n  pot: 3\n");
    state.play(1, "call").expect("legal");
    let all = state.render_state();
    assert!(all.contains("seat 0 holds K, seat 1 holds J") && all.contains("seat 0 wins 2"), "{all}");
}

#[test]
fn the_schema_lists_the_observations_fields() {
    let schema = <Kuhn as Hosted>::observation_schema();
    let properties = schema["properties"].as_object().expect("an object schema");
    let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["betting", "card", "game", "legal", "pot", "seat", "variant"]);
    assert_eq!(Kuhn::NAME, "kuhn");
}
