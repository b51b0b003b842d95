"""HTML localization: extract translatable text to XLIFF 2.1 or PO, merge
translations back, pseudo-translate.

The same wiring as ``tagloom l10n``: the files are the CLI's byte for byte. A page
is ``bytes`` (its content) or a path (``str`` / ``os.PathLike``); the functions
without ``_file`` return the output's bytes, the ``*_file`` ones write a file (or a
directory, for a directory input) and return a report dict.

>>> from tagloom import l10n
>>> xliff = l10n.extract(b"<p>Hello <b>world</b></p>", target="fr")
>>> b'<source>Hello <pc id="1"' in xliff
True
>>> l10n.pseudo(b"<meta charset=utf-8><p>Hello</p>").decode()
'<meta charset=utf-8><p>[\u0124\u00e9\u013c\u013c\u00f6\u00b7\u00b7]</p>'
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Dict, Optional, Union

from . import _tagloom

__all__ = ["extract", "merge", "pseudo", "extract_file", "merge_file", "pseudo_file"]

Page = Union[bytes, bytearray, str, "os.PathLike[str]"]


def _staged(tmp: str, data: Page, name: str) -> str:
    """A path holding `data`: the path itself, or a file `name` in `tmp`."""
    if isinstance(data, (bytes, bytearray)):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path
    return os.fspath(data)


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _sniff_format(data: Page) -> Optional[str]:
    """XLIFF when the first character (after a BOM and white space) is ``<``."""
    if not isinstance(data, (bytes, bytearray)):
        return None
    head = bytes(data[:512])
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    return "xliff" if head.lstrip().startswith(b"<") else "po"


def extract(
    page: Page,
    *,
    source: str = "en",
    target: Optional[str] = None,
    format: str = "xliff",
    encoding: Optional[str] = None,
    rules: Optional[str] = None,
    name: str = "page.html",
) -> bytes:
    """The page's translatable units as an XLIFF 2.1 (``format="xliff"``) or PO
    (``"po"``) file. ``name`` is the file name recorded for a ``bytes`` page."""
    with tempfile.TemporaryDirectory(prefix="tagloom-") as tmp:
        out = os.path.join(tmp, "out." + ("po" if format == "po" else "xlf"))
        _tagloom.l10n_extract(
            _staged(tmp, page, name), out, source=source, target=target,
            format=format, encoding=encoding, rules=rules,
        )
        return _read(out)


def merge(
    page: Page,
    translations: Page,
    *,
    format: Optional[str] = None,
    source: Optional[str] = None,
    target: Optional[str] = None,
    partial: str = "allow",
    include_fuzzy: bool = False,
    encoding: Optional[str] = None,
    rules: Optional[str] = None,
    name: str = "page.html",
) -> bytes:
    """The page with the translations of an XLIFF or PO file merged in. A unit
    that no longer matches the page keeps its source text (``partial="allow"``)
    or raises ``L10nError`` (``partial="fail"``)."""
    format = format or _sniff_format(translations)
    with tempfile.TemporaryDirectory(prefix="tagloom-") as tmp:
        ext = "po" if format == "po" else "xlf"
        out = os.path.join(tmp, "out-" + name)
        _tagloom.l10n_merge(
            _staged(tmp, page, name), _staged(tmp, translations, "translations." + ext), out,
            source=source, target=target, format=format, partial=partial,
            include_fuzzy=include_fuzzy, encoding=encoding, rules=rules,
        )
        return _read(out)


def pseudo(
    page: Page,
    *,
    source: str = "en",
    target: Optional[str] = None,
    encoding: Optional[str] = None,
    rules: Optional[str] = None,
) -> bytes:
    """The page pseudo-translated (accented, padded text; markup untouched)."""
    with tempfile.TemporaryDirectory(prefix="tagloom-") as tmp:
        out = os.path.join(tmp, "out.html")
        _tagloom.l10n_pseudo(
            _staged(tmp, page, "page.html"), out, source=source, target=target,
            encoding=encoding, rules=rules,
        )
        return _read(out)


def extract_file(page: "os.PathLike[str] | str", output: "os.PathLike[str] | str", **options: Any) -> Dict[str, Any]:
    """``tagloom l10n extract PAGE -o OUTPUT``: a file (format from the extension)
    or a directory; returns the first file's report."""
    return _tagloom.l10n_extract(os.fspath(page), os.fspath(output), **options)


def merge_file(
    page: "os.PathLike[str] | str",
    translations: "os.PathLike[str] | str",
    output: "os.PathLike[str] | str",
    **options: Any,
) -> Dict[str, Any]:
    """``tagloom l10n merge PAGE TRANSLATIONS -o OUTPUT``; returns the first file's
    report (``partial`` and ``issues`` say what was not applied)."""
    return _tagloom.l10n_merge(os.fspath(page), os.fspath(translations), os.fspath(output), **options)


def pseudo_file(page: "os.PathLike[str] | str", output: "os.PathLike[str] | str", **options: Any) -> Dict[str, Any]:
    """``tagloom l10n pseudo PAGE -o OUTPUT``; returns the first file's report."""
    return _tagloom.l10n_pseudo(os.fspath(page), os.fspath(output), **options)
