//! The per-match log of a bot (`print` in Lua, `env.log` in WASM), capped in bytes.

/// Lines logged by a bot, with a byte cap over the whole match.
#[derive(Debug)]
pub(crate) struct LogBook {
    lines: Vec<String>,
    /// Bytes accepted so far in this match (text of the lines, newlines not counted).
    bytes: usize,
    cap: usize,
    truncated: bool,
}

impl LogBook {
    pub(crate) fn new(cap: usize) -> LogBook {
        LogBook { lines: Vec::new(), bytes: 0, cap, truncated: false }
    }

    /// Appends one line (invalid UTF-8 is replaced). Past the cap, the line is cut and a
    /// single marker line is added; everything after it is dropped.
    pub(crate) fn push(&mut self, line: &[u8]) {
        if self.truncated {
            return;
        }
        let room = self.cap - self.bytes;
        if line.len() <= room {
            self.bytes += line.len();
            self.lines.push(String::from_utf8_lossy(line).into_owned());
            return;
        }
        let mut kept = String::from_utf8_lossy(&line[..room]).into_owned();
        if kept.ends_with('\u{FFFD}') {
            kept.pop(); // a character cut in half
        }
        if !kept.is_empty() {
            self.lines.push(kept);
        }
        self.bytes = self.cap;
        self.truncated = true;
        self.lines.push(format!("[sandbox: log truncated at {} bytes for this match]", self.cap));
    }

    /// The lines logged since the last call.
    pub(crate) fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_cuts_once_and_marks() {
        let mut log = LogBook::new(10);
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

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut log = LogBook::new(100);
        log.push(b"a\xffb");
        assert_eq!(log.take(), vec!["a\u{FFFD}b".to_string()]);
    }
}
