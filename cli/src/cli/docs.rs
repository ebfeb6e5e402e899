//! `arena docs [TOPIC]`: the documentation pages, compiled into the binary (`include_str!`), so
//! an installed `arena` answers without a checkout. `arena tutorial` writes the pages its
//! README links to from here too ([`write_pages`]).

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context;

use super::print_out;

#[derive(Debug, clap::Args)]
pub(super) struct DocsArgs {
    /// The page to print (`arena docs` alone lists them): bot-api, sandbox, ladder, a game's
    /// name, …
    topic: Option<String>,
}

/// A page: its topic, its path under docs/, what it covers, and its text.
pub(super) struct Page {
    pub(super) topic: &'static str,
    pub(super) path: &'static str,
    about: &'static str,
    pub(super) text: &'static str,
}

macro_rules! page {
    ($topic:literal, $path:literal, $about:literal) => {
        Page {
            topic: $topic,
            path: $path,
            about: $about,
            text: include_str!(concat!("../../../docs/", $path)),
        }
    };
}

/// Every page, in the order `arena docs` lists them.
pub(super) const PAGES: &[Page] = &[
    page!(
        "bot-api",
        "bot-api.md",
        "writing a bot: the Lua and WASM interface, the observation, limits, verdicts"
    ),
    page!("blade", "games/blade.md", "Blade: the rules, the action notation, every observation field"),
    page!("ecard", "games/ecard.md", "E-card: the rules, the action notation, every observation field"),
    page!(
        "lost-cities",
        "games/lost-cities.md",
        "Lost Cities: the rules, the action notation, every observation field"
    ),
    page!(
        "intensity",
        "games/intensity.md",
        "Intensity: the rules, the action notation, every observation field"
    ),
    page!(
        "sandbox",
        "sandbox.md",
        "the sandbox: what fuel counts, memory, the Lua library, WASM module limits"
    ),
    page!("tools", "tools.md", "arena new, check, grade, analyse, schema and playing a bot yourself"),
    page!("tournament", "tournament.md", "tournament files, standings and ratings"),
    page!("replay", "replay.md", "replay files, `arena replay`, crash capsules and `arena repro`"),
    page!("ladder", "ladder.md", "the web ladder: `arena serve` and `arena submit`"),
    page!("legacy-bots", "legacy-bots.md", "stdin/stdout programs compiled to WASI"),
    page!("contract", "CONTRACT.md", "the fixed contract: rules chosen, action notation, bot interface"),
];

/// The page of `topic`, or an error that lists the topics and suggests the closest.
fn find(topic: &str) -> anyhow::Result<&'static Page> {
    let wanted = topic.trim().trim_end_matches(".md").to_ascii_lowercase();
    let wanted = wanted.rsplit('/').next().unwrap_or_default();
    if let Some(p) = PAGES.iter().find(|p| p.topic == wanted) {
        return Ok(p);
    }
    let closest = PAGES
        .iter()
        .map(|p| (cardarena::play::registry::edit_distance(p.topic, wanted), p.topic))
        .filter(|(d, t)| *d <= 2.max(t.len() / 3))
        .min();
    let hint = closest.map(|(_, t)| format!("did you mean `{t}`? ")).unwrap_or_default();
    let topics: Vec<&str> = PAGES.iter().map(|p| p.topic).collect();
    anyhow::bail!("no page {topic:?}: {hint}the topics are {} (`arena docs` lists them)", topics.join(", "))
}

pub(super) fn docs_cmd(args: DocsArgs) -> anyhow::Result<()> {
    match args.topic {
        Some(topic) => print_out(find(&topic)?.text),
        None => {
            let width = PAGES.iter().map(|p| p.topic.len()).max().unwrap_or(0);
            let mut out = String::from("arena docs TOPIC prints a page of the documentation:\n\n");
            for p in PAGES {
                out.push_str(&format!("  {:<width$}  {}\n", p.topic, p.about));
            }
            print_out(&out)
        }
    }
}

/// The relative link targets of a Markdown text (`[text](target)`, images too), without their
/// `#anchor`; web addresses, `mailto:` and in-page anchors are left out.
pub(super) fn relative_links(text: &str) -> Vec<String> {
    links(text).into_iter().filter_map(|l| local_target(&text[l.target]).map(str::to_string)).collect()
}

/// Where a link points inside a folder: its target without the anchor, `None` for a web
/// address or an in-page anchor.
fn local_target(target: &str) -> Option<&str> {
    let path = target.split('#').next().unwrap_or_default();
    (!path.is_empty() && !path.contains("://") && !path.starts_with("mailto:")).then_some(path)
}

/// A Markdown link in a text: byte ranges.
struct Link {
    /// `[label](target)`, with the `!` of an image.
    whole: std::ops::Range<usize>,
    target: std::ops::Range<usize>,
    label: std::ops::Range<usize>,
}

/// Every Markdown link of `text`. Links in fenced code blocks are left alone.
fn links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    let mut offset = 0;
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced {
            let mut from = 0;
            while let Some(at) = line[from..].find("](") {
                let close = from + at;
                let Some(end) = line[close + 2..].find(')').map(|e| close + 2 + e) else { break };
                // the `[` that opens the text, brackets inside the text balanced
                let mut depth = 0;
                let open = line[..close].char_indices().rev().find_map(|(i, c)| match c {
                    ']' => {
                        depth += 1;
                        None
                    }
                    '[' if depth == 0 => Some(i),
                    '[' => {
                        depth -= 1;
                        None
                    }
                    _ => None,
                });
                if let Some(open) = open {
                    let start = if line[..open].ends_with('!') { open - 1 } else { open };
                    out.push(Link {
                        whole: offset + start..offset + end + 1,
                        target: offset + close + 2..offset + end,
                        label: offset + open + 1..offset + close,
                    });
                }
                from = end + 1;
            }
        }
        offset += line.len();
    }
    out
}

/// `text` (the page at `at`, a path relative to the folder) with every relative link whose
/// file is not in `written` turned into its text, followed by the `arena docs` command that
/// shows the page when there is one: in a folder without the checkout, no link leads nowhere.
pub(super) fn unlink_missing(text: &str, at: &str, written: &BTreeSet<String>) -> String {
    let base = Path::new(at).parent().unwrap_or(Path::new(""));
    let mut out = String::new();
    let mut last = 0;
    for Link { whole, target, label } in links(text) {
        let Some(path) = local_target(&text[target]) else { continue };
        let resolved = normalize(&base.join(path));
        if written.contains(&resolved) || written.iter().any(|w| w.starts_with(&format!("{resolved}/"))) {
            continue;
        }
        out.push_str(&text[last..whole.start]);
        out.push_str(&text[label]);
        // the command that shows what the link meant, when it is a page or a tutorial
        if let Some(page) = resolved.strip_prefix("docs/") {
            if let Some(p) = PAGES.iter().find(|p| p.path == page) {
                out.push_str(&format!(" (`arena docs {}`)", p.topic));
            } else if let Some(game) = page.strip_prefix("tutorial/").and_then(|t| t.strip_suffix(".md")) {
                out.push_str(&format!(" (`arena tutorial {game}`)"));
            }
        }
        last = whole.end;
    }
    out.push_str(&text[last..]);
    out
}

/// A relative path with `.` and `..` resolved, with `/` separators (`..` past the start kept).
fn normalize(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if parts.last().is_some_and(|p| p != "..") => {
                parts.pop();
            }
            c => parts.push(c.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}

/// Writes into `dir/docs/` the pages (of [`PAGES`]) that `readme` (at `dir/README.md`) links to
/// as `docs/<path>`; returns the paths written, relative to `dir`.
pub(super) fn write_pages(dir: &Path, readme: &str) -> anyhow::Result<Vec<String>> {
    let wanted: BTreeSet<String> =
        relative_links(readme).into_iter().map(|l| normalize(Path::new(&l))).collect();
    let pages: Vec<&Page> = PAGES.iter().filter(|p| wanted.contains(&format!("docs/{}", p.path))).collect();
    let mut written: BTreeSet<String> = pages.iter().map(|p| format!("docs/{}", p.path)).collect();
    written.insert("README.md".into());
    let mut files = Vec::new();
    for p in pages {
        let rel = format!("docs/{}", p.path);
        let path = dir.join(&rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, unlink_missing(p.text, &rel, &written))
            .with_context(|| format!("cannot write {}", path.display()))?;
        files.push(rel);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_found_with_their_text_and_anchor() {
        let text = "See [the `api`](bot-api.md#limits), ![a picture](img/x.png) and [web](https://x.org).\n```\n[not](code.md)\n```\n";
        assert_eq!(relative_links(text), ["bot-api.md", "img/x.png"]);
    }

    #[test]
    fn missing_targets_become_text_with_the_command() {
        let written: BTreeSet<String> = ["docs/bot-api.md".to_string()].into();
        let text =
            "[api](bot-api.md), [sandbox](sandbox.md#memory), [code](../src/lib.rs), [t](tutorial/ecard.md).";
        assert_eq!(
            unlink_missing(text, "docs/bot-api.md", &written),
            "[api](bot-api.md), sandbox (`arena docs sandbox`), code, t (`arena tutorial ecard`)."
        );
    }

    #[test]
    fn an_unknown_topic_suggests_the_closest() {
        let e = find("sandbx").err().expect("no such page").to_string();
        assert!(e.contains("did you mean `sandbox`?"), "{e}");
        assert_eq!(find("docs/games/lost-cities.md").unwrap().topic, "lost-cities");
    }
}
