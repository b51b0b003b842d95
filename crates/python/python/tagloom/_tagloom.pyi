"""Type stubs of the extension module (re-exported by ``tagloom``)."""

from os import PathLike
from typing import Any, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple, Union

Data = Union[bytes, bytearray, str]
NodeType = Literal[
    "document", "doctype", "element", "text", "comment", "processing_instruction", "document_fragment"
]
PolicySpec = Union["Policy", str, Mapping[str, Any], None]
Token = List[Any]

class TagloomError(Exception):
    """Every error tagloom raises."""

class ParseError(TagloomError):
    """A parse stopped: an engine limit or failure (malformed markup never raises)."""

class EncodingError(TagloomError):
    """An encoding label the WHATWG Encoding Standard does not know."""

class TokenizerError(TagloomError):
    """The tokenizer stopped: a token over its size limit."""

class PolicyError(TagloomError):
    """A sanitizer policy that is not JSON of the policy's shape, or out of range."""

class RewriteError(TagloomError):
    """Bad rewrite rules (a selector, an action), or a rewrite that failed."""

class L10nError(TagloomError):
    """An extraction, merge or pseudo-translation that failed."""

class WikitextError(TagloomError):
    """A page the wikitext renderer refused."""

class Node:
    """One node of a parsed document, a light handle into the tree kept in Rust.

    >>> p = parse(b"<p class=a>one <b>two</b>").body.elements[0]
    >>> p.tag, p.attrs, p.text, p.html
    ('p', {'class': 'a'}, 'one two', '<p class="a">one <b>two</b></p>')
    """

    @property
    def type(self) -> NodeType: ...
    @property
    def tag(self) -> Optional[str]:
        """An element's local name (``"p"``, ``"foreignObject"``); a doctype's name; else None."""
    @property
    def namespace(self) -> Optional[Literal["html", "svg", "math"]]: ...
    @property
    def attrs(self) -> Dict[str, str]:
        """An element's attributes in source order (``xlink:href`` for namespaced ones)."""
    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        """An attribute's value, or ``default``."""
    @property
    def text(self) -> str:
        """The DOM's ``textContent``: every descendant text node, in tree order."""
    @property
    def data(self) -> Optional[str]:
        """A text, comment or processing instruction node's data."""
    @property
    def children(self) -> List["Node"]: ...
    @property
    def elements(self) -> List["Node"]:
        """The child elements."""
    @property
    def parent(self) -> Optional["Node"]: ...
    @property
    def next(self) -> Optional["Node"]:
        """The next sibling."""
    @property
    def prev(self) -> Optional["Node"]:
        """The previous sibling."""
    @property
    def template_contents(self) -> Optional["Node"]:
        """A ``template`` element's contents (a ``document_fragment`` node)."""
    def descendants(self, *, all: bool = False) -> List["Node"]:
        """Descendants in tree order: elements, or every node with ``all=True``."""
    @property
    def html(self) -> str:
        """The node's own HTML (``outerHTML``; the whole document for the document node)."""
    @property
    def inner_html(self) -> str:
        """The HTML of the node's children (``innerHTML``)."""
    def __iter__(self) -> Iterator["Node"]: ...
    def __len__(self) -> int: ...

class Document:
    """A parsed document or fragment: the tree stays in Rust.

    >>> doc = parse(b"<title>T</title><p>x")
    >>> doc.head.elements[0].text, doc.html
    ('T', '<html><head><title>T</title></head><body><p>x</p></body></html>')
    """

    @property
    def html(self) -> str:
        """The document serialized (the fragment serialization of its children)."""
    @property
    def text(self) -> str:
        """The text a reader sees: every text node but those in script, style, noscript, template."""
    @property
    def encoding(self) -> str:
        """The encoding the document was decoded with (WHATWG name)."""
    @property
    def is_fragment(self) -> bool: ...
    @property
    def root(self) -> Optional[Node]:
        """The document node, or a fragment's ``html`` root."""
    @property
    def html_element(self) -> Optional[Node]: ...
    @property
    def head(self) -> Optional[Node]: ...
    @property
    def body(self) -> Optional[Node]:
        """The ``body`` (or ``frameset``) element."""
    @property
    def children(self) -> List[Node]:
        """The top-level nodes."""
    def __iter__(self) -> Iterator[Node]: ...
    def __len__(self) -> int:
        """How many nodes the tree holds."""
    def dump(self) -> str:
        """The html5lib tree-construction dump (``tagloom parse --format html5lib``)."""
    def patches(self) -> Iterator[Dict[str, Any]]:
        """The parser's versioned ``DomPatch`` batches for this input (parsed again), each a
        dict ``{"doc": 1, "from": 0, "to": 1, "patches": [...]}`` whose patches are dicts in
        the patch protocol's JSON form (``{"op": "CreateDocument", "key": 1}``)."""

class Policy:
    """A compiled sanitizer policy: JSON text or a dict with the policy's fields
    (missing ones keep their defaults); no argument: the default policy."""

    def __init__(self, spec: Union[str, Mapping[str, Any], None] = None) -> None: ...
    def sanitize(self, html: Data) -> str: ...

def parse(data: Data, *, encoding: Optional[str] = None, scripting: bool = True) -> Document:
    """Parses a document as a browser does (WHATWG HTML). ``bytes`` are sniffed (BOM,
    ``encoding`` as the transport charset, ``<meta>``, a guess); ``str`` is already text
    (read in place when ASCII, else encoded to UTF-8 in Rust; a lone surrogate raises
    ``UnicodeEncodeError``).
    Inputs of 8 KiB and more are parsed with the GIL released (as ``sanitize``,
    ``parse_fragment`` and ``rewrite`` do); shorter ones are done before it would pay."""

def parse_fragment(data: Data, context: str = "div", *, scripting: bool = True) -> Document:
    """Parses ``data`` as the content of a ``context`` element (``"td"``, ``"svg path"``,
    ``"math mi"``), read as UTF-8."""

def parse_many(
    docs: Iterable[Data], *, threads: int = 0, encoding: Optional[str] = None, scripting: bool = True
) -> List[Document]:
    """``parse`` over a list in one call, on ``threads`` threads (0: one per core), the
    GIL released; results in input order. The calling thread works too, beside
    ``threads - 1`` helper threads that live for the process (started on first use,
    parked between calls). A task that fails inside raises ``TagloomError``."""

def extract_text_many(
    docs: Iterable[Data], *, threads: int = 0, encoding: Optional[str] = None, scripting: bool = True
) -> List[str]:
    """``parse(d).text`` for every document, keeping no tree; GIL released."""

def sanitize(html: Data, policy: PolicySpec = None) -> str:
    """Sanitizes HTML body content (``bytes`` read as UTF-8): the serialization of a
    spec tree that re-parses to itself. Never fails on any input."""

def sanitize_many(docs: Iterable[Data], policy: PolicySpec = None, *, threads: int = 0) -> List[str]:
    """``sanitize`` over a list in one call, the GIL released."""

def rewrite(html: Data, rules: Union[str, Sequence[Mapping[str, Any]]]) -> str:
    """The streaming rewriter with ``tagloom rewrite --rules`` rules: a list of
    ``{"select": SELECTOR, "actions": [...]}`` (or its JSON); untouched input is copied."""

def tokens(html: Data, *, state: str = "data", last_start_tag: Optional[str] = None) -> List[Token]:
    """The tokenizer's tokens in html5lib-tests' form (``["StartTag", "p", {...}]``,
    ``["Character", "x"]``...), no tree builder."""

def sniff(data: Union[bytes, bytearray], *, transport: Optional[str] = None) -> str:
    """The encoding the parser decodes ``data`` with (``tagloom sniff``)."""

def l10n_extract(input: Union[str, PathLike[str]], output: Union[str, PathLike[str]], **options: Any) -> Dict[str, Any]: ...
def l10n_merge(
    input: Union[str, PathLike[str]], translated: Union[str, PathLike[str]], output: Union[str, PathLike[str]], **options: Any
) -> Dict[str, Any]: ...
def l10n_pseudo(input: Union[str, PathLike[str]], output: Union[str, PathLike[str]], **options: Any) -> Dict[str, Any]: ...
def wikitext_render(wikitext: str, *, title: str = "Main Page") -> str: ...

class Wiki:
    """A page store for templates (the API is tagloom/wikitext.py's ``Wiki``)."""

    def __init__(self, pages: Mapping[str, str]) -> None: ...
    def render(self, wikitext: str, *, title: str = "Main Page") -> str: ...
    def __len__(self) -> int: ...

# tagloom.warc's Rust side (src/py/warc.rs); the API is tagloom/warc.py.
class WarcError(TagloomError):
    kind: str
    offset: int

class Record:
    type: str
    format: str
    target_uri: Optional[str]
    record_id: Optional[str]
    date: Optional[str]
    offset: int
    member_offset: Optional[int]
    headers: List[Tuple[str, str]]
    block: bytes
    http_status: Optional[int]
    http_headers: Optional[List[Tuple[str, str]]]
    payload: bytes
    text: str
    encoding: str
    def header_value(self, name: str) -> Optional[str]: ...

class RecordIter(Iterator[Union[Record, WarcError]]):
    def __next__(self) -> Union[Record, WarcError]: ...

class RowIter(Iterator[Dict[str, Any]]):
    def __next__(self) -> Dict[str, Any]: ...

def warc_records(path: str, *, raise_errors: bool = False, max_body_bytes: Optional[int] = None) -> RecordIter: ...
def warc_rows(paths: List[str], job: str, *, threads: int = 0, max_body_bytes: Optional[int] = None) -> RowIter: ...
def warc_rows_html(docs: Iterable[Any], job: str, *, threads: int = 0) -> List[Dict[str, Any]]: ...
