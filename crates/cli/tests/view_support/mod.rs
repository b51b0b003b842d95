//! Shared by the `tagloom view` tests: a running server and a small HTTP client
//! for it, and the reader of its event streams.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub fn tagloom() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tagloom"))
}

/// A running `tagloom view`, killed when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let mut child = tagloom()
            .arg("view")
            .args(args)
            .args(["--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tagloom runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    /// `GET path`: the status and the body (chunked bodies decoded).
    pub fn get(&self, path: &str) -> (u16, String, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = Vec::new();
        let mut buf = [0; 64 * 1024];
        loop {
            // A signal may interrupt the read (seen once in CI): read again.
            let n = match stream.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => other.expect("the response arrives"),
            };
            if n == 0 {
                break;
            }
            raw.extend_from_slice(&buf[..n]);
            // A chunked body ends with its last chunk, whether or not the
            // connection closes.
            if raw.ends_with(b"\r\n0\r\n\r\n") {
                break;
            }
        }
        let raw = String::from_utf8(raw).expect("UTF-8 response");
        let (head, body) = raw.split_once("\r\n\r\n").expect("a response head");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, head.to_owned(), body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n").expect("a chunk size line");
        let size = usize::from_str_radix(size.trim(), 16).expect("a hex chunk size");
        if size == 0 {
            return out;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
}

/// The events of a stream: (name, data).
pub fn events(body: &str) -> Vec<(String, String)> {
    body.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_owned());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data = Some(d.to_owned());
                }
            }
            Some((name?, data?))
        })
        .collect()
}

/// The batches of a finished stream, checked to chain by version from 0 on one
/// document, and the `end` event's data.
pub fn chained_batches(body: &str) -> (Vec<Value>, Value) {
    let events = events(body);
    let (last, batches) = events.split_last().expect("events");
    assert_eq!(last.0, "end", "the stream ends with `end`: {last:?}");
    let end: Value = serde_json::from_str(&last.1).unwrap();
    let batches: Vec<Value> = batches
        .iter()
        .map(|(name, data)| {
            assert_eq!(name, "batch");
            serde_json::from_str(data).expect("a batch is JSON")
        })
        .collect();
    assert!(!batches.is_empty());
    for (i, batch) in batches.iter().enumerate() {
        assert_eq!(batch["from"], i as u64, "batch {i}");
        assert_eq!(batch["to"], i as u64 + 1, "batch {i}");
        assert_eq!(batch["doc"], batches[0]["doc"], "batch {i}");
        assert!(!batch["patches"].as_array().unwrap().is_empty());
    }
    assert_eq!(end["version"], batches.len() as u64);
    assert_eq!(end["batches"], batches.len() as u64);
    assert_eq!(end["doc"], batches[0]["doc"]);
    (batches, end)
}
