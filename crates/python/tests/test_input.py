"""How documents come in from Python (src/py/input.rs, src/py/unicode.rs): an
ASCII `str` and `bytes` are read in place, any other `str` as UCS-4 pieces encoded
to UTF-8 in Rust, `bytearray` copied; short inputs are worked on with the GIL held,
long ones release it."""

from __future__ import annotations

import pytest

import tagloom
from test_more import released_the_gil

TEXTS = [
    "",
    "<p>plain ASCII <b>bold</b> <a href='http://x.example/'>link</a>",
    "<p title='caf\u00e9'>caf\u00e9 cr\u00e8me \u00a0 \u00ff</p>",
    "<p>\u6f22\u5b57 \u2014 \u201cquoted\u201d <i>\u0416</i></p>",
    "<p>astral \U0001f600 \U00010348 <b>\U0001f680</b></p><!-- \U0001f600 -->",
    "<table><td>\u00e9" * 50 + "\x00 & &amp; &#x1F600;",
]


class Text(str):
    """A `str` subclass: read as a `str`."""


class Lying(str):
    """A `str` whose `__len__` and `isascii` lie: the string's own length and
    code points are what count."""

    def __len__(self) -> int:
        return 10 * super().__len__() + 100

    def isascii(self) -> bool:
        return False


@pytest.mark.parametrize("text", TEXTS)
def test_str_input_is_its_utf8(text):
    utf8 = text.encode("utf-8")
    expected = tagloom.parse(utf8, encoding="utf-8").dump()
    assert tagloom.parse(text).dump() == expected
    # A second call on the same string reads it the same way.
    assert tagloom.parse(text).dump() == expected
    assert tagloom.parse(Text(text)).dump() == expected
    assert tagloom.parse(Lying(text)).dump() == expected
    assert tagloom.parse(text).encoding == "UTF-8"
    assert tagloom.parse_fragment(text, "td").dump() == tagloom.parse_fragment(utf8, "td").dump()
    assert tagloom.sanitize(text) == tagloom.sanitize(utf8) == tagloom.sanitize(Text(text))
    assert tagloom.Policy().sanitize(text) == tagloom.sanitize(utf8)
    assert tagloom.rewrite(text, []) == tagloom.rewrite(utf8, [])
    assert [d.dump() for d in tagloom.parse_many([text, utf8], encoding="utf-8")] == [expected, expected]
    assert text.encode("utf-8") == utf8


def test_str_input_with_a_lone_surrogate_raises():
    bad = "<p>\ud800</p>"
    for call in (tagloom.parse, tagloom.sanitize, tagloom.parse_fragment, tagloom.Policy().sanitize):
        with pytest.raises(UnicodeEncodeError) as raised:
            call(bad)
        # CPython's error: the codec, the string, where the surrogate is.
        assert (raised.value.encoding, raised.value.object, raised.value.start) == ("utf-8", bad, 3)
    # Strings past 2**20 code points are read in pieces of 16 384: the position
    # counts from the string's start.
    for size in (40000, (1 << 20) + 20000):
        long_bad = "\u00e9" * size + "\udfff"
        with pytest.raises(UnicodeEncodeError) as raised:
            tagloom.parse(long_bad)
        assert raised.value.start == size
    with pytest.raises(UnicodeEncodeError):
        tagloom.parse_many(["<p>ok", bad], threads=2)
    with pytest.raises(UnicodeEncodeError):
        tagloom.sanitize_many([bad])
    # The error leaves nothing behind: the next call works.
    assert tagloom.sanitize("<p>\u00e9") == "<p>\u00e9</p>"


def test_long_str_inputs_in_threads():
    """Strings read in place while the GIL is released and two threads parse."""
    texts = [f"<div id=d{i}>" + "<p>\u00e9 \U0001f600 <b>x</b>" * (2000 + i) for i in range(8)]
    docs = tagloom.parse_many(texts, threads=2)
    for text, doc in zip(texts, docs):
        assert doc.dump() == tagloom.parse(text.encode("utf-8"), encoding="utf-8").dump()
    assert tagloom.sanitize_many(texts, threads=2) == [tagloom.sanitize(t.encode("utf-8")) for t in texts]


def test_a_string_read_in_pieces():
    """Past 2**20 code points a string is read in pieces; astral characters and
    multi-byte ones straddle the pieces' edges."""
    text = "<p>\u00e9\U0001f600\u6f22 <b>x</b>" * 75000
    assert len(text) > 1 << 20
    utf8 = text.encode("utf-8")
    assert tagloom.parse(text).dump() == tagloom.parse(utf8, encoding="utf-8").dump()
    assert tagloom.sanitize(text) == tagloom.sanitize(utf8)


def test_bytes_for_the_sanitizer_are_utf8_without_bom():
    assert tagloom.sanitize(b"\xef\xbb\xbf<p>x") == tagloom.sanitize("<p>x") == "<p>x</p>"
    assert tagloom.sanitize(bytearray(b"<p>\xc3\xa9")) == "<p>\u00e9</p>"
    assert tagloom.sanitize(b"<p>\xff") == "<p>\ufffd</p>"
    assert tagloom.parse(bytearray(b"<p>x")).dump() == tagloom.parse(b"<p>x").dump()


def test_long_inputs_release_the_gil():
    page = "<div><p>some <b>text</b> and <a href=x>links</a></div>" * 20000
    assert released_the_gil(lambda: tagloom.parse(page))
    assert released_the_gil(lambda: tagloom.parse(page.encode()))
    assert released_the_gil(lambda: tagloom.sanitize(page))
