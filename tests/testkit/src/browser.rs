//! Headless Chromium for end-to-end tests: Debian's `chromium` driven through its
//! `chromium-driver` over WebDriver (fantoccini), both installed by scripts/test.sh.
//!
//! `let Some(b) = Browser::start().await else { return };` skips the test,
//! saying why, where the tools are missing (and fails it under `CARDARENA_REQUIRE_TOOLS`).
//! Each `Browser` runs its own chromedriver on a free loopback port, in a process group of its
//! own with the Chromium it starts: the group is killed when the `Browser` is dropped, so a test
//! that panics leaves no browser behind.

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub use fantoccini::{Client, Locator};

/// The Chromium binary Debian's chromium-driver drives.
const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromium's flags for a headless run as root in a container, with a fixed window size so
/// screenshots look alike everywhere.
const ARGS: [&str; 5] =
    ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,1000"];

/// One headless Chromium session and the chromedriver it runs under.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    driver: Child,
    /// Chromedriver's address, `http://127.0.0.1:PORT`.
    url: String,
}

fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

impl Browser {
    /// Starts chromedriver and a headless Chromium session; `None` (the test is skipped, with
    /// the reason on stderr) when Chromium or chromedriver is not installed.
    ///
    /// # Panics
    /// Chromedriver does not start or does not open a session within 20 seconds.
    pub async fn start() -> Option<Browser> {
        if !Path::new(CHROMIUM).exists() || !installed("chromedriver") {
            crate::skip_without_tool(
                "the browser test: Debian's chromium and chromium-driver are not installed \
                 (apt-get install chromium chromium-driver, or run scripts/test.sh)",
            );
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".to_string(),
            serde_json::json!({ "binary": CHROMIUM, "args": ARGS }),
        );
        // Chromium's console (script errors, failed loads) for [`Browser::console_errors`].
        caps.insert("goog:loggingPrefs".to_string(), serde_json::json!({ "browser": "ALL" }));
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        // Chromedriver takes a moment to listen; the first session start may fail until it does.
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match fantoccini::ClientBuilder::new(connector).capabilities(caps.clone()).connect(&url).await {
                Ok(client) => break client,
                Err(e) if started.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("no WebDriver session from chromedriver at {url}: {e}"),
            }
        };
        Some(Browser { client, driver, url })
    }

    /// The text of the first element matching a CSS selector.
    pub async fn text(&self, css: &str) -> String {
        let el = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.text().await.unwrap()
    }

    /// The texts of every element matching a CSS selector.
    pub async fn texts(&self, css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for el in self.client.find_all(Locator::Css(css)).await.unwrap() {
            out.push(el.text().await.unwrap());
        }
        out
    }

    /// Presses and releases a key (`fantoccini::key::Key`, or a character's key), as a person
    /// would, on whatever has the focus.
    pub async fn press(&self, key: impl Into<char>) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let c = key.into();
        let keys = KeyActions::new("keyboard".to_string())
            .then(KeyAction::Down { value: c })
            .then(KeyAction::Up { value: c });
        self.client.perform_actions(keys).await.unwrap();
    }

    /// The console messages of level SEVERE (uncaught script errors, resources that failed to
    /// load) since the last call, as `LEVEL message`: chromedriver's log of the browser (its
    /// `/se/log` endpoint; WebDriver itself has no console).
    pub async fn console_errors(&self) -> Vec<String> {
        let session = self.client.session_id().await.unwrap().expect("a WebDriver session");
        let url = format!("{}/session/{session}/se/log", self.url);
        let mut response = ureq::post(&url)
            .header("Content-Type", "application/json")
            .send(r#"{"type": "browser"}"#)
            .unwrap_or_else(|e| panic!("chromedriver's browser log at {url}: {e}"));
        let body: serde_json::Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        body["value"]
            .as_array()
            .expect("a list of log entries")
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| {
                format!("{} {}", e["level"].as_str().unwrap_or("?"), e["message"].as_str().unwrap_or(""))
            })
            .collect()
    }

    /// Saves a screenshot of the first element matching a CSS selector (just that element,
    /// cropped from the page) as `target/screenshots/<name>.png` and returns its path.
    pub async fn screenshot_of(&self, css: &str, name: &str) -> PathBuf {
        let el = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
        let png = el.screenshot().await.unwrap();
        save_png(&png, name)
    }

    /// Saves a screenshot of the window as `target/screenshots/<name>.png` and returns its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.unwrap();
        save_png(&png, name)
    }

    /// Ends the session (Chromium quits), then chromedriver.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    /// Kills chromedriver's process group: chromedriver and the Chromium it started.
    fn drop(&mut self) {
        let group = i32::try_from(self.driver.id()).expect("a pid");
        // SAFETY: kill(2) with the negated id of the group this Browser created.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = self.driver.wait();
    }
}

/// `target/screenshots/`: the target directory is three levels above the running test or example
/// (`target/debug/deps/it-HASH`, `target/debug/examples/NAME`).
pub fn screenshots() -> PathBuf {
    let exe = std::env::current_exe().expect("the running executable's path");
    exe.ancestors().nth(3).expect("an executable in target/PROFILE/KIND/").join("screenshots")
}

/// A runtime for a browser test that is a plain `#[test]` function.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// Writes a PNG screenshot as `target/screenshots/<name>.png` and returns its path.
fn save_png(png: &[u8], name: &str) -> PathBuf {
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    let dir = screenshots();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    path
}
