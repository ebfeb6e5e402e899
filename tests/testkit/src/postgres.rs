//! A throwaway PostgreSQL cluster for the tests of the job queue's and the ladder's PostgreSQL
//! backends (tests/it/queue.rs, examples/kuhn-arena's tests): Debian's server, started by the
//! test on a loopback port in a temporary folder and stopped when dropped.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A throwaway PostgreSQL cluster in a temporary folder, on a loopback port, its socket in
/// that folder; stopped (and removed) when dropped. `initdb` refuses to run as root, so as
/// root it runs as the `postgres` user.
pub struct Pg {
    dir: PathBuf,
    bin: PathBuf,
    /// The loopback port it listens on.
    pub port: u16,
}

fn as_postgres(bin: &Path, tool: &str) -> Command {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(tool));
        c
    } else {
        Command::new(bin.join(tool))
    }
}

impl Pg {
    /// The cluster, or why there is none (PostgreSQL is not installed).
    pub fn start(name: &str) -> Result<Pg, String> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .map_err(|_| {
                "PostgreSQL is not installed (no /usr/lib/postgresql; Debian: apt-get install postgresql)"
                    .to_string()
            })?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|b| b.join("initdb").is_file())
            .max()
            .ok_or("no /usr/lib/postgresql/*/bin/initdb")?;
        let dir = std::env::temp_dir().join(format!("cardarena-pg-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            let ok = Command::new("chown").args(["-R", "postgres"]).arg(&dir).status().unwrap().success();
            assert!(ok, "chown postgres {}", dir.display());
        }
        let data = dir.join("data");
        let out = as_postgres(&bin, "initdb")
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        let pg = Pg { dir, bin, port };
        pg.start_again();
        Ok(pg)
    }

    /// Starts the cluster (again: on the same port and data folder).
    pub fn start_again(&self) {
        let options = format!(
            "-k {} -c listen_addresses=127.0.0.1 -p {} -c fsync=off -c max_connections=50",
            self.dir.display(),
            self.port
        );
        let out = as_postgres(&self.bin, "pg_ctl")
            .args(["-D"])
            .arg(self.dir.join("data"))
            .args(["-l"])
            .arg(self.dir.join("log"))
            .args(["-o", &options, "-w", "start"])
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_ctl start: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Stops the cluster at once, as a crash would (`pg_ctl stop -m immediate`): every
    /// connection is cut, and the server recovers from its WAL when started again.
    pub fn stop_now(&self) {
        let out = as_postgres(&self.bin, "pg_ctl")
            .args(["-D"])
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"])
            .output()
            .unwrap();
        assert!(out.status.success(), "pg_ctl stop: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// A new database of the cluster, as a URL.
    pub fn database(&self, name: &str) -> String {
        let mut c = self.client("postgres");
        c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    pub fn client(&self, db: &str) -> postgres::Client {
        postgres::Client::connect(
            &format!("postgres://postgres@127.0.0.1:{}/{db}", self.port),
            postgres::NoTls,
        )
        .unwrap()
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        let _ = as_postgres(&self.bin, "pg_ctl")
            .args(["-D"])
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A cluster, or `None` (and why, on standard error) when PostgreSQL is not installed and
/// CARDARENA_REQUIRE_TOOLS is not set.
pub fn cluster(name: &str) -> Option<Pg> {
    match Pg::start(name) {
        Ok(pg) => Some(pg),
        Err(why) if std::env::var_os("CARDARENA_REQUIRE_TOOLS").is_none() => {
            eprintln!("skipped: the PostgreSQL tests need a PostgreSQL server to start: {why}");
            None
        }
        Err(why) => panic!("CARDARENA_REQUIRE_TOOLS is set but {why}"),
    }
}
