//! `tagloom view FILE|DIR [--throttle KB/s] [--port N]`: a local HTTP server on
//! 127.0.0.1 that shows a document being built by its patch batches in a browser.
//!
//! The page (`view/viewer.html`) opens a server-sent event stream; the server reads
//! the file (at the throttled rate, if any), parses as the bytes arrive and sends
//! every [`PatchBatch`](tagloom_html::PatchBatch) as one `batch` event (its JSON
//! form), then one `end` event (or `failure`). The page applies each batch
//! atomically to a sandboxed iframe with `view/apply_batch.js` (no script of the
//! document ever runs). The server keeps no DOM: a stream holds a parse session
//! and one piece of input. With a DIR, `/` is an index of its files and each file
//! has its own viewer page.
//!
//! Routes: `/` (the viewer, or the index), `/view/PATH` (a file's viewer),
//! `/events` and `/events/PATH` (the event streams), `/apply_batch.js`.

mod site;
mod stream;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use crate::output;
use site::Site;

/// Options of `tagloom view`.
#[derive(clap::Args)]
pub struct Args {
    /// The document, or a directory whose files are listed.
    path: PathBuf,
    /// Read the document at most this many KiB per second (1 KiB = 1024 bytes), to
    /// watch it render progressively; unlimited by default.
    #[arg(long, value_name = "KB/s", value_parser = clap::value_parser!(u64).range(1..))]
    throttle: Option<u64>,
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, value_name = "N", default_value_t = 8000)]
    port: u16,
}

/// The most requests served at once; more wait for a free slot.
const MAX_CONNECTIONS: usize = 64;

pub fn run(args: &Args) -> Result<()> {
    if args.path.as_os_str() == "-" {
        bail!("view needs a file or a directory, not standard input");
    }
    let site = Arc::new(Site::new(&args.path, args.throttle)?);
    let server = tiny_http::Server::http(("127.0.0.1", args.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .context("the server has no TCP address")?;
    let mut out = output::stdout();
    writeln!(
        out,
        "tagloom view: serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)",
        args.path.display()
    )
    .and_then(|()| out.flush())
    .context("cannot write the output")?;
    drop(out);
    let slots = Arc::new(Slots::new(MAX_CONNECTIONS));
    for request in server.incoming_requests() {
        let site = Arc::clone(&site);
        let slot = slots.acquire();
        std::thread::spawn(move || {
            site.handle(request);
            drop(slot);
        });
    }
    Ok(())
}

/// A counting semaphore bounding the threads serving requests.
struct Slots {
    free: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

/// One taken slot, given back when dropped.
struct Slot(Arc<Slots>);

impl Slots {
    fn new(n: usize) -> Slots {
        Slots {
            free: std::sync::Mutex::new(n),
            freed: std::sync::Condvar::new(),
        }
    }

    fn acquire(self: &Arc<Self>) -> Slot {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|p| p.into_inner());
        }
        *free -= 1;
        Slot(Arc::clone(self))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut free = self.0.free.lock().unwrap_or_else(|p| p.into_inner());
        *free += 1;
        self.0.freed.notify_one();
    }
}
