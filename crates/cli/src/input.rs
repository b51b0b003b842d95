//! Reading the FILE argument (`-` is standard input).

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};

/// The whole content of `path`, or of standard input for `-`.
pub fn read_all(path: &Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        return Ok(bytes);
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Resolves an encoding label (`utf-8`, `latin1`, `shift_jis`…) the WHATWG way.
pub fn encoding_for_label(label: &str) -> Result<&'static encoding_rs::Encoding> {
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
        .with_context(|| format!("unknown encoding label {label:?}"))
}
