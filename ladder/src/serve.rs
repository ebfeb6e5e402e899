//! Serving a ladder: the HTTP server with the background loops that keep it moving
//! (matchmaking every tick, taking results in and moving class events on every second), on a
//! runtime of its own. The matches are played by worker processes on the ladder's queue, which
//! whoever runs the server starts (`arena serve` supervises `arena worker` processes).

use std::sync::Arc;
use std::time::Duration;

use crate::jobs::JobError;
use crate::{class, db, tick_jobs, Db, Jobs, Ladder, LadderConfig};

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The runtime could not start.
    #[error("cannot start the server's runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The address is in use or not valid.
    #[error("cannot listen on {bind} (in use? pick another with --bind): {source}")]
    Bind {
        /// The address asked for.
        bind: String,
        /// The system's reason.
        #[source]
        source: std::io::Error,
    },
    /// The server failed while serving.
    #[error("the server stopped: {0}")]
    Stopped(#[source] std::io::Error),
}

/// Serves the ladder on `db` with `config` at `bind` until Ctrl-C (or SIGTERM's Ctrl-C
/// handler); `url` is how people reach it. `listening` is called once the address is bound.
///
/// # Errors
/// [`ServeError`].
pub fn serve(
    db: Arc<Db>,
    config: LadderConfig,
    jobs: Arc<Jobs>,
    bind: &str,
    url: &str,
    listening: impl FnOnce(),
) -> Result<(), ServeError> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(ServeError::Runtime)?;
    // The storage and the queue are dropped here, after the runtime: a synchronous PostgreSQL
    // client blocks on its own runtime when dropped, which a tokio thread may not do.
    let _outlive_runtime = (db.clone(), jobs.clone());
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|source| ServeError::Bind { bind: bind.to_string(), source })?;
        let ladder = Ladder::new(db.clone(), config.clone(), jobs, url);
        tokio::spawn(matchmaking(db, config, ladder.clone()));
        tokio::spawn(collecting(ladder.clone()));
        listening();
        axum::serve(listener, crate::router(ladder))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(ServeError::Stopped)
    });
    drop(runtime);
    served
}

/// Every second, takes the finished jobs in (matches onto the boards, validation verdicts) and
/// moves the class events on (a deadline passed: freeze and queue; every match in: grade).
async fn collecting(ladder: Ladder) {
    let mut every = tokio::time::interval(Duration::from_secs(1));
    loop {
        every.tick().await;
        let l = ladder.clone();
        if let Ok(Err(e)) = tokio::task::spawn_blocking(move || l.collect()).await {
            eprintln!("taking results in: {e}");
        }
        let l = ladder.clone();
        let now = db::now();
        if let Ok(Err(e)) = tokio::task::spawn_blocking(move || class::tick(&l, now)).await {
            eprintln!("class events: {e}");
        }
    }
}

/// Every `tick_seconds`, queues the tick's duplicate sets (off the async threads).
async fn matchmaking(db: Arc<Db>, config: LadderConfig, ladder: Ladder) {
    let mut every = tokio::time::interval(Duration::from_secs(config.tick_seconds));
    loop {
        every.tick().await;
        let (db, config, ladder) = (db.clone(), config.clone(), ladder.clone());
        let done = tokio::task::spawn_blocking(move || -> Result<(), JobError> {
            let tick = db.next_tick()?;
            ladder.enqueue(&tick_jobs(&*db, &config, tick)?)
        })
        .await;
        if let Ok(Err(e)) = done {
            eprintln!("matchmaking: {e}");
        }
    }
}
