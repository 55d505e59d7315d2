"""One self-contained HTML page: the inlined assets, the escaped title and the data as a JSON script element."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

ASSETS = "assets"
CHARTS = "echarts.min.js"
"""Apache ECharts (Apache-2.0, with its NOTICE and the d3 parts' BSD licence beside it in assets/)."""
ECHARTS_VERSION = "6.1.0"
SCRIPT = "report.js"
SWEEP_SCRIPT = "sweep.js"
"""The sweep's page: it registers itself in window.ykPages, and report.js calls it with its helpers."""
STYLE = "report.css"
DATA_ID = "yk-data"
CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; "
    "connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'"
)
"""The page may run only its own inline scripts and styles: a report that tried to fetch anything would fail
visibly (a console error) rather than phone home."""
_CLOSE_SCRIPT = re.compile(r"</(script)", re.IGNORECASE)
_CLOSE_STYLE = re.compile(r"</(style)", re.IGNORECASE)


@cache
def asset(name: str) -> str:
    """The text of one of the package's assets (read once per process)."""
    return resources.files("yk_cli.report.html").joinpath(ASSETS, name).read_text(encoding="utf-8")


def json_script(document: Any) -> str:
    """The document as JSON that is safe inside a <script> element: sorted keys, ASCII only, and no '<', '>' or '&'
    (they occur only in strings, where \\u003c and friends mean the same), so no `</script>` or `<!--` can end or
    change the element."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def inline_script(code: str) -> str:
    """JavaScript inside <script>: a `</script` in it (only ever in a string or a regular expression) is written
    `<\\/script`, which means the same to JavaScript."""
    return _CLOSE_SCRIPT.sub(r"<\\/\1", code)


def render_page(title: str, document: Any, pages: Sequence[str] = ()) -> str:
    """The whole page: head, the empty sections the script fills, the data, the chart library and the script;
    `pages` names assets inlined before report.js that register a kind of page (window.ykPages)."""
    style = _CLOSE_STYLE.sub(r"<\\/\1", asset(STYLE))
    return "".join((
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<meta name=\"generator\" content=\"yk\">\n",
        f"<title>{html.escape(title)}</title>\n<style>\n{style}</style>\n</head>\n<body>\n",
        f"<header><h1>{html.escape(title)}</h1><div id=\"summary\"></div></header>\n",
        "<main id=\"report\"><noscript>This report draws its tables and charts with JavaScript: open it in a browser"
        " with JavaScript on.</noscript></main>\n",
        f"<footer>Written by yk. Charts: Apache ECharts {ECHARTS_VERSION} (Apache License 2.0; Copyright The Apache"
        " Software Foundation; includes parts of d3, BSD 3-Clause), inlined: this file fetches nothing.</footer>\n",
        f"<script type=\"application/json\" id=\"{DATA_ID}\">{json_script(document)}</script>\n",
        f"<script>\n{inline_script(asset(CHARTS))}\n</script>\n",
        *(f"<script>\n{inline_script(asset(name))}\n</script>\n" for name in pages),
        f"<script>\n{inline_script(asset(SCRIPT))}\n</script>\n",
        "</body>\n</html>\n",
    ))
