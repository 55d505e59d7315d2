"""The reference the reader is tested against: ruamel.yaml's own composer (pure Python) and a converter to Nodes.

This is how yk read YAML before load.yamlreader (the code of load/source.py's parse_yaml_ruamel then). Its nesting
limit (REFERENCE_DEPTH) is the old one: deeper texts are compared by their own tests.
"""

from __future__ import annotations

import warnings

from yk_cli.core.diagnostics import Problem, Span
from yk_cli.core.yamldoc import Node, resolve_plain
from yk_cli.load.source import MAX_EXPANDED_NODES, ParsedText, Position, identity_position, syntax_problem

MAX_DEPTH = 1000
"""The old nesting limit of this path (its composer recurses)."""


def parse_yaml_ruamel(text: str, position: Position = identity_position) -> ParsedText:
    """parse_yaml through ruamel.yaml's composer: any YAML, every syntax error with its position."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    result = ParsedText()
    yaml = YAML(typ="safe", pure=True)
    raw_docs: list[object] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # yaml.v3 accepts a re-used anchor silently; so do we
            for doc in yaml.compose_all(text):
                raw_docs.append(doc)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, column = position(mark.line, mark.column) if mark else position(0, 0)
        message = " ".join(str(part) for part in (err.context, err.problem) if part)
        result.problems.append(syntax_problem(f"YAML syntax error: {message}", line, column, _syntax_hint(message)))
    except RecursionError:
        result.problems.append(syntax_problem(f"nesting is deeper than {MAX_DEPTH} levels", *position(0, 0)))
        return result
    except YAMLError as err:
        result.problems.append(syntax_problem(f"YAML syntax error: {err}", *position(0, 0)))
    converter = _Converter(position)
    for raw in raw_docs:
        try:
            node = converter.convert(raw, 0)
        except _TooDeep as err:
            result.problems.append(syntax_problem(f"nesting is deeper than {MAX_DEPTH} levels", err.line, err.column))
            continue
        except RecursionError:
            result.problems.append(syntax_problem(f"nesting is deeper than {MAX_DEPTH} levels", *position(0, 0)))
            continue
        problem = _expansion_problem(node)
        if problem is not None:
            result.problems.append(problem)
            continue
        result.documents.append(node)
    return result


def _syntax_hint(message: str) -> str:
    if "\\t" in message or "tab" in message.lower():
        return "YAML does not allow tabs for indentation; use spaces."
    if "could not find expected ':'" in message or "expected <block end>" in message:
        return "check the indentation of this line and the one before it."
    return ""


class _TooDeep(Exception):
    def __init__(self, line: int, column: int) -> None:
        super().__init__("too deep")
        self.line = line
        self.column = column


class _Converter:
    """ruamel nodes -> core Nodes; aliases stay shared so a YAML bomb does not grow in memory."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.memo: dict[int, Node] = {}

    def span(self, raw: object) -> Span:
        start = raw.start_mark  # type: ignore[attr-defined]
        end = raw.end_mark  # type: ignore[attr-defined]
        line, column = self.position(start.line, start.column)
        end_line, end_column = self.position(end.line, end.column)
        if (end_line, end_column) <= (line, column):
            end_line, end_column = line, column + 1
        return Span(line, column, end_line, end_column)

    def convert(self, raw: object, depth: int) -> Node:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        known = self.memo.get(id(raw))
        if known is not None:
            return known
        span = self.span(raw)
        if depth > MAX_DEPTH:
            raise _TooDeep(span.line, span.column)
        if isinstance(raw, ScalarNode):
            node = _scalar(raw, span)
            self.memo[id(raw)] = node
            return node
        if isinstance(raw, SequenceNode):
            node = Node("seq", span, tag="seq")
            self.memo[id(raw)] = node
            node.items = [self.convert(item, depth + 1) for item in raw.value]
            return node
        if isinstance(raw, MappingNode):
            node = Node("map", span, tag="map")
            self.memo[id(raw)] = node
            node.pairs = [(self.convert(k, depth + 1), self.convert(v, depth + 1)) for k, v in raw.value]
            return node
        raise TypeError(f"unexpected YAML node {type(raw).__name__}")  # pragma: no cover


def _scalar(raw: object, span: Span) -> Node:
    text = str(raw.value)  # type: ignore[attr-defined]
    style = raw.style or ""  # type: ignore[attr-defined]
    tag_text = str(getattr(raw.tag, "value", raw.tag) or "")  # type: ignore[attr-defined]
    explicit = {
        "tag:yaml.org,2002:binary": "binary",
    }.get(tag_text)
    if explicit:
        return Node("scalar", span, tag=explicit, text=text, value=text, style=style)
    if style:
        return Node("scalar", span, tag="str", text=text, value=text, style=style)
    tag, value = resolve_plain(text)
    return Node("scalar", span, tag=tag, text=text, value=value, style=style)


def _expansion_problem(root: Node) -> Problem | None:
    """A problem when the document expands (through aliases) beyond the limit or refers to itself."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()

    def size(node: Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in on_path:
            raise _Recursive(node)
        on_path.add(key)
        children = node.items if node.kind == "seq" else [n for pair in node.pairs for n in pair]
        total = 1
        for child in children:
            total += size(child)
            if total > MAX_EXPANDED_NODES:
                break
        on_path.discard(key)
        sizes[key] = total
        return total

    try:
        total = size(root)
    except _Recursive as err:
        span = err.node.span
        return syntax_problem("an alias refers to the node that contains it (recursive YAML)", span.line, span.column)
    except RecursionError:
        return syntax_problem(f"nesting is deeper than {MAX_DEPTH} levels", root.span.line, root.span.column)
    if total > MAX_EXPANDED_NODES:
        return syntax_problem(
            f"aliases expand this document beyond {MAX_EXPANDED_NODES:,} nodes (a YAML bomb?)",
            root.span.line,
            root.span.column,
        )
    return None


class _Recursive(Exception):
    def __init__(self, node: Node) -> None:
        super().__init__("recursive")
        self.node = node
