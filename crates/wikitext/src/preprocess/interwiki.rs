//! Interwiki prefixes (`[[wikipedia:Foo]]`, `[[fr:Foo]]`): the one table of
//! which prefixes a site knows, where they point, and which are other language
//! editions (their links become language links of the page).

/// One interwiki prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interwiki {
    /// The prefix, lowercase (`wikipedia`).
    pub prefix: String,
    /// The URL with `$1` for the title (`http://en.wikipedia.org/wiki/$1`).
    pub url: String,
    /// The prefix is another language edition of this wiki: `[[fr:Foo]]` is a
    /// language link of the page (`[[:fr:Foo]]` an ordinary link).
    pub language: bool,
    /// The prefix points at this wiki itself: `[[local:Foo]]` is `[[Foo]]`.
    pub local: bool,
}

impl Interwiki {
    fn new(prefix: &str, url: &str) -> Interwiki {
        Interwiki {
            prefix: prefix.to_owned(),
            url: url.to_owned(),
            language: false,
            local: false,
        }
    }

    fn language(mut self) -> Interwiki {
        self.language = true;
        self
    }

    fn local(mut self) -> Interwiki {
        self.local = true;
        self
    }

    /// The URL of `title` (spaces as `_`) on the wiki the prefix names.
    pub fn url_for(&self, title: &str) -> String {
        let encoded = crate::title::encode_title(title);
        if self.url.contains("$1") {
            self.url.replace("$1", &encoded)
        } else {
            self.url.clone()
        }
    }
}

/// The interwiki map of MediaWiki's parser tests (Parsoid's test runner).
pub(crate) fn parser_tests_map() -> Vec<Interwiki> {
    vec![
        Interwiki::new(
            "wikinvest",
            "https://meta.wikimedia.org/wiki/Interwiki_map/discontinued#Wikinvest",
        ),
        Interwiki::new("local", "http://example.org/wiki/$1").local(),
        Interwiki::new("wikipedia", "http://en.wikipedia.org/wiki/$1"),
        Interwiki::new("meatball", "http://www.usemod.com/cgi-bin/mb.pl?$1"),
        Interwiki::new("memoryalpha", "http://www.memory-alpha.org/en/index.php/$1"),
        Interwiki::new("zh", "http://zh.wikipedia.org/wiki/$1").language(),
        Interwiki::new("es", "http://es.wikipedia.org/wiki/$1").language(),
        Interwiki::new("fr", "http://fr.wikipedia.org/wiki/$1").language(),
        Interwiki::new("ru", "http://ru.wikipedia.org/wiki/$1").language(),
        Interwiki::new("mi", "http://example.org/wiki/$1")
            .language()
            .local(),
        Interwiki::new("mul", "http://wikisource.org/wiki/$1").language(),
        Interwiki::new("en", "http://en.wikipedia.org/wiki/$1").language(),
        Interwiki::new("stats", "https://stats.wikimedia.org/$1"),
        Interwiki::new("gerrit", "https://gerrit.wikimedia.org/$1"),
    ]
}

/// The sister-project prefixes of a Wikipedia (no language editions: those
/// need the wiki family's full list).
pub(crate) fn wikipedia_map(lang: &str) -> Vec<Interwiki> {
    let project =
        |prefix: &str, host: &str| Interwiki::new(prefix, &format!("https://{host}/wiki/$1"));
    vec![
        project("wiktionary", &format!("{lang}.wiktionary.org")),
        project("wikt", &format!("{lang}.wiktionary.org")),
        project("wikibooks", &format!("{lang}.wikibooks.org")),
        project("b", &format!("{lang}.wikibooks.org")),
        project("wikinews", &format!("{lang}.wikinews.org")),
        project("n", &format!("{lang}.wikinews.org")),
        project("wikiquote", &format!("{lang}.wikiquote.org")),
        project("q", &format!("{lang}.wikiquote.org")),
        project("wikisource", &format!("{lang}.wikisource.org")),
        project("s", &format!("{lang}.wikisource.org")),
        project("wikiversity", &format!("{lang}.wikiversity.org")),
        project("v", &format!("{lang}.wikiversity.org")),
        project("wikivoyage", &format!("{lang}.wikivoyage.org")),
        project("voy", &format!("{lang}.wikivoyage.org")),
        project("commons", "commons.wikimedia.org"),
        project("c", "commons.wikimedia.org"),
        project("meta", "meta.wikimedia.org"),
        project("m", "meta.wikimedia.org"),
        project("species", "species.wikimedia.org"),
        project("wikispecies", "species.wikimedia.org"),
        project("wikidata", "www.wikidata.org"),
        project("d", "www.wikidata.org"),
        project("mediawikiwiki", "www.mediawiki.org"),
        project("mw", "www.mediawiki.org"),
        project("foundation", "foundation.wikimedia.org"),
        project("wmf", "foundation.wikimedia.org"),
        Interwiki::new(
            "wikipedia",
            &format!("https://{lang}.wikipedia.org/wiki/$1"),
        )
        .local(),
        Interwiki::new("w", &format!("https://{lang}.wikipedia.org/wiki/$1")).local(),
    ]
}

/// The entry for `prefix` (any case, blanks as in titles) in `map`.
pub(crate) fn lookup<'m>(map: &'m [Interwiki], prefix: &str) -> Option<&'m Interwiki> {
    let prefix = prefix.trim().replace('_', " ");
    map.iter()
        .find(|iw| iw.prefix.eq_ignore_ascii_case(&prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups() {
        let map = parser_tests_map();
        let wp = lookup(&map, "Wikipedia").map(|iw| iw.url_for("Foo bar"));
        assert_eq!(wp.as_deref(), Some("http://en.wikipedia.org/wiki/Foo_bar"));
        assert!(lookup(&map, "fr").is_some_and(|iw| iw.language));
        assert!(lookup(&map, "nowhere").is_none());
        let wd = wikipedia_map("de");
        assert_eq!(
            lookup(&wd, "wikt").map(|iw| iw.url_for("x")).as_deref(),
            Some("https://de.wiktionary.org/wiki/x")
        );
    }
}
