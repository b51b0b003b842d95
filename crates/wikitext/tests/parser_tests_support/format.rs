//! The parserTests file format (`!! test` … `!! end`), read for facts only; the
//! data files stay outside the repository.

use std::collections::BTreeMap;

/// One test: its name and sections (name → text, one trailing newline removed).
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub sections: BTreeMap<String, String>,
}

/// One `!! article` page.
#[derive(Debug, Clone)]
pub struct Article {
    pub title: String,
    /// The page text.
    pub text: String,
}

/// A parsed test file.
#[derive(Debug, Default)]
pub struct TestFile {
    pub cases: Vec<Case>,
    pub articles: Vec<Article>,
}

/// `!!name` / `!! name` → `name` (lowercased for keywords, trimmed).
fn header(line: &str) -> Option<String> {
    let rest = line.strip_prefix("!!")?;
    let word = rest.trim();
    let word = word.split_whitespace().next().unwrap_or("");
    Some(word.to_ascii_lowercase())
}

fn take_section(lines: &mut std::iter::Peekable<std::str::Lines<'_>>) -> String {
    let mut text = String::new();
    while let Some(line) = lines.peek() {
        if line.starts_with("!!") {
            break;
        }
        text.push_str(line);
        text.push('\n');
        lines.next();
    }
    if text.ends_with('\n') {
        text.pop();
    }
    text
}

/// Parses a file's text. Unknown blocks (`!! options` at file level, `!! hooks`)
/// are skipped up to their end.
pub fn parse(text: &str) -> TestFile {
    let mut file = TestFile::default();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(word) = header(line) else { continue };
        match word.as_str() {
            "test" => {
                let name = lines.next().unwrap_or("").trim().to_owned();
                let mut sections = BTreeMap::new();
                while let Some(line) = lines.next() {
                    let Some(section) = header(line) else {
                        continue;
                    };
                    if section == "end" {
                        break;
                    }
                    let body = take_section(&mut lines);
                    sections.insert(section, body);
                }
                file.cases.push(Case { name, sections });
            }
            "article" => {
                let title = take_section(&mut lines).trim().to_owned();
                let mut body = String::new();
                if lines.peek().and_then(|l| header(l)).as_deref() == Some("text") {
                    lines.next();
                    body = take_section(&mut lines);
                }
                // `!! endarticle` or `!! end`
                lines.next();
                file.articles.push(Article { title, text: body });
            }
            "version" => {}
            _ => {
                // A block such as the file-level `!! options`: skip to its end.
                for line in lines.by_ref() {
                    if header(line).is_some_and(|w| w.starts_with("end")) {
                        break;
                    }
                }
            }
        }
    }
    file
}

impl Case {
    /// The expected HTML Parsoid compares against in wt2html mode, in its order:
    /// `html/parsoid+standalone`, `html/parsoid`, `html/*`, `html`.
    pub fn expected(&self) -> Option<(&str, &str)> {
        ["html/parsoid+standalone", "html/parsoid", "html/*", "html"]
            .into_iter()
            .find_map(|k| self.sections.get(k).map(|v| (k, v.as_str())))
    }

    pub fn options(&self) -> &str {
        self.sections.get("options").map_or("", String::as_str)
    }

    /// Parsoid's "parsoidOnly" normalization: a Parsoid section, or a `parsoid`
    /// option without `normalizePhp`.
    pub fn parsoid_only(&self) -> bool {
        let s = &self.sections;
        let has_parsoid_option = option_names(self.options()).any(|n| n == "parsoid");
        s.contains_key("html/parsoid")
            || s.contains_key("html/parsoid+standalone")
            || s.contains_key("html/parsoid+langconv")
            || (has_parsoid_option && !self.options().contains("normalizePhp"))
    }

    /// `parsoid={… "preserveIEW" …}`.
    pub fn preserve_iew(&self) -> bool {
        self.options().contains("preserveIEW")
    }

    /// The `title=[[X]]` option.
    pub fn title(&self) -> Option<String> {
        let options = self.options();
        let at = options.find("title=[[")?;
        let rest = options.get(at + 8..)?;
        let end = rest.find("]]")?;
        Some(rest.get(..end)?.to_owned())
    }
}

/// The option names of an `!! options` section (`name`, `name=value`, values
/// possibly quoted, bracketed or JSON).
fn option_names(options: &str) -> impl Iterator<Item = String> + '_ {
    let mut names = Vec::new();
    let mut chars = options.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            let mut name = String::from(c);
            while let Some(&(_, c)) = chars.peek() {
                if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' {
                    name.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            names.push(name);
            while let Some(&(_, c)) = chars.peek() {
                if c == ' ' || c == '\t' {
                    chars.next();
                } else {
                    break;
                }
            }
            if chars.peek().map(|&(_, c)| c) == Some('=') {
                chars.next();
                skip_value(&mut chars);
            }
        }
    }
    names.into_iter()
}

fn skip_value(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) {
    while let Some(&(_, c)) = chars.peek() {
        if c == ' ' || c == '\t' || c == '\n' {
            chars.next();
        } else {
            break;
        }
    }
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    while let Some(&(_, c)) = chars.peek() {
        match quote {
            Some(q) => {
                chars.next();
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    quote = None;
                    if depth == 0 {
                        break;
                    }
                }
            }
            None => {
                if depth == 0 && (c.is_whitespace()) {
                    break;
                }
                chars.next();
                match c {
                    '"' => quote = Some('"'),
                    '{' | '[' => depth += 1,
                    '}' | ']' => depth -= 1,
                    ',' if depth == 0 => {}
                    _ => {}
                }
            }
        }
    }
}
