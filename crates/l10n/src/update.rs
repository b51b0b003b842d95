//! `tagloom l10n update PAGE OLD -o NEW`: re-extracts a page that changed and
//! carries the old file's translations over (what `msgmerge` does for PO, for
//! XLIFF too).
//!
//! Each unit of the page, in document order, is:
//!
//! * **unchanged**: an old unit has exactly its source (text, codes and their
//!   markup: the check the merge makes) — its translation is carried over as it was
//!   (XLIFF `state="translated"`; an unconfirmed one stays unconfirmed). The old
//!   unit with the same id is preferred, else the first unclaimed one in file
//!   order, so repeated texts keep their own translations;
//! * **fuzzy** (changed): no exact match, but an unclaimed old unit has a word
//!   similarity of at least [`UpdateOptions::threshold`] (the Dice coefficient of
//!   the two bags of words, `matching::similarity`). The old translation is only
//!   a suggestion, never merged: XLIFF `state="initial"` without a target, the old
//!   source and target in `<note category="update-old-source">` /
//!   `"update-old-target"`; PO `#, fuzzy` with the old translation and
//!   `#| msgid "old source"` (gettext does not merge fuzzy entries; nor does
//!   `tagloom l10n merge`);
//! * **new**: neither.
//!
//! Old units claimed by neither are **removed**. Candidates for near matches are
//! bucketed: an inverted index from words to old units, a page unit looks only at
//! the old units sharing one of its [`RARE_WORDS`] rarest words and of a length
//! that can reach the threshold, and compares at most
//! [`UpdateOptions::max_candidates`] of them (visiting at most 16 times as many
//! index entries), so a page of thousands of units costs no quadratic work; the
//! exact matches of a text repeated thousands of times neither (each bucket is a
//! queue). Both files are held in memory (one page's units).

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::block::{Block, Run};
use crate::count::{Counts, runs_text};
use crate::error::{IoContext, L10nError, Result};
use crate::flow::{Common, Format, run_dir_with, with_ext};
use crate::lang::LanguageTag;
use crate::matching::{
    comparable_text, comparable_words, lengths_can_match, runs_key, similarity, text_key,
};
use crate::output::OutputFile;
use crate::po::{PoEntry, PoReader, PoWriter, runs_to_text, text_to_runs};
use crate::reader::{BlockSink, read_file};
use crate::xliff::{XliffReader, XliffWriter, source_difference};

/// How many of a unit's rarest words find its near-match candidates.
pub const RARE_WORDS: usize = 4;

/// How many unclaimed old units of one source bucket an exact match looks at
/// (units of the same text whose codes' markup differs share a bucket).
pub const SAME_TEXT_SCAN: usize = 64;

/// `tagloom l10n update`.
#[derive(Clone, Debug)]
pub struct UpdateOptions {
    /// The least word similarity (0–1) of a near match (`--fuzzy-threshold`, 0.75).
    pub threshold: f64,
    /// The most old units compared with one page unit (`--max-candidates`, 64).
    pub max_candidates: usize,
    /// Output format; `None`: the output's extension, else the old file's.
    pub format: Option<Format>,
    /// Shared settings.
    pub common: Common,
}

impl Default for UpdateOptions {
    fn default() -> Self {
        UpdateOptions {
            threshold: 0.75,
            max_candidates: 64,
            format: None,
            common: Common::default(),
        }
    }
}

/// What an update found, in units, words and characters of the page (removed:
/// of the old file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct UpdateCounts {
    /// Same source as an old unit.
    pub unchanged: Counts,
    /// A near match of an old unit.
    pub fuzzy: Counts,
    /// Neither.
    pub new: Counts,
    /// Old units matched by nothing.
    pub removed: Counts,
    /// Translations carried over (unchanged units with a target).
    pub carried: usize,
    /// Near matches with an old translation to suggest.
    pub suggested: usize,
}

impl UpdateCounts {
    /// Adds another file's counts.
    pub fn add(&mut self, o: &UpdateCounts) {
        self.unchanged.add(o.unchanged);
        self.fuzzy.add(o.fuzzy);
        self.new.add(o.new);
        self.removed.add(o.removed);
        self.carried += o.carried;
        self.suggested += o.suggested;
    }
}

/// One page updated.
#[derive(Clone, Debug, serde::Serialize)]
pub struct UpdateFile {
    /// The page.
    pub input: PathBuf,
    /// The old translation file (`None`: a directory run found none: all new).
    pub old: Option<PathBuf>,
    /// The file written.
    pub output: PathBuf,
    /// What was found.
    pub counts: UpdateCounts,
}

/// A file or directory update.
#[derive(Debug, Default)]
pub struct UpdateReport {
    /// Pages done.
    pub files: Vec<UpdateFile>,
    /// Pages that failed (a directory run goes on).
    pub failures: Vec<(PathBuf, L10nError)>,
}

impl UpdateReport {
    /// The counts of all files.
    pub fn total(&self) -> UpdateCounts {
        let mut t = UpdateCounts::default();
        for f in &self.files {
            t.add(&f.counts);
        }
        t
    }
}

/// An old translation, as the old file had it.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// XLIFF: runs (codes by id).
    Runs(Vec<Run>),
    /// PO: text with code markers.
    Text(String),
}

impl Target {
    /// As runs: PO text in the current marker syntax, else (an old file) with codes
    /// recognized against `source`.
    pub(crate) fn runs(&self, source: &[Run]) -> Vec<Run> {
        match self {
            Target::Runs(r) => r.clone(),
            Target::Text(t) => {
                text_to_runs(t).unwrap_or_else(|_| crate::po::legacy_text_to_runs(t, source))
            }
        }
    }
    /// As PO text.
    pub(crate) fn text(&self) -> String {
        match self {
            Target::Runs(r) => runs_to_text(r),
            Target::Text(t) => t.clone(),
        }
    }
}

/// A near match's suggestion.
#[derive(Clone, Debug)]
pub(crate) struct Fuzzy {
    /// The old source, codes as PO markers.
    pub(crate) old_source: String,
    /// The old translation, codes as PO markers.
    pub(crate) old_target: Option<String>,
    /// The word similarity.
    pub(crate) similarity: f64,
}

/// What a page unit gets from the old file.
#[derive(Clone, Debug)]
pub(crate) struct Carried {
    /// An unchanged unit's translation.
    pub(crate) target: Option<Target>,
    /// A near match.
    pub(crate) fuzzy: Option<Fuzzy>,
    /// The old translation was unconfirmed (PO `#, fuzzy`).
    pub(crate) unconfirmed: bool,
}

enum OldSource {
    Runs(Vec<Run>),
    Po(PoEntry),
}

struct OldUnit {
    id: String,
    /// The source as PO text (codes as markers).
    text: String,
    source: OldSource,
    target: Option<Target>,
    unconfirmed: bool,
}

impl OldUnit {
    /// Exactly the block's source (the merge's check).
    fn same_source(&self, block: &Block) -> bool {
        match &self.source {
            OldSource::Runs(r) => source_difference(r, &block.runs).is_none(),
            OldSource::Po(e) => crate::po::source_difference(e, block).is_none(),
        }
    }
}

struct OldFile {
    units: Vec<OldUnit>,
    source_lang: Option<LanguageTag>,
    target_lang: Option<LanguageTag>,
}

fn read_old(path: &Path) -> Result<OldFile> {
    let format = Format::from_path(path).ok_or_else(|| {
        L10nError::Usage(format!("{}: expected a .xlf or .po file", path.display()))
    })?;
    let mut units = Vec::new();
    match format {
        Format::Xliff => {
            let mut r = XliffReader::open(path)?;
            while let Some(u) = r.next_unit()? {
                if !u.segments.is_empty() {
                    // A segmented unit: its sentences, matched one by one.
                    for (n, s) in u.segments.into_iter().enumerate() {
                        units.push(OldUnit {
                            id: crate::segment::sentence_id(&u.id, n + 1),
                            text: runs_to_text(&s.source),
                            target: s.target.map(Target::Runs),
                            source: OldSource::Runs(s.source),
                            unconfirmed: s.unconfirmed,
                        });
                    }
                    continue;
                }
                units.push(OldUnit {
                    text: runs_to_text(&u.source),
                    id: u.id,
                    target: u.target.map(Target::Runs),
                    source: OldSource::Runs(u.source),
                    unconfirmed: false,
                });
            }
            let h = r.header().cloned().unwrap_or_default();
            Ok(OldFile {
                units,
                source_lang: h.source_lang,
                target_lang: h.target_lang,
            })
        }
        Format::Po => {
            // The header's languages, read the way the merge reads them.
            let langs = crate::po::PoTranslations::open(path)?;
            let mut r = PoReader::open(path)?;
            while let Some(e) = r.next_entry()? {
                if e.id.is_empty() && e.context.is_none() {
                    continue;
                }
                units.push(OldUnit {
                    id: e.context.clone().unwrap_or_default(),
                    text: e.id.clone(),
                    target: (!e.target.is_empty()).then(|| Target::Text(e.target.clone())),
                    unconfirmed: e.fuzzy,
                    source: OldSource::Po(e),
                });
            }
            Ok(OldFile {
                units,
                source_lang: langs.source_language.clone(),
                target_lang: langs.language.clone(),
            })
        }
    }
}

/// The page's units in file order (a block, then its attribute sub-blocks).
fn page_units(page: &Path, common: &Common) -> Result<Vec<Block>> {
    let mut units = Vec::new();
    let mut sink = |block: &Block| -> Result<()> {
        let mut b = block.clone();
        let subs = std::mem::take(&mut b.subs);
        b.original = Vec::new();
        units.push(b);
        units.extend(subs.into_iter().map(|mut s| {
            s.original = Vec::new();
            s
        }));
        Ok(())
    };
    read_file(
        page,
        &common.read_options()?,
        None,
        Some(&mut sink as &mut dyn BlockSink),
    )?;
    Ok(units)
}

/// What each page unit gets, and the counts.
struct Plan {
    carried: Vec<Option<Carried>>,
    counts: UpdateCounts,
}

fn plan(page: &[Block], old: &[OldUnit], options: &UpdateOptions) -> Plan {
    let mut used = vec![false; old.len()];
    let mut carried: Vec<Option<Carried>> = vec![None; page.len()];
    let mut counts = UpdateCounts::default();
    // Exact matches: by source bucket, the same id first, else the first
    // unclaimed unit of the bucket (claimed ones are dropped from its front, and
    // at most `SAME_TEXT_SCAN` are checked: many repeats of one text cost linear
    // time).
    let mut by_key: HashMap<u64, VecDeque<usize>> = HashMap::new();
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (j, u) in old.iter().enumerate() {
        by_key.entry(text_key(&u.text)).or_default().push_back(j);
        by_id.entry(u.id.as_str()).or_insert(j);
    }
    for (i, block) in page.iter().enumerate() {
        let key = runs_key(&block.runs);
        let Some(queue) = by_key.get_mut(&key) else {
            continue;
        };
        while queue.front().is_some_and(|&j| used[j]) {
            queue.pop_front();
        }
        let same_id = by_id
            .get(block.id.as_str())
            .copied()
            .filter(|&j| !used[j] && text_key(&old[j].text) == key && old[j].same_source(block));
        let pick = same_id.or_else(|| {
            queue
                .iter()
                .take(SAME_TEXT_SCAN)
                .copied()
                .find(|&j| !used[j] && old[j].same_source(block))
        });
        if let Some(j) = pick {
            used[j] = true;
            counts.carried += usize::from(old[j].target.is_some());
            carried[i] = Some(Carried {
                target: old[j].target.clone(),
                fuzzy: None,
                unconfirmed: old[j].unconfirmed,
            });
        }
    }
    near_matches(page, old, &mut used, &mut carried, options);
    for (block, c) in page.iter().zip(&carried) {
        let text = runs_text(&block.runs);
        match c {
            Some(Carried { fuzzy: Some(f), .. }) => {
                counts.fuzzy.add_text(&text);
                counts.suggested += usize::from(f.old_target.is_some());
            }
            Some(_) => counts.unchanged.add_text(&text),
            None => counts.new.add_text(&text),
        }
    }
    for (u, _) in old.iter().zip(&used).filter(|(_, used)| !**used) {
        counts.removed.add_text(&comparable_text(&u.text));
    }
    Plan { carried, counts }
}

/// Marks near matches among the units without an exact one (see the module docs
/// for the bucketing).
fn near_matches(
    page: &[Block],
    old: &[OldUnit],
    used: &mut [bool],
    carried: &mut [Option<Carried>],
    options: &UpdateOptions,
) {
    let old_words: Vec<Vec<String>> = old
        .iter()
        .zip(used.iter())
        .map(|(u, used)| {
            if *used {
                Vec::new()
            } else {
                comparable_words(&u.text)
            }
        })
        .collect();
    let mut postings: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, words) in old_words.iter().enumerate() {
        let distinct: HashSet<&str> = words.iter().map(String::as_str).collect();
        for w in distinct {
            postings.entry(w).or_default().push(j);
        }
    }
    for (i, block) in page.iter().enumerate() {
        if carried[i].is_some() {
            continue;
        }
        let words = comparable_words(&runs_to_text(&block.runs));
        let mut rare: Vec<&Vec<usize>> = words
            .iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .filter_map(|w| postings.get(w.as_str()))
            .collect();
        rare.sort_by_key(|p| p.len());
        let mut seen = HashSet::new();
        let (mut compared, mut visited) = (0, 0);
        let mut best: Option<(f64, usize)> = None;
        'lists: for list in rare.into_iter().take(RARE_WORDS) {
            for &j in list {
                // Claimed or filtered entries cost a visit each: bounded too.
                visited += 1;
                if compared >= options.max_candidates || visited > options.max_candidates * 16 {
                    break 'lists;
                }
                if used[j]
                    || !seen.insert(j)
                    || !lengths_can_match(words.len(), old_words[j].len(), options.threshold)
                {
                    continue;
                }
                compared += 1;
                let s = similarity(&words, &old_words[j]);
                if s >= options.threshold && best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, j));
                }
            }
        }
        if let Some((s, j)) = best {
            used[j] = true;
            carried[i] = Some(Carried {
                target: None,
                fuzzy: Some(Fuzzy {
                    old_source: old[j].text.clone(),
                    old_target: old[j].target.as_ref().map(Target::text),
                    similarity: s,
                }),
                unconfirmed: false,
            });
        }
    }
}

/// What an update of `page` against `old` would find, without writing
/// (`tagloom l10n count --old`).
pub fn analyze(page: &Path, old: &Path, options: &UpdateOptions) -> Result<UpdateCounts> {
    let old = read_old(old)?;
    let units = sentence_units(page, &old, options)?;
    Ok(plan(&units.units, &old.units, options).counts)
}

/// The page's units, cut into sentences when the rules segment (in the old file's
/// source language).
fn sentence_units(
    page: &Path,
    old: &OldFile,
    options: &UpdateOptions,
) -> Result<crate::segment::SentenceUnits> {
    let blocks = page_units(page, &options.common)?;
    let source = old.source_lang.clone().unwrap_or_else(LanguageTag::english);
    let segmenter = crate::segment::Segmenter::for_rules(&options.common.rules, &source);
    Ok(crate::segment::SentenceUnits::new(
        blocks,
        segmenter.as_ref(),
    ))
}

fn update_file(
    page: &Path,
    old_path: Option<&Path>,
    output: &Path,
    format: Format,
    options: &UpdateOptions,
) -> Result<UpdateFile> {
    let old = match old_path {
        Some(p) => read_old(p)?,
        None => OldFile {
            units: Vec::new(),
            source_lang: None,
            target_lang: None,
        },
    };
    let units = sentence_units(page, &old, options)?;
    let plan = plan(&units.units, &old.units, options);
    let source = old.source_lang.unwrap_or_else(LanguageTag::english);
    let target = old.target_lang.as_ref();
    let original = page
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = OutputFile::create(output)?;
    let file = temp
        .file()?
        .try_clone()
        .ctx(|| format!("opening a temp file for {}", output.display()))?;
    let out = BufWriter::with_capacity(64 * 1024, file);
    let io = |e| L10nError::io(format!("writing {}", output.display()), e);
    match format {
        Format::Xliff => {
            let mut w = XliffWriter::new(out, &source, target, &original).map_err(io)?;
            match &units.groups {
                None => {
                    for (b, c) in units.units.iter().zip(&plan.carried) {
                        w.unit_with(b, c.as_ref()).map_err(io)?;
                    }
                }
                Some(groups) => {
                    for g in groups {
                        let carried: Vec<Option<&Carried>> = plan
                            .carried
                            .get(g.range.clone())
                            .unwrap_or_default()
                            .iter()
                            .map(Option::as_ref)
                            .collect();
                        match &g.pieces {
                            Some(p) => w.unit_sentences(&g.block, p, &carried),
                            None => w.unit_with(&g.block, carried.first().copied().flatten()),
                        }
                        .map_err(io)?;
                    }
                }
            }
            w.finish().map_err(io)?;
        }
        Format::Po => {
            let mut w = PoWriter::new(out, &source, target, &original).map_err(io)?;
            for (b, c) in units.units.iter().zip(&plan.carried) {
                w.entry_with(b, c.as_ref()).map_err(io)?;
            }
            w.finish().map_err(io)?;
        }
    }
    temp.persist()?;
    Ok(UpdateFile {
        input: page.to_path_buf(),
        old: old_path.map(Path::to_path_buf),
        output: output.to_path_buf(),
        counts: plan.counts,
    })
}

/// Updates `old` (an `.xlf`/`.po` file) for `page` into `output`; for a page
/// directory, `old` and `output` are directories of `<relative path>.xlf`/`.po`
/// (a page without an old file gets a fresh extraction: every unit new), pages
/// in parallel.
pub fn update(
    page: &Path,
    old: &Path,
    output: &Path,
    options: &UpdateOptions,
) -> Result<UpdateReport> {
    if page.is_dir() {
        if !old.is_dir() {
            return Err(L10nError::Usage(format!(
                "{}: a page directory needs a directory of old files",
                old.display()
            )));
        }
        let (files, failures) = run_dir_with(page, &options.common, |inp, rel| {
            let found = [Format::Xliff, Format::Po]
                .into_iter()
                .map(|f| (f, old.join(with_ext(rel, f.extension()))))
                .find(|(_, p)| p.is_file());
            let format = options
                .format
                .or(found.as_ref().map(|(f, _)| *f))
                .unwrap_or(Format::Xliff);
            let out = output.join(with_ext(rel, format.extension()));
            update_file(
                inp,
                found.as_ref().map(|(_, p)| p.as_path()),
                &out,
                format,
                options,
            )
        })?;
        return Ok(UpdateReport { files, failures });
    }
    let old_format = Format::from_path(old).ok_or_else(|| {
        L10nError::Usage(format!("{}: expected a .xlf or .po file", old.display()))
    })?;
    // `--format` must agree with NEW's extension, as for extract.
    let format = match options.format {
        Some(f) => Format::resolve(Some(f), output)?,
        None => Format::from_path(output).unwrap_or(old_format),
    };
    Ok(UpdateReport {
        files: vec![update_file(page, Some(old), output, format, options)?],
        failures: vec![],
    })
}
