use super::*;
use crate::play::capsule;
use crate::Arena;

/// The frames of a replay of a built-in game.
fn frames(replay: &Replay, file: &str) -> Result<Frames, HostError> {
    crate::Games::builtin().frames(replay, file)
}

fn bot(path: &str) -> String {
    format!("{}/{path}", concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// An Intensity match (seed-games.md §4) where seat 0 raises an error at its seventh decision (of
/// eleven: the pass and ten tricks); in a penalty game the match goes on after it.
fn intensity_with_faults() -> Replay {
    let crashes = bot("tests/data/bots/crashes_sometimes.lua");
    let replay = Arena::new()
        .play(
            GameId::of::<crate::games::intensity::Intensity>(),
            5,
            &[&crashes, "greedy", "random", "greedy"],
        )
        .unwrap();
    assert_eq!(replay.faults[0].len(), 1, "{:?}", replay.faults);
    replay
}

#[test]
fn one_frame_per_decision_and_one_for_the_end() {
    for id in crate::Games::builtin().ids() {
        let bots = vec!["random"; id.players()];
        let replay = Arena::new().play(id, 3, &bots).unwrap();
        let f = frames(&replay, "test").unwrap();
        assert_eq!(f.frames.len(), replay.decisions.len() + 1, "{id:?}");
        for (i, frame) in f.frames.iter().enumerate() {
            assert_eq!(frame.step, i);
            assert_eq!(frame.seats.len(), id.players());
            assert_eq!(frame.decision.as_ref().map(|d| d.index), (i < replay.decisions.len()).then_some(i));
        }
        // every seat holds cards at the start, each with its text
        assert!(
            f.frames[0].hands.iter().all(|h| !h.is_empty() && h.iter().all(|c| !c.text.is_empty())),
            "{id:?}"
        );
        assert_eq!(f.outcome, replay.outcome);
    }
}

#[test]
fn a_seats_frame_holds_the_observation_its_bot_received() {
    // The capsule regenerates observations byte for byte as the bot received them
    // (cardarena/src/play/capsule.rs); the frames must hold the very same text at the same decisions.
    let replay = intensity_with_faults();
    let f = frames(&replay, "test").unwrap();
    let caps = capsule::build::<crate::games::intensity::Intensity>(&replay, None).unwrap();
    let last = caps.last().unwrap();
    assert_eq!(last.seat, 0);
    assert_eq!(last.decisions.len(), 7, "the bot's decisions up to its fault");
    for d in &last.decisions {
        let frame = &f.frames[d.decision];
        assert_eq!(frame.decision.as_ref().unwrap().seat, 0);
        assert_eq!(
            frame.seats[0].observation.as_deref(),
            Some(d.observation.get()),
            "decision {}",
            d.decision
        );
    }
    // Only the deciding seats' observations are given: the others never received one there.
    for frame in &f.frames {
        let deciding = frame.decision.as_ref().map(|d| d.seat);
        for (s, seat) in frame.seats.iter().enumerate() {
            assert_eq!(seat.observation.is_some(), deciding == Some(s), "step {}", frame.step);
        }
    }
}

#[test]
fn a_fault_has_its_badge_on_its_step_and_nowhere_else() {
    let replay = intensity_with_faults();
    let f = frames(&replay, "test").unwrap();
    let mut expected: Vec<(usize, Seat, String)> = replay
        .faults
        .iter()
        .enumerate()
        .flat_map(|(s, fs)| fs.iter().map(move |x| (x.decision.unwrap(), s, x.verdict.to_string())))
        .collect();
    expected.sort();
    let shown: Vec<(usize, Seat, String)> = f
        .frames
        .iter()
        .flat_map(|fr| fr.badges.iter().map(move |b| (fr.step, b.seat, b.verdict.clone())))
        .collect();
    assert_eq!(shown, expected);
    assert!(shown.iter().all(|(_, _, v)| v == "crash"));
    let (step, _, _) = shown[0];
    assert!(f.frames[step].badges[0].message.contains("deliberate crash"));
    // Intensity plays on after a fault (+5 and a random legal card): the step has a played move.
    assert!(f.frames[step].decision.as_ref().unwrap().played.is_some());
}

#[test]
fn a_forfeit_ends_with_a_note_and_a_failure_at_start_is_on_the_first_step() {
    // Lost Cities: a fault forfeits the match (CONTRACT.md, fault policy).
    let crashes = bot("tests/data/bots/crashes_sometimes.lua");
    let replay = Arena::new()
        .play(GameId::of::<crate::games::lost_cities::LostCities>(), 2, &["greedy", &crashes])
        .unwrap();
    let f = frames(&replay, "test").unwrap();
    assert_eq!(f.frames.len(), replay.decisions.len() + 1);
    let end = f.frames.last().unwrap();
    assert!(end.note.as_deref().unwrap().contains("forfeits"));
    let faulty = &f.frames[end.step - 1];
    assert_eq!(faulty.badges.len(), 1);
    assert_eq!(faulty.decision.as_ref().unwrap().played, None);

    let broken = bot("tests/data/bots/syntax_error.lua");
    let replay = Arena::new()
        .play(GameId::of::<crate::games::intensity::Intensity>(), 2, &[&broken, "greedy", "greedy", "greedy"])
        .unwrap();
    let f = frames(&replay, "test").unwrap();
    assert_eq!(f.frames[0].badges[0].verdict, "load");
    assert_eq!(f.frames[0].badges[0].decision, None);
}

#[test]
fn a_damaged_replay_or_unknown_game_is_an_error_naming_the_file() {
    let mut replay =
        Arena::new().play(GameId::of::<crate::games::blade::Blade>(), 1, &["random", "random"]).unwrap();
    replay.decisions[2].played = Some("nonsense".into());
    let err = frames(&replay, "m.json").unwrap_err().to_string();
    assert!(err.starts_with("m.json: decision #2"), "{err}");
    replay.game = "chess".into();
    let err = frames(&replay, "m.json").unwrap_err().to_string();
    assert!(err.starts_with("m.json: unknown game \"chess\""), "{err}");
}

#[test]
fn hands_carry_each_games_card_classes() {
    let replay = Arena::new()
        .play(GameId::of::<crate::games::lost_cities::LostCities>(), 1, &["random", "random"])
        .unwrap();
    let f = frames(&replay, "test").unwrap();
    for c in &f.frames[0].hands[0] {
        assert_eq!(c.class, format!("suit-{}", c.text.chars().last().unwrap()));
    }
    let replay =
        Arena::new().play(GameId::of::<crate::games::intensity::Intensity>(), 1, &["random"; 4]).unwrap();
    let f = frames(&replay, "test").unwrap();
    let all: Vec<&CardSpan> = f.frames[0].hands.iter().flatten().collect();
    assert_eq!(all.len(), 40, "seed-games.md §4: ten cards each");
    assert!(all.iter().any(|c| c.text == "47" && c.class == "buffalo"));
    assert!(all.iter().any(|c| c.text == "31" && c.class == "suit-3"));
}

#[test]
fn frames_for_one_seat_hold_nothing_hidden_from_it() {
    // Lost Cities hands are hidden from the other seat (seed-games.md §3(b)).
    let crashes = bot("tests/data/bots/crashes_sometimes.lua");
    let replay = Arena::new()
        .play(GameId::of::<crate::games::lost_cities::LostCities>(), 2, &[&crashes, "greedy"])
        .unwrap();
    let all = frames(&replay, "test").unwrap();
    let mine = all.for_seat(1);
    assert_eq!(mine.seat, Some(1));
    assert_eq!(mine.frames.len(), all.frames.len());
    let text = serde_json::to_string(&mine).unwrap();
    for (full, seen) in all.frames.iter().zip(&mine.frames) {
        assert_eq!(seen.board, full.seats[1].view);
        assert_eq!(seen.hands[1], full.hands[1]);
        assert!(
            seen.hands[0].is_empty() && seen.seats[0].view.is_empty() && seen.seats[0].observation.is_none()
        );
        assert!(!text.contains(&full.board), "the spectator's board of step {}", full.step);
        assert!(seen.badges.iter().all(|b| b.seat == 1), "seat 0's fault is not seat 1's");
        if let (Some(m), Some(f)) = (&seen.decision, &full.decision) {
            if m.seat == 0 {
                assert_eq!((m.reply.as_deref(), m.fuel, m.log.len()), (None, None, 0));
                assert_eq!(m.played, f.public, "a Lost Cities move is public");
            } else {
                assert_eq!(m.reply, f.reply);
            }
        }
    }
    assert!(all.frames.iter().any(|f| !f.badges.is_empty()), "the match had a fault to hide");
}

#[test]
fn a_legacy_programs_frames_hold_the_stdin_it_read() {
    // docs/legacy-bots.md, seed-games.md §4(c): a pass run reads `1` then the hand, a play run `2`.
    let program = format!("legacy:comp1511:{}", bot("example_bots/legacy/intensity_c.wasm"));
    let replay = Arena::new()
        .play(
            GameId::of::<crate::games::intensity::Intensity>(),
            3,
            &[&program, "greedy", "random", "random"],
        )
        .unwrap();
    assert!(replay.faults[0].is_empty(), "{:?}", replay.faults[0]);
    let f = frames(&replay, "test").unwrap();
    let mine: Vec<&Frame> =
        f.frames.iter().filter(|fr| fr.decision.as_ref().is_some_and(|d| d.seat == 0)).collect();
    assert_eq!(mine.len(), 11, "the pass and ten tricks");
    let hand: Vec<String> = mine[0].hands[0].iter().map(|c| c.text.clone()).collect();
    assert_eq!(mine[0].seats[0].stdin.as_deref(), Some(format!("1\n{}\n", hand.join(" ")).as_str()));
    assert!(mine[1..].iter().all(|fr| fr.seats[0].stdin.as_deref().unwrap().starts_with("2\n")));
    // built-in seats read JSON observations, not stdin
    assert!(f.frames.iter().all(|fr| fr.seats[1..].iter().all(|s| s.stdin.is_none())));
}

#[test]
fn a_seat_does_not_see_a_simultaneous_choice_before_it_is_played() {
    // E-card: both seats choose a card blind, then both are revealed (CONTRACT.md, E-card).
    let replay =
        Arena::new().play(GameId::of::<crate::games::ecard::Ecard>(), 4, &["random", "random"]).unwrap();
    let all = frames(&replay, "test").unwrap();
    let mine = all.for_seat(0);
    let mut blind = 0;
    for (full, seen) in all.frames.iter().zip(&mine.frames) {
        let (Some(f), Some(m)) = (&full.decision, &seen.decision) else { continue };
        assert!(f.simultaneous);
        if f.seat == 1 {
            assert_eq!((m.played.as_deref(), m.public.as_deref()), (None, None));
            blind += 1;
        } else {
            assert_eq!(m.played, f.played);
        }
    }
    assert!(blind > 0);
}

#[test]
fn lost_cities_frames_lay_the_expeditions_out_as_cards() {
    use crate::games::lost_cities::{expedition_score, Card, LostCities};
    use crate::games::Game;
    let replay = Arena::new()
        .play(GameId::of::<crate::games::lost_cities::LostCities>(), 4, &["greedy", "random"])
        .unwrap();
    let f = frames(&replay, "test").unwrap();
    let end = crate::play::resim::walk::<LostCities>(&replay, "test").unwrap().end.observe(0);
    let texts = |cards: Option<&Vec<Card>>| -> Vec<String> {
        cards.map(|c| c.iter().map(ToString::to_string).collect()).unwrap_or_default()
    };
    let last = f.frames.last().unwrap();
    let t = last.table.as_ref().expect("a Lost Cities board is laid out as cards");
    assert_eq!(t.columns, ["suit", "seat 1", "discard pile", "seat 0"]);
    assert_eq!(t.rows.len(), end.suits.len());
    let mut laid = 0;
    for (row, &suit) in t.rows.iter().zip(&end.suits) {
        assert_eq!(
            (row.label.text.clone(), row.label.class.clone()),
            (suit.to_string(), format!("suit-{suit}"))
        );
        let cell = |k: usize| row.cells[k].cards.iter().map(|c| c.text.clone()).collect::<Vec<_>>();
        assert_eq!(cell(0), texts(end.expeditions[1].get(suit)), "seat 1's {suit} expedition");
        assert_eq!(cell(1), texts(end.discards.get(suit)), "the {suit} pile");
        assert_eq!(cell(2), texts(end.expeditions[0].get(suit)), "seat 0's {suit} expedition");
        for (k, seat) in [(0, 1), (2, 0)] {
            let cards = end.expeditions[seat].get(suit).cloned().unwrap_or_default();
            let note = if cards.is_empty() { String::new() } else { expedition_score(&cards).to_string() };
            assert_eq!(row.cells[k].note, note, "seat {seat}'s {suit} score");
        }
        assert!(row.cells.iter().flat_map(|c| &c.cards).all(|c| c.class == format!("suit-{suit}")));
        laid += cell(0).len() + cell(2).len();
    }
    assert!(laid > 0, "the match laid expeditions");
    assert_eq!(t.head, [last.board.lines().next().unwrap()], "the status line of the text board");
    // A seat's view: its expedition at the bottom, named as its own; of the other hand, its size.
    let seat1 = last.seats[1].table.as_ref().unwrap();
    assert_eq!(seat1.columns, ["suit", "seat 0", "discard pile", "seat 1 (you)"]);
    assert!(seat1.foot.iter().any(|l| l.starts_with("seat 0 hand: ")), "{:?}", seat1.foot);
    // Frames for one seat: its table in place of the spectator's, the other seat's gone.
    let mine = f.for_seat(1);
    for (full, seen) in f.frames.iter().zip(&mine.frames) {
        assert_eq!(seen.table, full.seats[1].table);
        assert!(seen.seats[0].table.is_none());
    }
    // The other games keep their text boards.
    for id in [
        GameId::of::<crate::games::blade::Blade>(),
        GameId::of::<crate::games::ecard::Ecard>(),
        GameId::of::<crate::games::intensity::Intensity>(),
    ] {
        let replay = Arena::new().play(id, 4, &vec!["random"; id.players()]).unwrap();
        let f = frames(&replay, "test").unwrap();
        assert!(f.frames.iter().all(|fr| fr.table.is_none() && fr.seats.iter().all(|s| s.table.is_none())));
    }
}
