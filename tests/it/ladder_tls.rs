//! The ladder behind TLS as docs/deploy.md sets it up: Debian's nginx, with the server block of
//! docs/deploy.md and a throwaway self-signed certificate (made here with `openssl`), in front of
//! `arena serve` on loopback; curl (trusting that certificate) signs in, uploads two bots through
//! the form, and audits a match (its page, replay and bot files through HTTPS, then `arena replay
//! --verify`).

use testkit::ladder;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ladder::{between, free_port, Server, PATIENCE};

/// Where `program` is: on the PATH, or in /usr/sbin (nginx, for a user whose PATH lacks it).
fn installed(program: &str) -> Option<PathBuf> {
    let found = Command::new("sh").args(["-c", &format!("command -v {program}")]).output().ok()?;
    let path = String::from_utf8_lossy(&found.stdout).trim().to_string();
    if found.status.success() && !path.is_empty() {
        return Some(PathBuf::from(path));
    }
    Some(Path::new("/usr/sbin").join(program)).filter(|p| p.is_file())
}

/// nginx in the foreground (one process, no daemon), stopped when dropped.
struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first ```nginx block of docs/deploy.md: the HTTPS server.
fn documented_server_block() -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/deploy.md")).unwrap();
    between(&doc, "```nginx\n", "```").expect("docs/deploy.md has an nginx server block")
}

fn start_nginx(nginx: &Path, dir: &Path, tls_port: u16, upstream: &str) -> Nginx {
    let block = documented_server_block()
        .replace("listen 443 ssl;", &format!("listen 127.0.0.1:{tls_port} ssl;"))
        .replace("ladder.example.org", "localhost")
        .replace("/etc/letsencrypt/live/localhost/fullchain.pem", &dir.join("cert.pem").display().to_string())
        .replace("/etc/letsencrypt/live/localhost/privkey.pem", &dir.join("key.pem").display().to_string())
        .replace("http://127.0.0.1:8080", upstream);
    let block: String = block.lines().filter(|l| !l.contains("[::]")).map(|l| format!("{l}\n")).collect();
    assert!(block.contains(upstream) && block.contains("cert.pem"), "the documented block changed:\n{block}");
    let d = dir.display();
    // SAFETY: geteuid(2) has no preconditions.
    let user = if unsafe { libc::geteuid() } == 0 { "user root;\n" } else { "" };
    let conf = format!(
        "{user}daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{}}\nhttp {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n{block}}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let child = Command::new(nginx)
        .args(["-p", &d.to_string(), "-c", &dir.join("nginx.conf").display().to_string(), "-e"])
        .arg(dir.join("error.log"))
        .stdin(Stdio::null())
        .spawn()
        .expect("nginx starts");
    let nginx = Nginx(child);
    let until = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", tls_port)).is_err() {
        assert!(Instant::now() < until, "nginx did not listen: {}", read(&dir.join("error.log")));
        std::thread::sleep(Duration::from_millis(50));
    }
    nginx
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// curl through the proxy, trusting only the test's certificate, with a cookie jar.
struct Https {
    dir: PathBuf,
    base: String,
    port: u16,
    csrf: String,
}

struct Reply {
    status: u16,
    headers: String,
    body: Vec<u8>,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl Https {
    fn call(&mut self, path: &str, args: &[&str]) -> Reply {
        let (headers, body) = (self.dir.join("headers.txt"), self.dir.join("body.bin"));
        let out = Command::new("curl")
            .args(["-sS", "--cacert"])
            .arg(self.dir.join("cert.pem"))
            .args(["--resolve", &format!("localhost:{}:127.0.0.1", self.port)])
            .arg("-b")
            .arg(self.dir.join("cookies.txt"))
            .arg("-c")
            .arg(self.dir.join("cookies.txt"))
            .arg("-D")
            .arg(&headers)
            .arg("-o")
            .arg(&body)
            .args(["-w", "%{http_code}"])
            .args(args)
            .arg(format!("{}{path}", self.base))
            .output()
            .unwrap();
        assert!(out.status.success(), "curl {path}: {}", String::from_utf8_lossy(&out.stderr));
        let reply = Reply {
            status: String::from_utf8_lossy(&out.stdout).trim().parse().unwrap(),
            headers: read(&headers).to_lowercase(),
            body: std::fs::read(&body).unwrap_or_default(),
        };
        if let Some(t) = between(&reply.text(), "name=\"csrf\" value=\"", "\"") {
            self.csrf = t;
        }
        reply
    }

    fn get(&mut self, path: &str) -> Reply {
        self.call(path, &[])
    }

    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let mut args = vec!["--data-urlencode".to_string(), format!("csrf={}", self.csrf)];
        for (k, v) in fields {
            args.extend(["--data-urlencode".to_string(), format!("{k}={v}")]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        self.call(path, &args)
    }

    fn upload(&mut self, name: &str, file: &Path) -> Reply {
        self.get("/upload");
        let csrf = format!("csrf={}", self.csrf);
        let name = format!("name={name}");
        let file = format!("file=@{}", file.display());
        self.call("/upload", &["-F", &csrf, "-F", "game=blade", "-F", &name, "-F", &file])
    }
}

#[test]
fn the_ladder_behind_nginx_over_https_signs_in_uploads_and_is_audited() {
    let mut tools = Vec::new();
    for tool in ["nginx", "openssl", "curl"] {
        match installed(tool) {
            Some(path) => tools.push(path),
            None => {
                testkit::skip_without_tool(&format!("the TLS test needs {tool} (Debian's package)"));
                return;
            }
        }
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ladder-tls");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost", "-keyout", "key.pem", "-out", "cert.pem"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "openssl: {}", String::from_utf8_lossy(&out.stderr));
    let tls_port = free_port();
    let public = format!("https://localhost:{tls_port}");
    std::fs::write(
        dir.join("ladder.toml"),
        format!(
            "title = \"tls\"\nsame_owner = true\npublic_url = \"{public}\"\n[[board]]\ngame = \"blade\"\n\
             [matchmaking]\ntick_seconds = 1\njobs_per_tick = 1\n"
        ),
    )
    .unwrap();
    let server = Server::start(Path::new(env!("CARGO_BIN_EXE_arena")), &dir, 1, 60.0);
    let invite = server.invite.clone().expect("the first start prints the admin's invite link");
    assert!(invite.starts_with(&format!("{public}/register?invite=")), "links use public_url: {invite}");
    let _nginx = start_nginx(&tools[0], &dir, tls_port, &server.url);
    std::fs::write(dir.join("cookies.txt"), "").unwrap();
    let mut web = Https { dir: dir.clone(), base: public.clone(), port: tls_port, csrf: String::new() };

    // Sign up by the invite, through HTTPS: the session cookie is Secure, the headers pass.
    let code = invite.split("invite=").nth(1).unwrap().to_string();
    let r = web.get(&format!("/register?invite={code}"));
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.headers.contains("content-security-policy:") && r.headers.contains("frame-ancestors 'none'"));
    assert!(r.headers.contains("x-content-type-options: nosniff"), "{}", r.headers);
    let r = web.post("/register", &[("invite", &code), ("name", "teacher"), ("password", "correct horse")]);
    assert_eq!(r.status, 303, "{}", r.text());
    let cookie = r.headers.lines().find(|l| l.starts_with("set-cookie:")).unwrap_or_default().to_string();
    assert!(cookie.contains("secure") && cookie.contains("httponly"), "{}", r.headers);
    assert!(web.get("/account").text().contains("teacher"));

    // Two bots through the upload form.
    let lua = |f: &str| Path::new(env!("CARGO_MANIFEST_DIR")).join("example_bots/lua").join(f);
    for (name, file) in [("greedy", "blade_greedy.lua"), ("dice", "blade_random.lua")] {
        let r = web.upload(name, &lua(file));
        assert_eq!(r.status, 303, "{}", r.text());
    }

    // A match, from a bot page.
    let until = Instant::now() + PATIENCE;
    let id = loop {
        let bot = web.get("/bots/1").text();
        if let Some(id) = between(&bot, "href=\"/matches/", "\"") {
            break id;
        }
        assert!(Instant::now() < until, "no match was played: {bot}");
        std::thread::sleep(Duration::from_millis(200));
    };

    // The audit, through HTTPS: the match page, its replay and the bots' files.
    let page = web.get(&format!("/matches/{id}"));
    assert_eq!(page.status, 200);
    assert!(page.headers.contains("content-security-policy:"), "{}", page.headers);
    let page = page.text();
    let audit = dir.join("audit");
    std::fs::create_dir_all(&audit).unwrap();
    let replay = web.get(&format!("/matches/{id}/replay.json"));
    assert_eq!(replay.status, 200);
    let replay_file = audit.join(format!("match-{id}.json"));
    std::fs::write(&replay_file, &replay.body).unwrap();
    let mut rest = page.as_str();
    let mut files = 0;
    while let Some(at) = rest.find("class=\"bot-file\" href=\"") {
        rest = &rest[at + "class=\"bot-file\" href=\"".len()..];
        // (minijinja writes `/` in attributes as `&#x2f;`)
        let link = rest.split('"').next().unwrap().replace("&#x2f;", "/");
        let name = between(rest, "download=\"", "\"").unwrap();
        let file = web.get(&link);
        assert_eq!(file.status, 200, "{link}");
        std::fs::write(audit.join(name), &file.body).unwrap();
        files += 1;
    }
    assert_eq!(files, 2, "{page}");
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["replay", replay_file.to_str().unwrap(), "--verify"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && report.contains("identical"),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
