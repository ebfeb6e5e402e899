//! The log of a bot (`print` in Lua, `env.log` in WASM), capped in lines and bytes per decision
//! and per match.

use crate::{LOG_BYTES_PER_DECISION, LOG_LINES_PER_DECISION, LOG_LINE_FRAMING};

/// Lines logged by a bot. Every line costs its length plus [`LOG_LINE_FRAMING`] bytes, so an
/// empty line is not free: the match's byte cap also caps its lines. A decision (the lines
/// between two [`LogBook::take`]s) has caps of its own, so one decision cannot use up the
/// whole match's log.
#[derive(Debug)]
pub(crate) struct LogBook {
    lines: Vec<String>,
    /// Bytes accepted so far in this match, framing included.
    bytes: usize,
    cap: usize,
    /// Lines and bytes (framing included) accepted since the last `take`.
    decision_lines: usize,
    decision_bytes: usize,
    decision_cut: bool,
    truncated: bool,
}

impl LogBook {
    pub(crate) fn new(cap: usize) -> LogBook {
        LogBook {
            lines: Vec::new(),
            bytes: 0,
            cap,
            decision_lines: 0,
            decision_bytes: 0,
            decision_cut: false,
            truncated: false,
        }
    }

    /// Appends one line (invalid UTF-8 is replaced). Past the decision's caps, one marker line
    /// is added and the rest of the decision's lines are dropped. Past the match's byte cap, the
    /// line is cut, one marker line is added, and everything after it is dropped.
    pub(crate) fn push(&mut self, line: &[u8]) {
        if self.truncated || self.decision_cut {
            return;
        }
        let cost = line.len().saturating_add(LOG_LINE_FRAMING);
        let room = self.cap - self.bytes;
        if cost <= room {
            if self.decision_lines >= LOG_LINES_PER_DECISION
                || self.decision_bytes + cost > LOG_BYTES_PER_DECISION
            {
                self.decision_cut = true;
                self.lines.push(format!(
                    "[sandbox: log cut for this decision at {LOG_LINES_PER_DECISION} lines or \
                     {LOG_BYTES_PER_DECISION} bytes (a line counts {LOG_LINE_FRAMING} bytes more than its text)]"
                ));
                return;
            }
            let text = String::from_utf8_lossy(line).into_owned();
            // Replacement characters may make the text longer than the bytes it came from.
            let cost = text.len() + LOG_LINE_FRAMING;
            if cost <= room {
                self.accept(text, cost);
                return;
            }
        }
        let keep = room.saturating_sub(LOG_LINE_FRAMING);
        let mut kept = String::from_utf8_lossy(&line[..keep.min(line.len())]).into_owned();
        let mut end = keep.min(kept.len());
        while !kept.is_char_boundary(end) {
            end -= 1;
        }
        kept.truncate(end);
        if kept.ends_with('\u{FFFD}') {
            kept.pop(); // a character cut in half
        }
        if !kept.is_empty() {
            let cost = kept.len() + LOG_LINE_FRAMING;
            self.accept(kept, cost);
        }
        self.bytes = self.cap;
        self.truncated = true;
        self.lines.push(format!(
            "[sandbox: log truncated at {} bytes for this match (a line counts {} bytes more than its \
             text)]",
            self.cap, LOG_LINE_FRAMING
        ));
    }

    fn accept(&mut self, text: String, cost: usize) {
        self.bytes += cost;
        self.decision_bytes += cost;
        self.decision_lines += 1;
        self.lines.push(text);
    }

    /// The lines logged since the last call; the next decision's caps start afresh.
    pub(crate) fn take(&mut self) -> Vec<String> {
        self.decision_lines = 0;
        self.decision_bytes = 0;
        self.decision_cut = false;
        std::mem::take(&mut self.lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_cap_cuts_once_and_marks() {
        let f = LOG_LINE_FRAMING;
        let mut log = LogBook::new(2 * f + 10);
        log.push(b"hello");
        log.push(b"world!!");
        log.push(b"more");
        let lines = log.take();
        assert_eq!(lines[0], "hello");
        assert_eq!(lines[1], "world");
        assert!(lines[2].contains("truncated"));
        assert_eq!(lines.len(), 3);
        log.push(b"x");
        assert!(log.take().is_empty());
    }

    /// The attack: empty lines in a loop, which a byte cap on the text alone lets through.
    #[test]
    fn empty_lines_cost_their_framing() {
        let mut log = LogBook::new(64 << 10);
        let mut kept = 0;
        for _ in 0..100 {
            for _ in 0..1_000 {
                log.push(b"");
            }
            kept += log.take().iter().filter(|l| l.is_empty()).count();
        }
        assert_eq!(kept, (64 << 10) / LOG_LINE_FRAMING);
    }

    #[test]
    fn decision_caps_cut_the_decision_only() {
        let mut log = LogBook::new(1 << 20);
        for _ in 0..LOG_LINES_PER_DECISION + 10 {
            log.push(b"line");
        }
        let lines = log.take();
        assert_eq!(lines.len(), LOG_LINES_PER_DECISION + 1);
        assert!(lines.last().unwrap().contains("cut for this decision"), "{lines:?}");
        log.push(&vec![b'x'; LOG_BYTES_PER_DECISION]);
        let lines = log.take();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("cut for this decision"));
        log.push(b"next decision");
        assert_eq!(log.take(), vec!["next decision".to_string()]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut log = LogBook::new(100);
        log.push(b"a\xffb");
        assert_eq!(log.take(), vec!["a\u{FFFD}b".to_string()]);
    }
}
