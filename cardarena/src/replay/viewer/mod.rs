//! The web replay viewer: a replay as frames made by the engine ([`frames`]), drawn by a small
//! vanilla-JavaScript module ([`VIEWER_JS`], [`VIEWER_CSS`]) that has no rules of its own, and
//! the self-contained page of `arena replay --html` ([`page`]) that inlines all three.
//!
//! A server embeds the viewer in its own pages with [`fragment`] (or serves the two assets, puts
//! the frames JSON on its page and calls `mount(element, frames, options)` itself; docs/replay.md,
//! "`--html`: the web viewer").

pub mod frames;

pub use frames::{frames_of, Frames};

/// The viewer, an ES module exporting `mount(element, frames, {replayText, replayName,
/// replayUrl, verifyCommand, analysis})`.
pub const VIEWER_JS: &str = include_str!("viewer.js");

/// The viewer's style sheet (every class starts with `rv-` or is `card`).
pub const VIEWER_CSS: &str = include_str!("viewer.css");

/// What the viewer offers beside the frames (its `options`).
#[derive(Clone, Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewerOptions {
    /// The replay file's text, offered for download as it is (a page that must work offline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_text: Option<String>,
    /// A link to the replay file instead (a server).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_url: Option<String>,
    /// The downloaded file's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_name: Option<String>,
    /// The command that checks the downloaded replay, shown beside the link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_command: Option<String>,
    /// One seat's analysis (`arena analyse`), drawn as a strip under the slider (each decision's
    /// loss and mark, a click goes to it) and, on an analysed step, the actions' values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<crate::analyse::Analysis>,
}

/// JSON that is safe inside a `<script>` element: `<` is written as `\u003c` (it can only occur
/// inside JSON strings, where the escape means the same), so no `</script>` or `<!--` can end or
/// change the element, whatever a bot named itself or logged.
fn script_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("frames serialize").replace('<', "\\u003c")
}

/// The text of the fragment's one executed script (the viewer and the call that mounts it):
/// the same for every replay, so that a server's Content-Security-Policy can allow it by its
/// hash (`'sha256-...'`) without allowing any other inline script.
pub fn mount_script() -> String {
    format!(
        "\n{VIEWER_JS}\n\
const data = (id) => JSON.parse(document.getElementById(id).textContent);\n\
mount(document.getElementById(\"viewer\"), data(\"frames\"), data(\"options\"));\n"
    )
}

/// The viewer as a piece of any HTML page (once per page): its element, the frames and options as
/// JSON data, and the script (inline, [`mount_script`]) that mounts it. The page includes
/// [`VIEWER_CSS`].
pub fn fragment(frames: &Frames, options: &ViewerOptions) -> String {
    format!(
        "<div id=\"viewer\"></div>\n\
<script type=\"application/json\" id=\"frames\">{}</script>\n\
<script type=\"application/json\" id=\"options\">{}</script>\n\
<script type=\"module\">{}</script>\n",
        script_json(frames),
        script_json(options),
        mount_script(),
    )
}

/// The self-contained HTML page of `arena replay --html` showing `frames` (style, script and
/// data inline; nothing fetched, so it works from `file://`), with `replay_text` (the replay's
/// JSON) offered for download; `None`: no download (a page of [`Frames::for_seat`] must not
/// carry the whole match).
pub fn page(frames: &Frames, replay_text: Option<&str>) -> String {
    page_analysed(frames, replay_text, None)
}

/// [`page`] with one seat's analysis drawn as the analysis strip (`arena replay --html
/// --analyse N`).
pub fn page_analysed(
    frames: &Frames,
    replay_text: Option<&str>,
    analysis: Option<crate::analyse::Analysis>,
) -> String {
    let name = format!("{}-{}.json", frames.game, frames.seed);
    let options = ViewerOptions {
        replay_text: replay_text.map(str::to_string),
        replay_url: None,
        verify_command: Some(format!("arena replay {name} --verify")),
        replay_name: Some(name),
        analysis,
    };
    // The game, variant and seed of frames made by `frames` are names of the game list and a
    // number, so the title needs no escaping.
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{} ({}) seed {}: replay</title>\n<style>\n{VIEWER_CSS}</style></head>\n<body>\n{}</body></html>\n",
        frames.game,
        frames.variant,
        frames.seed,
        fragment(frames, &options),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arena, GameId, Games};

    #[test]
    fn the_page_inlines_everything_and_no_bot_text_can_close_its_script() {
        let mut replay =
            Arena::new().play(GameId::of::<crate::games::blade::Blade>(), 1, &["random", "random"]).unwrap();
        replay.bots[0].name = "</script><script>alert(1)</script>".into();
        let text = serde_json::to_string_pretty(&replay).unwrap();
        let f = Games::builtin().frames(&replay, "m.json").unwrap();
        let html = page(&f, Some(&text));
        assert_eq!(html.matches("</script>").count(), 3, "only the page's own three scripts end");
        assert!(!html.contains("<!--"));
        for fetch in ["http:", "https:", " src=", "<link"] {
            assert!(!html.contains(fetch), "the page fetches something ({fetch})");
        }
        // the embedded data reads back as the frames and the replay text, exactly
        let data = |id: &str| -> serde_json::Value {
            let start = html.find(&format!("id=\"{id}\">")).unwrap() + id.len() + 6;
            let end = start + html[start..].find("</script>").unwrap();
            serde_json::from_str(&html[start..end]).unwrap()
        };
        assert_eq!(data("frames"), serde_json::to_value(&f).unwrap());
        assert_eq!(data("options")["replayText"], text);
    }
}
