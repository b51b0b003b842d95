//! Runs the `tagloom` binary for the CLI tests: one home for spawning it, feeding
//! its standard input and reading what it printed. Each test file declares
//! `mod support;` and uses what it needs (hence the `dead_code` allowance: every
//! test binary compiles the whole module).
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test, nothing set: add arguments, a directory, variables.
pub fn tagloom() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tagloom"))
}

/// Runs `tagloom ARGS` with standard input closed and its output captured.
pub fn run(args: &[&str]) -> Output {
    tagloom()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Runs `tagloom ARGS` with `input` on standard input and its output captured.
pub fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    feed(tagloom().args(args), input)
}

/// Runs `command` with `input` on standard input and its output captured. The
/// input is written from a thread (a large input cannot block on a full output
/// pipe), and a child that exits without reading it (bad usage) is fine.
pub fn feed(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
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

/// The exit code (-1 when killed by a signal), standard output and standard
/// error of a finished run, as text.
pub fn outcome(out: &Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
