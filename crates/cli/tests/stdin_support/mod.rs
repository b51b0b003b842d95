//! Runs the `tagloom` binary with bytes on its standard input (shared by the CLI
//! tests; each declares `mod stdin_support;`).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `tagloom ARGS` with `input` on standard input and its output captured.
/// The input is written from a thread (a large input cannot block on a full
/// output pipe), and a child that exits without reading it (bad usage) is fine.
pub fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tagloom"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("the binary ends");
    if let Err(e) = writer.join().expect("the writer thread ends") {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    out
}
