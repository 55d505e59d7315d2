"""The one YAML reader: libyaml's event parser and an iterative composer, to Nodes or plain data.

Events come from libyaml through PyYAML's binding (`yaml._yaml.CParser`; PyYAML's wheels bundle libyaml), else, when
PyYAML was installed without it, from ruamel.yaml's pure-Python parser, which also reads every text with characters
the two parsers treat differently. A text libyaml refuses is read again by the pure-Python parser, so a syntax error
always carries ruamel.yaml's message and position. The composer keeps its own stack (no recursion, whatever the
nesting) and counts nesting the way YuniKorn's yaml.v3 does: more than MAX_DEPTH open flow collections, or block
collections each indented further than the last, is the error yaml.v3 reports. Aliases share their node, so an
alias bomb stays small in memory; a document to which aliases add more than MAX_EXPANDED_NODES nodes, or that contains
itself, is refused. Scalars resolve like yaml.v3 (core.yamldoc.resolve_plain); keys keep their text.
"""

from __future__ import annotations

import functools
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from yk_cli.core.diagnostics import Span
from yk_cli.core.yamldoc import Node, plain_number, resolve_plain
from yk_cli.load.yamlsubset import read_subset

MAX_DEPTH = 10_000
"""yaml.v3's limit, for flow collections (max_flow_level) and block indentation levels (max_indents) alike."""
MAX_EXPANDED_NODES = 2_000_000
"""Most nodes that aliases may add to a document when expanded (bounds YAML bombs; documents without aliases may
be of any size)."""

Mark = tuple[int, int]
"""A 0-based (line, column) of the parsed text."""
SpanOf = Callable[[Mark, Mark], Span]
"""Turns the start and end marks of a node into its span in the file shown to the user."""
Event = tuple[int, Any, Any, Any, Any, int, int, int, int, int, int]
"""One parser event: (kind, value, style, anchor, tag, start line, start column, start index, end line, end column,
end index), as the node composer reads it. value: a scalar's text or an alias's anchor; style: a scalar's ('' plain,
`'`, `"`, `|`, `>`), a collection's flow flag; marks 0-based, indexes in characters."""

STREAM_START, STREAM_END, DOCUMENT_START, DOCUMENT_END, ALIAS, SCALAR = 1, 2, 3, 4, 5, 6
SEQUENCE_START, SEQUENCE_END, MAPPING_START, MAPPING_END = 7, 8, 9, 10

PARSERS = ("pyyaml", "pure")
"""The event sources, fastest first: libyaml through PyYAML's binding, ruamel.yaml's pure-Python parser."""


@functools.cache
def _cparser() -> Any:
    """PyYAML's libyaml parser class, or None (PyYAML built without libyaml); imported only when a text is read (it
    imports the whole yaml package, a start-up's worth of milliseconds)."""
    try:
        from yaml._yaml import CParser  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - PyYAML's wheels bundle libyaml
        return None
    return CParser


def available_parsers() -> list[str]:
    """The event sources installed, fastest first ("pure" always)."""
    return [name for name in PARSERS if name == "pure" or _cparser() is not None]


_parser = ""
"""The event source in use; "" until the first text is read (so that importing yk does not import PyYAML), then
"pyyaml" when it is installed with libyaml, else "pure"."""


def _source() -> str:
    """The event source in use, chosen when first asked."""
    global _parser
    if not _parser:
        _parser = available_parsers()[0]
    return _parser


@functools.cache
def _awkward() -> re.Pattern[str]:
    """Characters that libyaml and ruamel.yaml treat differently (tabs, other line breaks, a BOM, characters outside
    YAML's printable set): a text with any of them is read by ruamel.yaml's parser, so its verdict never depends on
    which parser is installed. Compiled when first needed (it takes milliseconds, a start-up's worth)."""
    return re.compile("[\t\r\x85\u2028\u2029\ufeff]|[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _c_parser_for(text: str) -> bool:
    """Whether libyaml reads this text exactly as ruamel.yaml's parser would (and is in use)."""
    if text.isascii():  # then only control characters are awkward: the bytes left once the others are deleted
        fine = not text.encode("ascii").translate(None, _ASCII_FINE)
    else:  # Python's printable characters are YAML's, less some it reads alike (the test is fast, the expression slow)
        fine = text.replace("\n", " ").isprintable() or not _awkward().search(text)
    return fine and _source() != "pure"


_ASCII_FINE = bytes(range(0x20, 0x7F)) + b"\n"


def c_parser_available() -> bool:
    """Whether libyaml (PyYAML's binding) is installed and in use."""
    return _source() != "pure"


def parser_in_use() -> str:
    """The event source in use: "pyyaml" (libyaml, through PyYAML's binding) or "pure" (ruamel.yaml's parser)."""
    return _source()


def use_parser(name: str) -> str:
    """Read with this event source (one of available_parsers()); returns the previous one. For tests and
    comparisons."""
    global _parser
    if name not in available_parsers():
        raise ValueError(f"parser {name!r} is not available (available: {', '.join(available_parsers())})")
    previous, _parser = _source(), name
    return previous


def use_c_parser(enabled: bool) -> bool:
    """Read with libyaml (when installed) or, with False, with ruamel.yaml's pure-Python parser; returns whether
    libyaml was in use. For tests and comparisons."""
    previous = _source() != "pure"
    use_parser(available_parsers()[0] if enabled else "pure")
    return previous


def _c_events(text: str) -> Iterator[Event]:
    """libyaml's events of a text (PyYAML's event objects) as tuples."""
    kinds = _libyaml_kinds()
    scalar, starts, alias = SCALAR, _STARTS, ALIAS
    for event in iter(_cparser()(text).get_event, None):
        kind = kinds[event.__class__]
        start, end = event.start_mark, event.end_mark
        if kind == scalar:
            value, style, anchor, tag = event.value, event.style, event.anchor, event.tag
        elif kind in starts:
            value, style, anchor, tag = None, event.flow_style, event.anchor, event.tag
        elif kind == alias:
            value, style, anchor, tag = event.anchor, None, None, None
        else:
            value = style = anchor = tag = None
        yield (kind, value, style, anchor, tag, start.line, start.column, start.index, end.line, end.column, end.index)


def _tuples(get: Callable[[], Any]) -> Iterator[Event]:
    """The events of ruamel.yaml's pure-Python parser as tuples, like _c_events gives libyaml's."""
    kinds = _event_kinds()
    while True:
        event = get()
        if event is None:
            return
        kind = kinds.get(event.__class__, 0)
        start, end = event.start_mark, event.end_mark
        value = style = anchor = tag = None
        if kind in (SCALAR, SEQUENCE_START, MAPPING_START):
            anchor = event.anchor
            tag = None if event.ctag is None else str(event.ctag)
            if kind == SCALAR:
                value, style = event.value, event.style
            else:
                style = event.flow_style
        elif kind == ALIAS:
            value = event.anchor
        yield (kind, value, style, anchor, tag, start.line, start.column, start.index, end.line, end.column, end.index)


class ReadError(Exception):
    """Why a text, or one document of it, is refused: the message as yk prints it, where, and a hint.

    `mark` is a 0-based (line, column) of the parsed text; `span` instead when the place is a node's span.
    """

    def __init__(self, message: str, mark: Mark = (0, 0), hint: str = "", span: Span | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.hint = hint
        self.span = span


class _Declined(Exception):
    """The plain-data reader leaves this text to the node reader (which reports what is wrong with it)."""


class _Reread(Exception):
    """The text has anchors, aliases or tags, whose syntax libyaml and ruamel.yaml read differently (the characters
    of an anchor's name, of a tag), or an empty value before an explicit `?` key: ruamel.yaml's parser reads it."""


class _ParserError(Exception):
    """The event parser stopped on a syntax error."""

    def __init__(self, error: ReadError) -> None:
        super().__init__(error.message)
        self.error = error


def read_nodes(text: str, span_of: SpanOf | None = None) -> tuple[list[Node], list[ReadError]]:
    """Every document of a text as Nodes, and what was refused: a syntax error stops reading (the documents before
    it are kept) and comes first; a document whose aliases expand too far or that contains itself is left out.
    Without `span_of`, spans are the marks plus one (1-based lines and columns of the text itself)."""
    errors: list[ReadError] = []
    if _c_parser_for(text):
        documents: list[Node] = []
        depth = [0]
        try:
            _compose(_c_events(text), span_of, documents, errors, _end_mark(text), depth, text)
            return documents, errors
        except _Reread:
            errors = []
        except _ParserError as err:
            if depth[0] > _PURE_DEPTH:  # ruamel.yaml's scanner is too slow this deep: libyaml's words then
                return documents, [err.error, *errors]
            errors = []  # ruamel.yaml's parser says what is wrong, in its words
        except ReadError as err:
            return documents, [err, *errors]
    documents = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            events = _tuples(_pure_events(text))
            if "\\" in text and _any_surrogate_escape().search(text):
                events = _refuse_surrogates(events, text)
            _compose(events, span_of, documents, errors)
    except _ParserError as err:
        return documents, [err.error, *errors]
    except ReadError as err:
        return documents, [err, *errors]
    return documents, errors


def read_plain(text: str) -> tuple[bool, Any]:
    """(True, the only document as plain data: dict, list, str, int, float, bool or None), or (False, None) when the
    text needs the node reader: anchors, aliases, tags, repeated or non-scalar keys, several documents, errors.
    JSON is read by the json module, the simple subset of YAML by load.yamlsubset, the rest from libyaml's events:
    all three give the same data for a text they read."""
    if not _c_parser_for(text):
        return False, None
    if _json_on and text.lstrip(" \n")[:1] in ("{", "["):
        data = _json_plain(text)
        if data is not _NOT_JSON:
            return True, data
    if _subset_on:
        data = read_subset(text, _plain_value)
        if data is not None:
            return True, data
    try:
        # anchors, tags and aliases all need one of these characters: a text without any has none to look for
        properties = "&" in text or "!" in text or "*" in text
        return True, _plain(text, properties, text if _may_have_adjacent_values(text) else "")
    except _Declined:
        return False, None
    except Exception as err:
        if _is_libyaml_error(err):
            return False, None  # a syntax error: the node reader reports it
        raise


_json_on = True
_subset_on = True
_NOT_JSON: Any = object()


def use_subset(enabled: bool) -> bool:
    """Let read_plain read texts of the simple subset (load.yamlsubset) itself (True, the default) or leave them to
    libyaml; returns the previous setting. For tests and comparisons."""
    global _subset_on
    previous, _subset_on = _subset_on, enabled
    return previous


def use_json(enabled: bool) -> bool:
    """Let read_plain read JSON texts with the json module (True, the default) or not; returns the previous
    setting. For tests and comparisons."""
    global _json_on
    previous, _json_on = _json_on, enabled
    return previous


def _json_plain(text: str) -> Any:
    """A JSON text's plain data, read by the json module (in C) exactly as the YAML reader would read it, or
    _NOT_JSON when it is not JSON or when YAML may read it otherwise; the YAML reader decides then.

    JSON is YAML (flow style) but for a few differences, each sent to the YAML reader: a repeated key (yaml.v3
    refuses it), NaN and Infinity (JSON extensions of Python's, strings to YAML), a surrogate escape (\\ud800 to
    \\udfff: paired by json, refused or kept apart by YAML parsers), a key on another line than its colon or longer
    than YAML's 1,024 characters for a simple key. Fractions and exponents are read by the YAML reader's own rule
    (_plain_value of their text); a whole number is int() of its digits, as there (plain data keeps whole numbers as
    written, even past int64)."""
    if ("\\u" in text and _surrogate_escape().search(text)) or _key_colon_apart().search(text):
        return _NOT_JSON
    import json

    numbers: dict[str, Any] = {}

    def number(token: str) -> Any:
        value = numbers.get(token, numbers)
        if value is numbers:
            value = numbers[token] = _plain_value(token)
        return value

    try:
        data = json.loads(text, parse_float=number, parse_constant=_no_constant)
        depth, members, longest = _shape(data)
        if members != text.count(":"):
            # Every member of an object has its colon: fewer members than colons means a colon inside a string or a
            # repeated key (which json keeps once). Only the slower reading by pairs tells them apart.
            data = json.loads(text, object_pairs_hook=_unique_pairs, parse_float=number, parse_constant=_no_constant)
    except (ValueError, RecursionError, _Declined):
        return _NOT_JSON
    if depth > MAX_DEPTH or longest > _LONGEST_JSON_KEY:
        return _NOT_JSON  # YAML's limits (the json module's depth is Python's recursion limit, which may be higher)
    return data


def _shape(data: Any) -> tuple[int, int, int]:
    """How deep collections nest in the json module's plain data (exact dicts and lists), how many members its
    objects have in all, and the length of the longest key; level by level."""
    level = [data] if data.__class__ is dict or data.__class__ is list else []
    depth = members = 0
    keys: set[str] = set()
    add_keys = keys.update
    while level:
        depth += 1
        deeper: list[Any] = []
        push = deeper.append
        for collection in level:
            values: Any = collection
            if collection.__class__ is dict:
                members += len(collection)
                add_keys(collection)
                values = collection.values()
            for inner in values:
                if inner.__class__ is dict or inner.__class__ is list:
                    push(inner)
        level = deeper
    return depth, members, max(map(len, keys), default=0)


@functools.cache
def _surrogate_escape() -> re.Pattern[str]:
    """A `\\u` escape of a surrogate, high (\\ud800 to \\udbff) or low (\\udc00 to \\udfff)."""
    return re.compile(r"\\u[dD][89a-fA-F]")


@functools.cache
def _key_colon_apart() -> re.Pattern[str]:
    """A closing quote, then a line break before the next colon: a key YAML would not read (false alarms only send
    the text to the YAML reader)."""
    return re.compile(r'"[ ]*\n[ \n]*:')


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Declined("repeated key")
    if out and max(map(len, out)) > _LONGEST_JSON_KEY:
        raise _Declined("a key too long for YAML's simple keys")
    return out


_LONGEST_JSON_KEY = 150
"""Longest key (in characters) the JSON path reads: written with \\u escapes, 150 characters stay within YAML's
1,024 for a simple key."""


def _no_constant(token: str) -> Any:
    raise _Declined(f"{token} is a string in YAML")


def _pure_events(text: str) -> Callable[[], Any]:
    """ruamel.yaml's pure-Python parser, as a function giving the next event (None at the end)."""
    from ruamel.yaml import YAML

    return functools.partial(next, iter(YAML(typ="safe", pure=True).parse(text)), None)


def _syntax_error(err: Any) -> ReadError:
    """The ReadError of a syntax error that ruamel.yaml's parser or libyaml (PyYAML's exceptions) raised."""
    if hasattr(err, "problem_mark"):  # MarkedYAMLError, ruamel.yaml's or PyYAML's: the same fields
        mark = err.problem_mark or err.context_mark
        message = " ".join(str(part) for part in (err.context, err.problem) if part)
        where = (mark.line, mark.column) if mark else (0, 0)
        return ReadError(f"YAML syntax error: {message}", where, syntax_hint(message))
    return ReadError(f"YAML syntax error: {err}")


def _is_ruamel_error(err: Exception) -> bool:
    """Whether ruamel.yaml's parser raised this error (about the text)."""
    errors = sys.modules.get("ruamel.yaml.error")  # not imported: not raised by it
    return errors is not None and isinstance(err, errors.YAMLError)


def _is_libyaml_error(err: Exception) -> bool:
    """Whether libyaml (PyYAML's binding) raised this error (about the text)."""
    errors = sys.modules.get("yaml.error")  # not imported: not raised by it
    return errors is not None and isinstance(err, errors.YAMLError)


@functools.cache
def _surrogates() -> re.Pattern[str]:
    """A lone surrogate: a character no UTF-8 text can hold."""
    return re.compile("[\ud800-\udfff]")


@functools.cache
def _any_surrogate_escape() -> re.Pattern[str]:
    """A double-quoted scalar's escape of a surrogate code point (U+D800 to U+DFFF), short or long form."""
    return re.compile(r"\\(?:u[dD][89a-fA-F][0-9a-fA-F]{2}|U0000[dD][89a-fA-F][0-9a-fA-F]{2})")


def _refuse_surrogates(events: Iterator[Event], text: str) -> Iterator[Event]:
    """The events, refusing a double-quoted scalar whose escapes make a surrogate (`"\\ud800"`, a pair of `\\u`
    escapes included): yaml.v3 and libyaml refuse them (`found invalid Unicode character escape code`), ruamel.yaml's
    parser keeps them, and no UTF-8 output could hold one. The error is at the escape."""
    for event in events:
        if event[0] == SCALAR and event[2] == '"' and _surrogates().search(event[1]):
            raise _surrogate_error(text, event)
        yield event


def _surrogate_error(text: str, event: Event) -> ReadError:
    line, column, start, end = event[5], event[6], event[7], event[10]
    found = _any_surrogate_escape().search(text, start, max(end, start + 1))
    escape = found.group(0) if found is not None else ""
    if found is not None:
        before = text[start : found.start()]
        newlines = before.count("\n")
        line += newlines
        column = column + len(before) if not newlines else len(before) - before.rfind("\n") - 1
    shown = f" {escape}" if escape else ""
    return ReadError(
        f"YAML syntax error: while scanning a double-quoted scalar found invalid Unicode character escape code{shown} "
        "(a surrogate)",
        (line, column),
        "Go's YAML decoders (YuniKorn's yaml.v3, Volcano's too) refuse a \\u escape of a surrogate (\\ud800 to "
        "\\udfff), a pair of them included: write the character itself, or \\U and its eight digits (\\U0001F600).",
    )


def has_surrogate_escape(text: str) -> bool:
    """Whether a text may hold a JSON or YAML escape of a surrogate (`\\ud800` to `\\udfff`): such a text is read
    by the YAML reader, which refuses the escape with its position, rather than by a JSON reader."""
    return "\\u" in text and _surrogate_escape().search(text) is not None


def without_surrogates(value: str) -> str:
    """A string from a JSON reader with every lone surrogate replaced by U+FFFD, as Go's encoding/json decodes a
    `\\ud800` that is not half of a pair (Python's json module keeps it, and no UTF-8 output could hold it)."""
    return _surrogates().sub("\ufffd", value) if _surrogates().search(value) else value


def loads_like_go(text: str) -> Any:
    """A JSON text as Go's encoding/json reads it into interface{} values (ValueError when it is not JSON): Python's
    json module, with each lone surrogate escape (`\\ud800` not half of a pair) read as U+FFFD, as Go does, rather
    than kept as a character that no UTF-8 output can hold."""
    import json

    data = json.loads(text)
    if not has_surrogate_escape(text):
        return data
    out: list[Any] = [data]
    work: list[tuple[Any, Any]] = [(out, 0)]
    while work:
        container, slot = work.pop()
        value = container[slot]
        if isinstance(value, str):
            container[slot] = without_surrogates(value)
        elif isinstance(value, list):
            work.extend((value, i) for i in range(len(value)))
        elif isinstance(value, dict):
            fixed = {without_surrogates(k): v for k, v in value.items()}
            container[slot] = fixed
            work.extend((fixed, k) for k in fixed)
    return out[0]


def syntax_hint(message: str) -> str:
    """A hint for the usual causes of a syntax error."""
    if "\\t" in message or "tab" in message.lower():
        return "YAML does not allow tabs for indentation; use spaces."
    if "could not find expected ':'" in message or "expected <block end>" in message:
        return "check the indentation of this line and the one before it."
    return ""


def _may_have_adjacent_values(text: str) -> bool:
    """Whether a flow mapping value may follow its colon with no space between (`["a":b]`), after a quoted key or
    a flow collection: libyaml reads that as a value wherever it is, ruamel.yaml's parser (YAML 1.2) only in some
    places, so such values are left to ruamel.yaml."""
    return '":' in text or "':" in text or "]:" in text or "}:" in text


def _too_deep(line: int, column: int, flow: bool) -> ReadError:
    where = "flow" if flow else "indent"
    return ReadError(
        f"YAML syntax error: while increasing {where} level exceeded max depth of {MAX_DEPTH}",
        (line, column),
        f"YuniKorn's YAML decoder (yaml.v3) stops at {MAX_DEPTH:,} nested levels too.",
    )


@functools.cache
def _event_kinds() -> dict[type, int]:
    """The kind of each ruamel.yaml event class."""
    from ruamel.yaml import events

    return _kinds_of(events)


@functools.cache
def _libyaml_kinds() -> dict[type, int]:
    """The kind of each PyYAML event class (those of libyaml's events)."""
    from yaml import events  # type: ignore[import-untyped]

    return _kinds_of(events)


def _kinds_of(events: Any) -> dict[type, int]:
    """The kind of each event class of a module of event classes (ruamel.yaml's and PyYAML's have the same)."""
    return {
        events.StreamStartEvent: STREAM_START,
        events.StreamEndEvent: STREAM_END,
        events.DocumentStartEvent: DOCUMENT_START,
        events.DocumentEndEvent: DOCUMENT_END,
        events.AliasEvent: ALIAS,
        events.ScalarEvent: SCALAR,
        events.SequenceStartEvent: SEQUENCE_START,
        events.SequenceEndEvent: SEQUENCE_END,
        events.MappingStartEvent: MAPPING_START,
        events.MappingEndEvent: MAPPING_END,
    }


_STARTS = frozenset((MAPPING_START, SEQUENCE_START))
_ENDS = frozenset((MAPPING_END, SEQUENCE_END))
_BINARY = "tag:yaml.org,2002:binary"


_PURE_DEPTH = 1000
"""Deeper than this, a syntax error libyaml found is not read again by ruamel.yaml's parser, whose scanner slows
down with the nesting depth (seconds per thousand tokens at a depth of 10,000)."""


def _end_mark(text: str) -> Mark:
    """The mark of the end of a text."""
    last = text.rfind("\n")
    return text.count("\n"), len(text) - last - 1


def _compose(
    events: Iterable[Event],
    span_of: SpanOf | None,
    out: list[Node],
    errors: list[ReadError],
    c_end: Mark | None = None,
    deepest: list[int] | None = None,
    text_of: str = "",
) -> None:
    """Nodes from the events, appended to `out` as each document ends (or its error to `errors`).

    With `c_end` (the end of the text), the events are libyaml's, whose marks are moved to where ruamel.yaml's
    parser puts them: libyaml ends the last node after a line break the text lacks, and places an empty mapping
    value right after its colon where ruamel.yaml places it at the next token (and the other way round in a flow
    mapping, found in `text_of`, the text). `deepest[0]` is kept at the deepest nesting met (flow and block levels
    together). Without `span_of`, a span is its marks plus one (an empty one covers one column).
    """
    try:
        _compose_events(events, span_of, out, errors, c_end, deepest, text_of)
    except (_Reread, ReadError):
        raise
    except Exception as err:
        if _is_libyaml_error(err) or _is_ruamel_error(err):
            raise _ParserError(_syntax_error(err)) from None
        raise


def _compose_events(
    events: Iterable[Event],
    span_of: SpanOf | None,
    out: list[Node],
    errors: list[ReadError],
    c_end: Mark | None,
    deepest: list[int] | None,
    text_of: str,
) -> None:
    """_compose without the translation of the parser's errors: one loop, one branch per kind of event."""
    max_depth = MAX_DEPTH
    scalar, map_start, starts, ends = SCALAR, MAPPING_START, _STARTS, _ENDS
    from_c = c_end is not None
    adjacent = from_c and _may_have_adjacent_values(text_of)
    last_line, last_column = c_end if c_end is not None else (1 << 62, 0)
    spans = span_of if span_of is not None else _identity_span
    new_span = _new_span
    resolved: dict[str, tuple[str, object]] = {}
    anchors: dict[str, Node] = {}
    aliases = 0
    stack: list[tuple[Node | None, Node | None, int, int, bool, int, int]] = []
    """Per open collection, what to restore at its end: (parent, parent's pending key, start line and column,
    whether the parent is a mapping, flow depth, block indentation column)."""
    parent: Node | None = None
    key: Node | None = None
    is_map = False
    root: Node | None = None
    flow = 0
    column = -1
    indents = 0
    empty: Node | None = None
    """A libyaml empty mapping value whose span waits for the next event."""
    last_end: tuple[int, int, int] | None = None
    """The end mark (line, column, index) of the last node read (a flow mapping's key, before an empty value)."""
    for kind, text, style, anchor, tag, line, col, index, end_line, end_col, end_index in events:
        if empty is not None:
            before = index - 1
            while before >= 0 and text_of[before] == " ":
                before -= 1
            if before >= 0 and text_of[before] == "?":  # an explicit key next: ruamel.yaml places the value
                raise _Reread  # after its `?`, libyaml at the key itself
            here = (line, col) if line <= last_line else (last_line, last_column)
            empty.span = spans(here, here)
            empty = None
        if kind == scalar:
            if from_c and (tag is not None or anchor is not None):
                raise _Reread
            if adjacent and flow and is_map and key is not None and text_of[index - 1] == ":":
                raise _Reread
            if end_line > last_line:
                end_line, end_col = last_line, last_column
            if span_of is None:
                if end_line < line or (end_line == line and end_col <= col):
                    span = new_span(line + 1, col + 1, line + 1, col + 2)
                else:
                    span = new_span(line + 1, col + 1, end_line + 1, end_col + 1)
            else:
                span = span_of((line, col), (end_line, end_col))
            if tag is not None and tag == _BINARY:
                node = Node("scalar", span, "binary", text, text, [], [], style or "")
            elif style:
                node = Node("scalar", span, "str", text, text, [], [], style)
            else:
                found = resolved.get(text)
                if found is None:
                    found = resolved[text] = resolve_plain(text)
                node = Node("scalar", span, found[0], text, found[1], [], [], "")
                if not text and from_c and is_map and key is not None:
                    if not flow:
                        if index == end_index:
                            empty = node
                    elif last_end is not None:
                        node.span = _after_colon(text_of, last_end, index, spans) or span
            last_end = (end_line, end_col, end_index)
            if anchor is not None:
                anchors[anchor] = node
        elif kind in starts:
            if from_c and (tag is not None or anchor is not None):
                raise _Reread
            if adjacent and flow and is_map and key is not None and text_of[index - 1] == ":":
                raise _Reread
            pushed = column
            if style:
                flow += 1
                if flow > max_depth:
                    raise _too_deep(line, col, True)
            elif col > column:
                indents += 1
                if indents > max_depth:
                    raise _too_deep(line, col, False)
                column = col
            if deepest is not None and flow + indents > deepest[0]:
                deepest[0] = flow + indents
            is_mapping = kind == map_start
            node = Node("map", _NO_SPAN, "map") if is_mapping else Node("seq", _NO_SPAN, "seq")
            if anchor is not None:
                anchors[anchor] = node
            if parent is None:
                root = node
            elif is_map:
                if key is None:
                    key = node
                else:
                    parent.pairs.append((key, node))
                    key = None
            else:
                parent.items.append(node)
            stack.append((parent, key, line, col, is_map, flow - 1 if style else flow, pushed))
            parent, key, is_map = node, None, is_mapping
            continue
        elif kind in ends:
            assert parent is not None
            node = parent
            parent, key, start_line, start_col, is_map, flow, previous = stack.pop()
            if previous != column:
                indents -= 1
                column = previous
            last_end = (end_line, end_col, end_index)
            end_mark = (end_line, end_col) if end_line <= last_line else (last_line, last_column)
            node.span = spans((start_line, start_col), end_mark)
            continue  # the collection was attached when it started
        elif kind == ALIAS:
            if from_c:
                raise _Reread
            found_node = anchors.get(text)
            if found_node is None:
                raise ReadError(f"YAML syntax error: found undefined alias {text!r}", (line, col))
            node = found_node
            aliases += 1
        elif kind == DOCUMENT_END:
            if root is not None:
                problem = _expansion_error(root) if aliases else None
                if problem is None:
                    out.append(root)
                else:
                    errors.append(problem)
            root, anchors, aliases = None, {}, 0
            continue
        else:
            continue  # stream and document starts
        if parent is None:
            root = node
        elif is_map:
            if key is None:
                key = node
            else:
                parent.pairs.append((key, node))
                key = None
        else:
            parent.items.append(node)


_NO_SPAN = Span(0, 0, 0, 0)
"""A collection's span until its end is read."""


def _identity_span(start: Mark, end: Mark) -> Span:
    """The span of marks in the text itself: 1-based, and an empty one covers one column."""
    if end <= start:
        return _new_span(start[0] + 1, start[1] + 1, start[0] + 1, start[1] + 2)
    return _new_span(start[0] + 1, start[1] + 1, end[0] + 1, end[1] + 1)


_set_line = vars(Span)["line"].__set__
_set_column = vars(Span)["column"].__set__
_set_end_line = vars(Span)["end_line"].__set__
_set_end_column = vars(Span)["end_column"].__set__


def _new_span(line: int, column: int, end_line: int, end_column: int) -> Span:
    """Span(line, column, end_line, end_column), made without the frozen dataclass's __init__ (four
    object.__setattr__ calls), through its slots: twice as fast, and a reader makes one per node."""
    span: Span = object.__new__(Span)
    _set_line(span, line)
    _set_column(span, column)
    _set_end_line(span, end_line)
    _set_end_column(span, end_column)
    return span


def _after_colon(text: str, key_end: tuple[int, int, int], value_start: int, span_of: SpanOf) -> Span | None:
    """Where ruamel.yaml puts an empty flow mapping value: right after the `:` that follows its key (libyaml: at
    the next token). `key_end` is the key's end (line, column, index), `value_start` the value's start index."""
    key_line, key_column, key_index = key_end
    colon = text.find(":", key_index, value_start)
    if colon < 0:
        return None
    between = text[key_index : colon + 1]
    newlines = between.count("\n")
    column = key_column + len(between) if not newlines else len(between) - between.rfind("\n") - 1
    here = (key_line + newlines, column)
    return span_of(here, here)


def _plain(text: str, properties: bool, adjacent: str) -> Any:
    """The only document of a text as plain data, composed from libyaml's events (PyYAML's event objects, read as
    they come: no tuples on this path); raises _Declined for anything the node reader must look at (`properties`:
    whether the text may have anchors, tags or aliases at all; `adjacent`: the text, when it may have a flow value
    right after its colon, else "")."""
    max_depth = MAX_DEPTH
    scalar, map_start, seq_start, map_end, seq_end, alias, document_start = _libyaml_classes()
    values: dict[str, Any] = {}
    """Plain scalars resolved, by their text: keys and values repeat a lot."""
    keys: dict[str, str] = {}
    """One str per distinct key text: a list's entries repeat the same keys."""
    stack: list[tuple[Any, Any, bool, int, int]] = []
    parent: Any = None
    key: Any = None
    is_map = False
    expect_key = False
    root: Any = None
    documents = 0
    flow = 0
    column = -1
    indents = 0
    for event in iter(_cparser()(text).get_event, None):
        cls = event.__class__
        if cls is scalar:
            if properties and (event.anchor is not None or event.tag is not None):
                raise _Declined("anchor or tag")
            if adjacent and flow and is_map and not expect_key and adjacent[event.start_mark.index - 1] == ":":
                raise _Declined("a flow value right after its colon")
            found = event.value
            if event.style:
                value: Any = found
            else:
                value = values.get(found, values)
                if value is values:
                    value = values[found] = _plain_value(found)
            if is_map:
                if expect_key:
                    if found in parent:
                        raise _Declined("repeated key")
                    key = keys.setdefault(found, found)
                    expect_key = False
                else:
                    parent[key] = value
                    expect_key = True
            elif parent is not None:
                parent.append(value)
            else:
                root = value
        elif cls is map_start or cls is seq_start:
            if properties and (event.anchor is not None or event.tag is not None):
                raise _Declined("anchor or tag")
            start = event.start_mark
            if adjacent and flow and is_map and not expect_key and adjacent[start.index - 1] == ":":
                raise _Declined("a flow value right after its colon")
            pushed = column
            in_flow = event.flow_style
            if in_flow:
                flow += 1
                if flow > max_depth:
                    raise _Declined("too deep")
            elif start.column > column:
                indents += 1
                if indents > max_depth:
                    raise _Declined("too deep")
                column = start.column
            value = {} if cls is map_start else []
            if is_map:
                if expect_key:
                    raise _Declined("collection as a key")
                parent[key] = value
            elif parent is not None:
                parent.append(value)
            else:
                root = value
            stack.append((parent, key, is_map, flow - (1 if in_flow else 0), pushed))
            parent, is_map, expect_key = value, cls is map_start, True
        elif cls is map_end or cls is seq_end:
            parent, key, is_map, flow, previous = stack.pop()
            expect_key = True
            if previous != column:
                indents -= 1
                column = previous
        elif cls is alias:
            raise _Declined("alias")
        elif cls is document_start:
            documents += 1
            if documents > 1:
                raise _Declined("several documents")
    return root


@functools.cache
def _libyaml_classes() -> tuple[type, ...]:
    """PyYAML's event classes that _plain tells apart: scalar, mapping start, sequence start, mapping end, sequence
    end, alias, document start."""
    classes = {kind: cls for cls, kind in _libyaml_kinds().items()}
    kinds = (SCALAR, MAPPING_START, SEQUENCE_START, MAPPING_END, SEQUENCE_END, ALIAS, DOCUMENT_START)
    return tuple(classes[kind] for kind in kinds)


_NUMBERS = frozenset(("int", "float", "bool", "null"))
"""Tags whose plain data is a value, not the text (plain_number)."""


def _plain_value(text: str) -> Any:
    """A plain scalar's plain data (what _plain makes of it)."""
    tag, resolved = resolve_plain(text)
    return plain_number(tag, text, resolved) if tag in _NUMBERS else text


def _expansion_error(root: Node) -> ReadError | None:
    """The error for a document whose aliases add more than MAX_EXPANDED_NODES nodes to it (each alias counts as
    the whole node it refers to, aliases within included), or that contains itself; else None."""
    sizes: dict[int, int] = {}
    """Per node (by id), how many nodes it stands for once every alias is expanded."""
    on_path: set[int] = set()
    work: list[tuple[Node, int]] = [(root, 0)]
    """(node, how many children are counted): a depth-first walk without recursion."""
    cap = 1 << 62
    while work:
        node, done = work[-1]
        ident = id(node)
        children = node.items if node.kind == "seq" else [n for pair in node.pairs for n in pair]
        if done == 0:
            if ident in sizes:
                work.pop()
                continue
            on_path.add(ident)
        if done < len(children):
            work[-1] = (node, done + 1)
            child = children[done]
            child_id = id(child)
            if child_id in on_path:
                return ReadError("an alias refers to the node that contains it (recursive YAML)", span=child.span)
            if child_id not in sizes:
                work.append((child, 0))
            continue
        sizes[ident] = min(1 + sum(sizes[id(child)] for child in children), cap)
        on_path.discard(ident)
        work.pop()
    # every node is in `sizes` once: the expanded document has len(sizes) nodes of its own, the rest come by alias
    if sizes[id(root)] - len(sizes) > MAX_EXPANDED_NODES:
        message = f"aliases add more than {MAX_EXPANDED_NODES:,} nodes to this document (a YAML bomb?)"
        return ReadError(message, span=root.span)
    return None
