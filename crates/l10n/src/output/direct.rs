//! Direct writes of a large output file (`O_DIRECT`, Linux): whole aligned chunks
//! go from aligned buffers to the disk, past the page cache, on a thread of their
//! own; the last chunk's tail (a size that is not a multiple of the alignment) is
//! written through the page cache once the flag is cleared.
//!
//! Why: a buffered write copies every byte into the page cache, then the kernel's
//! flusher threads write the dirty pages back; on a 2-core VM the copy and the
//! writeback of a 3.8 GB XLIFF (extract of a 1 GB page) cost 0.8–7.6 s of system
//! time, varying from run to run, against 0.5 s for direct writes.
//!
//! A direct write returns when the disk has the bytes (≈ 0.2 ms for 256 KiB here):
//! made by the thread that produces the output, every one of those waits would
//! stall the page reader behind it too (the hand-off between them holds a few
//! hundred microseconds of work). So the writes are made by an I/O thread
//! (`l10n-output`), with two buffers: the caller fills one while the other is
//! written, and waits only when the disk is slower than the output is made. The
//! thread spends its time waiting for the disk; one hand-over per [`CHUNK`].
//!
//! The costs: two buffers of [`CHUNK`] (counted in the 16 MB peak memory bound),
//! and the file is not in the page cache afterwards, which is why
//! [`super::OutputIo::Auto`] keeps small outputs buffered.
//!
//! Every failure to go direct falls back to buffered writes, silently: a file
//! system without `O_DIRECT` (`fcntl` fails: tmpfs on older kernels, some FUSE and
//! network ones), no thread for the writes, or a write refused with `EINVAL` (an
//! alignment the device does not take). The bytes of the file are the same
//! either way.

use std::fs::File;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
use rustix::io::Errno;

/// The alignment of direct writes: their memory, file offset and length (4096
/// covers devices with 512- and 4096-byte logical blocks).
pub(crate) const ALIGN: usize = 4096;

/// The bytes of one direct write, each buffer's size (a multiple of [`ALIGN`]).
/// Small, for the peak memory bound: measured here, 256 KiB writes run at the
/// disk's full rate (1.3–1.6 GB/s with `dd`, as 512 KiB–4 MiB do).
pub(crate) const CHUNK: usize = 256 * 1024;

/// A [`CHUNK`] of memory aligned to [`ALIGN`], carved out of a larger vector.
struct Aligned {
    /// [`CHUNK`] + [`ALIGN`] bytes: the aligned part is `mem[start..start + CHUNK]`.
    mem: Vec<u8>,
    start: usize,
}

impl Aligned {
    fn new() -> Aligned {
        let mem = vec![0u8; CHUNK + ALIGN];
        let start = (ALIGN - mem.as_ptr().addr() % ALIGN) % ALIGN;
        Aligned { mem, start }
    }

    /// The aligned part's bytes `range`.
    fn get(&self, range: std::ops::Range<usize>) -> &[u8] {
        let at = self.start;
        self.mem
            .get(at + range.start..at + range.end)
            .unwrap_or(&[])
    }

    /// The aligned part's bytes `range`, to fill.
    fn get_mut(&mut self, range: std::ops::Range<usize>) -> &mut [u8] {
        let at = self.start;
        self.mem
            .get_mut(at + range.start..at + range.end)
            .unwrap_or(&mut [])
    }
}

/// The file and whether it has `O_DIRECT` set (cleared on the first refused
/// write).
struct Disk {
    file: File,
    direct: bool,
}

impl Disk {
    /// Clears `O_DIRECT`: the writes that follow go through the page cache.
    fn set_buffered(&mut self) -> io::Result<()> {
        let flags = fcntl_getfl(&self.file)?;
        fcntl_setfl(&self.file, flags - OFlags::DIRECT)?;
        self.direct = false;
        Ok(())
    }

    /// Writes all of `bytes`; a direct write refused with `EINVAL` is made again
    /// through the page cache.
    fn write_all(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            match (&self.file).write(bytes) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => bytes = bytes.get(n..).unwrap_or(&[]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if self.direct && Errno::from_io_error(&e) == Some(Errno::INVAL) => {
                    self.set_buffered()?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The I/O thread's end of the writer.
struct Io {
    /// Full buffers (and their length) to write.
    to_disk: SyncSender<(Aligned, usize)>,
    /// Buffers written, or the write's error (then the thread has stopped).
    written: Receiver<io::Result<Aligned>>,
    thread: JoinHandle<Disk>,
}

fn io_stopped() -> io::Error {
    io::Error::other("the output's I/O thread stopped")
}

/// A writer that sends [`CHUNK`]s straight to the disk, on the `l10n-output`
/// thread; [`DirectWriter::finish`] writes what is left. Dropping it without
/// `finish` loses the buffered bytes (an output that failed: its temp file is
/// deleted anyway).
pub(crate) struct DirectWriter {
    /// The buffer being filled.
    buf: Aligned,
    filled: usize,
    /// The second buffer, until the first hand-over.
    spare: Option<Aligned>,
    /// `None` once finished.
    io: Option<Io>,
}

impl DirectWriter {
    /// Sets `O_DIRECT` on `file` (a handle of its open file description: every
    /// handle of it writes directly until [`DirectWriter::finish`]) and starts the
    /// I/O thread; `Err(file)` when the file system refuses the flag or no thread
    /// can be started.
    pub(crate) fn new(file: File) -> Result<DirectWriter, File> {
        let Ok(flags) = fcntl_getfl(&file) else {
            return Err(file);
        };
        if fcntl_setfl(&file, flags | OFlags::DIRECT).is_err() {
            return Err(file);
        }
        let Ok(second) = file.try_clone() else {
            let _ = fcntl_setfl(&file, flags);
            return Err(file);
        };
        let mut disk = Disk {
            file: second,
            direct: true,
        };
        let (to_disk, from_writer) = sync_channel::<(Aligned, usize)>(1);
        let (to_writer, written) = sync_channel(1);
        let spawned = std::thread::Builder::new()
            .name("l10n-output".into())
            .spawn(move || {
                for (buf, len) in from_writer {
                    let result = disk.write_all(buf.get(0..len));
                    let failed = result.is_err();
                    if to_writer.send(result.map(|()| buf)).is_err() || failed {
                        break;
                    }
                }
                disk
            });
        let Ok(thread) = spawned else {
            let _ = fcntl_setfl(&file, flags);
            return Err(file);
        };
        drop(file);
        Ok(DirectWriter {
            buf: Aligned::new(),
            filled: 0,
            spare: Some(Aligned::new()),
            io: Some(Io {
                to_disk,
                written,
                thread,
            }),
        })
    }

    /// Hands the buffer's first `len` bytes to the I/O thread; the bytes after
    /// them start the next buffer (a written one, when the thread has one back).
    fn hand_over(&mut self, len: usize) -> io::Result<()> {
        let io = self.io.as_ref().ok_or_else(io_stopped)?;
        let mut next = match self.spare.take() {
            Some(buf) => buf,
            None => io.written.recv().map_err(|_| io_stopped())??,
        };
        let rest = self.filled - len;
        next.get_mut(0..rest)
            .copy_from_slice(self.buf.get(len..self.filled));
        let full = std::mem::replace(&mut self.buf, next);
        io.to_disk.send((full, len)).map_err(|_| io_stopped())?;
        self.filled = rest;
        Ok(())
    }

    /// Writes everything: waits for the I/O thread's writes, writes the last
    /// whole aligned blocks directly and the tail through the page cache, and
    /// clears `O_DIRECT` for every handle of the file.
    pub(crate) fn finish(mut self) -> io::Result<File> {
        let io = self.io.take().ok_or_else(io_stopped)?;
        drop(io.to_disk);
        let mut failed = None;
        for result in io.written.iter() {
            if let Err(e) = result {
                failed = Some(e);
            }
        }
        let mut disk = io.thread.join().map_err(|_| io_stopped())?;
        if let Some(e) = failed {
            return Err(e);
        }
        let aligned = if disk.direct {
            self.filled - self.filled % ALIGN
        } else {
            self.filled
        };
        disk.write_all(self.buf.get(0..aligned))?;
        if disk.direct {
            disk.set_buffered()?;
        }
        disk.write_all(self.buf.get(aligned..self.filled))?;
        Ok(disk.file)
    }
}

impl Drop for DirectWriter {
    fn drop(&mut self) {
        if let Some(io) = self.io.take() {
            // The thread ends after the write under way.
            drop(io.to_disk);
            drop(io.written);
            let _ = io.thread.join();
        }
    }
}

impl Write for DirectWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.filled == CHUNK {
            self.hand_over(CHUNK)?;
        }
        let room = self.buf.get_mut(self.filled..CHUNK);
        let n = room.len().min(data.len());
        if let (Some(to), Some(from)) = (room.get_mut(..n), data.get(..n)) {
            to.copy_from_slice(from);
        }
        self.filled += n;
        Ok(n)
    }

    /// Hands the whole aligned blocks buffered to the I/O thread; they reach the
    /// file in the background, and a tail shorter than [`ALIGN`] waits for more
    /// bytes: only [`DirectWriter::finish`] writes everything.
    fn flush(&mut self) -> io::Result<()> {
        let len = self.filled - self.filled % ALIGN;
        if len > 0 {
            self.hand_over(len)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, SeekFrom};

    /// Bytes that differ from one position to the next (a shifted copy shows).
    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i % 251) as u8).collect()
    }

    fn write_through(dir: &Path, data: &[u8], piece: usize, flush_at: Option<usize>) -> Vec<u8> {
        let mut file = tempfile::tempfile_in(dir).unwrap();
        let handle = file.try_clone().unwrap();
        let mut out = match DirectWriter::new(handle) {
            Ok(w) => Box::new(w) as Box<dyn WriteFinish>,
            Err(f) => Box::new(io::BufWriter::new(f)),
        };
        for (i, chunk) in data.chunks(piece.max(1)).enumerate() {
            out.write_all(chunk).unwrap();
            if flush_at == Some(i) {
                out.flush().unwrap();
            }
        }
        out.done().unwrap();
        let mut back = Vec::new();
        file.seek(SeekFrom::Start(0)).unwrap();
        file.read_to_end(&mut back).unwrap();
        back
    }

    use std::path::Path;

    trait WriteFinish: Write {
        fn done(self: Box<Self>) -> io::Result<()>;
    }
    impl WriteFinish for DirectWriter {
        fn done(self: Box<Self>) -> io::Result<()> {
            let file = self.finish()?;
            // O_DIRECT is off again: an unaligned read works.
            assert!(!fcntl_getfl(&file)?.contains(OFlags::DIRECT));
            Ok(())
        }
    }
    impl WriteFinish for io::BufWriter<File> {
        fn done(self: Box<Self>) -> io::Result<()> {
            self.into_inner().map(drop).map_err(|e| e.into_error())
        }
    }

    #[test]
    fn bytes_are_written_as_given_at_every_size() {
        // Beside the sources: a disk file system, where O_DIRECT works
        // (the system temp dir may be a tmpfs, which takes the fallback).
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let sizes = [
            0,
            1,
            ALIGN - 1,
            ALIGN,
            ALIGN + 1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            3 * CHUNK + 5 * ALIGN + 17,
        ];
        for len in sizes {
            let data = pattern(len);
            for piece in [7, 65536, CHUNK + 3] {
                assert_eq!(
                    write_through(dir.path(), &data, piece, None),
                    data,
                    "{len} {piece}"
                );
            }
            // A flush in the middle leaves the offset aligned.
            assert_eq!(
                write_through(dir.path(), &data, 1000, Some(3)),
                data,
                "{len}"
            );
        }
    }

    #[test]
    fn a_file_system_without_direct_io_falls_back() {
        // /dev/shm is a tmpfs on Linux (O_DIRECT refused on older kernels,
        // taken on newer ones): the bytes are right either way.
        let shm = Path::new("/dev/shm");
        if !shm.is_dir() {
            return;
        }
        let dir = tempfile::tempdir_in(shm).unwrap();
        let data = pattern(CHUNK + ALIGN + 3);
        assert_eq!(write_through(dir.path(), &data, 4099, None), data);
    }
}
