//! What `tagloom view` serves: the routes, the directory index, and the mapping of
//! URL paths to files (confined to the directory given).

use std::fmt::Write as _;
use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use tiny_http::{Header, Request, Response, StatusCode};

use super::stream;

/// The viewer page.
const VIEWER_HTML: &str = include_str!("viewer.html");
/// The batch applier the page loads (standalone; see its header).
const APPLY_BATCH_JS: &str = include_str!("apply_batch.js");

/// The most files the index of a directory lists.
pub(super) const MAX_INDEX_FILES: usize = 10_000;
/// The deepest subdirectory the index descends into.
const MAX_INDEX_DEPTH: usize = 32;

/// The file or directory being served.
pub(super) struct Site {
    root: Root,
    throttle: Option<u64>,
}

enum Root {
    File(PathBuf),
    /// Canonical.
    Dir(PathBuf),
}

impl Site {
    /// Checks `path` now, so a bad argument fails before the server starts.
    pub(super) fn new(path: &Path, throttle: Option<u64>) -> Result<Site> {
        let meta = fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        let root = if meta.is_dir() {
            Root::Dir(
                path.canonicalize()
                    .with_context(|| format!("cannot read {}", path.display()))?,
            )
        } else if meta.is_file() {
            fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            Root::File(path.to_owned())
        } else {
            bail!("{} is neither a file nor a directory", path.display());
        };
        Ok(Site { root, throttle })
    }

    /// Answers one request (errors writing to the client are the client's loss).
    pub(super) fn handle(&self, request: Request) {
        if !matches!(request.method(), tiny_http::Method::Get) {
            let _ = request.respond(text(405, "only GET is served"));
            return;
        }
        let url = request.url();
        let path = url.split(['?', '#']).next().unwrap_or_default().to_owned();
        match (&self.root, path.as_str()) {
            (_, "/apply_batch.js") => {
                let _ = request.respond(page(APPLY_BATCH_JS, "text/javascript; charset=utf-8"));
            }
            (Root::File(_), "/") => {
                let _ = request.respond(page(VIEWER_HTML, "text/html; charset=utf-8"));
            }
            (Root::File(file), "/events") => self.events(request, file.clone()),
            (Root::Dir(dir), "/") => {
                let _ = request.respond(match index(dir) {
                    Ok(html) => page(&html, "text/html; charset=utf-8"),
                    Err(e) => text(500, &format!("{e:#}")),
                });
            }
            (Root::Dir(dir), _) => {
                let (viewer, rest) =
                    match (path.strip_prefix("/view/"), path.strip_prefix("/events/")) {
                        (Some(rest), _) => (true, rest),
                        (None, Some(rest)) => (false, rest),
                        (None, None) => {
                            let _ = request.respond(text(404, "not found"));
                            return;
                        }
                    };
                match resolve(dir, rest) {
                    Some(_) if viewer => {
                        let _ = request.respond(page(VIEWER_HTML, "text/html; charset=utf-8"));
                    }
                    Some(file) => self.events(request, file),
                    None => {
                        let _ = request.respond(text(404, "no such file"));
                    }
                }
            }
            (Root::File(_), _) => {
                let _ = request.respond(text(404, "not found"));
            }
        }
    }

    fn events(&self, request: Request, file: PathBuf) {
        stream::serve(request.into_writer(), &file, self.throttle);
    }
}

/// A header from this file's ASCII constants (never from a request).
fn header(name: &'static str, value: &'static str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header constants")
}

fn page(body: &str, content_type: &'static str) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_data(body.as_bytes().to_vec())
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
}

fn text(status: u16, message: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    page(message, "text/plain; charset=utf-8").with_status_code(StatusCode(status))
}

/// The file `rest` (a URL path below `/view/` or `/events/`, percent-encoded)
/// names inside `dir`, if it is a regular file there (symbolic links followed only
/// while they stay inside).
fn resolve(dir: &Path, rest: &str) -> Option<PathBuf> {
    let decoded = percent_decode(rest)?;
    let relative = Path::new(&decoded);
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let full = dir.join(relative).canonicalize().ok()?;
    (full.starts_with(dir) && full.is_file()).then_some(full)
}

/// `%XX` decoding; `None` for a bad escape or text that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(s.len());
    let mut rest = s.as_bytes();
    while let Some((&b, after)) = rest.split_first() {
        if b == b'%' {
            let hex = after.get(..2)?;
            let hex = std::str::from_utf8(hex).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = after.get(2..)?;
        } else {
            bytes.push(b);
            rest = after;
        }
    }
    String::from_utf8(bytes).ok()
}

/// A relative path as a URL path: every byte but unreserved ones and `/` escaped.
fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The index page of `dir`: its files (hidden ones and symbolic links left out),
/// sorted, at most [`MAX_INDEX_FILES`].
fn index(dir: &Path) -> Result<String> {
    let mut files = Vec::new();
    let mut truncated = false;
    collect(dir, dir, 0, &mut files, &mut truncated)?;
    files.sort();
    let mut html = String::from(
        "<!DOCTYPE html><html lang=en><meta charset=utf-8><title>tagloom view</title>\
         <style>body{font:14px system-ui,sans-serif;margin:1em 2em}li{margin:2px 0}</style>\
         <h1>tagloom view</h1>",
    );
    let _ = write!(
        html,
        "<p>{} · {} files</p><ul>",
        escape_html(&dir.display().to_string()),
        files.len()
    );
    for file in &files {
        let _ = write!(
            html,
            "<li><a href=\"/view/{}\">{}</a>",
            escape_html(&percent_encode(file)),
            escape_html(file)
        );
    }
    html.push_str("</ul>");
    if truncated {
        let _ = write!(
            html,
            "<p>Only the first {MAX_INDEX_FILES} files are listed.</p>"
        );
    }
    Ok(html)
}

fn collect(
    root: &Path,
    dir: &Path,
    depth: usize,
    files: &mut Vec<String>,
    truncated: &mut bool,
) -> Result<()> {
    let entries = fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() && depth < MAX_INDEX_DEPTH {
            collect(root, &path, depth + 1, files, truncated)?;
        } else if kind.is_file() {
            if files.len() >= MAX_INDEX_FILES {
                *truncated = true;
                return Ok(());
            }
            // Names that are not UTF-8 cannot be asked for by URL: left out.
            if let Some(relative) = path.strip_prefix(root).ok().and_then(Path::to_str) {
                files.push(relative.to_owned());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_map_to_files_inside_the_directory_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        fs::create_dir(root.join("sub")).unwrap();
        fs::write(root.join("sub/a b.html"), "<p>x").unwrap();
        fs::write(dir.path().parent().unwrap().join("outside.html"), "").ok();
        assert_eq!(
            resolve(&root, &percent_encode("sub/a b.html")),
            Some(root.join("sub/a b.html"))
        );
        for bad in [
            "../outside.html",
            "sub/../../outside.html",
            "/etc/passwd",
            "sub",
            "%zz",
            "nope",
        ] {
            assert_eq!(resolve(&root, bad), None, "{bad}");
        }
        let html = index(&root).unwrap();
        assert!(html.contains("href=\"/view/sub/a%20b.html\""), "{html}");
        assert_eq!(percent_decode("a%20b%2Fc").as_deref(), Some("a b/c"));
    }
}
