//! The browser process and its DevTools pipe.
//!
//! `--remote-debugging-pipe` makes Chromium read commands from fd 3 and write
//! answers and events to fd 4, each message one JSON object followed by a NUL
//! byte. std cannot place a pipe on fd 3 or 4 of a child without `unsafe`
//! (`pre_exec` + `dup2`), so the child is `sh`, given the two pipes as its stdin
//! and stdout, which moves them to fds 3 and 4 and then `exec`s the browser
//! (`exec "$0" "$@" 3<&0 4>&1 <&- >&2`). A reader thread splits fd 4 at NULs and
//! sends each parsed message down a channel; [`Browser::call`] writes a command
//! and waits on the channel, with a timeout, for the answer with its id, keeping
//! the events that arrive meanwhile for [`Browser::wait_event`].

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::error::BrowserError;

/// How much of the browser's stderr is kept for error messages.
const STDERR_TAIL: usize = 4096;

/// The names tried on `PATH`, in order.
const NAMES: [&str; 4] = ["chromium", "chromium-browser", "google-chrome", "chrome"];

/// Launch settings.
#[derive(Clone, Debug)]
pub struct LaunchOptions {
    /// The browser binary; `None`: [`find_chromium`].
    pub program: Option<PathBuf>,
    /// How long a command may take before [`BrowserError::Timeout`].
    pub timeout: Duration,
    /// How long [`Browser::close`] waits for the process to exit before killing it.
    pub shutdown_grace: Duration,
    /// The window size (also the size of screenshots).
    pub window: (u32, u32),
    /// Extra command-line switches.
    pub extra_args: Vec<String>,
}

impl Default for LaunchOptions {
    /// `find_chromium`, 60 s per command, 5 s to exit, 1024×768.
    fn default() -> Self {
        LaunchOptions {
            program: None,
            timeout: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(5),
            window: (1024, 768),
            extra_args: Vec::new(),
        }
    }
}

/// The Chromium binary: `TAGLOOM_CHROMIUM` if it names a file, else the first of
/// `chromium`, `chromium-browser`, `google-chrome`, `chrome` found on `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TAGLOOM_CHROMIUM").map(PathBuf::from)
        && path.is_file()
    {
        return Some(path);
    }
    let paths = std::env::var_os("PATH")?;
    NAMES.iter().find_map(|name| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// A running headless Chromium and its DevTools pipe. Closed (politely, then by
/// force) on [`close`](Self::close) or drop; its profile directory is removed.
#[derive(Debug)]
pub struct Browser {
    child: Child,
    commands: std::io::PipeWriter,
    messages: Receiver<Value>,
    events: VecDeque<Value>,
    next_id: u64,
    timeout: Duration,
    grace: Duration,
    stderr: Arc<Mutex<String>>,
    profile: PathBuf,
    closed: bool,
}

impl Browser {
    /// Starts headless Chromium (`--headless --no-sandbox`, a fresh profile in
    /// the temp directory) with its DevTools pipe.
    ///
    /// ```no_run
    /// use tagloom_browser::{Browser, LaunchOptions};
    ///
    /// let mut browser = Browser::launch(&LaunchOptions::default())?;
    /// let mut page = browser.new_page()?;
    /// let n = page.evaluate("new DOMParser().parseFromString('<p>a<p>b', 'text/html').body.children.length")?;
    /// assert_eq!(n, 2);
    /// drop(page);
    /// browser.close()?;
    /// # Ok::<(), tagloom_browser::BrowserError>(())
    /// ```
    pub fn launch(options: &LaunchOptions) -> Result<Browser, BrowserError> {
        let program = match &options.program {
            Some(p) => p.clone(),
            None => find_chromium().ok_or(BrowserError::NotFound)?,
        };
        let profile = profile_dir();
        let launch_error = |source| BrowserError::Launch {
            program: program.display().to_string(),
            source,
        };
        if !program.is_file() {
            return Err(launch_error(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such file",
            )));
        }
        std::fs::create_dir_all(&profile).map_err(launch_error)?;
        let (from_browser, browser_out) = std::io::pipe().map_err(launch_error)?;
        let (browser_in, commands) = std::io::pipe().map_err(launch_error)?;
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 <&- >&2"#)
            .arg(&program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--mute-audio",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!(
                "--window-size={},{}",
                options.window.0, options.window.1
            ))
            .args(&options.extra_args)
            .arg("about:blank")
            .stdin(Stdio::from(browser_in))
            .stdout(Stdio::from(browser_out))
            .stderr(Stdio::piped());
        let mut child = command.spawn().map_err(launch_error)?;
        // The child's ends live on in `command`: drop it, so that the reader sees
        // end of file when the browser exits.
        drop(command);
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(err) = child.stderr.take() {
            spawn_stderr_tail(err, Arc::clone(&stderr));
        }
        let (sender, messages) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(from_browser);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(0, &mut buffer) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                if buffer.last() == Some(&0) {
                    buffer.pop();
                }
                let message = serde_json::from_slice::<Value>(&buffer).unwrap_or_else(
                    |e| json!({ "tagloomMalformed": e.to_string(), "length": buffer.len() }),
                );
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Ok(Browser {
            child,
            commands,
            messages,
            events: VecDeque::new(),
            next_id: 1,
            timeout: options.timeout,
            grace: options.shutdown_grace,
            stderr,
            profile,
            closed: false,
        })
    }

    /// The timeout of every later command.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Sends `method` with `params` (to the target session `session`, or to the
    /// browser) and returns the answer's `result`.
    pub fn call(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
    ) -> Result<Value, BrowserError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let (Some(s), Some(object)) = (session, message.as_object_mut()) {
            object.insert("sessionId".into(), Value::String(s.to_owned()));
        }
        let mut bytes = serde_json::to_vec(&message).map_err(|e| BrowserError::Malformed {
            method: method.to_owned(),
            detail: e.to_string(),
        })?;
        bytes.push(0);
        if let Err(e) = self
            .commands
            .write_all(&bytes)
            .and_then(|()| self.commands.flush())
        {
            return Err(match e.kind() {
                std::io::ErrorKind::BrokenPipe => self.closed_error(),
                _ => BrowserError::Write(e),
            });
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let message = self.receive(method, deadline)?;
            if message.get("id").and_then(Value::as_u64) == Some(id) {
                return answer(method, message);
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// Waits for the next event named `method` (of `session`, if given), taking it
    /// from the events kept while waiting for answers first.
    pub fn wait_event(
        &mut self,
        method: &str,
        session: Option<&str>,
    ) -> Result<Value, BrowserError> {
        let matches = |m: &Value| {
            m.get("method").and_then(Value::as_str) == Some(method)
                && session.is_none_or(|s| m.get("sessionId").and_then(Value::as_str) == Some(s))
        };
        if let Some(i) = self.events.iter().position(matches)
            && let Some(event) = self.events.remove(i)
        {
            return Ok(event);
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let message = self.receive(method, deadline)?;
            if matches(&message) {
                return Ok(message);
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// Forgets the events kept so far.
    pub fn clear_events(&mut self) {
        self.events.clear();
    }

    fn receive(&mut self, method: &str, deadline: Instant) -> Result<Value, BrowserError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => match message.get("tagloomMalformed") {
                Some(detail) => Err(BrowserError::Malformed {
                    method: method.to_owned(),
                    detail: format!("not JSON: {detail}"),
                }),
                None => Ok(message),
            },
            Err(RecvTimeoutError::Timeout) => Err(BrowserError::Timeout {
                method: method.to_owned(),
                after: self.timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.closed_error()),
        }
    }

    /// [`BrowserError::Closed`] with the browser's last words.
    fn closed_error(&mut self) -> BrowserError {
        // Let the stderr thread catch up (it ends when the process does).
        let deadline = Instant::now() + Duration::from_millis(500);
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        thread::sleep(Duration::from_millis(50));
        BrowserError::Closed {
            stderr: self.stderr_tail(),
        }
    }

    /// The end of what the browser printed on stderr so far.
    pub fn stderr_tail(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Asks the browser to exit (`Browser.close`), waits up to the shutdown grace,
    /// then kills it.
    pub fn close(mut self) -> Result<(), BrowserError> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), BrowserError> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        let timeout = self.timeout;
        self.timeout = self.grace;
        // The answer may never come: the browser can exit first.
        let polite = self.call("Browser.close", json!({}), None);
        self.timeout = timeout;
        let deadline = Instant::now() + self.grace;
        let exited = loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break true,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
                _ => break false,
            }
        };
        if !exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.profile);
        match polite {
            Err(e) if !exited => Err(e),
            _ => Ok(()),
        }
    }

    /// The browser's profile directory (removed on close).
    pub fn profile_dir(&self) -> &Path {
        &self.profile
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// The `result` of an answer, or its protocol error.
fn answer(method: &str, mut message: Value) -> Result<Value, BrowserError> {
    if let Some(error) = message.get("error") {
        return Err(BrowserError::Protocol {
            method: method.to_owned(),
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
        });
    }
    Ok(message
        .get_mut("result")
        .map(Value::take)
        .unwrap_or(Value::Null))
}

/// A fresh profile directory name in the temp directory.
fn profile_dir() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "tagloom-browser-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Keeps the last [`STDERR_TAIL`] bytes of the browser's stderr.
fn spawn_stderr_tail(mut err: ChildStderr, tail: Arc<Mutex<String>>) {
    thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        loop {
            let n = match err.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            let Ok(mut t) = tail.lock() else { return };
            t.push_str(&String::from_utf8_lossy(chunk.get(..n).unwrap_or_default()));
            if t.len() > 2 * STDERR_TAIL {
                let mut cut = t.len() - STDERR_TAIL;
                while !t.is_char_boundary(cut) {
                    cut += 1;
                }
                t.drain(..cut);
            }
        }
    });
}
