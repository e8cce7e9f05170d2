/* ex_html: the self-contained waveform viewer (--html FILE).
 *
 * One HTML file with inline CSS and JavaScript and the data as embedded
 * JSON: signals as rows, steps as columns, Boolean signals drawn as
 * waveforms and others as bus segments with their values, red dots on the
 * causes, the loop shaded, the first failure as a dashed line.  A slider
 * and window size move through long traces.  After drawing, the page writes
 * a JSON summary of what it drew into <pre id="ex-summary"> so that a
 * headless browser test can check the rendering.
 */
#include "explain.h"

#include <stdlib.h>
#include <string.h>

static const char ex_css[] =
    "body{font-family:system-ui,sans-serif;margin:16px;color:#222;background:#fff}\n"
    "h1{font-size:20px}h2{font-size:15px;font-family:monospace;margin:18px 0 4px}\n"
    ".info{font-size:13px;margin:2px 0}.note{font-size:12px;color:#555;max-width:900px}\n"
    ".ctl{font-size:13px;margin:6px 0}.ctl input{vertical-align:middle}\n"
    "svg{display:block;border:1px solid #ccc;background:#fcfcfc}\n"
    ".lbl{font:12px monospace;fill:#222}.ax{font:10px monospace;fill:#777}\n"
    ".grid{stroke:#eee}.wave{fill:none;stroke:#1a5fb4;stroke-width:1.5}\n"
    ".bus{fill:#e8f0fb;stroke:#1a5fb4;stroke-width:1}.val{font:11px monospace;fill:#123}\n"
    ".loop{fill:#ffe9a8;opacity:.55}.ff{stroke:#c01c28;stroke-width:1.5;stroke-dasharray:4 3}\n"
    ".dot{fill:#e01b24;stroke:#7a0000;stroke-width:1}.dot.over{fill:#fff;stroke:#e01b24;stroke-"
    "width:2}\n"
    ".dot.undecided{fill:#f6a;stroke:#7a0000}\n"
    ".legend{font-size:12px;color:#444;margin:4px 0}\n";

static const char ex_js[] =
    "(function () {\n"
    "  var data = JSON.parse(document.getElementById('ex-data').textContent);\n"
    "  var views = document.getElementById('views');\n"
    "  var summary = {views: []};\n"
    "  var NS = 'http://www.w3.org/2000/svg';\n"
    "  function el(tag, cls, text) {\n"
    "    var e = document.createElement(tag);\n"
    "    if (cls) e.className = cls;\n"
    "    if (text !== undefined) e.textContent = text;\n"
    "    return e;\n"
    "  }\n"
    "  function sv(tag, attrs, text) {\n"
    "    var e = document.createElementNS(NS, tag);\n"
    "    for (var k in attrs) e.setAttribute(k, attrs[k]);\n"
    "    if (text !== undefined) e.textContent = text;\n"
    "    return e;\n"
    "  }\n"
    "  function isBool(sig) {\n"
    "    for (var i = 0; i < sig.values.length; i++) {\n"
    "      var x = sig.values[i];\n"
    "      if (x !== null && x !== 0 && x !== 1) return false;\n"
    "    }\n"
    "    return true;\n"
    "  }\n"
    "  function show(x) { return x === null ? '-' : String(x); }\n"
    "  data.forEach(function (v, vi) {\n"
    "    var sec = el('section');\n"
    "    sec.appendChild(el('h2', '', v.formula));\n"
    "    var ff = v.first_failure === null ? 'none on a finite prefix (the formula fails on the "
    "infinite lasso)' : 'step ' + v.first_failure;\n"
    "    sec.appendChild(el('div', 'info', 'first failure: ' + ff + '; loop: ' +\n"
    "      (v.loop_start === null ? 'none' : 'from step ' + v.loop_start) + '; ' + v.dots.length + "
    "' red dots; ' + v.steps + ' steps'));\n"
    "    if (v.note) sec.appendChild(el('div', 'note', v.note));\n"
    "    var ctl = el('div', 'ctl');\n"
    "    var range = el('input'); range.type = 'range'; range.min = 0;\n"
    "    var zoom = el('select');\n"
    "    [20, 40, 60, 120, 240].forEach(function (z) { var o = el('option', '', z + ' steps'); "
    "o.value = z; zoom.appendChild(o); });\n"
    "    var cols = Math.min(v.steps, 60);\n"
    "    zoom.value = v.steps <= 20 ? 20 : v.steps <= 40 ? 40 : 60;\n"
    "    ctl.appendChild(document.createTextNode('first step shown '));\n"
    "    ctl.appendChild(range);\n"
    "    ctl.appendChild(document.createTextNode(' window '));\n"
    "    ctl.appendChild(zoom);\n"
    "    sec.appendChild(ctl);\n"
    "    var holder = el('div');\n"
    "    sec.appendChild(holder);\n"
    "    sec.appendChild(el('div', 'legend', 'red dot: cause of the first failure' +\n"
    "      (v.exact_ran ? '; hollow dot: over-approximation (exact mode found it is not a cause); "
    "pink: undecided' : '') +\n"
    "      '; shaded: the loop; dashed line: the first failure'));\n"
    "    views.appendChild(sec);\n"
    "    var focus = v.dots.length ? v.dots[0].step : (v.first_failure === null ? 0 : "
    "v.first_failure);\n"
    "    var start = Math.max(0, focus - 3);\n"
    "    var entry = {formula: v.formula, steps: v.steps, signals: v.signals.length, dots_total: "
    "v.dots.length};\n"
    "    summary.views.push(entry);\n"
    "    function draw() {\n"
    "      cols = Math.min(v.steps, parseInt(zoom.value, 10));\n"
    "      range.max = Math.max(0, v.steps - cols);\n"
    "      start = Math.min(start, Math.max(0, v.steps - cols));\n"
    "      range.value = start;\n"
    "      var cw = 28, rh = 34, lw = 12 + 8 * Math.max.apply(null, v.signals.map(function (s) { "
    "return s.name.length; }).concat([4]));\n"
    "      var top = 22, w = lw + cols * cw + 10, h = top + v.signals.length * rh + 6;\n"
    "      var svg = sv('svg', {width: w, height: h, viewBox: '0 0 ' + w + ' ' + h});\n"
    "      var end = start + cols;\n"
    "      function X(i) { return lw + (i - start) * cw; }\n"
    "      var shaded = false;\n"
    "      if (v.loop_start !== null && v.loop_start < end) {\n"
    "        var a = Math.max(v.loop_start, start);\n"
    "        svg.appendChild(sv('rect', {'class': 'loop', x: X(a), y: top - 4, width: X(end) - "
    "X(a), height: h - top}));\n"
    "        shaded = true;\n"
    "      }\n"
    "      var every = cols > 60 ? 10 : cols > 30 ? 5 : 1;\n"
    "      for (var i = start; i < end; i++) {\n"
    "        svg.appendChild(sv('line', {'class': 'grid', x1: X(i), y1: top - 4, x2: X(i), y2: "
    "h}));\n"
    "        if (i % every === 0) svg.appendChild(sv('text', {'class': 'ax', x: X(i) + 3, y: 12}, "
    "String(i)));\n"
    "      }\n"
    "      v.signals.forEach(function (s, r) {\n"
    "        var y0 = top + r * rh, hi = y0 + 6, lo = y0 + rh - 8, mid = (hi + lo) / 2;\n"
    "        svg.appendChild(sv('text', {'class': 'lbl', x: 4, y: mid + 4}, s.name));\n"
    "        if (isBool(s)) {\n"
    "          var d = '';\n"
    "          for (var i = start; i < end; i++) {\n"
    "            var y = s.values[i] === 1 ? hi : lo;\n"
    "            d += (i === start ? 'M' + X(i) + ' ' + y : 'L' + X(i) + ' ' + y) + ' L' + X(i + "
    "1) + ' ' + y + ' ';\n"
    "          }\n"
    "          svg.appendChild(sv('path', {'class': 'wave', d: d}));\n"
    "        } else {\n"
    "          var i = start;\n"
    "          while (i < end) {\n"
    "            var j = i + 1;\n"
    "            while (j < end && s.values[j] === s.values[i]) j++;\n"
    "            var x1 = X(i) + 1, x2 = X(j) - 1, k = Math.min(4, (x2 - x1) / 2);\n"
    "            svg.appendChild(sv('polygon', {'class': 'bus', points: x1 + ',' + mid + ' ' + (x1 "
    "+ k) + ',' + hi + ' ' + (x2 - k) + ',' + hi + ' ' + x2 + ',' + mid + ' ' + (x2 - k) + ',' + "
    "lo + ' ' + (x1 + k) + ',' + lo}));\n"
    "            var txt = show(s.values[i]);\n"
    "            if (txt.length * 7 < x2 - x1 - 4) svg.appendChild(sv('text', {'class': 'val', x: "
    "x1 + 5, y: mid + 4}, txt));\n"
    "            i = j;\n"
    "          }\n"
    "        }\n"
    "      });\n"
    "      if (v.first_failure !== null && v.first_failure >= start && v.first_failure < end) {\n"
    "        var fx = X(v.first_failure) + cw / 2;\n"
    "        svg.appendChild(sv('line', {'class': 'ff', x1: fx, y1: top - 6, x2: fx, y2: h}));\n"
    "      }\n"
    "      var drawn = 0;\n"
    "      v.dots.forEach(function (d) {\n"
    "        if (d.step < start || d.step >= end) return;\n"
    "        var cls = 'dot' + (d.exact === false ? ' over' : (v.exact_ran && d.exact === null ? ' "
    "undecided' : ''));\n"
    "        var c = sv('circle', {'class': cls, cx: X(d.step) + cw / 2, cy: top + d.signal * rh + "
    "rh / 2 - 1, r: 6});\n"
    "        c.appendChild(sv('title', {}, 'step ' + d.step + ', ' + v.signals[d.signal].name + ' "
    "= ' + show(v.signals[d.signal].values[d.step])));\n"
    "        svg.appendChild(c);\n"
    "        drawn++;\n"
    "      });\n"
    "      holder.innerHTML = '';\n"
    "      holder.appendChild(svg);\n"
    "      entry.window = [start, end - 1];\n"
    "      entry.dots_drawn = drawn;\n"
    "      entry.loop_shaded = shaded;\n"
    "      entry.trace_drawn = v.signals.length > 0 && cols > 0;\n"
    "      document.getElementById('ex-summary').textContent = JSON.stringify(summary);\n"
    "    }\n"
    "    range.addEventListener('input', function () { start = parseInt(range.value, 10); draw(); "
    "});\n"
    "    zoom.addEventListener('change', draw);\n"
    "    draw();\n"
    "  });\n"
    "  document.body.setAttribute('data-rendered', String(summary.views.length));\n"
    "})();\n";

static void ex_html_value(u_json *j, const ex_trace *t, int var, size_t step)
{
    const ex_var *v = &t->vars[var];
    if (!ex_trace_defined(t, var, step)) {
        u_json_null(j);
        return;
    }
    int64_t x = v->v[step];
    if (x >= EX_SYM_BASE && (size_t)(x - EX_SYM_BASE) < t->nsyms)
        u_json_str(j, t->syms[x - EX_SYM_BASE]);
    else
        u_json_int(j, (long long)x);
}

/* One view's data, as JSON that can sit inside <script> (util's u_json with
 * its script flag: no "</script>" can appear). */
static void ex_html_view(u_json *j, const ex_trace *t, const ex_explanation *e, int all_vars)
{
    size_t nc = all_vars ? t->nvars : e->nvars;
    u_json_obj(j);
    u_json_key(j, "formula");
    u_json_str(j, e->formula);
    u_json_key(j, "steps");
    u_json_uint(j, t->nsteps);
    u_json_key(j, "exact_ran");
    u_json_bool(j, e->exact_ran);
    u_json_key(j, "first_failure"); /* the displayed step */
    if (e->first_shown >= 0)
        u_json_int(j, e->first_shown);
    else
        u_json_null(j);
    u_json_key(j, "loop_start");
    if (e->loop_start >= 0)
        u_json_int(j, e->loop_start);
    else
        u_json_null(j);
    u_json_key(j, "note");
    u_json_str(j, e->note);
    u_json_key(j, "signals");
    u_json_arr(j);
    for (size_t c = 0; c < nc; c++) {
        int var = all_vars ? (int)c : e->vars[c];
        u_json_obj(j);
        u_json_key(j, "name");
        u_json_str(j, t->vars[var].name);
        u_json_key(j, "values");
        u_json_arr(j);
        for (size_t i = 0; i < t->nsteps; i++)
            ex_html_value(j, t, var, i);
        u_json_end(j);
        u_json_end(j);
    }
    u_json_end(j);
    u_json_key(j, "dots");
    u_json_arr(j);
    for (size_t d = 0; d < e->ndots; d++) {
        size_t row = 0;
        for (size_t c = 0; c < nc; c++)
            if ((all_vars ? (int)c : e->vars[c]) == e->dots[d].var)
                row = c;
        int x = e->exact_ran ? e->dots[d].exact : -1;
        u_json_obj(j);
        u_json_key(j, "step");
        u_json_uint(j, e->dots[d].step);
        u_json_key(j, "signal");
        u_json_uint(j, row);
        u_json_key(j, "exact");
        if (x < 0)
            u_json_null(j);
        else
            u_json_bool(j, x == 1);
        u_json_end(j);
    }
    u_json_end(j);
    u_json_end(j);
}

void ex_render_html(FILE *o, const ex_trace *const *traces, const ex_explanation *const *ex,
                    size_t n, int all_vars)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<title>pancause explain</title>\n<style>\n",
          o);
    fputs(ex_css, o);
    fputs("</style></head>\n<body>\n<h1>pancause explain: red dots on the counterexample</h1>\n"
          "<div id=\"views\"></div>\n<pre id=\"ex-summary\" hidden></pre>\n"
          "<script type=\"application/json\" id=\"ex-data\">",
          o);
    u_json j;
    u_json_init(&j, o, 0);
    j.script = true;
    u_json_arr(&j);
    for (size_t i = 0; i < n; i++)
        ex_html_view(&j, traces[i], ex[i], all_vars);
    u_json_end(&j);
    fputs("</script>\n<script>\n", o);
    fputs(ex_js, o);
    fputs("</script>\n</body></html>\n", o);
}
