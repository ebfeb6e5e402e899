//! docs/tutorial/lost-cities.md: every step file loads and plays without faults, and the final
//! step beats the built-in `greedy` over duplicate deals, each deal played in both seat orders
//! (the measurement: testkit/src/tutorials/lost_cities.rs).

use testkit::tutorials::lost_cities::{measure, step_path, STEPS};

#[test]
fn lost_cities_every_step_plays_without_faults() {
    // Each step file loads, and plays 10 matches against greedy (5 deals, both seats) with the
    // default limits and no fault.
    for step in STEPS {
        let m = measure(&step_path(step), 5);
        assert_eq!(m.faults, 0, "{}", m.report(step));
        assert_eq!(m.wins + m.draws + m.losses, 10);
        assert!(m.decisions > 0, "{step} made no sandboxed decision");
    }
}

#[test]
fn lost_cities_final_step_beats_greedy() {
    // 300 duplicate deals (600 matches): the 95% interval of the difference per deal must lie
    // above 0 (the figures are in docs/tutorial/lost-cities.md, "The numbers").
    let final_step = STEPS[STEPS.len() - 1];
    let m = measure(&step_path(final_step), 300);
    eprintln!("{}", m.report(final_step));
    assert_eq!(m.faults, 0, "{}", m.report(final_step));
    let (lo, _) = m.interval();
    assert!(lo > 0.0, "{}", m.report(final_step));
    assert!(m.wins > m.losses, "{}", m.report(final_step));
}
