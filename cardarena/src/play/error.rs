//! [`HostError`]: the library's one error type. It is the request's or the host's failure, never
//! a bot's: a bot's failure is a verdict in the replay, and the match still has an outcome.

/// Why the arena could not do what it was asked. Each message names the file, line, field or
/// bot concerned and says what to change; the `source` of `Io` and `Store` holds the system's
/// own reason (print the error chain to see it).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The request cannot be played as asked (an unknown game, variant or bot name, the wrong
    /// number of bots, a bot file the sandbox refuses).
    #[error("{0}")]
    Request(String),
    /// A tournament file is not valid; the message names the file and the line.
    #[error("{0}")]
    Config(String),
    /// The host could not do its part (the sandbox or the worker threads did not start).
    #[error("{0}")]
    Host(String),
    /// A file could not be read or written.
    #[error("{what}")]
    Io {
        /// What was being done, naming the file.
        what: String,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A file or a stored record is damaged or not what it claims to be (a replay, a capsule, a
    /// row of the results database); the message names it and, where it can, the place.
    #[error("{0}")]
    Damaged(String),
    /// The results database failed.
    #[error("{what}")]
    Store {
        /// What was being done, naming the database.
        what: String,
        /// The database's reason.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A failure within one event of a tournament.
    #[error("event {event:?}")]
    InEvent {
        /// The event's name.
        event: String,
        /// What failed.
        #[source]
        source: Box<HostError>,
    },
}

impl From<crate::play::games::UnknownGame> for HostError {
    fn from(e: crate::play::games::UnknownGame) -> HostError {
        HostError::Request(e.to_string())
    }
}

impl HostError {
    /// A failure reading or writing a file: `what` names the file.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> HostError {
        let what = what.into();
        move |source| HostError::Io { what, source }
    }

    /// A failure of the results database: `what` names it.
    pub fn store<E: std::error::Error + Send + Sync + 'static>(
        what: impl Into<String>,
    ) -> impl FnOnce(E) -> HostError {
        let what = what.into();
        move |source| HostError::Store { what, source: Box::new(source) }
    }

    /// The message with its causes, as `outer: inner: …` (what a person should read).
    pub fn chain(&self) -> String {
        let mut out = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(c) = cause {
            out.push_str(": ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_names_every_cause() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let inner = HostError::io("cannot read tournament file a.toml")(io);
        let e = HostError::InEvent { event: "blade".into(), source: Box::new(inner) };
        assert_eq!(e.chain(), "event \"blade\": cannot read tournament file a.toml: no such file");
        assert_eq!(e.to_string(), "event \"blade\"");
    }
}
