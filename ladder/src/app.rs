//! The ladder's shared state, [`Ladder`]: its database, configuration, job queue and page
//! templates, and what every page handler asks of it (a database call off the async threads, a
//! page rendered in the layout).

use std::sync::Arc;

use axum::response::Html;
use minijinja::{context, Environment, Value};

use crate::auth;
use crate::config::{Board, LadderConfig, Register};
use crate::db::{Db, DbError, User};
use crate::error::AppError;
use crate::jobs::{Job, JobError, Jobs};
use cardarena::play::games::GameId;

/// Who is asking, and the session's CSRF token for the page's forms (an extractor:
/// `crate::extract`).
pub struct Page {
    /// The signed-in account.
    pub me: Option<User>,
    /// The token every form of the page sends back (`harden::csrf_first` checks it).
    pub csrf: String,
}

pub(super) struct Inner {
    pub(super) db: Arc<Db>,
    pub(super) config: LadderConfig,
    env: Environment<'static>,
    pub(super) decoy: String,
    pub(super) jobs: Arc<Jobs>,
    pub(super) url: String,
}

/// The server's shared state.
#[derive(Clone)]
pub struct Ladder(pub(super) Arc<Inner>);

const TEMPLATES: [(&str, &str); 19] = [
    ("base.html", include_str!("templates/base.html")),
    ("error.html", include_str!("templates/error.html")),
    ("index.html", include_str!("templates/index.html")),
    ("login.html", include_str!("templates/login.html")),
    ("register.html", include_str!("templates/register.html")),
    ("account.html", include_str!("templates/account.html")),
    ("upload.html", include_str!("templates/upload.html")),
    ("board.html", include_str!("templates/board.html")),
    ("bot.html", include_str!("templates/bot.html")),
    ("match.html", include_str!("templates/match.html")),
    ("admin.html", include_str!("templates/admin.html")),
    ("play.html", include_str!("templates/play.html")),
    ("play_game.html", include_str!("templates/play_game.html")),
    ("class_admin.html", include_str!("templates/class_admin.html")),
    ("class_list.html", include_str!("templates/class_list.html")),
    ("class_event.html", include_str!("templates/class_event.html")),
    ("garage.html", include_str!("templates/garage.html")),
    ("garage_index.html", include_str!("templates/garage_index.html")),
    ("garage_try.html", include_str!("templates/garage_try.html")),
];

impl Ladder {
    /// The state of a ladder on `db` with `config`, sending jobs to `jobs`; `url` is how people
    /// reach it (for invite links and the `arena submit` hint).
    pub fn new(db: Arc<Db>, config: LadderConfig, jobs: Arc<Jobs>, url: &str) -> Ladder {
        let mut env = Environment::new();
        for (name, text) in TEMPLATES {
            env.add_template(name, text).expect("the ladder's templates parse");
        }
        // Checked against at a login for an unknown name (no enumeration by timing).
        let decoy = auth::hash_password(&auth::secret());
        Ladder(Arc::new(Inner { db, config, env, decoy, jobs, url: url.trim_end_matches('/').to_string() }))
    }

    /// Queues a job (matchmaking's, or a validation).
    ///
    /// # Errors
    /// The queue cannot be written.
    pub fn enqueue(&self, jobs: &[Job]) -> Result<(), JobError> {
        self.0.jobs.enqueue(&*self.0.db, jobs)
    }

    /// Takes in the finished jobs (see [`Jobs::collect`]).
    ///
    /// # Errors
    /// The queue or the database failed.
    pub fn collect(&self) -> Result<usize, JobError> {
        self.0.jobs.collect(&*self.0.db)
    }

    /// Runs a database call off the async threads.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Db) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, AppError> {
        let db = self.0.db.clone();
        Ok(tokio::task::spawn_blocking(move || f(&*db)).await??)
    }

    pub(super) fn render(&self, page: &Page, name: &str, ctx: Value) -> Result<Html<String>, AppError> {
        let site = context! {
            title => &self.0.config.title,
            version => env!("CARGO_PKG_VERSION"),
            open => self.0.config.register == Register::Open,
            url => &self.0.url,
        };
        let base = context! { site, me => ser(&page.me), csrf => &page.csrf };
        Ok(Html(self.0.env.get_template(name)?.render(context! { ..ctx, ..base })?))
    }

    /// The ladder's database, configuration and jobs (for the pages of sibling modules).
    pub(super) fn parts(&self) -> (&Arc<Db>, &LadderConfig, &Arc<Jobs>) {
        (&self.0.db, &self.0.config, &self.0.jobs)
    }

    pub(super) fn board(&self, game: &str, variant: &str) -> Option<Board> {
        let game: GameId = self.0.config.game(game).ok()?;
        self.0.config.boards_of(game).find(|b| b.variant == variant).cloned()
    }
}

/// A serializable value for a template.
pub(super) fn ser<T: serde::Serialize>(value: &T) -> Value {
    Value::from(minijinja::value::Serde(value))
}
