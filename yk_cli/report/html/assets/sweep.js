/* yk's HTML report, a sweep's page: the objective against each parameter, a trade-off of two metrics with its
   Pareto front, parallel coordinates, and the tables of the points and of the refused configs. It registers in
   window.ykPages; report.js calls it with its helpers. User strings reach the DOM only as text, chart tooltips
   only through esc() (tooltipRows), and the charts' own labels are drawn on a canvas. */
(function () {
  "use strict";
  var pages = window.ykPages = window.ykPages || {};

  pages.sweep = function (lib, data, report) {
    var el = lib.el, num = lib.num, cmp = lib.cmp, section = lib.section, select = lib.select, card = lib.card;
    var empty = lib.empty, chart = lib.chart, show = lib.show, tooltipRows = lib.tooltipRows, Pager = lib.Pager;
    var params = data.parameters, pts = data.points, n = pts.index.length, goal = data.objective;
    var unmet = pts.unmet, constraints = data.constraints;
    var MAX_GROUPS = 10;
    var FAIL = "#8c959f", POINT = "#5b8ff9", FRONT = "#cf222e";
    var MARKS = ["#d4a72c", "#8250df", "#1a7f37"];
    var GOOD_TO_BAD = ["#1a9850", "#66bd63", "#d9a400", "#f46d43", "#d73027"];
    var state = report.sweep = { front: [], axes: null, y: data.y };

    // ---- numbers as sweep_report writes them ------------------------------------------------------------------
    function roundEven(v) {
      var r = Math.round(v);
      return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
    }
    function seconds(v) {
      var whole = roundEven(v), h = Math.floor(whole / 3600), m = Math.floor((whole - h * 3600) / 60);
      var s = whole - h * 3600 - m * 60;
      if (h) return h + "h" + m + "m" + s + "s";
      if (m) return m + "m" + s + "s";
      return v < 10 && !Number.isInteger(v) ? v.toFixed(1) + "s" : whole + "s";
    }
    function grouped(v, digits) {
      return Number(v).toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }
    function metricText(key, v) {
      if (v === null || v === undefined) return "-";
      var unit = data.metrics[key] ? data.metrics[key].unit : "count";
      if (unit === "fraction") return (v * 100).toFixed(1) + "%";
      if (unit === "seconds") return seconds(v);
      return Number.isInteger(v) ? grouped(v, 0) : grouped(v, 1);
    }
    function compact(v) {
      return Math.abs(v) >= 1e6 ? Number(v).toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 2 })
        : num(v, 2);
    }
    function axisText(unit, v) {
      if (unit === "fraction") return num(v * 100, 1) + "%";
      if (unit === "seconds" || unit === "duration") return seconds(v);
      if (unit === "bytes") return lib.amount("memory", v);
      return compact(v);
    }

    // ---- the points ---------------------------------------------------------------------------------------------
    var position = {};
    pts.index.forEach(function (index, k) { position[index] = k; });
    var marked = data.best.map(function (index) { return position[index]; }).filter(function (k) { return k !== undefined; });
    function markName(r) { return r === 0 ? "best" : r === 1 ? "runner-up" : "highlight " + (r + 1); }
    function unmetOf(k) { return unmet && unmet[k] ? unmet[k].map(function (c) { return constraints[c]; }) : null; }
    function fails(k) { return !!(unmet && unmet[k] && unmet[k].length); }
    function valueText(i, k) { return params[i].text[pts.values[i][k]]; }
    function settings(k) {
      return params.map(function (p, i) { return p.label + "=" + valueText(i, k); }).join(", ");
    }
    function objectiveText(k) {
      if (!goal) return "";
      if (goal.parameter !== null) return valueText(goal.parameter, k);
      return pts.metrics[goal.key] ? metricText(goal.key, pts.metrics[goal.key][k]) : "-";
    }

    // Every numeric axis a chart can take: the parameters on a scale (not categories) and every metric.
    var dims = {}, dimOrder = [];
    params.forEach(function (p, i) {
      if (p.scale === "category") return;
      dims["p:" + i] = { label: p.label, better: p.better, scale: p.scale,
        value: function (k) { return p.at[pts.values[i][k]]; },
        text: function (k) { return valueText(i, k); },
        axis: function (v) { return axisText(p.scale, v); } };
      dimOrder.push("p:" + i);
    });
    Object.keys(data.metrics).sort().forEach(function (key) {
      var column = pts.metrics[key], unit = data.metrics[key].unit;
      dims["m:" + key] = { label: key, better: data.metrics[key].better, scale: unit,
        value: function (k) { var v = column[k]; return v === undefined ? null : v; },
        text: function (k) { return metricText(key, column[k]); },
        axis: function (v) { return axisText(unit, v); } };
      dimOrder.push("m:" + key);
    });
    var dimOptions = dimOrder.map(function (id) { return [id, dims[id].label]; });

    function pointTooltip(k, ids) {
      var rows = [["point", pts.index[k] + " (rank " + (k + 1) + ")"]];
      params.forEach(function (p, i) { rows.push([p.label, valueText(i, k)]); });
      if (goal && goal.parameter === null) rows.push([goal.key + " (objective)", objectiveText(k)]);
      (ids || []).forEach(function (id) {
        if (id && dims[id] && !(goal && id === "m:" + goal.key) && id.indexOf("p:") !== 0) {
          rows.push([dims[id].label, dims[id].text(k)]);
        }
      });
      var u = unmetOf(k);
      if (u) rows.push(["constraints unmet", u.length ? u.join("; ") : "none"]);
      return tooltipRows(rows);
    }
    function itemTooltip(ids) {
      return function (p) {
        var k = p.data && p.data.length > 2 ? p.data[2] : null;
        return k === null || k === undefined ? "" : pointTooltip(k, ids);
      };
    }
    function markSeries(xOf, yOf) {
      var out = [];
      marked.forEach(function (k, r) {
        var x = xOf(k), y = yOf(k);
        if (x === null || x === undefined || y === null || y === undefined) return;
        out.push({ name: markName(r), type: "scatter", symbol: "diamond", symbolSize: 18, z: 10,
          itemStyle: { color: MARKS[r % MARKS.length], borderColor: "#1f2328", borderWidth: 1 },
          label: { show: true, position: "top", formatter: markName(r) }, data: [[x, y, k]] });
      });
      return out;
    }
    function plural(count, one, many) { return count + " " + (count === 1 ? one : many); }
    function niceStep(rough) {
      var power = Math.pow(10, Math.floor(Math.log10(rough))), f = rough / power;
      return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
    }
    // Ticks in whole binary units (8Gi, 16Gi) for bytes; whole numbers when every value is whole.
    function ticks(axis, scaleName, values) {
      values = values.filter(function (v) { return v !== null && v !== undefined; });
      if (!values.length) return;
      var low = Math.min.apply(null, values), high = Math.max.apply(null, values);
      if (scaleName === "bytes" && high > 0) {
        var unit = 1;
        for (var u = 1024; u <= high && u <= Math.pow(2, 60); u *= 1024) unit = u;
        var step = niceStep(Math.max((high - low) / unit / 5, 1)) * unit;
        axis.interval = step;
        axis.min = Math.floor(low / step) * step;
        axis.max = Math.max(Math.ceil(high / step) * step, axis.min + step);
      } else if (values.every(function (v) { return Number.isInteger(v); })) {
        axis.minInterval = 1;
      }
    }
    function valueAxis(d, extra) {
      var axis = { type: "value", scale: true, name: d.label, nameTextStyle: { align: "left" },
        axisLabel: { formatter: function (v) { return d.axis(v); }, hideOverlap: true } };
      Object.keys(extra || {}).forEach(function (k) { axis[k] = extra[k]; });
      var values = [];
      for (var k = 0; k < n; k++) values.push(d.value(k));
      ticks(axis, d.scale, values);
      return axis;
    }

    // ---- the header ---------------------------------------------------------------------------------------------
    function header() {
      var top = document.getElementById("summary");
      if (data.source) top.appendChild(el("p", { cls: "note", text: "Inputs: " + data.source }));
      var cards = el("div", { cls: "cards" });
      top.appendChild(cards);
      card(cards, data.total, "points");
      card(cards, n, "ran");
      card(cards, data.refused.length, "refused by YuniKorn");
      card(cards, goal ? goal.direction + " " + goal.key : "none", "objective");
      if (unmet) {
        var meet = unmet.filter(function (u) { return u && !u.length; }).length;
        card(cards, meet, "meet every constraint");
      }
      marked.forEach(function (k, r) {
        var text = markName(r) + ": point " + pts.index[k] + " (" + settings(k) + ")";
        if (goal) text += ": " + goal.key + " " + objectiveText(k);
        top.appendChild(el("p", { cls: "best", "data-best": String(r), text: text }));
      });
      if (data.tune && !marked.length) top.appendChild(el("p", { cls: "note", text: "No point meets every constraint." }));
      if (!goal) top.appendChild(el("p", { cls: "note", text: "No objective: the points in the sweep's order; the charts show " + (state.y ? dims[state.y].label : "no metric") + "." }));
    }

    // ---- the objective against each parameter -------------------------------------------------------------------
    function byParameter() {
      var sec = section("by-parameter", "The objective against each parameter",
        "One mark per point at its value of the parameter; colours: the value of another parameter. Hollow grey: " +
        "points that miss a constraint. The dashed line joins the best point at each value.");
      if (!n || !state.y) { empty(sec, n ? "No metric to draw." : "No point ran: YuniKorn refused every config."); return; }
      var controls = el("div", { cls: "controls" });
      sec.appendChild(controls);
      select(controls, "y axis", dimOptions, state.y, function (v) { state.y = v; drawAll(); });
      var grid = el("div", { cls: "charts" });
      sec.appendChild(grid);
      var draws = params.map(function (p, i) {
        var box = el("div", { "data-parameter": String(i) }, [el("h3", { text: p.label })]);
        grid.appendChild(box);
        var others = params.map(function (q, j) { return j; }).filter(function (j) { return j !== i; });
        var by = { j: others.length ? others[0] : null };
        if (others.length > 1) {
          var row = el("div", { cls: "controls" });
          box.appendChild(row);
          select(row, "colour by", others.map(function (j) { return [String(j), params[j].label]; }), String(by.j),
            function (v) { by.j = Number(v); draw(); });
        }
        var c = chart(box, "parameter-" + i);
        var note = el("p", { cls: "note" });
        box.appendChild(note);
        function draw() {
          var missing = parameterChart(c, i, by.j, state.y);
          note.textContent = missing ? plural(missing, "point has", "points have") + " no " + dims[state.y].label + ": not drawn." : "";
        }
        return draw;
      });
      function drawAll() { draws.forEach(function (d) { d(); }); }
      drawAll();
    }

    function parameterChart(c, i, j, yId) {
      var p = params[i], yd = dims[yId], category = p.scale === "category";
      var colour = j === null ? null : params[j];
      var many = colour !== null && colour.text.length > MAX_GROUPS;
      function xOf(k) { var v = pts.values[i][k]; return category ? v : p.at[v]; }
      var groups = colour && !many ? colour.text.map(function () { return []; }) : [[]];
      var failing = [], missing = 0, bestAt = {};
      for (var k = 0; k < n; k++) {
        var y = yd.value(k);
        if (y === null) { missing++; continue; }
        var x = xOf(k);
        if (fails(k)) { failing.push([x, y, k]); continue; }
        if (colour === null) groups[0].push([x, y, k]);
        else if (many) groups[0].push([x, y, k, colour.at[pts.values[j][k]] !== null && colour.scale !== "category" ? colour.at[pts.values[j][k]] : pts.values[j][k]]);
        else groups[pts.values[j][k]].push([x, y, k]);
        if (yd.better) {
          var held = bestAt[x];
          if (held === undefined || (yd.better === "lower" ? y < held : y > held)) bestAt[x] = y;
        }
      }
      var ids = [yId];
      var series = [];
      groups.forEach(function (items, g) {
        if (colour !== null && !many && !items.length) return;
        series.push({ name: colour === null || many ? "points" : colour.label + " = " + colour.text[g], type: "scatter",
          symbolSize: 9, data: items, itemStyle: colour === null ? { color: POINT, opacity: 0.8 } : { opacity: 0.85 } });
      });
      if (failing.length) {
        series.push({ name: "misses a constraint", type: "scatter", symbol: "emptyCircle", symbolSize: 9, data: failing,
          itemStyle: { color: FAIL, borderColor: FAIL } });
      }
      var line = Object.keys(bestAt).map(Number).sort(function (a, b) { return a - b; })
        .map(function (x) { return [x, bestAt[x]]; });
      if (line.length > 1) {
        series.push({ name: "best at each value", type: "line", data: line, showSymbol: false, silent: true,
          lineStyle: { type: "dashed", color: "#1f2328", width: 1 }, itemStyle: { color: "#1f2328" }, z: 1 });
      }
      series = series.concat(markSeries(xOf, function (m) { return yd.value(m); }));
      var option = {
        tooltip: { trigger: "item", formatter: itemTooltip(ids) },
        legend: { top: 0, type: "scroll" },
        grid: { left: 70, right: 40, top: 56, bottom: 48 },
        xAxis: category
          ? { type: "category", data: p.text, name: p.label, nameLocation: "middle", nameGap: 28,
            axisLabel: { hideOverlap: true } }
          : valueAxis(dims["p:" + i], { nameLocation: "middle", nameGap: 28, nameTextStyle: {} }),
        yAxis: valueAxis(yd),
        series: series
      };
      if (many) {
        var values = groups[0].map(function (item) { return item[3]; });
        option.visualMap = { type: "continuous", dimension: 3, seriesIndex: 0, orient: "horizontal", right: 10,
          bottom: 0, itemHeight: 80, itemWidth: 10, min: Math.min.apply(null, values.concat([0])),
          max: Math.max.apply(null, values.concat([1])), text: [colour.label, ""], inRange: { color: GOOD_TO_BAD } };
        option.grid.bottom = 70;
      }
      show(c, option);
      return missing;
    }

    // ---- two metrics and their Pareto front -----------------------------------------------------------------------
    // The points no other point beats on both axes (each axis in its better direction): sorted by x the better way,
    // a point is on the front when its y is strictly better than every point's before it.
    function pareto(items, xBetter, yBetter) {
      var sx = xBetter === "lower" ? 1 : -1, sy = yBetter === "lower" ? 1 : -1;
      var sorted = items.slice().sort(function (a, b) { return cmp(sx * a[0], sx * b[0]) || cmp(sy * a[1], sy * b[1]) || a[2] - b[2]; });
      var front = [], seen = Infinity;
      for (var i = 0; i < sorted.length;) {
        var j = i, least = sy * sorted[i][1];
        while (j < sorted.length && sorted[j][0] === sorted[i][0]) j++;
        if (least < seen) {
          for (var t = i; t < j && sy * sorted[t][1] === least; t++) front.push(sorted[t]);
          seen = least;
        }
        i = j;
      }
      return front;
    }
    report.sweep.pareto = pareto;

    function tradeOff() {
      var sec = section("trade-off", "Trade-off of two metrics",
        "Every point at its two values. The red line is the Pareto front: the points no other point beats on both " +
        "axes at once (waits, pending pods, work lost, preemptions, fairness gaps and makespan lower is better, " +
        "utilization higher; a parameter only when it is the objective). Along the front, improving one axis costs " +
        "the other; points off it are beaten by a point on it." + (unmet ? " Points that miss a constraint are hollow and not on the front." : ""));
      var x = data.scatter.x, y = data.scatter.y;
      if (!n || !x || !y) { empty(sec, n ? "Fewer than two numbers to compare." : "No point ran: YuniKorn refused every config."); return; }
      var axes = { x: x, y: y };
      var controls = el("div", { cls: "controls" });
      sec.appendChild(controls);
      select(controls, "x axis", dimOptions, axes.x, function (v) { axes.x = v; draw(); });
      select(controls, "y axis", dimOptions, axes.y, function (v) { axes.y = v; draw(); });
      var c = chart(sec, "trade-off", true);
      var note = el("p", { cls: "note", "data-note": "front" });
      sec.appendChild(note);
      function draw() {
        var xd = dims[axes.x], yd = dims[axes.y];
        var ok = [], failing = [], missing = 0;
        for (var k = 0; k < n; k++) {
          var a = xd.value(k), b = yd.value(k);
          if (a === null || b === null) { missing++; continue; }
          (fails(k) ? failing : ok).push([a, b, k]);
        }
        var front = xd.better && yd.better && axes.x !== axes.y ? pareto(ok, xd.better, yd.better) : [];
        front.sort(function (p, q) { return p[0] - q[0] || p[1] - q[1]; });
        state.front = front.map(function (item) { return pts.index[item[2]]; });
        state.axes = [axes.x, axes.y];
        var series = [{ name: "points", type: "scatter", symbolSize: 8, data: ok, itemStyle: { color: POINT, opacity: 0.7 } }];
        if (failing.length) {
          series.push({ name: "misses a constraint", type: "scatter", symbol: "emptyCircle", symbolSize: 8, data: failing,
            itemStyle: { color: FAIL, borderColor: FAIL } });
        }
        if (front.length) {
          series.push({ name: "Pareto front", type: "line", data: front, symbol: "circle", symbolSize: 10, z: 5,
            lineStyle: { color: FRONT, width: 2 }, itemStyle: { color: FRONT } });
        }
        series = series.concat(markSeries(xd.value, yd.value));
        show(c, {
          tooltip: { trigger: "item", formatter: itemTooltip([axes.x, axes.y]) },
          legend: { top: 0 },
          grid: { left: 80, right: 60, top: 56, bottom: 60 },
          xAxis: valueAxis(xd, { nameLocation: "middle", nameGap: 32, nameTextStyle: {} }),
          yAxis: valueAxis(yd),
          dataZoom: [{ type: "inside", xAxisIndex: 0 }, { type: "inside", yAxisIndex: 0 }],
          series: series
        });
        var parts = [];
        if (front.length) {
          parts.push(plural(front.length, "point", "points") + " on the Pareto front (" + xd.label + " " + xd.better + " is better, " +
            yd.label + " " + yd.better + " is better): " + state.front.join(", ") + ".");
        } else if (axes.x === axes.y) {
          parts.push("The same metric on both axes: no front.");
        } else if (!xd.better || !yd.better) {
          parts.push("No Pareto front: " + (xd.better ? yd.label : xd.label) + " is neither better lower nor higher.");
        } else {
          parts.push("No point to put on a front.");
        }
        if (missing) parts.push(plural(missing, "point lacks", "points lack") + " one of the two numbers: not drawn.");
        note.textContent = parts.join(" ");
      }
      draw();
    }

    // ---- parallel coordinates ------------------------------------------------------------------------------------
    function parallel() {
      var sec = section("parallel", "Parallel coordinates",
        "One line per point through its parameters, the objective and key metrics, coloured by " +
        (goal ? "the objective" : "the first metric") + " (the colour bar filters the lines: drag its ends). " +
        "Grey dashed: points that miss a constraint; grey: points without the colour's number; thick: the best.");
      if (!n) { empty(sec, "No point ran: YuniKorn refused every config."); return; }
      var axes = [], getters = [], colourDim = null;
      params.forEach(function (p, i) {
        var at = axes.length;
        if (p.scale === "category") {
          axes.push({ dim: at, name: p.label, type: "category", data: p.text });
          getters.push(function (k) { return pts.values[i][k]; });
        } else {
          var axis = { dim: at, name: p.label, type: "value", scale: true,
            axisLabel: { formatter: function (v) { return axisText(p.scale, v); } } };
          ticks(axis, p.scale, p.at);
          axes.push(axis);
          getters.push(function (k) { return p.at[pts.values[i][k]]; });
          if (goal && goal.parameter === i) colourDim = at;
        }
      });
      var keys = [];
      if (goal && goal.parameter === null && data.metrics[goal.key]) keys.push(goal.key);
      data.parallel.forEach(function (key) { if (keys.indexOf(key) < 0) keys.push(key); });
      keys.forEach(function (key) {
        var at = axes.length, d = dims["m:" + key];
        var axis = { dim: at, name: key, type: "value", scale: true,
          axisLabel: { formatter: function (v) { return d.axis(v); } } };
        ticks(axis, d.scale, pts.metrics[key]);
        axes.push(axis);
        getters.push(function (k) { return d.value(k); });
        if (colourDim === null) colourDim = at;
      });
      var c = chart(sec, "parallel", true);
      // Series: 0 the points the colour bar colours, 1 those that miss a constraint, 2 those without the colour's
      // number (the colour bar would hide them), then one per highlighted point. A missing number skips its axis.
      var lines = [[], [], []], owners = [[], [], []];
      var mark = {};
      marked.forEach(function (k, r) { mark[k] = r; lines.push([]); owners.push([]); });
      for (var k = n - 1; k >= 0; k--) {  // the best drawn last, on top
        var row = getters.map(function (g) { var v = g(k); return v === null || v === undefined ? "-" : v; });
        var s = mark[k] !== undefined ? 3 + mark[k] : fails(k) ? 1 : colourDim !== null && row[colourDim] === "-" ? 2 : 0;
        lines[s].push(row);
        owners[s].push(k);
      }
      var width = n <= 50 ? 2 : 1, opacity = n <= 50 ? 0.85 : n <= 500 ? 0.6 : 0.35;
      var colours = colourDim === null ? [] : lines[0].map(function (r) { return r[colourDim]; }).filter(function (v) { return v !== "-"; });
      var higher = colourDim !== null && (goal && goal.parameter === null ? data.metrics[goal.key] && data.metrics[goal.key].better === "higher"
        : goal && goal.parameter !== null ? params[goal.parameter].better === "higher" : false);
      var option = {
        tooltip: { trigger: "item", formatter: function (p) {
          var k = owners[p.seriesIndex] ? owners[p.seriesIndex][p.dataIndex] : undefined;
          return k === undefined ? "" : pointTooltip(k, keys.map(function (key) { return "m:" + key; }));
        } },
        parallel: { left: 70, right: 90, top: 96, bottom: 40 },
        parallelAxis: axes.map(function (a) {
          a.nameTruncate = { maxWidth: 150, ellipsis: "…" };
          a.nameTextStyle = { fontSize: 11 };
          return a;
        }),
        series: [
          { name: "points", type: "parallel", data: lines[0], lineStyle: { width: width, opacity: opacity, color: POINT } },
          { name: "misses a constraint", type: "parallel", data: lines[1], lineStyle: { width: 1, opacity: opacity, color: FAIL, type: "dashed" } },
          { name: "no colour value", type: "parallel", data: lines[2], lineStyle: { width: width, opacity: opacity, color: FAIL } }
        ].concat(marked.map(function (k, r) {
          return { name: markName(r), type: "parallel", data: lines[3 + r], z: 10,
            lineStyle: { width: 4, opacity: 1, color: MARKS[r % MARKS.length] } };
        }))
      };
      if (colours.length) {
        option.visualMap = { type: "continuous", dimension: colourDim, seriesIndex: 0, calculable: true,
          min: Math.min.apply(null, colours), max: Math.max.apply(null, colours), orient: "horizontal", left: "center",
          top: 4, itemHeight: 240, itemWidth: 12, text: ["", axes[colourDim].name + " "], textStyle: { fontSize: 11 },
          formatter: function (v) { return (dims[colourDim < params.length ? "p:" + colourDim : "m:" + keys[colourDim - params.length]] || { axis: num }).axis(v); },
          inRange: { color: higher ? GOOD_TO_BAD.slice().reverse() : GOOD_TO_BAD }, outOfRange: { color: ["#d0d7de"] } };
      }
      show(c, option);
    }

    // ---- the tables ----------------------------------------------------------------------------------------------
    function pointsTable() {
      var sec = section("points", "Every point", n + " points ran, best first" +
        (goal ? " by " + goal.direction + " " + goal.key : "") + ". Click a column's title to sort by it.");
      if (!n) { empty(sec, "No point ran: YuniKorn refused every config."); return; }
      var columns = [{ title: "#", num: true, sort: function (k) { return k; } },
        { title: "point", num: true, sort: function (k) { return pts.index[k]; } }];
      var cells = [function (k) { return k + 1; }, function (k) { return pts.index[k]; }];
      params.forEach(function (p, i) {
        columns.push({ title: p.label, num: p.scale !== "category", sort: function (k) {
          var v = pts.values[i][k];
          return p.scale === "category" ? v : p.at[v];
        } });
        cells.push(function (k) { return valueText(i, k); });
      });
      var keys = (goal && goal.parameter === null && data.metrics[goal.key] ? [goal.key] : []).concat(data.shown);
      keys.forEach(function (key) {
        var column = pts.metrics[key];
        columns.push({ title: key, num: true, sort: function (k) { return column[k]; } });
        cells.push(function (k) { return metricText(key, column[k]); });
      });
      if (unmet) {
        columns.push({ title: "constraints unmet", cls: "reasons", sort: function (k) { return unmet[k] ? unmet[k].length : null; } });
        cells.push(function (k) { var u = unmetOf(k); return u === null ? "" : u.length ? u.join("\n") : "none"; });
      }
      var rank = {};
      marked.forEach(function (k, r) { rank[k] = r; });
      new Pager(sec, "points", columns, n, function (k) {
        return cells.map(function (f) { return f(k); });
      }, function (k) {
        return { "data-point": String(pts.index[k]), cls: rank[k] !== undefined ? "best" : fails(k) ? "unmet" : "" };
      });
    }

    function refusedTable() {
      var refused = data.refused;
      var sec = section("refused", "Refused by YuniKorn", refused.length +
        " points whose config YuniKorn would refuse, with its reasons: they did not run.");
      if (!refused.length) { empty(sec, "YuniKorn accepts every point's config."); return; }
      var columns = [{ title: "point", num: true, sort: function (r) { return refused[r].index; } }];
      params.forEach(function (p) { columns.push({ title: p.label }); });
      columns.push({ title: "YuniKorn's reasons", cls: "reasons" });
      new Pager(sec, "refused", columns, refused.length, function (r) {
        var row = [refused[r].index];
        params.forEach(function (p, i) { row.push(p.text[refused[r].values[i]]); });
        row.push(refused[r].reasons.join("\n"));
        return row;
      }, function (r) { return { "data-point": String(refused[r].index) }; });
    }

    header();
    byParameter();
    tradeOff();
    parallel();
    pointsTable();
    refusedTable();
  };
})();
