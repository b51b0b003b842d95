//! Reading the FILE argument (`-` is standard input): whole, or streamed in pieces.

use std::fs::File;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use tagloom_html::decoder::{Autodetect, DecoderConfig, EncodingSource, Sniffed};

/// The piece size of a streamed input when the user gives none.
pub const DEFAULT_PIECE: usize = 64 * 1024;

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

/// An opened FILE argument, to be read in pieces with [`Input::stream`]. Opening
/// first lets a command fail on an unreadable file before it writes anything.
pub struct Input {
    reader: Box<dyn Read>,
    name: String,
}

/// Opens `path` (standard input for `-`).
pub fn open(path: &Path) -> Result<Input> {
    if path.as_os_str() == "-" {
        return Ok(Input {
            reader: Box::new(std::io::stdin().lock()),
            name: "standard input".to_owned(),
        });
    }
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Input {
        reader: Box::new(file),
        name: path.display().to_string(),
    })
}

impl Input {
    /// Feeds the input to `each`, `piece` bytes at a time: the pieces are exactly
    /// those of `bytes.chunks(piece)` over the whole content, but only about one piece
    /// (at least [`DEFAULT_PIECE`] bytes) is held at once. Stops early when `each`
    /// breaks. Returns how many bytes were read.
    ///
    /// Read failures say which input could not be read; `each`'s errors pass through
    /// untouched (a closed standard output must stay recognizable).
    pub fn stream(
        mut self,
        piece: usize,
        mut each: impl FnMut(&[u8]) -> Result<ControlFlow<()>>,
    ) -> Result<u64> {
        let piece = piece.max(1);
        // A multiple of `piece`, so every buffer but the last splits into whole pieces.
        let buffer_len = piece.saturating_mul((DEFAULT_PIECE / piece).max(1));
        let limit = u64::try_from(buffer_len).unwrap_or(u64::MAX);
        let mut buffer = Vec::new();
        let mut total = 0u64;
        loop {
            buffer.clear();
            let read = self
                .reader
                .by_ref()
                .take(limit)
                .read_to_end(&mut buffer)
                .with_context(|| format!("cannot read {}", self.name))?;
            total += read as u64;
            for chunk in buffer.chunks(piece) {
                if each(chunk)?.is_break() {
                    return Ok(total);
                }
            }
            if buffer.len() < buffer_len {
                return Ok(total);
            }
        }
    }
}

/// The decoder settings of every command that sniffs (`sniff`, `parse`, `demo`;
/// `l10n` gets the same from tagloom-l10n's reader): `encoding` (`--encoding`) as
/// the transport encoding, which only a BOM overrides; otherwise the sniffing
/// algorithm, with a guess from the bytes for a document that declares nothing.
pub fn sniffing(encoding: Option<&'static encoding_rs::Encoding>) -> DecoderConfig {
    DecoderConfig {
        transport: encoding,
        autodetect: Autodetect::Statistical,
        ..DecoderConfig::default()
    }
}

/// The one-line warning on standard error when `sniffed` was a guess.
pub fn warn_if_guessed(name: &Path, sniffed: Option<Sniffed>) {
    if let Some(sniffed) = sniffed.filter(|s| s.source == EncodingSource::Autodetected) {
        let name = if name.as_os_str() == "-" {
            "standard input".to_owned()
        } else {
            name.display().to_string()
        };
        eprintln!("{}", guessed_warning(&name, sniffed.encoding.name()));
    }
}

/// `tagloom: warning: FILE: no encoding declared; guessed Shift_JIS`.
pub fn guessed_warning(name: &str, encoding: &str) -> String {
    format!("tagloom: warning: {name}: no encoding declared; guessed {encoding}")
}

/// A FILE argument as a path that can be opened more than once: `path` itself, or,
/// for `-`, a file named `name` in `staging` holding all of standard input (read to
/// its end first, on disk: memory stays bounded).
pub fn spool(path: &Path, staging: &mut crate::output::Staging, name: &str) -> Result<PathBuf> {
    if path.as_os_str() != "-" {
        return Ok(path.to_path_buf());
    }
    let spooled = staging.path(name)?;
    let mut file =
        File::create(&spooled).with_context(|| format!("cannot create {}", spooled.display()))?;
    std::io::copy(&mut std::io::stdin().lock(), &mut file).context("cannot read standard input")?;
    Ok(spooled)
}

/// Resolves an encoding label (`utf-8`, `latin1`, `shift_jis`…) the WHATWG way.
pub fn encoding_for_label(label: &str) -> Result<&'static encoding_rs::Encoding> {
    encoding_rs::Encoding::for_label(label.trim().as_bytes())
        .with_context(|| format!("unknown encoding label {label:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces_of(content: &[u8], piece: usize, stop_after: usize) -> (Vec<Vec<u8>>, u64) {
        let path = std::env::temp_dir().join(format!(
            "tagloom-input-{}-{piece}-{stop_after}",
            std::process::id()
        ));
        std::fs::write(&path, content).unwrap();
        let mut got = Vec::new();
        let read = open(&path)
            .unwrap()
            .stream(piece, |chunk| {
                got.push(chunk.to_vec());
                Ok(if got.len() == stop_after {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            })
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        (got, read)
    }

    #[test]
    fn pieces_are_those_of_the_whole_content() {
        let content: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        for piece in [1, 7, 1000, DEFAULT_PIECE, 100_000, 1 << 20] {
            let (got, read) = pieces_of(&content, piece, usize::MAX);
            let want: Vec<Vec<u8>> = content.chunks(piece).map(<[u8]>::to_vec).collect();
            assert!(got == want, "piece {piece}");
            assert_eq!(read, content.len() as u64);
        }
        assert!(pieces_of(b"", 10, usize::MAX).0.is_empty());
    }

    #[test]
    fn a_break_stops_reading() {
        let content = vec![b'x'; 10 * DEFAULT_PIECE];
        let (got, read) = pieces_of(&content, DEFAULT_PIECE, 2);
        assert_eq!(got.len(), 2);
        assert_eq!(read, 2 * DEFAULT_PIECE as u64);
    }

    #[test]
    fn an_unreadable_input_names_itself() {
        let err = open(Path::new("/nonexistent/x.html")).err().unwrap();
        assert!(
            err.to_string()
                .starts_with("cannot read /nonexistent/x.html")
        );
    }
}
