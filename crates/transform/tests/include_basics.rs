//! Includes: resolution, nesting, byte preservation, error markup, path safety,
//! handlers inside includes, tree output.

use std::path::Path;

use tagloom_html::token::{OwnedToken, TokenKind};
use tagloom_transform::include::{DirResolver, IncludeConfig, IncludeOutput, Includes};
use tagloom_transform::pipeline::{Ctx, Match, Outcome, Rank};

fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn includes(root: &Path) -> Includes {
    Includes::new(DirResolver::new(root).unwrap(), IncludeConfig::default())
}

fn run(root: &Path, page: &str) -> String {
    includes(root)
        .process(page, IncludeOutput::Tokens)
        .unwrap()
        .0
}

#[test]
fn untouched_input_is_written_back_byte_for_byte() {
    let dir = site(&[]);
    let page = "<!doctype html>\n<HTML lang=en><p class = 'x'  id=y>a &amp; b<!-- c --><br/></P>";
    assert_eq!(run(dir.path(), page), page);
}

#[test]
fn include_and_esi_include_are_replaced_and_nest() {
    let dir = site(&[
        (
            "head.html",
            "<header>Top <include src=\"parts/logo.html\"></include></header>",
        ),
        ("parts/logo.html", "<img src=logo.png alt='L &amp; co'>"),
        ("foot.html", "<footer>End</footer>"),
    ]);
    let out = run(
        dir.path(),
        "<body>\n<include src=\"head.html\"></include>\n<main>x</main>\n<esi:include src=\"foot.html\"/>\n</body>",
    );
    assert_eq!(
        out,
        "<body>\n<header>Top <img src=\"logo.png\" alt=\"L &amp; co\"></header>\n<main>x</main>\n<footer>End</footer>\n</body>"
    );
}

#[test]
fn problems_become_visible_markup() {
    let dir = site(&[
        ("a.html", "A<include src=b.html>"),
        ("b.html", "B<include src=./a.html>"),
    ]);
    let cases = [
        ("<include>", "missing-src"),
        ("<include src=/etc/passwd>", "bad-path"),
        ("<include src=../x>", "bad-path"),
        ("<include src=sub/../../x>", "bad-path"),
        ("<include src=''>", "bad-path"),
        ("<include src=nope.html>", "not-found"),
    ];
    for (page, code) in cases {
        let out = run(dir.path(), page);
        assert!(
            out.starts_with(&format!(
                "<span class=\"tagloom-error\" data-tagloom-error=\"{code}\">"
            )),
            "{page}: {out}"
        );
    }
    let out = run(dir.path(), "<include src=a.html>");
    assert_eq!(
        out,
        "AB<span class=\"tagloom-error\" data-tagloom-error=\"loop\">expansion loop: a.html -&gt; b.html -&gt; a.html</span>"
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_root_is_refused() {
    let outside = site(&[("secret.html", "secret")]);
    let dir = site(&[]);
    std::os::unix::fs::symlink(
        outside.path().join("secret.html"),
        dir.path().join("link.html"),
    )
    .unwrap();
    let out = run(dir.path(), "<include src=link.html>");
    assert!(out.contains("data-tagloom-error=\"bad-path\""), "{out}");
    assert!(!out.contains("secret"));
}

#[test]
fn included_files_use_the_tokenizer_states_of_their_own_tags() {
    let dir = site(&[(
        "s.html",
        "<script>if (a<b) x('<include src=s.html>')</script>",
    )]);
    let out = run(dir.path(), "<include src=s.html>");
    assert_eq!(out, "<script>if (a<b) x('<include src=s.html>')</script>");
}

#[test]
fn handlers_run_inside_includes_and_phase_2_once_on_the_whole_page() {
    let dir = site(&[("inc.html", "<b>inner</b><!--gone-->")]);
    let inc = Includes::with_handlers(
        DirResolver::new(dir.path()).unwrap(),
        IncludeConfig::default(),
        |r| {
            r.add(
                |_, _: &Ctx| Ok(Outcome::Delete),
                Rank::new(0.2)?,
                Match::Kind(TokenKind::Comment),
            )?;
            r.add(
                |t: OwnedToken, _: &Ctx| match t {
                    OwnedToken::Characters(x) => {
                        Ok(Outcome::Keep(OwnedToken::text(x.text().to_uppercase())))
                    }
                    t => Ok(Outcome::Keep(t)),
                },
                Rank::new(2.9)?,
                Match::Kind(TokenKind::Characters),
            )?;
            Ok(())
        },
    );
    let (out, _) = inc
        .process("<p>x<include src=inc.html><!--c-->", IncludeOutput::Tokens)
        .unwrap();
    assert_eq!(out, "<p>X<b>INNER</b>");
}

#[test]
fn tree_output_is_the_spec_tree() {
    let dir = site(&[("row.html", "<td>cell")]);
    let (out, _) = includes(dir.path())
        .process(
            "<table><tr><include src=row.html></table>",
            IncludeOutput::Tree,
        )
        .unwrap();
    assert_eq!(
        out,
        "<html><head></head><body><table><tbody><tr><td>cell</td></tr></tbody></table></body></html>"
    );
}

#[test]
fn many_includes_are_resolved_in_order() {
    let files: Vec<(String, String)> = (0..200)
        .map(|i| (format!("p{i}.html"), format!("<i>{i}</i>")))
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let dir = site(&refs);
    let page: String = (0..200)
        .map(|i| format!("<include src=p{i}.html>"))
        .collect();
    let expected: String = (0..200).map(|i| format!("<i>{i}</i>")).collect();
    assert_eq!(run(dir.path(), &page), expected);
}
