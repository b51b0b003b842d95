//! Throughput of the preprocessor on a synthetic article (ignored by default;
//! run with `cargo test --release -p tagloom-wikitext --test preprocess_speed --
//! --ignored --nocapture`). It prints figures and asserts nothing about time.
//! Times are the thread's CPU time (Linux `/proc/thread-self/schedstat`, wall
//! time elsewhere), so other jobs on a shared machine disturb them less.

use std::time::Instant;

/// A clock of this thread's CPU time in seconds (wall time if unavailable).
struct Clock(Instant);

impl Clock {
    fn start() -> Clock {
        Clock(Instant::now())
    }

    fn cpu_ns() -> Option<u64> {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        s.split_whitespace().next()?.parse().ok()
    }

    /// Seconds since `start`, measured with `f` in between.
    fn measure(f: impl FnOnce()) -> f64 {
        let wall = Clock::start();
        let cpu = Clock::cpu_ns();
        f();
        match (cpu, Clock::cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 / 1e9,
            _ => wall.0.elapsed().as_secs_f64(),
        }
    }
}

use tagloom_wikitext::preprocess::{Config, MemoryStore, Mode, Preprocessor, Site, Title, parse};

/// An article-like page: prose with links, citation templates, an infobox with
/// parser functions, a navbox table; about 27 KB.
fn article() -> String {
    let mut s = String::from(
        "{{Infobox thing\n| name = Example\n| image = Example.png\n| born = {{birth date|1950|5|17}}\n| note = {{#if:x|yes|no}}\n}}\n",
    );
    for k in 0..120 {
        s.push_str(&format!(
            "'''Paragraph {k}''' has [[Link {k}|some link]] text and a citation.<ref>{{{{cite web |url=http://example.org/{k} |title=Title {k} |date={{{{date|2001|{m}|3}}}} |access-date=2020-01-01}}}}</ref> More text follows {{{{convert|{k}|km|mi}}}} here.\n\n",
            m = k % 12 + 1
        ));
    }
    s.push_str("{{Navbox\n| list1 = {{flatlist|\n* a\n* b\n}}\n}}\n");
    s
}

fn templates() -> MemoryStore {
    let site = Site::default();
    let mut store = MemoryStore::default();
    let pages = [
        (
            "Template:Infobox thing",
            "{| class=\"infobox\"\n! colspan=2 | {{{name|{{PAGENAME}}}}}\n{{#if:{{{image|}}}|\n{{!}} [[File:{{{image}}}]]}}\n|-\n! Born\n| {{{born|}}}\n|-\n| {{{note}}}\n|}",
        ),
        (
            "Template:Birth date",
            "{{#expr:{{{1}}}}}-{{padleft:{{{2}}}|2}}-{{padleft:{{{3}}}|2}}",
        ),
        (
            "Template:Cite web",
            "<cite>[{{{url}}} {{{title}}}]. {{#if:{{{date|}}}|{{{date}}}.}} Retrieved {{{access-date}}}.</cite>",
        ),
        (
            "Template:Date",
            "{{#switch:{{{2}}}|1=January|2=February|3=March|4=April|5=May|6=June|7=July|8=August|9=September|10=October|11=November|#default=December}} {{{3}}}, {{{1}}}",
        ),
        (
            "Template:Convert",
            "{{{1}}} {{{2}}} ({{#expr:{{{1}}}*0.621371 round 1}} {{{3}}})",
        ),
        ("Template:Navbox", "{| class=\"navbox\"\n|{{{list1}}}\n|}"),
        ("Template:Flatlist", "<div class=\"hlist\">{{{1}}}</div>"),
    ];
    for (t, src) in pages {
        store.insert(Title::parse(t, 0, &site).unwrap(), src);
    }
    store
}

#[test]
#[ignore]
fn speed() {
    let page = article();
    let store = templates();
    let pre = Preprocessor::new(&store, Config::default());
    let title = Title::parse("Example", 0, &Site::default()).unwrap();
    let rounds = 200;
    let mut nodes = 0;
    let parse_s = Clock::measure(|| {
        for _ in 0..rounds {
            nodes += parse(&page, Mode::Page).nodes.len();
        }
    });
    let mut out_len = 0;
    let expand_s = Clock::measure(|| {
        for _ in 0..rounds {
            out_len += pre.expand(&title, &page).unwrap().text.len();
        }
    });
    let mb = (page.len() * rounds) as f64 / 1e6;
    println!(
        "page {} bytes ({} top-level nodes), expanded {} bytes; parse {:.1} MB/s, parse+expand {:.1} MB/s",
        page.len(),
        nodes / rounds,
        out_len / rounds,
        mb / parse_s,
        mb / expand_s
    );
}

#[test]
#[ignore]
fn dump_speed() {
    use std::io::Write;
    use tagloom_wikitext::preprocess::DumpReader;
    let body = article()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let mut xml = String::from("<mediawiki>\n");
    for k in 0..300 {
        xml.push_str(&format!(
            "<page><title>Page {k}</title><ns>0</ns><id>{k}</id><revision><id>{k}</id><text xml:space=\"preserve\">{body}</text></revision></page>\n"
        ));
    }
    xml.push_str("</mediawiki>\n");
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    enc.write_all(xml.as_bytes()).unwrap();
    let bz = enc.finish().unwrap();
    let mb = xml.len() as f64 / 1e6;
    let start = Instant::now();
    let n = DumpReader::new(xml.as_bytes(), "mem")
        .filter_map(Result::ok)
        .count();
    let plain = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let reader =
        std::io::BufReader::with_capacity(1 << 18, bzip2::read::MultiBzDecoder::new(&bz[..]));
    let m = DumpReader::new(reader, "mem.bz2")
        .filter_map(Result::ok)
        .count();
    let packed = start.elapsed().as_secs_f64();
    let mut raw = Vec::new();
    let unpack = Clock::measure(|| {
        use std::io::Read;
        bzip2::read::MultiBzDecoder::new(&bz[..])
            .read_to_end(&mut raw)
            .unwrap();
    });
    assert_eq!((n, m, raw.len()), (300, 300, xml.len()));
    println!(
        "dump of {:.1} MB ({} pages, {:.2} MB as bz2): XML {:.0} MB/s, bz2 alone {:.1} MB/s, bz2+XML {:.1} MB/s (of XML)",
        mb,
        n,
        bz.len() as f64 / 1e6,
        mb / plain,
        mb / unpack,
        mb / packed
    );
}
