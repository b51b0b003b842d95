"""The node API, parse options, batch calls and errors."""

import pytest

import tagloom


def test_the_readme_one_liner():
    assert tagloom.parse(b"<p>x").html == "<html><head></head><body><p>x</p></body></html>"


def test_nodes_are_handles_into_the_tree():
    doc = tagloom.parse("<title>Hi</title><p class=x id=a>one <b>two</b><p>three")
    body = doc.body
    assert body.tag == "body" and body.type == "element" and body.namespace == "html"
    first, second = body.elements
    assert first.attrs == {"class": "x", "id": "a"}
    assert first.get("id") == "a" and first.get("nope", "d") == "d"
    assert first.text == "one two"
    assert first.html == '<p class="x" id="a">one <b>two</b></p>'
    assert first.inner_html == "one <b>two</b>"
    assert [n.type for n in first] == ["text", "element"]
    assert first.children[0].data == "one "
    assert first.parent == body and first.next == second and second.prev == first
    assert len(first) == 2
    assert {first, first.parent.elements[0]} == {first}
    assert doc.head.elements[0].text == "Hi"
    assert [n.tag for n in doc.html_element.descendants()] == ["head", "title", "body", "p", "b", "p"]
    assert doc.root.type == "document" and doc.root.parent is None


def test_foreign_content_and_templates():
    doc = tagloom.parse(b"<svg><a xlink:href=u></a></svg><template><i>t</i></template>")
    svg = doc.body.elements[0]
    assert svg.namespace == "svg" and svg.elements[0].attrs == {"xlink:href": "u"}
    template = doc.body.elements[1]
    assert template.children == []
    contents = template.template_contents
    assert contents.type == "document_fragment" and contents.html == "<i>t</i>"
    assert template.html == "<template><i>t</i></template>"


def test_text_skips_what_a_reader_never_sees():
    doc = tagloom.parse(b"<style>s</style><p>a<script>x</script>b<noscript>n</noscript>")
    assert doc.text == "ab"
    assert doc.body.text == "axbn"


def test_encodings():
    assert tagloom.parse(b"<p>\xe9", encoding="latin1").body.text == "\u00e9"
    assert tagloom.parse(b"<meta charset=windows-1251><p>\xe9").encoding == "windows-1251"
    # A str is already decoded: its own <meta charset> changes nothing.
    doc = tagloom.parse("<meta charset=windows-1251><p>\u00e9")
    assert doc.encoding == "UTF-8" and doc.body.text == "\u00e9"
    with pytest.raises(tagloom.EncodingError, match="unknown encoding label"):
        tagloom.parse(b"x", encoding="nope")


def test_scripting_flag():
    on = tagloom.parse(b"<noscript><p>x</noscript>")
    off = tagloom.parse(b"<noscript><p>x</noscript>", scripting=False)
    assert on.head.elements[0].children[0].type == "text"
    assert off.body is not None and "<p>x</p>" in off.html


def test_fragments():
    frag = tagloom.parse_fragment("<td>x", "tr")
    assert frag.is_fragment and frag.html == "<td>x</td>"
    assert frag.dump() == '| <td>\n|   "x"\n'
    assert tagloom.parse_fragment("<circle/>", "svg path").children[0].namespace == "svg"
    with pytest.raises(ValueError):
        tagloom.parse_fragment("x", "a b c")


def test_patches_are_dicts_in_batches():
    batches = list(tagloom.parse(b"<p>x").patches())
    assert [(b["from"], b["to"]) for b in batches] == [(i, i + 1) for i in range(len(batches))]
    assert len({b["doc"] for b in batches}) == 1
    patches = [p for batch in batches for p in batch["patches"]]
    assert patches[0] == {"op": "CreateDocument", "key": 1}
    assert any(p.get("name") == "p" for p in patches)


def test_bad_arguments_raise_type_errors():
    with pytest.raises(TypeError):
        tagloom.parse(12)
    with pytest.raises(TypeError):
        tagloom.parse_many([b"x", 3])


def test_batch_calls_keep_the_order():
    docs = [f"<p>{i}".encode() for i in range(200)] + ["<p>str"]
    for threads in (0, 1, 2, 5):
        parsed = tagloom.parse_many(docs, threads=threads)
        assert [d.text for d in parsed] == [str(i) for i in range(200)] + ["str"]
        assert tagloom.extract_text_many(docs, threads=threads) == [d.text for d in parsed]
    assert tagloom.parse_many([]) == []
