"""Find the queue configs in a file: plain queues.yaml, ConfigMaps (data or gzip binaryData), Lists, data maps."""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from dataclasses import dataclass, field

from yk_cli.core.diagnostics import Level, Path, Problem, Span
from yk_cli.core.lint.loader_rules import IGNORED_DOCUMENT, WRONG_TYPE, YAML_SYNTAX
from yk_cli.core.yamldoc import Node
from yk_cli.load.source import Position, config_limit, format_size, parse_yaml
from yk_cli.load.unclassified import (
    configmap_without_key,
    empty_config,
    helm_without_key,
    kubernetes_object,
    list_without_config,
)

YUNIKORN_CONFIGMAPS = ("yunikorn-configs", "yunikorn-defaults")


@dataclass(slots=True)
class QueueDocument:
    """One queues.yaml document found in a file, with where it came from."""

    root: Node | None
    origin: str
    """'' for a plain file, else e.g. 'ConfigMap yunikorn-configs, data["queues.yaml"]'."""
    problems: list[Problem] = field(default_factory=list)


@dataclass(slots=True)
class FileContents:
    """Every queue config document of one file and the problems met finding them."""

    documents: list[QueueDocument] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def find_queue_configs(text: str, policy_group: str = "queues") -> FileContents:
    """Parse a file's text and collect the queue config documents it holds, in file order."""
    parsed = parse_yaml(text)
    out = FileContents(problems=list(parsed.problems))
    key = f"{policy_group}.yaml"
    skipped = _Skipped()
    documents = [doc for doc in parsed.documents if not (doc.kind == "scalar" and doc.tag == "null")]
    for doc in documents:
        _collect(doc, text, key, out, (), skipped)
    found = bool(out.documents)
    out.problems.extend(kubernetes_object(node, alone=not found) for node in skipped.objects)
    if not found:
        out.problems.extend(list_without_config(node, kinds) for node, kinds in skipped.lists)
    out.problems.extend(
        configmap_without_key(node, name, key, yunikorn)
        for node, name, yunikorn in skipped.configmaps
        if yunikorn or not found
    )
    if not documents and not parsed.problems:
        # yaml.v3 reads an empty text as an empty config: valid, and YuniKorn then runs its default config.
        first = parsed.documents[0].span if parsed.documents else Span(1, 1, 1, 1)
        out.problems.append(empty_config("the file", first))
        out.documents.append(QueueDocument(root=None, origin=""))
    return out


@dataclass(slots=True)
class _Skipped:
    """What a file holds besides queue configs, reported once the whole file is seen."""

    objects: list[Node] = field(default_factory=list)
    configmaps: list[tuple[Node, str, bool]] = field(default_factory=list)
    """(node, name, is it one of YuniKorn's ConfigMaps) of ConfigMaps without the queue config key."""
    lists: list[tuple[Node, list[str]]] = field(default_factory=list)
    """Lists with neither a queue config nor a ConfigMap, with the kinds of their items."""


def _kind(node: Node) -> str:
    kind = node.get("kind") if node.kind == "map" else None
    return kind.text if kind is not None and kind.kind == "scalar" else ""


def _name(node: Node) -> str:
    meta = node.get("metadata")
    name = meta.get("name") if meta is not None and meta.kind == "map" else None
    return name.text if name is not None and name.kind == "scalar" else ""


def _collect(node: Node, text: str, key: str, out: FileContents, path: Path, skipped: _Skipped) -> None:
    kind = _kind(node)
    if kind == "List":
        items = node.get("items")
        before = (len(out.documents), len(out.problems), len(skipped.configmaps))
        objects = len(skipped.objects)
        for i, item in enumerate(items.items if items is not None and items.kind == "seq" else []):
            _collect(item, text, key, out, (*path, "items", i), skipped)
        kinds = [_kind(n) or "object" for n in skipped.objects[objects:]]
        del skipped.objects[objects:]  # a List's other objects are not documents of their own
        if (len(out.documents), len(out.problems), len(skipped.configmaps)) == before:
            skipped.lists.append((node, kinds))
        return
    if kind == "ConfigMap":
        _configmap(node, text, key, out, skipped)
        return
    is_map = node.kind == "map"
    if is_map and node.get("partitions") is None and (kind or node.get("apiVersion") is not None):
        skipped.objects.append(node)  # another Kubernetes object: not a queue config
        return
    if is_map and node.get(key) is not None and node.get("partitions") is None:
        _data_entry(node, text, key, out, "data map")
        return
    helm = node.get("yunikornDefaults") if is_map and node.get("partitions") is None else None
    if helm is not None:
        if helm.kind == "map" and helm.get(key) is not None:
            _data_entry(helm, text, key, out, "Helm values yunikornDefaults")
        else:
            out.problems.append(helm_without_key(node, key))
        return
    out.documents.append(QueueDocument(root=node, origin=""))


def _configmap(node: Node, text: str, key: str, out: FileContents, skipped: _Skipped) -> None:
    name = _name(node) or "(unnamed)"
    data = node.get("data")
    binary = node.get("binaryData")
    if data is not None and data.kind == "map" and data.get(key) is not None:
        _data_entry(data, text, key, out, f"ConfigMap {name}")
        return
    if binary is not None and binary.kind == "map":
        for bkey in (f"{key}.gz", key):
            value = binary.get(bkey)
            if value is not None:
                _binary_entry(value, bkey, text, out, f"ConfigMap {name}")
                return
    skipped.configmaps.append((node, name, name in YUNIKORN_CONFIGMAPS or name == "(unnamed)"))


def _data_entry(data: Node, text: str, key: str, out: FileContents, label: str) -> None:
    value = data.get(key)
    assert value is not None
    origin = f'{label}, data["{key}"]' if label.startswith("ConfigMap") else f'{label}, key "{key}"'
    if value.kind != "scalar" or value.tag == "null":
        out.problems.append(
            Problem(
                rule=WRONG_TYPE.id,
                level=Level.ERROR,
                message=f"{key} must be a string holding the queue config, found {value.in_words()}",
                hint=f"write it as a block: `{key}: |` followed by the indented config.",
                span=value.span,
            )
        )
        return
    position = embedded_position(value, text)
    _add_embedded(value.text, position, origin, out, value.span)


def _binary_entry(value: Node, bkey: str, text: str, out: FileContents, label: str) -> None:
    origin = f'{label}, binaryData["{bkey}"]'
    span = value.span

    def fail(message: str) -> None:
        out.problems.append(
            Problem(
                rule=YAML_SYNTAX.id,
                level=Level.ERROR,
                message=message,
                span=span,
                hint="regenerate it with `gzip -c queues.yaml | base64 -w0`.",
            )
        )

    try:
        raw = base64.b64decode(re.sub(r"\s+", "", value.text), validate=True)
    except (binascii.Error, ValueError):
        fail(f"binaryData {bkey} is not valid base64")
        return
    if bkey.endswith(".gz"):
        unpacked, message = gunzip_limited(raw)
        if unpacked is None:
            fail(f"binaryData {bkey} {message}")
            return
        raw = unpacked
    try:
        inner = raw.decode("utf-8")
    except UnicodeDecodeError:
        fail(f"binaryData {bkey} does not hold UTF-8 text")
        return

    def at_value(line: int, column: int) -> tuple[int, int]:
        return span.line, span.column

    _add_embedded(inner, at_value, origin, out, span)


def _add_embedded(inner: str, position: Position, origin: str, out: FileContents, span: Span) -> None:
    parsed = parse_yaml(inner, position)
    problems = list(parsed.problems)
    if len(parsed.documents) > 1:
        second = parsed.documents[1]
        problems.append(
            Problem(
                rule=IGNORED_DOCUMENT.id,
                level=Level.WARNING,
                message="YuniKorn reads only the first YAML document of the queue config; the rest is ignored",
                span=second.span,
            )
        )
    root = parsed.documents[0] if parsed.documents else None
    if not parsed.problems and (root is None or (root.kind == "scalar" and root.tag == "null")):
        problems.append(empty_config(origin, span))
    if parsed.problems and root is None:
        out.documents.append(QueueDocument(root=None, origin=origin, problems=problems))
        return
    out.documents.append(QueueDocument(root=root, origin=origin, problems=problems))


def embedded_position(value: Node, text: str) -> Position:
    """Map positions inside an embedded block scalar to the outer file; other styles map to the value start."""
    start = value.span
    if value.style != "|":

        def at_value(line: int, column: int) -> tuple[int, int]:
            return start.line, start.column

        return at_value
    lines = text.splitlines()
    first_content = start.line  # 0-based index of the line after the indicator
    indent = 0
    header = lines[start.line - 1][start.column - 1 :] if start.line - 1 < len(lines) else ""
    explicit = re.match(r"\|[+-]?([1-9])|\|([1-9])[+-]?", header)
    if explicit:
        parent_indent = len(lines[start.line - 1]) - len(lines[start.line - 1].lstrip(" "))
        indent = parent_indent + int(explicit.group(1) or explicit.group(2))
    else:
        for candidate in lines[first_content:]:
            if candidate.strip():
                indent = len(candidate) - len(candidate.lstrip(" "))
                break

    def embedded(line: int, column: int) -> tuple[int, int]:
        return first_content + line + 1, indent + column + 1

    return embedded


def configmap_entries(node: Node) -> tuple[dict[str, str], list[Problem]]:
    """A ConfigMap's entries as YuniKorn's shim flattens them: `data`, then `binaryData` (`.gz` keys gunzipped)."""
    entries: dict[str, str] = {}
    problems: list[Problem] = []
    data = node.get("data") if node.kind == "map" else None
    if data is not None and data.kind == "map":
        for key, value in data.pairs:
            if key.kind == "scalar" and value.kind == "scalar" and value.tag != "null":
                entries[key.text] = value.text
    binary = node.get("binaryData") if node.kind == "map" else None
    if binary is not None and binary.kind == "map":
        for key, value in binary.pairs:
            if key.kind != "scalar" or value.kind != "scalar":
                continue
            text, message = _decode_binary(value.text, key.text.endswith(".gz"))
            if text is None:
                problems.append(
                    Problem(
                        rule=YAML_SYNTAX.id,
                        level=Level.ERROR,
                        message=f"binaryData {key.text} {message}",
                        span=value.span,
                        hint="regenerate it with `gzip -c queues.yaml | base64 -w0`.",
                    )
                )
                continue
            entries[key.text.removesuffix(".gz")] = text
    return entries, problems


def gunzip_limited(raw: bytes) -> tuple[bytes | None, str]:
    """gzip data unpacked up to the queue config limit (a gzip bomb stops there), or None and why not."""
    limit = config_limit()
    out = bytearray()
    data = raw
    try:
        while data:
            unpacker = zlib.decompressobj(wbits=31)
            out += unpacker.decompress(data, limit + 1 - len(out))
            if len(out) > limit:
                return None, f"unpacks to more than the {format_size(limit)} yk reads from a queue config (--max-size)"
            if not unpacker.eof:
                return None, "is not gzip data"
            data = unpacker.unused_data.lstrip(b"\x00")
    except zlib.error:
        return None, "is not gzip data"
    return bytes(out), ""


def _decode_binary(text: str, gzipped: bool) -> tuple[str | None, str]:
    try:
        raw = base64.b64decode(re.sub(r"\s+", "", text), validate=True)
    except (binascii.Error, ValueError):
        return None, "is not valid base64"
    if gzipped:
        unpacked, message = gunzip_limited(raw)
        if unpacked is None:
            return None, message
        raw = unpacked
    try:
        return raw.decode("utf-8"), ""
    except UnicodeDecodeError:
        return None, "does not hold UTF-8 text"
