//! The replay's handle on the source file: reads at its own position
//! (positional reads on Unix), never moving the file offset it may share with a
//! clone of the same handle — the page reader's, reading the file at the same
//! time in a [pipeline](super::SkeletonStore::pipeline).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

/// A file read from a position of its own.
pub(super) struct SourceFile {
    file: File,
    pos: u64,
}

impl SourceFile {
    pub(super) fn new(file: File) -> Self {
        SourceFile { file, pos: 0 }
    }

    pub(super) fn get_ref(&self) -> &File {
        &self.file
    }
}

/// Whether reads leave the shared file offset alone (a pipeline needs it).
pub(super) const POSITIONAL: bool = cfg!(unix);

impl Read for SourceFile {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(&self.file, out, self.pos)?;
        #[cfg(not(unix))]
        let n = {
            self.file.seek(SeekFrom::Start(self.pos))?;
            self.file.read(out)?
        };
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for SourceFile {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let invalid = || std::io::Error::new(std::io::ErrorKind::InvalidInput, "bad seek");
        self.pos = match to {
            SeekFrom::Start(at) => at,
            SeekFrom::Current(by) => self.pos.checked_add_signed(by).ok_or_else(invalid)?,
            SeekFrom::End(by) => self
                .file
                .metadata()?
                .len()
                .checked_add_signed(by)
                .ok_or_else(invalid)?,
        };
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn reads_do_not_move_a_clone_s_offset() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"0123456789").unwrap();
        file.seek(SeekFrom::Start(2)).unwrap();
        let mut source = SourceFile::new(file.try_clone().unwrap());
        let mut got = [0u8; 4];
        source.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"0123");
        source.seek(SeekFrom::Current(2)).unwrap();
        source.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"6789");
        if POSITIONAL {
            let mut rest = String::new();
            file.read_to_string(&mut rest).unwrap();
            assert_eq!(rest, "23456789");
        }
    }
}
