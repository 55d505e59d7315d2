"""Self-contained HTML reports of a dry run (`yk simulate --format html`), a diff (`yk diff`) and a sweep (`yk sweep`).

One file that works offline: the data is one JSON document in a `<script type="application/json">` element, and
the page's own script (assets/report.js, inlined) builds every table and chart from it; the chart library is inlined
too, and a Content-Security-Policy forbids the page to fetch anything. The same inputs give byte-identical HTML
(no timestamps, sorted keys). Every string from the user's files reaches the page as JSON data and the DOM as text
(textContent; tooltips escape it): none is ever parsed as HTML.

The charts are Apache ECharts (assets/echarts.min.js, 6.1.0, Apache-2.0: LICENSE-echarts, NOTICE-echarts and
LICENSE-d3 beside it). Why ECharts: an Apache Software Foundation project like YuniKorn, actively released, one
dependency-free minified file (1.1 MB) that inlines as is, and it has every chart the report needs on a canvas
that stays fast at 10,000 pods: time series with dataZoom, custom series for the timeline's bars, graphs for who
preempted whom. uPlot is smaller but draws time series only; Chart.js has no graph or Gantt bars.
"""

from yk_cli.report.html.render import render_diff_html, render_simulation_html, render_sweep_html

__all__ = ["render_diff_html", "render_simulation_html", "render_sweep_html"]
