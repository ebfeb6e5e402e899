//! The example bots of `bots/`, a Lua and a WAT one, loaded by the arena's `Loader` and played
//! by its `Match`, as `kuhn-arena play` will.

use cardarena::play::registry::Loader;
use cardarena::Replay;
use kuhn_arena::game::{Card, Setup};

use crate::common::{play, Seat};

/// The path of an example bot.
fn bot(file: &str) -> String {
    format!("{}/bots/{file}", env!("CARGO_MANIFEST_DIR"))
}

/// Plays `file` against `nash` in both seats over `seeds`, and checks that every decision of the
/// file's seat is `rule(card, facing a bet)` (true: bet or call) and that nothing faulted.
fn plays_by_its_rule(file: &str, rule: fn(Card, bool) -> bool) {
    let loader = Loader::new();
    let ours = Seat::loaded(&loader, &bot(file));
    let nash = Seat::loaded(&loader, "nash");
    let mut decisions = 0;
    for seed in 0..40 {
        for seat in 0..2 {
            let seats = if seat == 0 { [&ours, &nash] } else { [&nash, &ours] };
            let replay: Replay = play(seed, seats);
            assert!(replay.faults.iter().all(Vec::is_empty), "{file}: {:?}", replay.faults);
            let setup: Setup = serde_json::from_value(replay.deal.clone()).expect("a Kuhn deal");
            let mut facing_bet = false;
            for d in &replay.decisions {
                let played = d.played.as_deref().expect("played");
                if d.seat == seat {
                    decisions += 1;
                    let aggressive = played == "bet" || played == "call";
                    let card = setup.cards[seat];
                    assert_eq!(
                        aggressive,
                        rule(card, facing_bet),
                        "{file}, seed {seed}: {card} played {played}"
                    );
                }
                facing_bet = played == "bet";
            }
            let points = &replay.outcome.points;
            assert_eq!(points[0] + points[1], 0);
        }
    }
    assert!(decisions >= 80, "{file} made {decisions} decisions");
}

#[test]
fn the_lua_example_bot_plays_its_rank() {
    plays_by_its_rule("kuhn_rank.lua", |card, facing_bet| card == Card::K || (card == Card::Q && facing_bet));
}

#[test]
fn the_wat_example_bot_plays_the_king_only() {
    plays_by_its_rule("kuhn_king.wat", |card, _| card == Card::K);
}

/// docs/embedding.md's "Playing a match from Rust", as written there (the path from this
/// package rather than from the workspace).
#[test]
fn the_embedding_guides_match_plays() -> Result<(), cardarena::HostError> {
    use cardarena::{LimitsConfig, Match};
    use kuhn_arena::game::{Kuhn, Variant};

    let loader = Loader::new();
    let lua = loader.resolve::<Kuhn>(&bot("kuhn_rank.lua"))?;
    let nash = loader.resolve::<Kuhn>("nash")?;
    let replay = Match::<Kuhn>::new(Variant::Standard, 7)
        .seat(&nash, &LimitsConfig::default())
        .seat(&lua, &LimitsConfig::default())
        .play();
    println!("{:?}", replay.outcome.points);
    assert_eq!(replay.bots[1].name, bot("kuhn_rank.lua"));
    assert!(replay.faults.iter().all(Vec::is_empty) && !replay.decisions.is_empty());
    Ok(())
}
