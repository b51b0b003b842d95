//! [`run`]: a job over files, records in parallel in a bounded pipeline.
//!
//! Records are read one batch at a time (at most [`BATCH_RECORDS`] records or
//! [`BATCH_BYTES`] of blocks, across file boundaries); while the job runs over one
//! batch on the rayon pool, the next batch is read (`rayon::join`). So at most two
//! batches are held whatever the file sizes, one huge file keeps every thread busy
//! as well as many small ones do, and rows come out in file and record order.
//!
//! An input is a file or standard input ([`ArchiveSource`]); [`run`] takes files,
//! [`run_sources`] either.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{Job, Row};
use crate::error::{OpenError, RecordError};
use crate::reader::{OwnedRecord, Records, WarcReader};

/// The most records in one batch.
pub const BATCH_RECORDS: usize = 256;
/// The most block bytes in one batch (a batch holds at least one record).
pub const BATCH_BYTES: u64 = 32 * 1024 * 1024;

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Records read (and record errors).
    pub records: u64,
    /// HTML pages with a result row.
    pub pages: u64,
    /// Error rows.
    pub errors: u64,
    /// Records that are no HTML page (no row).
    pub skipped: u64,
    /// Bytes of the files read (compressed size for gzip files).
    pub bytes: u64,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A file could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The row callback failed (a write error, usually).
    #[error("{0}")]
    Sink(#[source] io::Error),
}

type Item = (usize, Result<OwnedRecord, RecordError>);

/// Where [`run_sources`] reads one archive from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArchiveSource {
    /// A file (plain or gzip, found by its first bytes).
    File(PathBuf),
    /// Standard input (plain or gzip), read once, as a stream; its rows name the
    /// file `-`.
    Stdin,
}

impl ArchiveSource {
    /// The name rows give this input (`file`): the path as displayed, or `-`.
    pub fn name(&self) -> String {
        match self {
            ArchiveSource::File(path) => path.display().to_string(),
            ArchiveSource::Stdin => "-".to_string(),
        }
    }

    fn open(&self, limits: crate::Limits) -> Result<WarcReader<Box<dyn Read + Send>>, OpenError> {
        let (path, input): (&Path, io::Result<Box<dyn Read + Send>>) = match self {
            ArchiveSource::File(path) => (
                path,
                File::open(path).map(|f| Box::new(f) as Box<dyn Read + Send>),
            ),
            ArchiveSource::Stdin => (Path::new("-"), Ok(Box::new(io::stdin()))),
        };
        let error = |source| OpenError {
            path: path.to_path_buf(),
            source,
        };
        WarcReader::new(input.map_err(error)?, limits).map_err(error)
    }
}

impl From<PathBuf> for ArchiveSource {
    fn from(path: PathBuf) -> ArchiveSource {
        ArchiveSource::File(path)
    }
}

/// Reads batches of records across the inputs.
struct Source<'a> {
    files: &'a [ArchiveSource],
    job: &'a Job,
    next_file: usize,
    current: Option<(usize, Records<Box<dyn Read + Send>>)>,
    /// Raw bytes of the current file already reported.
    reported: u64,
}

impl Source<'_> {
    /// The next batch and the raw bytes read for it.
    fn read_batch(&mut self) -> Result<(Vec<Item>, u64), OpenError> {
        let mut batch = Vec::new();
        let mut bytes = 0u64;
        let mut progressed = 0u64;
        while batch.len() < BATCH_RECORDS && bytes < BATCH_BYTES {
            let Some((index, records)) = &mut self.current else {
                let Some(input) = self.files.get(self.next_file) else {
                    break;
                };
                let reader = input.open(self.job.limits)?;
                self.current = Some((self.next_file, reader.into_records()));
                self.next_file += 1;
                self.reported = 0;
                continue;
            };
            let index = *index;
            let next = records.next();
            let raw = records.reader().raw_position();
            progressed += raw.saturating_sub(self.reported);
            self.reported = raw;
            match next {
                Some(item) => {
                    bytes += item.as_ref().map_or(0, |r| r.body.len() as u64);
                    batch.push((index, item));
                }
                None => self.current = None,
            }
        }
        Ok((batch, progressed))
    }
}

/// Runs `job` over every record of `files` (in order), handing each row to
/// `on_row` in file and record order, on the calling thread; `progress` gets the
/// raw bytes read as they are read. The job runs on `pool` (`None`: rayon's global
/// pool). Stops at the first file that cannot be opened or the first error of
/// `on_row`; a bad record is an error row, never a stop.
pub fn run(
    files: &[PathBuf],
    job: &Job,
    pool: Option<&rayon::ThreadPool>,
    on_row: impl FnMut(&Row) -> io::Result<()>,
    progress: &dyn Fn(u64),
) -> Result<Summary, RunError> {
    let sources: Vec<ArchiveSource> = files.iter().cloned().map(ArchiveSource::from).collect();
    run_sources(&sources, job, pool, on_row, progress)
}

/// [`run`] over files and standard input ([`ArchiveSource`]): the same pipeline,
/// the same order of rows.
pub fn run_sources(
    files: &[ArchiveSource],
    job: &Job,
    pool: Option<&rayon::ThreadPool>,
    mut on_row: impl FnMut(&Row) -> io::Result<()>,
    progress: &dyn Fn(u64),
) -> Result<Summary, RunError> {
    let names: Vec<String> = files.iter().map(ArchiveSource::name).collect();
    let mut source = Source {
        files,
        job,
        next_file: 0,
        current: None,
        reported: 0,
    };
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let (mut batch, read) = source.read_batch()?;
    progress(read);
    summary.bytes += read;
    while !batch.is_empty() {
        summary.records += batch.len() as u64;
        let step = || {
            rayon::join(
                || source.read_batch(),
                || {
                    batch
                        .into_par_iter()
                        .map(|(i, record)| {
                            job.run_record(names.get(i).map_or("", String::as_str), record)
                        })
                        .collect::<Vec<_>>()
                },
            )
        };
        let (next, rows) = match pool {
            Some(pool) => pool.install(step),
            None => step(),
        };
        for row in rows {
            let Some(row) = row else {
                summary.skipped += 1;
                continue;
            };
            if row.is_error() {
                summary.errors += 1;
            } else {
                summary.pages += 1;
            }
            on_row(&row).map_err(RunError::Sink)?;
        }
        let (next, read) = next?;
        progress(read);
        summary.bytes += read;
        batch = next;
    }
    Ok(summary)
}
