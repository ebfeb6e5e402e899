//! docs/tutorial/intensity.md: every step file loads and plays without faults, and the final
//! step beats the built-in `greedy`: at tables of the step and three greedy bots, each deal played
//! four times with the step in each seat, the step's mean penalty is lower than the greedy seats'
//! and the 95% interval of the difference excludes zero (the measurement:
//! testkit/src/tutorials/intensity.rs).

use testkit::tutorials::intensity::{measure, step_path, STEPS};

#[test]
fn intensity_every_step_plays_without_faults() {
    // Each step file loads and plays 20 games (5 deals, every seat) with three greedy bots, with
    // the default limits and no fault (a fault would cost +5 and show in `faults`).
    for step in STEPS {
        let m = measure(&step_path(step), 5);
        assert_eq!(m.faults, 0, "{}", m.report(step));
        assert_eq!(m.games, 20);
        assert!(m.decisions > 0, "{step} made no sandboxed decision");
    }
}

#[test]
fn intensity_final_step_beats_greedy() {
    // 300 deals (1200 games): the whole 95% interval must lie below 0 (fewer points than greedy;
    // the figures are in docs/tutorial/intensity.md, "The numbers").
    let final_step = STEPS[STEPS.len() - 1];
    let m = measure(&step_path(final_step), 300);
    eprintln!("{}", m.report(final_step));
    assert_eq!(m.faults, 0, "{}", m.report(final_step));
    let (_, hi) = m.interval();
    assert!(hi < 0.0, "{}", m.report(final_step));
}
