/**
 * `coverage --format html`: one self-contained file (no network: a content security policy that allows nothing
 * but its own inline style and script) with a folder x agent matrix. Rows are made when their parent is opened and
 * a cell's file list when it is clicked, both from the inline data, so a 100k-file tree opens at once. Every text
 * from the repository is set as text (textContent), never parsed as HTML; the data block escapes `<`, `>` and `&`.
 *
 * The table scrolls in a box of its own (its header row and folder column stay), and a cell's detail sits in a panel
 * fixed at the window's right: a table of 14 agents is wider than a laptop's screen, and a panel beside it would
 * sit past the screen's edge.
 *
 * URL fragments, for links and for tests: `#all` opens every folder; `#open=<folder>|<agent>` (folder "/" for the
 * root) opens that cell's list.
 */
import { ruleChangeLine, type CoverageDiff } from "./diff.js";
import type { CoverageModel } from "./model.js";
import { gatedJson } from "./json.js";

/**
 * Every string of the data is gated as a name (json.ts's gatedJson) before the page is made: gated after
 * JSON.stringify, a control in a name is already a `\u001b` escape the gate cannot see. The page's own text is ours.
 */
export function renderCoverageHtml(model: CoverageModel, diff?: CoverageDiff): string {
  const data = { ...model, ...(diff !== undefined && { diff: { ref: diff.ref, lines: diff.rules.map(ruleChangeLine), folders: diff.folders } }) };
  const json = gatedJson(() => data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ctxinject coverage</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>ctxinject coverage</h1>
<p class="note">Each cell: the files an agent loads by itself in that folder + the files ctxinject adds for it (with its hook installed), and their tokens; <span class="warn">!n</span>: n findings. Click a cell for the files and the reason for each.</p>
<p class="note" id="rule"></p>
<div id="changes"></div>
<div id="table-box"><table id="matrix"><thead></thead><tbody></tbody></table></div>
</main>
<aside id="details"><p class="note">Click a cell: its files, the reason for each, and its findings show here.</p></aside>
<script type="application/json" id="coverage-data">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#1d2330;background:#fff}
h1{font-size:18px;margin:0 0 6px}.note{color:#5b6475;margin:2px 0 8px;max-width:70em}
main{margin-right:calc(var(--panel) + 16px)}
:root{--panel:min(30em,36vw)}
#table-box{overflow:auto;max-height:calc(100vh - 150px);min-height:12em;border:1px solid #dde1e8}
table{border-collapse:separate;border-spacing:0}th,td{border:0 solid #dde1e8;border-width:0 1px 1px 0;padding:3px 8px;white-space:nowrap}
th{background:#f3f5f8;text-align:left;position:sticky;top:0;z-index:1}th small{color:#8a93a3;font-weight:normal}
td.folder,th:first-child{position:sticky;left:0;background:#fff;z-index:1}th:first-child{background:#f3f5f8;z-index:2}
td.folder{font-family:ui-monospace,monospace}td.num{text-align:right;color:#5b6475}
td.cell{cursor:pointer;text-align:right;font-variant-numeric:tabular-nums}td.cell:hover{outline:2px solid #3b6fd8}
td.cell.open{outline:2px solid #1d2330}.warn{color:#b3261e;font-weight:600}
button.toggle{border:0;background:none;cursor:pointer;width:1.4em;padding:0;font:inherit}
aside{position:fixed;top:0;right:0;bottom:0;width:var(--panel);box-sizing:border-box;overflow:auto;overflow-wrap:anywhere;border-left:1px solid #dde1e8;background:#fbfcfd;padding:12px 14px}
aside h2{font-size:14px;margin:0 0 4px}aside h3{font-size:13px;margin:10px 0 2px}
aside li{margin:2px 0}aside code{font-family:ui-monospace,monospace}.reason{color:#5b6475}
#changes li{margin:2px 0}
`;

// Plain ES2017, no template literals: it is embedded in one.
const SCRIPT = `
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("coverage-data").textContent);
  var agents = data.agents;
  var folders = data.folders;
  var max = 1;
  folders.forEach(function (f) { agents.forEach(function (a) { max = Math.max(max, data.cells[f.cells[a.name]].tokens); }); });
  var children = {};
  folders.forEach(function (f, i) {
    var parent = f.path === "" ? null : f.path.slice(0, Math.max(0, f.path.lastIndexOf("/")));
    f.index = i;
    if (parent !== null) (children[parent] = children[parent] || []).push(i);
  });
  function el(tag, props, kids) {
    var node = document.createElement(tag);
    if (props) Object.keys(props).forEach(function (k) { if (k === "text") node.textContent = props[k]; else if (k === "className") node.className = props[k]; else node.setAttribute(k, props[k]); });
    (kids || []).forEach(function (k) { node.appendChild(k); });
    return node;
  }
  document.getElementById("rule").textContent = "How a folder is judged: " + data.representative + ".";
  var head = el("tr", null, [el("th", { text: "folder" }), el("th", { text: "files" })]);
  agents.forEach(function (a) { head.appendChild(el("th", null, [document.createTextNode(a.name), el("small", { text: a.integration ? "" : " no hook" })])); });
  document.querySelector("#matrix thead").appendChild(head);
  var body = document.querySelector("#matrix tbody");
  var rows = {};
  function heat(tokens) {
    if (tokens === 0) return "#ffffff";
    var t = Math.log(1 + tokens) / Math.log(1 + max);
    var light = Math.round(96 - t * 36);
    return "hsl(214,70%," + light + "%)";
  }
  function row(f) {
    var kids = children[f.path] || [];
    var toggle = el("button", { className: "toggle", text: kids.length ? "+" : "", "aria-label": "open" });
    var name = f.path === "" ? "/" : f.path.slice(f.path.lastIndexOf("/") + 1) + "/";
    var label = el("td", { className: "folder", title: f.path === "" ? "/" : f.path + "/" }, [toggle, document.createTextNode(name + (f.hidden ? "  (+" + f.hidden + " alike)" : ""))]);
    label.style.paddingLeft = 4 + f.depth * 14 + "px";
    var tr = el("tr", { "data-folder": f.path }, [label, el("td", { className: "num", text: String(f.files) })]);
    agents.forEach(function (a) {
      var cell = data.cells[f.cells[a.name]];
      var warnings = 0;
      cell.findings.forEach(function (x) { if (x.severity !== "info") warnings++; });
      var td = el("td", { className: "cell", "data-folder": f.path, "data-agent": a.name, "data-tokens": String(cell.tokens), "data-loads": String(cell.loads.length), "data-adds": String(cell.adds.length), title: f.representative }, [
        document.createTextNode(cell.loads.length + "+" + cell.adds.length + " \\u00b7 " + cell.tokens + " tok "),
      ]);
      if (warnings) td.appendChild(el("span", { className: "warn", text: "!" + warnings }));
      td.style.background = heat(cell.tokens);
      td.addEventListener("click", function () { open(f, a.name, td); });
      tr.appendChild(td);
    });
    toggle.addEventListener("click", function () { if (toggle.textContent === "+") expand(f); else collapse(f); });
    rows[f.path] = { tr: tr, toggle: toggle };
    return tr;
  }
  function expand(f) {
    var r = rows[f.path];
    if (!r || r.toggle.textContent !== "+") return;
    r.toggle.textContent = "-";
    var after = r.tr;
    (children[f.path] || []).forEach(function (i) {
      var tr = row(folders[i]);
      after.parentNode.insertBefore(tr, after.nextSibling);
      after = tr;
    });
  }
  function collapse(f) {
    var r = rows[f.path];
    r.toggle.textContent = "+";
    (children[f.path] || []).forEach(function (i) {
      var child = folders[i];
      if (rows[child.path]) { if (rows[child.path].toggle.textContent === "-") collapse(child); rows[child.path].tr.remove(); delete rows[child.path]; }
    });
  }
  function list(title, items, f) {
    var ul = el("ul");
    items.forEach(function (id) {
      var item = data.items[id];
      var reason = item.reason.split("{representative}").join(f.representative);
      var li = el("li", { "data-file": item.file }, [el("code", { text: item.file }), document.createTextNode(" (" + item.tokens + " tok" + (item.by ? ", " + item.by : "") + ") "), el("span", { className: "reason", text: reason })]);
      ul.appendChild(li);
    });
    return [el("h3", { text: title + " (" + items.length + ")" }), ul];
  }
  var opened = null;
  function open(f, agent, td) {
    var cell = data.cells[f.cells[agent]];
    if (opened) opened.classList.remove("open");
    opened = td;
    if (td) td.classList.add("open");
    var box = document.getElementById("details");
    box.textContent = "";
    box.setAttribute("data-folder", f.path);
    box.setAttribute("data-agent", agent);
    box.appendChild(el("h2", { text: agent + " in " + (f.path === "" ? "/" : f.path + "/") + ": " + cell.tokens + " tokens" }));
    box.appendChild(el("p", { className: "note", text: "judged by " + f.representative }));
    [].concat(list("loads by itself", cell.loads, f), list("ctxinject adds", cell.adds, f), list("offered by description", cell.offers, f)).forEach(function (n) { box.appendChild(n); });
    var ul = el("ul");
    cell.findings.forEach(function (x) {
      var li = el("li", { "data-kind": x.kind }, [el("span", { className: x.severity === "info" ? "" : "warn", text: x.severity + " " + x.kind + " " }), el("code", { text: x.file + (x.line ? ":" + x.line : "") }), document.createTextNode(" " + x.message)]);
      if (x.files) li.appendChild(el("ul", null, x.files.map(function (file) { return el("li", null, [el("code", { text: file })]); })));
      ul.appendChild(li);
    });
    box.appendChild(el("h3", { text: "findings (" + cell.findings.length + ")" }));
    box.appendChild(ul);
  }
  if (data.diff) {
    var box = document.getElementById("changes");
    box.appendChild(el("h2", { text: "What this change does (against " + data.diff.ref + ")" }));
    var ul = el("ul");
    data.diff.lines.forEach(function (line) { ul.appendChild(el("li", { text: line })); });
    data.diff.folders.slice(0, 200).forEach(function (c) {
      ul.appendChild(el("li", { text: (c.folder === "" ? "/" : c.folder + "/") + " for " + c.agent + ": " + (c.gained.length ? "gains " + c.gained.join(", ") + " " : "") + (c.lost.length ? "loses " + c.lost.join(", ") + " " : "") + "(" + (c.tokens > 0 ? "+" : "") + c.tokens + " tokens)" }));
    });
    box.appendChild(ul);
  }
  body.appendChild(row(folders[0]));
  expand(folders[0]);
  var hash = decodeURIComponent(location.hash.slice(1));
  if (hash === "all") for (var i = 0; i < folders.length; i++) expand(folders[i]);
  if (hash.indexOf("open=") === 0) {
    var parts = hash.slice(5).split("|");
    var path = parts[0] === "/" ? "" : parts[0];
    var target = folders.filter(function (f) { return f.path === path; })[0];
    if (target) {
      var chain = [];
      for (var p = target.path; p !== ""; p = p.slice(0, Math.max(0, p.lastIndexOf("/")))) chain.unshift(p);
      chain.forEach(function (q) { var parent = q.slice(0, Math.max(0, q.lastIndexOf("/"))); var pf = folders.filter(function (f) { return f.path === parent; })[0]; if (pf) expand(pf); });
      var td = document.querySelector('td.cell[data-folder="' + CSS.escape(path) + '"][data-agent="' + CSS.escape(parts[1]) + '"]');
      if (td) td.scrollIntoView({ block: "nearest", inline: "nearest" });
      open(target, parts[1], td);
    }
  }
})();
`;
