//! What an expansion depends on besides the text: limits, the site, the clock.

use super::parse::DEFAULT_EXT_TAGS;

/// Limits of one page's expansion (MediaWiki's and Parsoid's defaults). Each is
/// answered by visible error markup in the output, or by
/// [`PreprocessError::InputTooLarge`](super::PreprocessError::InputTooLarge).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of wikitext per page (and per template source): 2 MiB.
    pub max_input: usize,
    /// Template nesting depth (MediaWiki's `$wgMaxTemplateDepth`): 40.
    pub max_depth: usize,
    /// Sum of the sizes of all template expansions, nested ones counted again
    /// (MediaWiki's post-expand include size, `$wgMaxArticleSize`): 2 MiB.
    pub max_expansion_size: usize,
    /// Template transclusions per page (Parsoid): 10 000.
    pub max_transclusions: usize,
    /// Preprocessor nodes expanded per page (`$wgMaxPPNodeCount`): 1 000 000.
    pub max_nodes: usize,
    /// Bytes of source text the expansion copies in all — titles, argument
    /// values and outputs, at every nesting level (a tagloom bound: it stops
    /// templates that expand a huge static title or argument thousands of times
    /// with little output, which the other limits let through): 64 MiB.
    pub max_copied: usize,
    /// Nesting of expansions within one another, templates, arguments and
    /// parser functions together (`$wgMaxPPExpandDepth`): 100.
    pub max_expand_depth: usize,
    /// Constructs open at once while parsing (a tagloom bound, see
    /// [`ParseOptions::max_nesting`](super::ParseOptions::max_nesting)): 1000.
    pub max_nesting: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input: 2 << 20,
            max_depth: 40,
            max_expansion_size: 2 << 20,
            max_transclusions: 10_000,
            max_nodes: 1_000_000,
            max_copied: 64 << 20,
            max_expand_depth: 100,
            max_nesting: 1000,
        }
    }
}

/// The wiki: names and URLs that magic words and `fullurl` print.
#[derive(Clone, Debug)]
pub struct Site {
    /// `{{SITENAME}}`.
    pub name: String,
    /// The name of namespace 4 (`Project:` is always an alias).
    pub project_ns: String,
    /// `{{SERVER}}`, e.g. `http://example.org` or `//en.wikipedia.org`.
    pub server: String,
    /// Article path with `$1` for the title, e.g. `/wiki/$1`.
    pub article_path: String,
    /// The script for URLs with a query, e.g. `/index.php`.
    pub script: String,
    /// `{{CONTENTLANGUAGE}}`.
    pub language: String,
    /// Namespaces whose titles have subpages (`BASEPAGENAME` splits at `/`).
    pub subpage_namespaces: Vec<i32>,
    /// Interwiki prefixes (`[[wikipedia:Foo]]`); see [`Interwiki`](super::Interwiki).
    pub interwiki: Vec<super::Interwiki>,
}

impl Default for Site {
    /// The parserTests site: `http://example.org`, `/wiki/$1`, `/index.php`.
    fn default() -> Self {
        Site {
            name: "MediaWiki".into(),
            project_ns: "Project".into(),
            server: "http://example.org".into(),
            article_path: "/wiki/$1".into(),
            script: "/index.php".into(),
            language: "en".into(),
            // MediaWiki's default `$wgNamespacesWithSubpages`.
            subpage_namespaces: vec![1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15, 829],
            interwiki: super::interwiki::parser_tests_map(),
        }
    }
}

impl Site {
    /// A Wikipedia in language `lang` (`en`): `Wikipedia` as site and project
    /// namespace, `//en.wikipedia.org`, `/wiki/$1`, `/w/index.php`.
    ///
    /// ```
    /// use tagloom_wikitext::preprocess::Site;
    /// assert_eq!(Site::wikipedia("de").server, "//de.wikipedia.org");
    /// ```
    pub fn wikipedia(lang: &str) -> Site {
        Site {
            name: "Wikipedia".into(),
            project_ns: "Wikipedia".into(),
            server: format!("//{lang}.wikipedia.org"),
            article_path: "/wiki/$1".into(),
            script: "/w/index.php".into(),
            language: lang.into(),
            interwiki: super::interwiki::wikipedia_map(lang),
            ..Site::default()
        }
    }
}

/// The time that date magic words (`CURRENTYEAR`, `#time`, …) print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub unix: i64,
    /// Minutes east of UTC for the `LOCAL…` words.
    pub local_offset_minutes: i32,
}

impl Clock {
    /// The clock at `unix` seconds, local time UTC.
    pub fn at(unix: i64) -> Clock {
        Clock {
            unix,
            local_offset_minutes: 0,
        }
    }

    /// The system clock now.
    pub fn now() -> Clock {
        let unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
        Clock::at(unix)
    }

    /// Parses RFC 3339 (`1970-01-01T00:02:03Z`, `2024-05-06T07:08:09+02:00`;
    /// fractions ignored) to a UTC clock.
    ///
    /// ```
    /// use tagloom_wikitext::preprocess::Clock;
    /// assert_eq!(Clock::parse_rfc3339("1970-01-01T00:02:03Z"), Some(Clock::at(123)));
    /// ```
    pub fn parse_rfc3339(s: &str) -> Option<Clock> {
        super::functions::time::parse_rfc3339(s).map(Clock::at)
    }
}

/// Everything a [`Preprocessor`](super::Preprocessor) is configured with.
#[derive(Clone, Debug)]
pub struct Config {
    /// Limits.
    pub limits: Limits,
    /// Site names and URLs.
    pub site: Site,
    /// The clock of date magic words.
    pub clock: Clock,
    /// Keep `<!-- comments -->` in the expanded text (Parsoid's preprocessing
    /// keeps them; MediaWiki's HTML rendering drops them). Comments are always
    /// dropped from template names, argument names and values, and the tests of
    /// parser functions.
    pub keep_comments: bool,
    /// Extension tag names whose content is not preprocessed.
    pub ext_tags: Vec<String>,
    /// Extension tags whose content is expanded in the frame the tag appears in
    /// (MediaWiki's extensions parse it with `recursiveTagParse($text, $frame)`),
    /// so `<ref>{{{1}}}</ref>` in a template shows the argument: `ref`,
    /// `references`, `poem`, `indicator` by default.
    pub preprocessed_tags: Vec<String>,
    /// The id of the revision being rendered, shown by `{{REVISIONID}}`;
    /// `None` (the default) shows nothing, as MediaWiki does for an unsaved page.
    pub revision_id: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            limits: Limits::default(),
            site: Site::default(),
            clock: Clock::default(),
            keep_comments: false,
            ext_tags: DEFAULT_EXT_TAGS.iter().map(|s| (*s).to_owned()).collect(),
            preprocessed_tags: ["ref", "references", "poem", "indicator"]
                .map(String::from)
                .to_vec(),
            revision_id: None,
        }
    }
}
