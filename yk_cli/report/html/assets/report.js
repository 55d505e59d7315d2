/* yk's HTML report: builds every table and chart from the JSON document in #yk-data.
   User strings only ever reach the DOM as text (textContent) or, in chart tooltips, through esc(). */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("yk-data").textContent);
  var report = { data: data, charts: {}, tables: {}, finished: {}, ready: false, errors: [] };
  window.ykReport = report;
  var PAGE = 50;
  var COLORS = { completed: "#5b8ff9", running: "#52c41a", preempted: "#fa8c16", released: "#bfbfbf" };

  // ---- small helpers -------------------------------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") node.textContent = attrs[k];
        else if (k === "cls") node.className = attrs[k];
        else node.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }
  function esc(value) {
    return String(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function num(v, digits) {
    if (v === null || v === undefined) return "";
    var d = digits === undefined ? 2 : digits;
    return Number(v).toLocaleString("en-US", { maximumFractionDigits: d });
  }
  function duration(s) {
    if (s === null || s === undefined) return "";
    var neg = s < 0, v = Math.abs(s);
    var out;
    if (v < 60) out = num(v, 3) + "s";
    else if (v < 3600) out = Math.floor(v / 60) + "m" + (v % 60 >= 1 ? " " + Math.floor(v % 60) + "s" : "");
    else out = Math.floor(v / 3600) + "h" + (v % 3600 >= 60 ? " " + Math.floor((v % 3600) / 60) + "m" : "");
    return (neg ? "-" : "") + out;
  }
  var BINARY = [["Ti", Math.pow(2, 40)], ["Gi", Math.pow(2, 30)], ["Mi", Math.pow(2, 20)], ["Ki", 1024]];
  function amount(type, v) {
    if (v === null || v === undefined) return "";
    if (type === "vcore") return num(v / 1000, 2);
    if (type === "memory") {
      for (var i = 0; i < BINARY.length; i++) if (Math.abs(v) >= BINARY[i][1]) return num(v / BINARY[i][1], 2) + BINARY[i][0];
      return num(v, 0);
    }
    return num(v, 2);
  }
  function resources(map) {
    var keys = Object.keys(map || {}).sort();
    return keys.map(function (k) { return k + ": " + amount(k, map[k]); }).join(", ");
  }
  function lost(map) {
    var keys = Object.keys(map || {}).sort();
    return keys.map(function (k) {
      var v = map[k];
      if (k === "vcore") return num(v / 1000, 1) + " core·s";
      if (k === "memory") return num(v / Math.pow(2, 30), 1) + " GiB·s";
      return k + " " + num(v, 1) + "·s";
    }).join(", ");
  }
  function section(id, title, note) {
    var s = el("section", { id: id }, [el("h2", { text: title })]);
    if (note) s.appendChild(el("p", { cls: "note", text: note }));
    document.getElementById("report").appendChild(s);
    return s;
  }
  function select(parent, label, options, value, onChange) {
    var sel = el("select", { "aria-label": label });
    options.forEach(function (o) {
      var opt = el("option", { value: o[0], text: o[1] });
      if (o[0] === value) opt.selected = true;
      sel.appendChild(opt);
    });
    sel.addEventListener("change", function () { onChange(sel.value); });
    parent.appendChild(el("label", { text: label + " " }, [sel]));
    return sel;
  }
  function card(parent, value, label) {
    var shown = typeof value === "number" ? num(value, 2) : String(value);
    parent.appendChild(el("div", { cls: "card" }, [el("b", { text: shown }), el("span", { text: label })]));
  }
  function empty(parent, text) { parent.appendChild(el("p", { cls: "empty", text: text })); }

  // ---- charts ----------------------------------------------------------------------------------------------------
  function chart(parent, name, tall) {
    var div = el("div", { cls: tall ? "chart tall" : "chart", "data-chart": name });
    parent.appendChild(div);
    var instance = echarts.init(div, null, { renderer: "canvas" });
    report.charts[name] = instance;
    report.finished[name] = false;
    instance.on("finished", function () { report.finished[name] = true; });
    return instance;
  }
  function show(instance, option) {
    option.animation = false;
    instance.setOption(option, true);
  }
  window.addEventListener("resize", function () {
    Object.keys(report.charts).forEach(function (k) { report.charts[k].resize(); });
  });
  function timeAxis(end) {
    return { type: "value", name: "virtual time", nameLocation: "middle", nameGap: 28, min: 0, max: end || null,
      axisLabel: { formatter: function (v) { return duration(v); }, hideOverlap: true } };
  }
  function tooltipRows(rows) {
    return rows.map(function (r) { return esc(r[0]) + ": <b>" + esc(r[1]) + "</b>"; }).join("<br>");
  }

  // ---- a paginated table (only one page of rows is ever in the DOM) ------------------------------------------------
  function Pager(parent, name, columns, count, row, attrs) {
    var self = this;
    this.attrs = attrs || null;
    this.columns = columns;
    this.count = count;
    this.row = row;
    this.page = 0;
    this.order = [];
    var controls = el("div", { cls: "controls" });
    this.filter = el("input", { type: "search", placeholder: "filter rows", "aria-label": "filter " + name });
    this.info = el("span", { cls: "note" });
    this.prev = el("button", { type: "button", text: "previous" });
    this.next = el("button", { type: "button", text: "next" });
    [this.filter, this.prev, this.next, this.info].forEach(function (c) { controls.appendChild(c); });
    this.body = el("tbody");
    var head = el("tr");
    this.heads = columns.map(function (c, i) {
      if (!c.sort) return el("th", { cls: c.num ? "num" : "", text: c.title });
      var button = el("button", { type: "button", cls: "sort", text: c.title });
      button.addEventListener("click", function () { self.sortBy(i); });
      return el("th", { cls: c.num ? "num" : "", "aria-sort": "none" }, [button]);
    });
    this.heads.forEach(function (th) { head.appendChild(th); });
    this.base = null;
    this.table = el("table", { "data-table": name }, [el("thead", null, [head]), this.body]);
    parent.appendChild(controls);
    parent.appendChild(el("div", { cls: "scroll" }, [this.table]));
    this.filter.addEventListener("input", function () { self.apply(self.filter.value); });
    this.prev.addEventListener("click", function () { self.go(self.page - 1); });
    this.next.addEventListener("click", function () { self.go(self.page + 1); });
    report.tables[name] = this;
    this.apply("");
  }
  Pager.prototype.allRows = function () {
    var out = [];
    for (var i = 0; i < this.count; i++) out.push(this.row(i));
    return out;
  };
  Pager.prototype.apply = function (query) {
    var q = query.trim().toLowerCase();
    this.order = [];
    for (var k = 0; k < this.count; k++) {
      var i = this.base ? this.base[k] : k;
      if (!q || this.row(i).join("\u0001").toLowerCase().indexOf(q) >= 0) this.order.push(i);
    }
    this.go(0);
  };
  // Sort by a column's `sort(i)` key (a number or a string; null and undefined last either way), ascending first,
  // then descending on a second click; ties keep the rows' own order.
  Pager.prototype.sortBy = function (column, descending) {
    var key = this.columns[column].sort;
    var down = descending === undefined ? this.sorted === column && !this.descending : descending;
    var keys = [], rows = [];
    for (var i = 0; i < this.count; i++) { keys.push(key(i)); rows.push(i); }
    rows.sort(function (a, b) {
      var x = keys[a], y = keys[b], nx = x === null || x === undefined, ny = y === null || y === undefined;
      if (nx || ny) return nx === ny ? a - b : nx ? 1 : -1;
      return (down ? cmp(y, x) : cmp(x, y)) || a - b;
    });
    this.base = rows;
    this.sorted = column;
    this.descending = down;
    this.heads.forEach(function (th, c) {
      if (th.hasAttribute("aria-sort")) th.setAttribute("aria-sort", c !== column ? "none" : down ? "descending" : "ascending");
    });
    this.apply(this.filter.value);
  };
  Pager.prototype.go = function (page) {
    var pages = Math.max(1, Math.ceil(this.order.length / PAGE));
    this.page = Math.min(Math.max(0, page), pages - 1);
    var first = this.page * PAGE, last = Math.min(this.order.length, first + PAGE);
    var columns = this.columns, body = this.body;
    body.textContent = "";
    for (var i = first; i < last; i++) {
      var cells = this.row(this.order[i]);
      var tr = el("tr", this.attrs ? this.attrs(this.order[i]) : null);
      cells.forEach(function (value, c) {
        tr.appendChild(el("td", { cls: columns[c].cls || (columns[c].num ? "num" : ""), text: String(value) }));
      });
      body.appendChild(tr);
    }
    this.info.textContent = this.order.length ? "rows " + (first + 1) + "–" + last + " of " + this.order.length +
      (this.order.length < this.count ? " (filtered from " + this.count + ")" : "") : "no rows";
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
  };

  // ---- shared pieces: groups and utilization ----------------------------------------------------------------------
  var DIMENSIONS = [["queue", "queue"], ["user", "user"], ["priority", "priority"], ["application", "application"]];
  var PERCENTILES = ["p50", "p90", "p95", "p99", "max"];
  function mid(metrics, i) { return Math.round((i + 0.5) * metrics.bucket * 1000) / 1000; }
  function utilizationSeries(metrics, type, label) {
    var cap = metrics.cluster.capacity[type] || 0, values = metrics.cluster.series[type] || [];
    return {
      name: label, type: "line", showSymbol: false, sampling: "lttb",
      data: values.map(function (v, i) { return [mid(metrics, i), cap > 0 ? Math.round(v / cap * 10000) / 100 : 0]; })
    };
  }
  function utilizationOption(series, end) {
    return {
      tooltip: { trigger: "axis", valueFormatter: function (v) { return num(v, 1) + " %"; } },
      legend: { top: 0 }, grid: { left: 56, right: 24, top: 36, bottom: 70 },
      xAxis: timeAxis(end), yAxis: { type: "value", name: "% of capacity", min: 0, max: 100 },
      dataZoom: [{ type: "inside" }, { type: "slider", height: 18, bottom: 6 }], series: series
    };
  }

  // ---- the simulation report ---------------------------------------------------------------------------------------
  function simulation() {
    var m = data.metrics, s = data.summary, pods = m.pods;
    var cards = document.getElementById("summary");
    var top = el("div", { cls: "cards" });
    cards.appendChild(top);
    card(top, pods.submitted, "pods submitted");
    card(top, pods.started, "started");
    card(top, pods.pending, "still pending");
    card(top, pods.failed, "failed");
    card(top, pods.preemptions, "preempted runs");
    card(top, duration(m.end), "run end");
    card(top, m.makespan === null ? "—" : duration(m.makespan), "makespan");
    m.types.forEach(function (t) {
      var u = m.cluster.utilization[t];
      if (u !== undefined) card(top, num(u * 100, 1) + " %", "mean " + t + " used");
    });
    card(top, data.queues.length, "queues");
    card(top, s.nodes, "nodes");
    var notes = data.notes.concat(m.notes);
    if (data.source) cards.appendChild(el("p", { cls: "note", text: "Inputs: " + data.source + " (partition " + data.partition + "); stopped by " + s.stoppedBy + "." }));
    if (notes.length) {
      var ul = el("ul", { cls: "notes" });
      notes.forEach(function (n) { ul.appendChild(el("li", { text: n })); });
      cards.appendChild(ul);
    }
    clusterChart(m);
    timelineChart();
    queueUsage(m);
    waits(m);
    queueTree();
    pendingTable();
    preemptionGraph();
  }

  function queueTree() {
    var sec = section("queues", "Queue tree", "Every queue of the partition with its effective settings (inherited values included), and what its pods did in the run.");
    var usage = data.metrics.queues;
    var head = el("tr");
    ["queue", "guaranteed", "max", "max apps", "sort policy", "priority offset", "priority policy", "preemption policy",
      "preemption delay", "mean usage", "peak usage", "fairness gap", "pods", "pending"].forEach(function (t) {
      head.appendChild(el("th", { text: t }));
    });
    var body = el("tbody");
    data.queues.forEach(function (q) {
      var u = usage[q.path] || {};
      var name = el("td", { style: "padding-left:" + (8 + 16 * q.depth) + "px" }, [q.path.split(".").pop()]);
      if (!q.leaf) name.appendChild(el("span", { cls: "tag", text: "parent" }));
      if (q.dynamic) name.appendChild(el("span", { cls: "tag", text: q.inTree ? "dynamic" : "not in the config" }));
      var tr = el("tr", { "data-queue": q.path, title: q.path, cls: q.leaf ? "leaf" : "parent" }, [name]);
      [q.guaranteed, q.max, q.maxApplications || "", q.sortPolicy, q.priorityOffset, q.priorityFence ? "fence" : "default",
        q.preemptionPolicy, q.preemptionDelay === null ? "" : duration(q.preemptionDelay), resources(u.mean),
        resources(u.peak), u.gap ? duration(u.gap) : "", q.pods ? q.pods.submitted : "", q.pods ? q.pods.pending : ""
      ].forEach(function (v) { tr.appendChild(el("td", { text: String(v) })); });
      body.appendChild(tr);
    });
    sec.appendChild(el("div", { cls: "scroll" }, [el("table", { id: "queue-tree" }, [el("thead", null, [head]), body])]));
  }

  function clusterChart(m) {
    var sec = section("utilization", "Cluster utilization", "What runs on the nodes (foreign pods included) as a share of their capacity, per resource type, in " + (m.cluster.series[m.types[0]] || []).length + " equal slices of the run.");
    if (!m.bucket) { empty(sec, "The run has no length: nothing to draw."); return; }
    var c = chart(sec, "utilization");
    show(c, utilizationOption(m.types.map(function (t) { return utilizationSeries(m, t, t); }), m.end));
  }

  function queueUsage(m) {
    var sec = section("queue-usage", "Queue usage against guarantee and max", "A queue's usage (its pods and those of the queues below it), its guarantee and its max over the run; the fairness gap is how long it stayed below its guarantee while a pod of it that fits a node waited. Shown first: the queue with the longest gap.");
    if (!m.bucket) { empty(sec, "The run has no length: nothing to draw."); return; }
    var paths = Object.keys(m.queues).sort();
    var gaps = paths.filter(function (p) { return m.queues[p].gap > 0; });
    gaps.sort(function (a, b) { return m.queues[b].gap - m.queues[a].gap || cmp(a, b); });
    var first = gaps[0] || paths.filter(function (p) { return Object.keys(m.queues[p].guaranteed).length; })[0] || paths[0];
    var state = { queue: first, type: m.types.indexOf("vcore") >= 0 ? "vcore" : m.types[0] };
    var controls = el("div", { cls: "controls" });
    sec.appendChild(controls);
    select(controls, "queue", paths.map(function (p) { return [p, p]; }), state.queue, function (v) { state.queue = v; draw(); });
    select(controls, "resource", m.types.map(function (t) { return [t, t]; }), state.type, function (v) { state.type = v; draw(); });
    var gap = el("span", { cls: "note" });
    controls.appendChild(gap);
    var c = chart(sec, "queue-usage");
    function flat(name, value, color) {
      return { name: name, type: "line", showSymbol: false, lineStyle: { type: "dashed", color: color }, itemStyle: { color: color },
        data: value === undefined ? [] : [[0, value], [m.end, value]] };
    }
    function draw() {
      var u = m.queues[state.queue], t = state.type, values = u.series[t] || [];
      var scale = function (v) { return t === "vcore" ? v / 1000 : t === "memory" ? v / Math.pow(2, 30) : v; };
      gap.textContent = "fairness gap: " + (u.gap ? duration(u.gap) : "none") + "; mean " + resources(u.mean);
      show(c, {
        tooltip: { trigger: "axis", valueFormatter: function (v) { return num(v, 2); } },
        legend: { top: 0 }, grid: { left: 64, right: 24, top: 36, bottom: 70 }, xAxis: timeAxis(m.end),
        yAxis: { type: "value", name: t === "vcore" ? "cores" : t === "memory" ? "GiB" : t, min: 0 },
        dataZoom: [{ type: "inside" }, { type: "slider", height: 18, bottom: 6 }],
        series: [
          { name: "usage", type: "line", showSymbol: false, areaStyle: { opacity: 0.25 },
            data: values.map(function (v, i) { return [mid(m, i), scale(v)]; }) },
          flat("guaranteed", u.guaranteed[t] === undefined ? undefined : scale(u.guaranteed[t]), "#1a7f37"),
          flat("max", u.max[t] === undefined ? undefined : scale(u.max[t]), "#cf222e")
        ]
      });
    }
    draw();
  }

  function groupColumns(observed) {
    var columns = [{ title: "group" }, { title: "submitted", num: true }, { title: "started", num: true },
      { title: "pending", num: true }, { title: "failed", num: true }, { title: "preempted", num: true },
      { title: "wait p50", num: true }, { title: "p90", num: true }, { title: "p95", num: true },
      { title: "p99", num: true },
      { title: "max", num: true }, { title: "first start", num: true }, { title: "work lost" }];
    if (observed) {
      columns.push({ title: "observed starts", num: true }, { title: "|error| p50", num: true },
        { title: "|error| p90", num: true }, { title: "mean error", num: true });
    }
    return columns;
  }
  function groupRow(g, observed) {
    var w = g.waits || {};
    var row = [g.key, g.submitted, g.started, g.pending, g.failed, g.preemptions, duration(w.p50), duration(w.p90),
      duration(w.p95), duration(w.p99), duration(w.max), duration(g.firstStart), lost(g.lost)];
    if (observed) {
      var e = g.errors || {};
      row.push(e.count || "", duration(e.p50), duration(e.p90), duration(e.bias));
    }
    return row;
  }

  function waits(m) {
    var sec = section("waits", "Wait times", "From submission to first start; a pod still pending counts with its wait so far (a lower bound). Groups with the longest p99 first. For a workload imported from a recorded trace, the table adds the error of the predicted starts against the observed ones (positive: yk predicts later starts; the trace came from another scheduler).");
    var state = { dimension: "queue" };
    var controls = el("div", { cls: "controls" });
    sec.appendChild(controls);
    select(controls, "group by", DIMENSIONS, state.dimension, function (v) { state.dimension = v; draw(); });
    var c = chart(sec, "waits");
    var holder = el("div");
    sec.appendChild(holder);
    function draw() {
      var groups = m.groups[state.dimension].filter(function (g) { return g.waits; }).slice();
      groups.sort(function (a, b) { return b.waits.p99 - a.waits.p99 || cmp(a.key, b.key); });
      var keys = groups.map(function (g) { return g.key; });
      show(c, {
        tooltip: { trigger: "axis", valueFormatter: function (v) { return duration(v); } },
        legend: { top: 0 }, grid: { left: 64, right: 24, top: 36, bottom: 120 },
        xAxis: { type: "category", data: keys, axisLabel: { rotate: 30, hideOverlap: true } },
        yAxis: { type: "value", name: "wait", axisLabel: { formatter: function (v) { return duration(v); } } },
        dataZoom: keys.length > 30 ? [{ type: "inside" }, { type: "slider", height: 18, bottom: 6, startValue: 0, endValue: 29 }] : [],
        series: PERCENTILES.map(function (p) {
          return { name: p, type: "bar", large: true, data: groups.map(function (g) { return g.waits[p]; }) };
        })
      });
      holder.textContent = "";
      var rows = m.groups[state.dimension];
      var observed = rows.some(function (g) { return g.errors; });
      new Pager(holder, "groups", groupColumns(observed), rows.length, function (i) { return groupRow(rows[i], observed); });
    }
    draw();
  }

  function timelineChart() {
    var T = data.timeline, bars = T.bars, marks = T.marks, n = bars.start.length;
    var sec = section("timeline", "Timeline", n + " allocations as bars (overlapping ones side by side in their row), preempted victims marked ▲; drag the sliders to zoom.");
    if (!n) { empty(sec, "Nothing ran."); return; }
    var state = { by: "queue" };
    var controls = el("div", { cls: "controls" });
    sec.appendChild(controls);
    select(controls, "rows", [["queue", "per queue"], ["node", "per node"]], state.by, function (v) { state.by = v; draw(); });
    var c = chart(sec, "timeline", true);
    function label(names, i) { var v = names[i]; return v ? v : "(none)"; }
    function draw() {
      var names = state.by === "queue" ? data.queueNames : data.nodes;
      var col = state.by === "queue" ? bars.queue : bars.node, markCol = state.by === "queue" ? marks.queue : marks.node;
      var used = {};
      col.forEach(function (g) { used[g] = true; });
      markCol.forEach(function (g) { used[g] = true; });
      var groups = Object.keys(used).map(Number).sort(function (a, b) { return cmp(label(names, a), label(names, b)); });
      var rowOf = {};
      groups.forEach(function (g, r) { rowOf[g] = r; });
      var ends = groups.map(function () { return []; }), items = [];
      for (var i = 0; i < n; i++) {
        var r = rowOf[col[i]], lanes = ends[r], lane = 0;
        while (lane < lanes.length && lanes[lane] > bars.start[i]) lane++;
        lanes[lane] = Math.max(bars.end[i], bars.start[i] + 1e-9);
        items.push([bars.start[i], bars.end[i], r, lane, 0, bars.ended[i], i]);
      }
      items.forEach(function (it) { it[4] = ends[it[2]].length; });
      var markItems = marks.time.map(function (t, k) { return [t, rowOf[markCol[k]], k]; });
      var rows = groups.map(function (g) { return label(names, g); });
      var rowsShown = Math.min(rows.length, 25);
      function renderItem(params, api) {
        var row = api.value(2), start = api.coord([api.value(0), row]), end = api.coord([api.value(1), row]);
        var band = api.size([0, 1])[1] * 0.8, lanes = api.value(4), h = band / lanes;
        var sys = params.coordSys;
        var rect = echarts.graphic.clipRectByRect(
          { x: start[0], y: start[1] - band / 2 + api.value(3) * h, width: Math.max(end[0] - start[0], 1), height: Math.max(h - (h > 3 ? 1 : 0), 0.5) },
          { x: sys.x, y: sys.y, width: sys.width, height: sys.height });
        return rect && { type: "rect", transition: [], shape: rect, style: { fill: COLORS[T.ended[api.value(5)]] } };
      }
      show(c, {
        tooltip: {
          trigger: "item", confine: true,
          formatter: function (p) {
            if (p.seriesName === "preempted victim") {
              var k = p.value[2];
              return tooltipRows([["victim", marks.victim[k]], ["preempted by", marks.by[k]], ["at", duration(marks.time[k])],
                ["queue", label(data.queueNames, marks.queue[k])], ["node", label(data.nodes, marks.node[k])],
                ["kind", marks.quota[k] ? "quota preemption" : "preemption"]]);
            }
            var b = p.value[6];
            return tooltipRows([["pod", data.apps[bars.app[b]] + "/" + bars.ask[b]], ["queue", label(data.queueNames, bars.queue[b])],
              ["node", label(data.nodes, bars.node[b])], ["from", duration(bars.start[b])], ["to", duration(bars.end[b])],
              ["ended", T.ended[bars.ended[b]]]]);
          }
        },
        legend: { top: 0, data: T.ended.map(function (e) { return { name: e, itemStyle: { color: COLORS[e] } }; }).concat([{ name: "preempted victim" }]) },
        grid: { left: 160, right: 56, top: 36, bottom: 70 },
        xAxis: timeAxis(T.end),
        yAxis: { type: "category", data: rows, inverse: true, axisLabel: { formatter: function (v) { return v.length > 26 ? "…" + v.slice(-25) : v; } }, splitLine: { show: true } },
        dataZoom: [
          { type: "inside", xAxisIndex: 0, filterMode: "weakFilter" },
          { type: "slider", xAxisIndex: 0, height: 18, bottom: 6, filterMode: "weakFilter" },
          { type: "slider", yAxisIndex: 0, right: 8, width: 18, startValue: 0, endValue: rowsShown - 1, filterMode: "weakFilter" }
        ],
        series: T.ended.map(function (e, k) {
          return { name: e, type: "custom", renderItem: renderItem, encode: { x: [0, 1], y: 2 }, clip: true,
            itemStyle: { color: COLORS[e] }, data: items.filter(function (it) { return it[5] === k; }) };
        }).concat([{ name: "preempted victim", type: "scatter", symbol: "triangle", symbolSize: 9, itemStyle: { color: "#cf222e" },
          encode: { x: 0, y: 1 }, data: markItems, z: 5 }])
      });
    }
    draw();
  }

  function pendingTable() {
    var P = data.pending, rows = P.rows, n = rows.app.length;
    var sec = section("pending", "Pending pods", n + " asks still wait at the end of the run, with the reason they wait.");
    if (!n) { empty(sec, "No pod is pending at the end."); report.tables.pending = { count: 0, allRows: function () { return []; } }; return; }
    var counts = el("div", { cls: "cards" });
    P.codes.forEach(function (c) { card(counts, c[1], c[0]); });
    sec.appendChild(counts);
    new Pager(sec, "pending", [{ title: "application" }, { title: "ask" }, { title: "queue" }, { title: "priority", num: true },
      { title: "resources" }, { title: "code" }, { title: "reason", cls: "reason" }, { title: "waited", num: true }], n, function (i) {
      return [rows.app[i], rows.ask[i], rows.queue[i], rows.priority[i], rows.resources[i], rows.code[i],
        P.reasons[rows.reason[i]], duration(rows.waited[i])];
    });
  }

  function preemptionGraph() {
    var sec = section("preemptions", "Who preempted whom", "Edges from the preempting pod's queue (or application) to its victims', weighted by the number of victims.");
    var attempts = data.attempts;
    if (attempts.length) {
      var row = el("div", { cls: "cards" });
      attempts.forEach(function (a) { card(row, a[1], "attempts: " + a[0]); });
      sec.appendChild(row);
    }
    if (!data.graph.queue.length) { empty(sec, "No preemption in this run."); return; }
    var state = { by: "queue" };
    var controls = el("div", { cls: "controls" });
    sec.appendChild(controls);
    select(controls, "edges", [["queue", "queue → queue"], ["application", "application → application"]], state.by, function (v) { state.by = v; draw(); });
    var note = el("span", { cls: "note" });
    controls.appendChild(note);
    var c = chart(sec, "preemption-graph", true);
    var holder = el("div");
    sec.appendChild(holder);
    function draw() {
      var all = data.graph[state.by].slice(), edges = all.slice();
      edges.sort(function (a, b) { return b[2] - a[2] || cmp(a[0], b[0]) || cmp(a[1], b[1]); });
      edges = edges.slice(0, 300);
      note.textContent = edges.length < all.length ? "the " + edges.length + " heaviest of " + all.length + " edges" : all.length + " edges";
      var weight = {}, heaviest = edges.length ? edges[0][2] : 1;
      edges.forEach(function (e) { weight[e[0]] = (weight[e[0]] || 0) + e[2]; weight[e[1]] = (weight[e[1]] || 0) + e[2]; });
      var names = Object.keys(weight).sort();
      show(c, {
        tooltip: { formatter: function (p) {
          if (p.dataType === "edge") return tooltipRows([["preemptor", p.data.source], ["victims of", p.data.target], ["victims", p.data.value]]);
          return tooltipRows([[state.by, p.name], ["victims in or by it", weight[p.name]]]);
        } },
        series: [{
          type: "graph", layout: "circular", left: "22%", right: "22%", top: 70, bottom: 70, circular: { rotateLabel: true }, roam: true, edgeSymbol: ["none", "arrow"], edgeSymbolSize: 8,
          label: { show: names.length <= 80, position: "right", fontSize: 11 }, emphasis: { focus: "adjacency" },
          lineStyle: { curveness: 0.25, opacity: 0.7, color: "source" },
          data: names.map(function (nm) { return { name: nm, value: weight[nm], symbolSize: 6 + 14 * Math.sqrt(weight[nm] / (heaviest * 2)) }; }),
          links: edges.map(function (e) { return { source: e[0], target: e[1], value: e[2], lineStyle: { width: 1 + 5 * e[2] / heaviest } }; })
        }]
      });
      holder.textContent = "";
      new Pager(holder, "preemption-edges", [{ title: "preemptor" }, { title: "victims of" }, { title: "victims", num: true }], all.length,
        function (i) { return all[i]; });
    }
    draw();
  }

  // ---- the diff report ---------------------------------------------------------------------------------------------
  function diffReport() {
    var cards = document.getElementById("summary");
    cards.appendChild(el("p", { cls: "note", text: "OLD: " + data.old + " — NEW: " + data.new + (data.source ? " — workload: " + data.source : "") + (data.partition ? " (partition " + data.partition + ")" : "") }));
    var cfg = data.config;
    var top = el("div", { cls: "cards" });
    cards.appendChild(top);
    card(top, cfg.settings.length, "settings changed");
    card(top, cfg.queues.length, "queues added, removed or moved");
    card(top, cfg.introduced.length, "problems introduced");
    card(top, cfg.fixed.length, "problems fixed");
    card(top, data.placements.length, "placements changed");
    card(top, data.priorities.length, "priorities changed");
    if (data.run) card(top, data.run.asks.length, "asks that run differently");
    if (data.skipped) cards.appendChild(el("p", { cls: "note", text: "Dry runs not compared: " + data.skipped }));

    var sec = section("config", "Config changes");
    table(sec, "settings", ["partition", "queue", "setting", "old", "new"], cfg.settings);
    table(sec, "queue-changes", ["partition", "change", "queue", "old path", "leaf", "queues below"], cfg.queues);
    table(sec, "problems-introduced", ["rule", "level", "introduced problem"], cfg.introduced);
    table(sec, "problems-fixed", ["rule", "level", "fixed problem"], cfg.fixed);
    if (data.placements.length || data.priorities.length) {
      var w = section("workload", "The workload's placements and priorities");
      table(w, "placements", ["application", "old queue", "old reason", "new queue", "new reason"], data.placements);
      table(w, "priorities", ["application", "ask", "queue", "old priority", "new priority", "cause"], data.priorities);
    }
    if (data.run) runs(data.run);
    var mo = data.metrics.old, mn = data.metrics.new;
    if (mo && mn) diffMetrics(mo, mn);
  }

  function table(parent, name, titles, rows) {
    if (!rows.length) return;
    parent.appendChild(el("h3", { text: name.replace(/-/g, " ") }));
    new Pager(parent, name, titles.map(function (t) { return { title: t }; }), rows.length, function (i) {
      return rows[i].map(function (v) { return v === null || v === undefined ? "" : String(v); });
    });
  }

  function runs(run) {
    var sec = section("runs", "The two dry runs");
    var head = el("tr", null, [el("th", { text: "" }), el("th", { text: "OLD", cls: "num" }), el("th", { text: "NEW", cls: "num" })]);
    var body = el("tbody");
    ["allocations", "completions", "reservations", "preemptions", "pending", "steps", "end"].forEach(function (k) {
      var o = run.old[k], n = run.new[k];
      body.appendChild(el("tr", null, [el("td", { text: k }), el("td", { cls: "num", text: k === "end" ? duration(o) : String(o) }),
        el("td", { cls: "num", text: k === "end" ? duration(n) : String(n) })]));
    });
    sec.appendChild(el("table", { "data-table": "run-summary" }, [el("thead", null, [head]), body]));
    var kinds = el("div", { cls: "cards" });
    run.askChanges.forEach(function (c) { card(kinds, c[1], c[0]); });
    sec.appendChild(kinds);
    table(sec, "ask-changes", ["application", "ask", "old queue", "old start", "old code", "new queue", "new start", "new code", "changes"],
      run.asks.map(function (a) { return [a[0], a[1], a[2], duration(a[3]), a[4], a[5], duration(a[6]), a[7], a[8]]; }));
    var cols = ["time", "kind", "preemptor", "its queue", "victim", "victim's queue", "node"];
    table(sec, "preemptions-added", cols, run.preemptionsAdded.map(function (p) { return [duration(p[0])].concat(p.slice(1)); }));
    table(sec, "preemptions-removed", cols, run.preemptionsRemoved.map(function (p) { return [duration(p[0])].concat(p.slice(1)); }));
  }

  function delta(o, n) {
    if (o === null || o === undefined || n === null || n === undefined) return "";
    var d = n - o;
    if (!d) return "=";
    return (d > 0 ? "+" : "-") + duration(Math.abs(d)) + (o ? " (" + (d > 0 ? "+" : "") + num(d / o * 100, 0) + " %)" : "");
  }

  function diffMetrics(mo, mn) {
    var cards = el("div", { cls: "cards" });
    var sec = section("metrics", "Metrics before and after", "OLD and NEW side by side: waits per group, utilization over time and queue usage.");
    sec.appendChild(cards);
    card(cards, mo.pods.pending + " → " + mn.pods.pending, "pods still pending");
    card(cards, mo.pods.preemptions + " → " + mn.pods.preemptions, "preempted runs");
    card(cards, (mo.makespan === null ? "—" : duration(mo.makespan)) + " → " + (mn.makespan === null ? "—" : duration(mn.makespan)), "makespan");
    mn.types.forEach(function (t) {
      card(cards, num((mo.cluster.utilization[t] || 0) * 100, 1) + " % → " + num((mn.cluster.utilization[t] || 0) * 100, 1) + " %", "mean " + t + " used");
    });
    var state = { dimension: "queue", p: "p90" };
    var controls = el("div", { cls: "controls" });
    sec.appendChild(controls);
    select(controls, "group by", DIMENSIONS, state.dimension, function (v) { state.dimension = v; draw(); });
    select(controls, "percentile", PERCENTILES.map(function (p) { return [p, p]; }), state.p, function (v) { state.p = v; draw(); });
    var c = chart(sec, "waits-compared");
    var holder = el("div");
    sec.appendChild(holder);
    function draw() {
      var old = {}, now = {};
      mo.groups[state.dimension].forEach(function (g) { old[g.key] = g; });
      mn.groups[state.dimension].forEach(function (g) { now[g.key] = g; });
      var keys = Object.keys(Object.assign({}, old, now)).sort();
      function value(map, k) { var g = map[k]; return g && g.waits ? g.waits[state.p] : null; }
      show(c, {
        tooltip: { trigger: "axis", valueFormatter: function (v) { return duration(v); } },
        legend: { top: 0 }, grid: { left: 64, right: 24, top: 36, bottom: 120 },
        xAxis: { type: "category", data: keys, axisLabel: { rotate: 30, hideOverlap: true } },
        yAxis: { type: "value", name: state.p + " wait", axisLabel: { formatter: function (v) { return duration(v); } } },
        dataZoom: keys.length > 30 ? [{ type: "inside" }, { type: "slider", height: 18, bottom: 6, startValue: 0, endValue: 29 }] : [],
        series: [{ name: "OLD", type: "bar", data: keys.map(function (k) { return value(old, k); }) },
          { name: "NEW", type: "bar", data: keys.map(function (k) { return value(now, k); }) }]
      });
      holder.textContent = "";
      new Pager(holder, "groups-compared", [{ title: "group" }, { title: "OLD " + state.p, num: true }, { title: "NEW " + state.p, num: true },
        { title: "change", num: true }, { title: "OLD pending", num: true }, { title: "NEW pending", num: true }], keys.length, function (i) {
        var k = keys[i], o = value(old, k), n = value(now, k);
        return [k, duration(o), duration(n), delta(o, n), old[k] ? old[k].pending : "", now[k] ? now[k].pending : ""];
      });
    }
    draw();
    if (mo.bucket || mn.bucket) {
      var u = section("utilization", "Cluster utilization, OLD and NEW");
      var series = [];
      mn.types.forEach(function (t) {
        if (mo.bucket) series.push(utilizationSeries(mo, t, "OLD " + t));
        if (mn.bucket) series.push(utilizationSeries(mn, t, "NEW " + t));
      });
      show(chart(u, "utilization"), utilizationOption(series, Math.max(mo.end || 0, mn.end || 0)));
    }
    var q = section("queue-usage", "Queue usage, OLD and NEW");
    var paths = Object.keys(Object.assign({}, mo.queues, mn.queues)).sort();
    new Pager(q, "queues-compared", [{ title: "queue" }, { title: "OLD mean" }, { title: "NEW mean" }, { title: "OLD fairness gap", num: true },
      { title: "NEW fairness gap", num: true }], paths.length, function (i) {
      var p = paths[i], o = mo.queues[p] || {}, n = mn.queues[p] || {};
      return [p, resources(o.mean), resources(n.mean), o.gap ? duration(o.gap) : "", n.gap ? duration(n.gap) : ""];
    });
  }

  // Other kinds of page (assets inlined before this script, sweep.js) register in window.ykPages and get the helpers.
  report.lib = { el: el, esc: esc, cmp: cmp, num: num, duration: duration, amount: amount, section: section,
    select: select, card: card, empty: empty, chart: chart, show: show, tooltipRows: tooltipRows, Pager: Pager };
  var pages = window.ykPages || {};

  try {
    if (Object.prototype.hasOwnProperty.call(pages, data.kind)) pages[data.kind](report.lib, data, report);
    else if (data.kind === "diff") diffReport(); else simulation();
  } catch (err) {
    report.errors.push(String(err && err.stack || err));
    throw err;
  } finally {
    report.ready = true;
    document.body.setAttribute("data-ready", "1");
  }
})();
