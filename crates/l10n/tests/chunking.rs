//! The reader reads its input in chunks: the blocks and the replayed bytes must not
//! depend on where the reads split the input (inside tags, characters, entities,
//! multi-byte and UTF-16 sequences).

use std::io::Read;
use std::path::{Path, PathBuf};

use tagloom_l10n::reader::{ReadOptions, read_document};
use tagloom_l10n::skeleton::SkeletonStore;
use tagloom_l10n::writer::{EncodedOutput, NoTranslations, WriterOptions, write_from_skeleton};
use tagloom_l10n::{Block, Rules};

/// Hands out at most `step` bytes per read (cycling through a few sizes).
struct Dribble<'a> {
    data: &'a [u8],
    pos: usize,
    steps: &'a [usize],
    turn: usize,
}

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let step = self.steps[self.turn % self.steps.len()];
        self.turn += 1;
        let n = step.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

fn run(bytes: &[u8], steps: &[usize]) -> (Vec<Block>, Vec<u8>) {
    let rules = Rules::default();
    let mut store = SkeletonStore::new().unwrap();
    let mut blocks = Vec::new();
    let mut sink = |b: &Block| {
        blocks.push(b.clone());
        Ok(())
    };
    let input = Dribble {
        data: bytes,
        pos: 0,
        steps,
        turn: 0,
    };
    let read = read_document(
        input,
        Path::new("x"),
        &ReadOptions::new(&rules),
        Some(&mut store),
        Some(&mut sink),
    )
    .unwrap();
    store.flush().unwrap();
    let mut out = EncodedOutput::new(Vec::new(), read.encoding);
    let options = WriterOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: None,
    };
    write_from_skeleton(&mut store, &mut NoTranslations, &mut out, &options).unwrap();
    (blocks, out.into_inner().unwrap())
}

#[test]
fn chunk_boundaries_do_not_matter() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/l10n-samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e != "md"));
    files.sort();
    let mut checked = 0;
    for f in &files {
        // Repeated past several read chunks, so splits fall after the sniffing prefix.
        let one = std::fs::read(f).unwrap();
        let mut bytes = Vec::new();
        while bytes.len() < 150_000 {
            bytes.extend_from_slice(&one);
        }
        let (reference, out) = run(&bytes, &[1 << 20]);
        assert_eq!(out, bytes, "{}", f.display());
        for steps in [&[1usize][..], &[2], &[3, 1, 7], &[5000, 1, 13, 2]] {
            let (blocks, out) = run(&bytes, steps);
            assert_eq!(out, bytes, "{} {steps:?}", f.display());
            assert_eq!(blocks, reference, "{} {steps:?}", f.display());
            checked += 1;
        }
    }
    println!("chunkings: {checked} (file, split pattern) pairs give identical blocks and bytes");
}
