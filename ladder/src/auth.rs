//! Accounts' secrets: argon2id password hashes, random codes and tokens (stored as SHA-256), the
//! names people may choose, and the browser sessions kept in the ladder's own database.

use std::sync::Arc;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, SessionStore};

use super::db::Db;

pub use super::db::secret;

/// The argon2id hash (PHC string, random salt, the crate's default cost) of a password.
pub fn hash_password(password: &str) -> String {
    Argon2::default()
        .hash_password(password.as_bytes())
        .expect("argon2 with its default parameters")
        .to_string()
}

/// Whether `password` matches the PHC string `hash`. A login for an unknown name is checked
/// against a decoy hash (made at start-up) and refused, so that it takes as long as a wrong
/// password: no user enumeration by timing.
pub fn verify_password(password: &str, hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else { return false };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
}

/// Why a name (of a user or a bot) cannot be used; the message says what is allowed.
#[derive(Debug, thiserror::Error)]
#[error("{what} {name:?} is not allowed: use 1 to 32 letters, digits, '-' or '_', starting with a letter or digit")]
pub struct BadName {
    what: &'static str,
    name: String,
}

/// Checks a user or bot name: 1–32 ASCII letters, digits, `-`, `_`, not starting with `-`/`_`
/// (names appear in paths and commands, so nothing else).
///
/// # Errors
/// [`BadName`] naming the rule.
pub fn check_name(what: &'static str, name: &str) -> Result<(), BadName> {
    let ok = (1..=32).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && name.as_bytes()[0].is_ascii_alphanumeric();
    if ok {
        Ok(())
    } else {
        Err(BadName { what, name: name.chars().take(40).collect() })
    }
}

/// Browser sessions in the ladder database (tower-sessions' store interface): a record is kept
/// as JSON with its expiry, and loading an expired one finds nothing.
#[derive(Clone)]
pub struct DbSessions {
    db: Arc<Db>,
}

impl std::fmt::Debug for DbSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DbSessions").field("db", &self.db.location()).finish()
    }
}

impl DbSessions {
    /// A store over `db`.
    pub fn new(db: Arc<Db>) -> DbSessions {
        DbSessions { db }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Db) -> Result<T, super::db::DbError> + Send + 'static,
    ) -> session_store::Result<T> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || f(&*db))
            .await
            .map_err(|e| session_store::Error::Backend(e.to_string()))?
            .map_err(|e| session_store::Error::Backend(e.to_string()))
    }
}

#[async_trait::async_trait]
impl SessionStore for DbSessions {
    async fn save(&self, record: &Record) -> session_store::Result<()> {
        let json = serde_json::to_string(record).map_err(|e| session_store::Error::Encode(e.to_string()))?;
        let (id, expiry) = (record.id.to_string(), record.expiry_date.unix_timestamp());
        self.blocking(move |db| db.save_session(&id, &json, expiry)).await
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        let id = id.to_string();
        let json = self.blocking(move |db| db.load_session(&id)).await?;
        json.map(|j| serde_json::from_str(&j).map_err(|e| session_store::Error::Decode(e.to_string())))
            .transpose()
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        let id = id.to_string();
        self.blocking(move |db| db.delete_session(&id)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_and_plain() {
        for good in ["alice", "Bot_2", "a", "x-y", &"a".repeat(32)] {
            assert!(check_name("bot name", good).is_ok(), "{good}");
        }
        for bad in ["", "../etc", "a b", "-lead", "_x", "é", "a/b", &"a".repeat(33), "a\0"] {
            let e = check_name("bot name", bad).unwrap_err().to_string();
            assert!(e.contains("letters, digits"), "{e}");
        }
    }

    #[test]
    fn passwords_verify_only_against_their_hash() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong", &h));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[test]
    fn secrets_differ() {
        assert_ne!(secret(), secret());
        assert_eq!(secret().len(), 64);
    }
}
