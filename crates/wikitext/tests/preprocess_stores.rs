//! Page stores: directory, XML dump (plain and bz2), async prefetch.

use std::io::Write;

use tagloom_transform::pipeline::block_on;
use tagloom_wikitext::preprocess::{
    AsyncPageSource, Config, DirStore, DumpReader, DumpStore, PageStore, Preprocessor, Site,
    SourceFuture, Title, open_store, prefetch,
};

fn t(s: &str) -> Title {
    Title::parse(s, 0, &Site::default()).unwrap()
}

#[test]
fn directory_store() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        &format!("{}.wikitext", DirStore::file_name(&t("Template:Info box"))),
        "[{{{1}}}]",
    );
    write("Template%3ASub%2Fpage", "sub");
    write("template:lower case.txt", "lc");
    write(".hidden", "no");
    let store = DirStore::open(dir.path(), &Site::default()).unwrap();
    assert_eq!(store.len(), 3);
    assert!(store.exists(&t("Template:Info_box")));
    assert!(store.exists(&t("Template:Lower case")));
    assert_eq!(
        &*store.source(&t("Template:Sub/page")).unwrap().unwrap(),
        "sub"
    );
    let pre = Preprocessor::new(&store, Config::default());
    let out = pre
        .expand(&t("Page"), "{{info box|x}}{{Sub/page}}{{lower case}}")
        .unwrap();
    assert_eq!(out.text, "[x]sublc");
    assert!(DirStore::open(&dir.path().join("missing"), &Site::default()).is_err());
}

const DUMP: &str = r#"<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">
  <siteinfo><sitename>Test</sitename></siteinfo>
  <page>
    <title>Template:Greet</title>
    <ns>10</ns>
    <id>1</id>
    <revision><id>1</id><text bytes="20" xml:space="preserve">Hi &lt;b&gt;{{{1|you}}}&lt;/b&gt; &amp; co</text></revision>
  </page>
  <page>
    <title>Main Page</title>
    <ns>0</ns>
    <revision><text xml:space="preserve">{{greet|all}}</text></revision>
  </page>
</mediawiki>
"#;

#[test]
fn dump_reader_and_store() {
    let pages: Vec<_> = DumpReader::new(DUMP.as_bytes(), "test")
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(
        (pages[0].title.as_str(), pages[0].ns),
        ("Template:Greet", 10)
    );
    assert_eq!(pages[0].text, "Hi <b>{{{1|you}}}</b> & co");

    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("d.xml");
    std::fs::write(&plain, DUMP).unwrap();
    let bz = dir.path().join("d.xml.bz2");
    let mut enc = bzip2::write::BzEncoder::new(
        std::fs::File::create(&bz).unwrap(),
        bzip2::Compression::best(),
    );
    enc.write_all(DUMP.as_bytes()).unwrap();
    enc.finish().unwrap();
    for path in [&plain, &bz] {
        let store = DumpStore::open(path, &Site::default()).unwrap();
        assert!(
            open_store(path, &Site::default())
                .unwrap()
                .exists(&t("Template:Greet"))
        );
        assert_eq!(store.len(), 2);
        assert!(store.exists(&t("Main Page")));
        // Only templates keep their source.
        assert!(store.source(&t("Main Page")).unwrap().is_none());
        let pre = Preprocessor::new(&store, Config::default());
        assert_eq!(
            pre.expand(&t("Main Page"), "{{greet|all}}").unwrap().text,
            "Hi <b>all</b> & co"
        );
    }
    let broken = dir.path().join("b.xml");
    std::fs::write(&broken, "<mediawiki><page><title>x</title></mediawiki>").unwrap();
    assert!(DumpStore::open(&broken, &Site::default()).is_err());
}

struct Slow;

impl AsyncPageSource for Slow {
    fn fetch<'a>(&'a self, title: &'a Title) -> SourceFuture<'a> {
        let text = match title.prefixed().as_str() {
            "Template:A" => Some("a{{B}}{{#if:x|{{C}}}}"),
            "Template:B" => Some("b{{{1|}}}"),
            "Template:C" => Some("#REDIRECT [[Template:D]]"),
            "Template:D" => Some("c"),
            _ => None,
        };
        // Yield once before answering, as a network source would.
        let mut yielded = false;
        Box::pin(std::future::poll_fn(move |cx| {
            if yielded {
                std::task::Poll::Ready(Ok(text.map(str::to_owned)))
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        }))
    }
}

#[test]
fn async_prefetch() {
    let config = Config::default();
    let store = block_on(prefetch(&Slow, "{{A}} {{Missing}} {{PAGENAME}}", &config)).unwrap();
    assert_eq!(store.len(), 4);
    let pre = Preprocessor::new(&store, config);
    let out = pre.expand(&t("P"), "{{A}} {{Missing}}").unwrap();
    assert_eq!(out.text, "abc [[:Template:Missing]]");
}

#[test]
fn shared_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Preprocessor<'static>>();
    send_sync::<DirStore>();
    send_sync::<DumpStore>();
    // One preprocessor, pages expanded on several threads.
    let store = DumpStore::from_reader(
        DumpReader::new(DUMP.as_bytes(), "t"),
        &Site::default(),
        |_| true,
    )
    .unwrap();
    let pre = Preprocessor::new(&store, Config::default());
    std::thread::scope(|s| {
        for k in 0..4 {
            let pre = &pre;
            s.spawn(move || {
                let out = pre
                    .expand(&t("Main Page"), &format!("{{{{greet|{k}}}}}"))
                    .unwrap();
                assert_eq!(out.text, format!("Hi <b>{k}</b> & co"));
            });
        }
    });
}
