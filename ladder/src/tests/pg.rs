//! A throwaway PostgreSQL cluster for tests: made by `initdb` in a temporary folder, listening
//! on a loopback port with its socket in that folder, stopped and removed when dropped. Shared
//! by the ladder crate's store tests and tests/ladder_pg.rs (which includes this file).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running cluster.
pub struct Pg {
    dir: PathBuf,
    bin: PathBuf,
    pub port: u16,
}

/// Whether this process runs as root (the owner of its own /proc entry).
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// `tool` of PostgreSQL's `bin`, run as the `postgres` user when this process is root
/// (`initdb` refuses to run as root).
fn as_postgres(bin: &Path, tool: &str) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(tool));
        c
    } else {
        Command::new(bin.join(tool))
    }
}

impl Pg {
    /// A cluster, or why there is none (PostgreSQL is not installed).
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
        if is_root() {
            let ok = Command::new("chown").args(["-R", "postgres"]).arg(&dir).status().unwrap().success();
            assert!(ok, "chown postgres {}", dir.display());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let out = as_postgres(&bin, "initdb")
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"])
            .arg(dir.join("data"))
            .output()
            .unwrap();
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        let options = format!(
            "-k {} -c listen_addresses=127.0.0.1 -p {port} -c fsync=off -c max_connections=50",
            dir.display()
        );
        let out = as_postgres(&bin, "pg_ctl")
            .arg("-D")
            .arg(dir.join("data"))
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-o", &options, "-w", "start"])
            .output()
            .unwrap();
        let pg = Pg { dir, bin, port };
        assert!(out.status.success(), "pg_ctl start: {}", String::from_utf8_lossy(&out.stderr));
        Ok(pg)
    }

    /// A cluster, or `None` (and why, on standard error) when PostgreSQL is not installed and
    /// CARDARENA_REQUIRE_TOOLS is not set; with it set, a missing PostgreSQL fails the test.
    pub fn or_skip(name: &str) -> Option<Pg> {
        match Pg::start(name) {
            Ok(pg) => Some(pg),
            Err(why) if std::env::var_os("CARDARENA_REQUIRE_TOOLS").is_none() => {
                eprintln!("skipped: this test needs a PostgreSQL server to start: {why}");
                None
            }
            Err(why) => panic!("CARDARENA_REQUIRE_TOOLS is set but {why}"),
        }
    }

    /// A new, empty database of the cluster, as a URL.
    pub fn database(&self, name: &str) -> String {
        let out = Command::new(self.bin.join("createdb"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "postgres", name])
            .output()
            .unwrap();
        assert!(out.status.success(), "createdb {name}: {}", String::from_utf8_lossy(&out.stderr));
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        let _ = as_postgres(&self.bin, "pg_ctl")
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
