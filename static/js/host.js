/* Host console: money of every participant and the Bonus Fund after each ledger entry (vendored uPlot).
 * The ledger table is the data: each row carries data-seq/src/dst/amount, pushes prepend new rows and a
 * full render replaces the table body, so the chart is recomputed from the rows whenever they change. */
(function () {
  "use strict";
  var box = document.getElementById("money-chart");
  var spec = document.getElementById("chart-series");
  if (!box || !spec || !window.uPlot) return;
  var series = JSON.parse(spec.textContent);
  var lang = document.documentElement.lang || "en";
  var xLabel = box.getAttribute("data-x-label") || "#";
  var css = getComputedStyle(document.documentElement);
  var colour = function (s) {
    if (s.seat) return css.getPropertyValue("--p" + s.seat).trim() || "#333";
    return css.getPropertyValue("--sq-money").trim() || "#a8782a";
  };
  var money = function (v) { return v == null ? "" : Math.round(v).toLocaleString(lang) + " M"; };

  function data() {
    var rows = Array.prototype.slice.call(document.querySelectorAll("#ledger-rows tr[data-seq]")).map(function (tr) {
      return { seq: +tr.getAttribute("data-seq"), src: tr.getAttribute("data-src"),
               dst: tr.getAttribute("data-dst"), amount: +tr.getAttribute("data-amount") };
    }).sort(function (a, b) { return a.seq - b.seq; });
    var balance = {};
    series.forEach(function (s) { balance[s.key] = 0; });
    var xs = [], ys = series.map(function () { return []; });
    rows.forEach(function (r) {
      if (r.src in balance) balance[r.src] -= r.amount;
      if (r.dst in balance) balance[r.dst] += r.amount;
      xs.push(r.seq);
      series.forEach(function (s, i) { ys[i].push(balance[s.key]); });
    });
    return [xs].concat(ys);
  }

  var width = function () { return Math.max(280, box.clientWidth); };
  var opts = {
    width: width(),
    height: 260,
    scales: { x: { time: false } },
    axes: [
      // ledger entry numbers: whole numbers only (uPlot would also tick 1.2, 1.4, … on a short ledger)
      { label: xLabel, stroke: "#4c5a53", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
        values: function (u, vals) { return vals.map(function (v) { return Number.isInteger(v) ? String(v) : ""; }); } },
      { stroke: "#4c5a53", size: 90, values: function (u, vals) { return vals.map(money); } }
    ],
    series: [{ label: xLabel }].concat(series.map(function (s) {
      return { label: s.label, stroke: colour(s), width: s.seat ? 2.5 : 2, dash: s.seat ? undefined : [6, 4],
               value: function (u, v) { return money(v); } };
    })),
    legend: { live: true }
  };
  var plot = new window.uPlot(opts, data(), box);
  window.mfMoneyChart = plot; // what the chart shows (tests read its data)
  var pending = null;
  var table = document.querySelector(".table--ledger");
  if (table && window.MutationObserver) {
    new MutationObserver(function () {
      clearTimeout(pending);
      pending = setTimeout(function () { plot.setData(data()); }, 80);
    }).observe(table, { childList: true, subtree: true });
  }
  if (window.ResizeObserver) {
    new ResizeObserver(function () { plot.setSize({ width: width(), height: 260 }); }).observe(box);
  }
})();
