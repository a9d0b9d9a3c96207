//===- OutputHTML.cpp - One self-contained HTML page ----------------------===//
//
// The page needs nothing but itself: inline CSS and inline scripts. Tables
// and the diff's before/after treemaps are drawn here, so that they read the
// same without JavaScript and a headless browser's DOM holds every row. The
// zoomable treemap of the source tree (directory, file, function; Views.h's
// buildSourceTree) is embedded as JSON and drawn by the page's script.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace report {

namespace {

constexpr double kMapWidth = 960, kMapHeight = 440;
/// Tiles drawn at most; the smallest functions beyond share one tile.
constexpr size_t kMaxTiles = 1500;

} // namespace

std::string htmlEscape(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  // Names come from the file: never let invalid UTF-8 through.
  return json::isUTF8(Out) ? Out : json::fixUTF8(Out);
}

namespace {

const char *kStyle = R"(
body { font: 14px/1.4 system-ui, sans-serif; margin: 20px; color: #222; }
h1 { font-size: 20px; margin-bottom: 4px; }
h2 { font-size: 16px; margin: 20px 0 6px; }
.meta { color: #555; margin-top: 0; }
.maps { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; }
figcaption { color: #555; font-size: 13px; }
svg.treemap { border: 1px solid #ccc; background: #fafafa; display: block; }
svg.treemap rect { stroke: #fff; stroke-width: 1; }
svg.treemap a:hover rect { stroke: #000; }
svg.treemap text { font-size: 11px; pointer-events: none; fill: #111; }
.legend { font-size: 12px; color: #555; }
.legend i { display: inline-block; width: 28px; height: 10px; margin: 0 4px;
            vertical-align: middle; }
table { border-collapse: collapse; margin-top: 8px; font-size: 13px; }
th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left;
         white-space: nowrap; }
th { background: #f0f0f0; cursor: pointer; position: sticky; top: 0; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
th.asc::after { content: " \25b2"; }
th.desc::after { content: " \25bc"; }
tfoot td { font-weight: bold; border-top: 2px solid #ccc; }
tr:target { background: #fff3bf; }
.bar { display: inline-block; height: 9px; vertical-align: middle; }
.grow { background: #e8590c; } .shrink { background: #1c7ed6; }
.added { color: #2b8a3e; } .removed { color: #c92a2a; }
.share { background: #d9480f; }
nav.breadcrumbs { margin: 4px 0; font-size: 13px; }
nav.breadcrumbs span { font-weight: bold; }
svg.zoom g { cursor: pointer; }
svg.zoom g.rest, svg.zoom g.function { cursor: default; }
svg.zoom g:hover > rect { stroke: #000; }
.dtree { font-size: 13px; max-width: 960px; }
.dtree summary, .dtree .row {
  display: grid; grid-template-columns: 1fr 80px 80px 80px 130px;
  gap: 8px; padding: 1px 0; border-bottom: 1px solid #eee; }
.dtree .head { font-weight: bold; background: #f0f0f0; }
.dtree details details, .dtree details .row { margin-left: 16px; }
.dtree .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.dtree summary { cursor: pointer; }
)";

const char *kScript = R"(
(function () {
  function key(text, numeric) {
    if (!numeric) return text;
    var t = text.trim();
    if (t.indexOf('0x') === 0) return parseInt(t, 16);
    var v = parseFloat(t.replace('+', ''));
    return isNaN(v) ? -Infinity : v;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.addEventListener('click', function () {
        var numeric = th.classList.contains('n');
        var asc = !th.classList.contains('asc');
        Array.prototype.forEach.call(heads, function (h) {
          h.classList.remove('asc', 'desc');
        });
        th.classList.add(asc ? 'asc' : 'desc');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[col].textContent, numeric);
          var y = key(b.cells[col].textContent, numeric);
          var r = numeric ? x - y : String(x).localeCompare(String(y));
          return asc ? r : -r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  // page.html#sort=size sorts by that column on load (twice: descending).
  var m = /sort=([a-z_]+)/.exec(location.hash);
  if (m) {
    document.querySelectorAll('table.sortable th').forEach(function (th) {
      if (th.textContent.trim().toLowerCase().replace(/ /g, '_') !== m[1])
        return;
      th.click();
      if (th.classList.contains('n')) th.click();
    });
  }
})();
)";

const char *kTreemapScript = R"(
(function () {
  // Zoomable treemaps (div.zoommap): the source tree embedded as JSON
  // (script.treemap-data), drawn two levels at a time. A click on a
  // directory, file or group zooms into it; the breadcrumbs zoom out;
  // page.html#zoom=dir/file opens a node.
  var NS = 'http://www.w3.org/2000/svg';
  var MIN_AREA = 40; // px^2: a node's smaller children share one grey tile
  var MAX_TILES = 400; // tiles per node at most
  var HEADER = 16; // px: a nested node's label above its children

  function bytes(n) {
    if (n < 10000) return n + ' B';
    if (n < 10000 * 1024) return (n / 1024).toFixed(1) + ' KiB';
    return (n / 1048576).toFixed(1) + ' MiB';
  }
  function measure(n) { return Math.max(n.size, n.old_size || 0); }
  function tooltip(n) {
    var t = n.name + ': ';
    if ('old_size' in n) {
      var d = n.size - n.old_size;
      t += n.old_size + ' -> ' + n.size + ' bytes (' + (d > 0 ? '+' : '') +
           d + '), atomics ' + n.old_atomics + ' -> ' + n.atomics;
    } else {
      t += n.size + ' bytes, ' + n.atomics + ' atomics';
    }
    if (n.kind !== 'function') t += ', ' + n.functions + ' functions';
    return t;
  }

  // Squarified layout (Bruls, Huizing, van Wijk), as Views.cpp's squarify:
  // items largest first, rows along the shorter side.
  function worst(sum, max, min, side) {
    var s2 = side * side, sum2 = sum * sum;
    return Math.max(s2 * max / sum2, sum2 / (s2 * min));
  }
  function squarify(items, x, y, w, h) {
    var total = 0, out = [], i = 0;
    items.forEach(function (n) { total += measure(n); });
    if (total <= 0 || w <= 0 || h <= 0) return out;
    var scale = w * h / total;
    while (i < items.length) {
      var side = Math.min(w, h), j = i + 1;
      var sum = measure(items[i]) * scale, max = sum, min = sum;
      var current = worst(sum, max, min, side);
      for (; j < items.length; ++j) {
        var a = measure(items[j]) * scale;
        var next = worst(sum + a, Math.max(max, a), Math.min(min, a), side);
        if (next > current) break;
        sum += a; max = Math.max(max, a); min = Math.min(min, a);
        current = next;
      }
      var along = w >= h ? sum / h : sum / w, at = w >= h ? y : x;
      for (var k = i; k < j; ++k) {
        var len = measure(items[k]) * scale / along;
        if (w >= h) out.push({node: items[k], x: x, y: at, w: along, h: len});
        else out.push({node: items[k], x: at, y: y, w: len, h: along});
        at += len;
      }
      if (w >= h) { x += along; w -= along; } else { y += along; h -= along; }
      i = j;
    }
    return out;
  }

  // The children of a node worth a tile in an area of that many px^2; the
  // rest become one tile "N smaller items" (children come largest first).
  function visible(node, area) {
    var kids = (node.children || []).filter(function (c) {
      return measure(c) > 0;
    });
    var total = measure(node), keep = 0;
    while (keep < kids.length && keep < MAX_TILES &&
           measure(kids[keep]) / total * area >= MIN_AREA) ++keep;
    if (kids.length - keep < 2) return kids;
    var rest = {name: (kids.length - keep) + ' smaller items', kind: 'rest',
                size: 0, atomics: 0, functions: 0, colour: '#c8ccd0'};
    if ('old_size' in node) { rest.old_size = 0; rest.old_atomics = 0; }
    kids.slice(keep).forEach(function (c) {
      ['size', 'atomics', 'functions', 'old_size', 'old_atomics']
          .forEach(function (f) { if (f in rest) rest[f] += c[f]; });
    });
    return kids.slice(0, keep).concat([rest]);
  }

  function element(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    parent.appendChild(e);
    return e;
  }
  function label(g, t, text, dy) {
    var chars = Math.floor((t.w - 6) / 6.5);
    if (chars < 3 || t.h < dy + 2) return;
    if (text.length > chars) text = text.slice(0, chars - 1) + '\u2026';
    element('text', {x: (t.x + 3).toFixed(1), y: (t.y + dy).toFixed(1)}, g)
        .textContent = text;
  }

  function ZoomMap(div) {
    this.svg = div.querySelector('svg');
    this.nav = div.querySelector('nav');
    this.width = +this.svg.getAttribute('width');
    this.height = +this.svg.getAttribute('height');
    var data = JSON.parse(div.querySelector('script.treemap-data').textContent);
    this.path = [data.tree];
  }
  ZoomMap.prototype.zoom = function (path) {
    this.path = path;
    this.draw();
  };
  // One tile: a rectangle with its name and size; a node with children gets
  // its own children inside (one level), and zooms in on a click.
  ZoomMap.prototype.tile = function (t, parent, nested) {
    var self = this, n = t.node, path = this.path.concat(parent ? [parent] : []);
    var g = element('g', {'class': n.kind}, this.svg);
    element('rect', {x: t.x.toFixed(1), y: t.y.toFixed(1),
                     width: t.w.toFixed(1), height: t.h.toFixed(1),
                     fill: n.colour}, g);
    element('title', {}, g).textContent = tooltip(n);
    if (n.children) {
      g.addEventListener('click', function (e) {
        e.stopPropagation();
        self.zoom(path.concat([n]));
      });
    } else if (n.row) {
      g.addEventListener('click', function () { location.hash = n.row; });
    }
    if (nested || !n.children || t.w < 40 || t.h < HEADER + 8) {
      label(g, t, n.name, 12);
      label(g, t, bytes(n.size), 25);
      return;
    }
    label(g, t, n.name + ' \u00b7 ' + bytes(n.size), 12);
    var inner = {x: t.x + 2, y: t.y + HEADER, w: t.w - 4, h: t.h - HEADER - 2};
    squarify(visible(n, inner.w * inner.h), inner.x, inner.y, inner.w, inner.h)
        .forEach(function (c) { self.tile(c, n, true); });
  };
  ZoomMap.prototype.breadcrumbs = function () {
    var self = this;
    this.nav.textContent = '';
    this.path.forEach(function (n, i) {
      if (i) self.nav.appendChild(document.createTextNode(' \u203a '));
      var last = i === self.path.length - 1;
      var e = document.createElement(last ? 'span' : 'a');
      e.textContent = n.name + ' (' + bytes(n.size) + ')';
      if (!last) {
        e.href = '#';
        e.addEventListener('click', function (ev) {
          ev.preventDefault();
          self.zoom(self.path.slice(0, i + 1));
        });
      }
      self.nav.appendChild(e);
    });
  };
  ZoomMap.prototype.draw = function () {
    var self = this, node = this.path[this.path.length - 1];
    while (this.svg.firstChild) this.svg.removeChild(this.svg.firstChild);
    squarify(visible(node, this.width * this.height), 0, 0, this.width,
             this.height).forEach(function (t) { self.tile(t, null, false); });
    this.breadcrumbs();
  };
  // #zoom=a/b: the path of names from the root, each URI-encoded.
  ZoomMap.prototype.open = function (names) {
    var path = this.path.slice(0, 1);
    names.forEach(function (name) {
      var at = path[path.length - 1];
      var next = (at.children || []).filter(function (c) {
        return c.name === name && c.children;
      })[0];
      if (next) path.push(next);
    });
    this.zoom(path);
  };

  var m = /zoom=([^&]*)/.exec(location.hash);
  document.querySelectorAll('div.zoommap').forEach(function (div) {
    var map = new ZoomMap(div);
    if (m) map.open(m[1].split('/').filter(Boolean).map(decodeURIComponent));
    else map.draw();
  });
})();
)";

} // namespace

void htmlPageStart(raw_ostream &OS, StringRef Title) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
     << "<meta name=\"generator\" content=\"pcmap-report\">\n"
     << "<title>" << htmlEscape(Title) << "</title>\n<style>" << kStyle
     << "</style>\n</head>\n<body>\n";
}

void htmlPageEnd(raw_ostream &OS) {
  OS << "<script>" << kScript << "</script>\n<script>" << kTreemapScript
     << "</script>\n</body>\n</html>\n";
}

namespace {

std::string rgb(double R, double G, double B) {
  char Buf[16];
  snprintf(Buf, sizeof(Buf), "#%02x%02x%02x", unsigned(R), unsigned(G),
           unsigned(B));
  return Buf;
}

/// Colour of a function by atomic sites per 100 bytes: pale for none, red
/// from 4 per 100 bytes on.
std::string densityColour(uint64_t Atomics, uint64_t Size) {
  if (!Atomics || !Size)
    return "#dbe4ee";
  double T = std::min(1.0, 100.0 * double(Atomics) / double(Size) / 4.0);
  T = 0.25 + 0.75 * T;
  return rgb(253 + (215 - 253) * T, 219 + (48 - 219) * T, 199 + (31 - 199) * T);
}

void densityLegend(raw_ostream &OS) {
  OS << "<p class=\"legend\">Area: size, by directory, file and function "
        "(a click on a directory or file zooms in). Colour: atomic sites per "
        "100 bytes <i style=\"background:"
     << densityColour(0, 1)
     << "\"></i>0 <i style=\"background:" << densityColour(1, 100)
     << "\"></i>1 <i style=\"background:" << densityColour(2, 100)
     << "\"></i>2 <i style=\"background:" << densityColour(4, 100)
     << "\"></i>4 or more</p>\n";
}

/// How a page draws a source tree: each node's colour and, for a function,
/// the id of its row in the page's table ("" for none).
struct TreeStyle {
  std::function<std::string(const TreeNode &)> Colour;
  std::function<std::string(const TreeNode &)> Row;
  bool Diff = false; // also the old file's size and atomics
};

/// A node as the page's script reads it (docs/Report.md).
void treeJSON(json::OStream &J, const TreeNode &N, const TreeStyle &S) {
  J.object([&] {
    J.attribute("name", utf8(N.Name));
    J.attribute("kind", treeKindName(N.Kind));
    J.attribute("size", int64_t(N.Size));
    J.attribute("atomics", int64_t(N.Atomics));
    J.attribute("functions", int64_t(N.Functions));
    if (S.Diff) {
      J.attribute("old_size", int64_t(N.OldSize));
      J.attribute("old_atomics", int64_t(N.OldAtomics));
    }
    J.attribute("colour", S.Colour(N));
    std::string Row = N.Kind == TreeKind::Function && S.Row ? S.Row(N) : "";
    if (!Row.empty())
      J.attribute("row", Row);
    if (!N.Children.empty())
      J.attributeArray("children", [&] {
        for (const TreeNode &C : N.Children)
          treeJSON(J, C, S);
      });
  });
}

/// The zoomable treemap of a source tree: breadcrumbs, an SVG the page's
/// script draws into, and the tree as JSON.
void zoomableTreemap(raw_ostream &OS, SourceTree T, StringRef RootName,
                     const TreeStyle &S) {
  T.Root.Name = RootName.str();
  std::string Data;
  raw_string_ostream DS(Data);
  {
    json::OStream J(DS);
    J.object([&] {
      J.attribute("prefix", utf8(T.Prefix));
      J.attributeBegin("tree");
      treeJSON(J, T.Root, S);
      J.attributeEnd();
    });
  }
  // "</script>" must not end the data early: "<\/" is the same JSON.
  std::string Safe;
  for (size_t I = 0; I < Data.size(); ++I) {
    Safe += Data[I];
    if (Data[I] == '<' && I + 1 < Data.size() && Data[I + 1] == '/')
      Safe += '\\';
  }
  OS << "<div class=\"zoommap\">\n<nav class=\"breadcrumbs\"></nav>\n"
     << "<svg class=\"treemap zoom\" xmlns=\"http://www.w3.org/2000/svg\" "
     << "width=\"" << unsigned(kMapWidth) << "\" height=\""
     << unsigned(kMapHeight) << "\" role=\"img\" aria-label=\""
     << htmlEscape(RootName) << " by directory, file and function\"></svg>\n"
     << "<noscript><p>The treemap needs JavaScript.</p></noscript>\n";
  if (!T.Prefix.empty())
    OS << "<p class=\"legend\">Directories relative to " << htmlEscape(T.Prefix)
       << "</p>\n";
  OS << "<script type=\"application/json\" class=\"treemap-data\">" << Safe
     << "</script>\n</div>\n";
}

/// Colour of a diff's node: green added, red removed, orange growth and
/// blue shrinkage (darker for more, relative to its size), yellow for
/// atomics that changed alone, grey for no change.
std::string growthColour(const TreeNode &N) {
  if (!N.OldSize && N.Size)
    return "#8ce99a";
  if (N.OldSize && !N.Size)
    return "#ffa8a8";
  if (N.OldSize == N.Size)
    return N.OldAtomics != N.Atomics ? "#ffe066" : "#dee2e6";
  double Delta = double(N.Size) - double(N.OldSize);
  double T = std::min(1.0, 4.0 * std::fabs(Delta) /
                               double(std::max(N.Size, N.OldSize)));
  T = 0.3 + 0.7 * T;
  if (Delta > 0) // #fff4e6 to #e8590c
    return rgb(255 + (232 - 255) * T, 244 + (89 - 244) * T,
               230 + (12 - 230) * T);
  return rgb(231 + (28 - 231) * T, 245 + (126 - 245) * T,
             255 + (214 - 255) * T); // #e7f5ff to #1c7ed6
}

/// The diff by directory: nested <details> a click opens, each with its
/// old and new size, the delta and the atomics.
void diffTreeRow(raw_ostream &OS, const TreeNode &N) {
  int64_t Delta = int64_t(N.Size) - int64_t(N.OldSize);
  int64_t AtomicsDelta = int64_t(N.Atomics) - int64_t(N.OldAtomics);
  OS << "<span class=\"name " << treeKindName(N.Kind) << "\" title=\""
     << htmlEscape(N.Name) << "\">" << htmlEscape(N.Name)
     << "</span><span class=\"n\">" << N.OldSize << "</span><span class=\"n\">"
     << N.Size << "</span><span class=\"n "
     << (Delta < 0 ? "shrink-text" : "grow-text") << "\">" << signedText(Delta)
     << "</span><span class=\"n\">" << N.OldAtomics << " &rarr; " << N.Atomics
     << " (" << signedText(AtomicsDelta) << ")</span>";
}

void diffTree(raw_ostream &OS, const TreeNode &N, unsigned Depth,
              bool ShowUnchanged) {
  // Largest change first.
  std::vector<const TreeNode *> Order;
  for (const TreeNode &C : N.Children)
    if (ShowUnchanged || C.Size != C.OldSize || C.Atomics != C.OldAtomics)
      Order.push_back(&C);
  auto Change = [](const TreeNode *C) {
    return std::llabs(int64_t(C->Size) - int64_t(C->OldSize));
  };
  llvm::sort(Order, [&](const TreeNode *A, const TreeNode *B) {
    if (Change(A) != Change(B))
      return Change(A) > Change(B);
    return std::tie(A->Name, A->Item) < std::tie(B->Name, B->Item);
  });
  for (const TreeNode *P : Order) {
    const TreeNode &C = *P;
    if (C.Children.empty()) {
      OS << "<div class=\"row\">";
      diffTreeRow(OS, C);
      OS << "</div>\n";
      continue;
    }
    OS << "<details" << (Depth == 0 ? " open" : "") << "><summary>";
    diffTreeRow(OS, C);
    OS << "</summary>\n";
    diffTree(OS, C, Depth + 1, ShowUnchanged);
    OS << "</details>\n";
  }
}

struct TreemapItem {
  std::string Label;   // shown in the tile
  std::string Tooltip; // <title>
  std::string Colour;
  std::string Link; // row id, or empty
  uint64_t Size = 0;
};

void treemap(raw_ostream &OS, std::vector<TreemapItem> Items, StringRef Caption,
             double Width = kMapWidth, double Height = kMapHeight) {
  // Keep the largest; the rest share a tile.
  if (Items.size() > kMaxTiles) {
    llvm::sort(Items, [](const TreemapItem &A, const TreemapItem &B) {
      return A.Size != B.Size ? A.Size > B.Size : A.Link < B.Link;
    });
    TreemapItem Rest;
    size_t Count = Items.size() - (kMaxTiles - 1);
    for (size_t I = kMaxTiles - 1; I < Items.size(); ++I)
      Rest.Size += Items[I].Size;
    Items.resize(kMaxTiles - 1);
    Rest.Label = std::to_string(Count) + " smaller functions";
    Rest.Tooltip = Rest.Label + ": " + std::to_string(Rest.Size) + " bytes";
    Rest.Colour = "#c8ccd0";
    Items.push_back(std::move(Rest));
  }
  std::vector<uint64_t> Sizes;
  for (const TreemapItem &I : Items)
    Sizes.push_back(I.Size);
  std::vector<Tile> Tiles = squarify(Sizes, Width, Height);
  OS << "<figure>\n<svg class=\"treemap\" xmlns=\"http://www.w3.org/2000/svg\" "
     << "width=\"" << Width << "\" height=\"" << Height << "\" viewBox=\"0 0 "
     << Width << " " << Height << "\" role=\"img\" aria-label=\""
     << htmlEscape(Caption) << "\">\n";
  for (const Tile &T : Tiles) {
    const TreemapItem &I = Items[T.Item];
    if (!I.Link.empty())
      OS << "<a href=\"#" << I.Link << "\">";
    OS << "<rect x=\"" << llvm::format("%.1f", T.X) << "\" y=\""
       << llvm::format("%.1f", T.Y) << "\" width=\""
       << llvm::format("%.1f", T.W) << "\" height=\""
       << llvm::format("%.1f", T.H) << "\" fill=\"" << I.Colour << "\"><title>"
       << htmlEscape(I.Tooltip) << "</title></rect>";
    // A label where it fits, cut to the tile's width (about 6.5 px a
    // character at 11 px).
    if (T.W > 40 && T.H > 14) {
      size_t Chars = size_t((T.W - 6) / 6.5);
      std::string Label = I.Label;
      if (Label.size() > Chars)
        Label = Label.substr(0, Chars > 1 ? Chars - 1 : 0) + "\u2026";
      OS << "<text x=\"" << llvm::format("%.1f", T.X + 3) << "\" y=\""
         << llvm::format("%.1f", T.Y + 12) << "\">" << htmlEscape(Label)
         << "</text>";
    }
    if (!I.Link.empty())
      OS << "</a>";
    OS << "\n";
  }
  OS << "</svg>\n<figcaption>" << htmlEscape(Caption)
     << "</figcaption>\n</figure>\n";
}

std::string rowId(size_t File, size_t Row) {
  return "f" + std::to_string(File) + "-" + std::to_string(Row);
}

void fileHeading(raw_ostream &OS, const BinaryReport &R, StringRef What) {
  FunctionTotals T = totalsOf(R);
  OS << "<h1>" << What << " of " << htmlEscape(sys::path::filename(R.Path))
     << "</h1>\n<p class=\"meta\">" << htmlEscape(R.Path) << " &middot; "
     << htmlEscape(R.FileFormat) << " " << htmlEscape(R.FileType)
     << " &middot; " << T.Functions << " functions &middot; " << T.Size
     << " bytes &middot; " << R.Atomics.size() << " atomic sites</p>\n";
}

/// A table cell's start and a name as tables show it (shortName); the
/// whole name in a tooltip when it was shortened. The caller closes it.
std::string nameCellStart(const std::string &Name, const OutputOptions &O) {
  std::string Shown = tableName(Name, O);
  if (Shown == Name)
    return "<td>" + htmlEscape(Name);
  return "<td title=\"" + htmlEscape(Name) + "\">" + htmlEscape(Shown);
}

/// The zoomable treemap of a file's functions by source tree, coloured by
/// atomics density; Table says whether functions link to their table rows.
void functionTreemap(raw_ostream &OS, const BinaryReport &R, size_t File,
                     const OutputOptions &O, bool Table) {
  OS << "<h2>Treemap</h2>\n";
  densityLegend(OS);
  TreeStyle Style;
  Style.Colour = [](const TreeNode &N) {
    return densityColour(N.Atomics, N.Size);
  };
  if (Table)
    Style.Row = [&](const TreeNode &N) { return rowId(File, N.Item); };
  zoomableTreemap(OS, buildSourceTree(functionLeaves(R, O.Demangle)),
                  sys::path::filename(R.Path), Style);
}

void functionsSection(raw_ostream &OS, const BinaryReport &R, size_t File,
                      const OutputOptions &O) {
  fileHeading(OS, R, "Functions");
  functionTreemap(OS, R, File, O, /*Table=*/true);

  OS << "<h2>Functions</h2>\n<table class=\"sortable functions\">\n<thead><tr>"
     << "<th>Function</th><th class=\"n\">Address</th><th class=\"n\">Size</th>"
     << "<th class=\"n\">Atomics</th>";
  for (unsigned K = 0; K < KC_Count; ++K)
    OS << "<th class=\"n\">" << kindColumnName(K) << "</th>";
  OS << "<th>Features</th><th>Source</th></tr></thead>\n<tbody>\n";
  // A file without metadata: atomics unknown, not none.
  auto Count = [&](uint64_t N) {
    return R.FromSymbolTable ? std::string("?") : std::to_string(N);
  };
  if (R.FromSymbolTable)
    OS << "<p>No pcmap or sanmd metadata: the functions are the symbol "
          "table's, their atomics unknown.</p>\n";
  for (uint32_t I : selectFunctions(R, O)) {
    const FunctionInfo &F = R.Functions[I];
    OS << "<tr id=\"" << rowId(File, I) << "\">"
       << nameCellStart(displayName(F, O.Demangle), O);
    if (!F.Fragments.empty()) {
      // A split function: its fragments in a tooltip.
      std::string List;
      for (const FunctionFragment &Frag : F.Fragments)
        List += Frag.Name + " at " + hexAddress(Frag.Address) + ", " +
                std::to_string(Frag.Size) + " bytes, " +
                std::to_string(Frag.NumAtomics) + " atomics\n";
      OS << " <span class=\"fragments\" title=\"" << htmlEscape(List) << "\">(+"
         << F.Fragments.size() << " fragments)</span>";
    }
    OS << "</td><td class=\"n\">" << hexAddress(F.Address)
       << "</td><td class=\"n\">" << F.Size << "</td><td class=\"n\">"
       << Count(F.NumAtomics) << "</td>";
    for (unsigned K = 0; K < KC_Count; ++K)
      OS << "<td class=\"n\">" << Count(F.AtomicsByKind[K]) << "</td>";
    OS << "<td>" << htmlEscape(featureText(F)) << "</td><td title=\""
       << htmlEscape(F.Source.File) << "\">"
       << htmlEscape(sourceText(F.Source, /*BaseName=*/true)) << "</td></tr>\n";
  }
  FunctionTotals T = totalsOf(R);
  OS << "</tbody>\n<tfoot><tr><td>Total (" << T.Functions
     << " functions)</td><td></td><td class=\"n\">" << T.Size
     << "</td><td class=\"n\">" << Count(T.Atomics) << "</td>";
  for (unsigned K = 0; K < KC_Count; ++K)
    OS << "<td class=\"n\">" << Count(T.AtomicsByKind[K]) << "</td>";
  OS << "<td></td><td></td></tr></tfoot>\n</table>\n";
}

/// Growth and shrinkage by directory: a zoomable treemap coloured by
/// growth, and the tree of directories, files and functions with deltas.
void diffByDirectory(raw_ostream &OS, StringRef NewName, const DiffResult &D,
                     const OutputOptions &O) {
  SourceTree T = buildSourceTree(diffLeaves(D, O.Demangle));
  auto Sample = [](uint64_t Old, uint64_t New) {
    TreeNode N;
    N.OldSize = Old;
    N.Size = New;
    return growthColour(N);
  };
  OS << "<h2>By directory</h2>\n<p class=\"legend\">Area: the larger of "
     << "the old and new size. <i style=\"background:#8ce99a\"></i>added "
     << "<i style=\"background:#ffa8a8\"></i>removed "
     << "<i style=\"background:" << Sample(10, 12)
     << "\"></i>grew <i style=\"background:" << Sample(12, 10)
     << "\"></i>shrank "
     << "<i style=\"background:#ffe066\"></i>atomics changed "
     << "<i style=\"background:#dee2e6\"></i>unchanged</p>\n";
  TreeStyle Style;
  Style.Colour = growthColour;
  Style.Diff = true;
  zoomableTreemap(OS, T, NewName, Style);
  OS << "<div class=\"dtree\">\n<div class=\"row head\"><span>Directory, "
     << "file, function</span><span class=\"n\">Old size</span><span "
     << "class=\"n\">New size</span><span class=\"n\">Delta</span><span "
     << "class=\"n\">Atomics</span></div>\n";
  diffTree(OS, T.Root, 0, O.ShowUnchanged);
  OS << "</div>\n";
}

/// The diff's table: a row per function, with a bar per delta.
void diffTable(raw_ostream &OS, const DiffResult &D, const OutputOptions &O) {
  std::vector<const DiffRow *> Rows = D.select(O);
  uint64_t MaxDelta = 1;
  for (const DiffRow *R : Rows)
    MaxDelta = std::max<uint64_t>(MaxDelta, uint64_t(std::llabs(R->delta())));
  OS << "<h2>Functions</h2>\n<table class=\"sortable diff\">\n<thead><tr>"
     << "<th>Function</th><th>Status</th><th class=\"n\">Old size</th>"
     << "<th class=\"n\">New size</th><th class=\"n\">Delta</th><th></th>"
     << "<th class=\"n\">Old atomics</th><th class=\"n\">New atomics</th>"
     << "<th class=\"n\">Atomics delta</th></tr></thead>\n<tbody>\n";
  for (const DiffRow *R : Rows) {
    const FunctionInfo *F = R->New ? R->New : R->Old;
    const char *Status = diffStatusName(R->Status);
    unsigned Bar =
        unsigned(120.0 * double(std::llabs(R->delta())) / double(MaxDelta));
    OS << "<tr>" << nameCellStart(displayName(*F, O.Demangle), O)
       << "</td><td class=\"" << Status << "\">" << Status
       << "</td><td class=\"n\">" << R->OldSize << "</td><td class=\"n\">"
       << R->NewSize << "</td><td class=\"n\">" << signedText(R->delta())
       << "</td><td><span class=\"bar " << (R->delta() < 0 ? "shrink" : "grow")
       << "\" style=\"width:" << Bar << "px\"></span></td><td class=\"n\">"
       << R->OldAtomics << "</td><td class=\"n\">" << R->NewAtomics
       << "</td><td class=\"n\">" << signedText(R->atomicsDelta())
       << "</td></tr>\n";
  }
  OS << "</tbody>\n<tfoot><tr><td>Total (" << D.Rows.size()
     << " functions)</td><td></td><td class=\"n\">" << D.OldSize
     << "</td><td class=\"n\">" << D.NewSize << "</td><td class=\"n\">"
     << signedText(int64_t(D.NewSize) - int64_t(D.OldSize))
     << "</td><td></td><td class=\"n\">" << D.OldAtomics
     << "</td><td class=\"n\">" << D.NewAtomics << "</td><td class=\"n\">"
     << signedText(int64_t(D.NewAtomics) - int64_t(D.OldAtomics))
     << "</td></tr></tfoot>\n</table>\n";
}

} // namespace

void writeFunctionsHTML(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O) {
  std::string Title = "pcmap-report functions:";
  for (const BinaryReport &R : Reports)
    Title += " " + sys::path::filename(R.Path).str();
  htmlPageStart(OS, Title);
  for (size_t I = 0; I < Reports.size(); ++I)
    functionsSection(OS, Reports[I], I, O);
  htmlPageEnd(OS);
}

void writeAtomicsHTML(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O) {
  std::string Title = "pcmap-report atomics:";
  for (const BinaryReport &R : Reports)
    Title += " " + sys::path::filename(R.Path).str();
  htmlPageStart(OS, Title);
  for (size_t File = 0; File < Reports.size(); ++File) {
    const BinaryReport &R = Reports[File];
    fileHeading(OS, R, "Atomics");
    functionTreemap(OS, R, File, O, /*Table=*/false);
    OS << "<h2>Atomic sites</h2>\n<table class=\"sortable atomics\">\n"
       << "<thead><tr><th class=\"n\">Address</th><th>Function</th>"
       << "<th>Kind</th><th class=\"n\">Size</th><th>Order</th>"
       << "<th>Failure order</th><th>RMW op</th><th>Flags</th>"
       << "<th>Source</th></tr></thead>\n<tbody>\n";
    size_t Shown = 0;
    for (const AtomicSite &A : R.Atomics) {
      if (O.Top && Shown == O.Top)
        break;
      ++Shown;
      std::string Kind = "unknown", Size, Order, Failure, Op;
      if (A.HasDescriptor) {
        const AtomicDescriptor &D = A.Descriptor;
        Kind = atomicKindName(D.Kind);
        if (D.Kind != AK_Fence && D.sizeInBytes())
          Size = std::to_string(D.sizeInBytes());
        Order = atomicOrderName(D.Order);
        if (D.Kind == AK_CmpXchg)
          Failure = atomicOrderName(D.FailureOrder);
        if (D.Kind == AK_RMW && rmwOperationName(D.Op))
          Op = rmwOperationName(D.Op);
      }
      std::string Where = A.Symbol.empty()
                              ? "?"
                              : displaySymbol(A.Symbol, O.Demangle) + "+" +
                                    hexAddress(A.SymbolOffset);
      OS << "<tr><td class=\"n\">" << hexAddress(A.Address) << "</td><td>"
         << htmlEscape(Where) << "</td><td>" << Kind << "</td><td class=\"n\">"
         << Size << "</td><td>" << Order << "</td><td>" << Failure
         << "</td><td>" << Op << "</td><td>"
         << htmlEscape(join(atomicFlagNames(A), ",")) << "</td><td title=\""
         << htmlEscape(inlinedChainText(A, O.Demangle)) << "\">"
         << htmlEscape(sourceText(A.Source, /*BaseName=*/true));
      if (A.Frames.size() > 1)
        OS << " <span class=\"inlined\">(+" << A.Frames.size() - 1
           << " inlined)</span>";
      OS << "</td></tr>\n";
    }
    OS << "</tbody>\n<tfoot><tr><td colspan=\"9\">Total: " << R.Atomics.size()
       << " atomic sites</td></tr></tfoot>\n</table>\n";
  }
  htmlPageEnd(OS);
}

void writeDiffHTML(raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O) {
  StringRef OldName = sys::path::filename(Old.Path);
  StringRef NewName = sys::path::filename(New.Path);
  htmlPageStart(OS,
                "pcmap-report diff: " + OldName.str() + " -> " + NewName.str());
  OS << "<h1>Diff of " << htmlEscape(OldName) << " and " << htmlEscape(NewName)
     << "</h1>\n<p class=\"meta\">" << htmlEscape(Old.Path) << " &rarr; "
     << htmlEscape(New.Path) << "</p>\n<p class=\"summary\">"
     << htmlEscape(D.summary()) << "</p>\n";

  // Before and after: the same functions in both maps, coloured by what
  // happened to them.
  auto Colour = [](const DiffRow &R) -> std::string {
    switch (R.Status) {
    case DiffStatus::Added:
      return "#8ce99a";
    case DiffStatus::Removed:
      return "#ffa8a8";
    case DiffStatus::Changed:
      return R.delta() > 0 ? "#ffc078" : R.delta() < 0 ? "#a5d8ff" : "#ffe066";
    case DiffStatus::Unchanged:
      break;
    }
    return "#dee2e6";
  };
  std::vector<TreemapItem> Before, After;
  for (size_t I = 0; I < D.Rows.size(); ++I) {
    const DiffRow &R = D.Rows[I];
    const FunctionInfo *F = R.New ? R.New : R.Old;
    TreemapItem T;
    T.Label = displayName(*F, O.Demangle);
    T.Tooltip = T.Label + ": " + std::to_string(R.OldSize) + " -> " +
                std::to_string(R.NewSize) + " bytes (" + signedText(R.delta()) +
                "), " + diffStatusName(R.Status);
    T.Colour = Colour(R);
    T.Size = R.OldSize;
    Before.push_back(T);
    T.Size = R.NewSize;
    After.push_back(std::move(T));
  }
  OS << "<h2>Before and after</h2>\n<p class=\"legend\">Area: function size. "
     << "<i style=\"background:#8ce99a\"></i>added "
     << "<i style=\"background:#ffa8a8\"></i>removed "
     << "<i style=\"background:#ffc078\"></i>grew "
     << "<i style=\"background:#a5d8ff\"></i>shrank "
     << "<i style=\"background:#ffe066\"></i>atomics changed "
     << "<i style=\"background:#dee2e6\"></i>unchanged</p>\n"
     << "<div class=\"maps\">\n";
  // Both maps at the same scale: the larger file fills its box.
  double Scale = std::max<double>(D.OldSize, D.NewSize);
  auto Height = [&](uint64_t Total) {
    return Scale > 0 ? std::max(20.0, 360.0 * double(Total) / Scale) : 20.0;
  };
  treemap(OS, std::move(Before),
          "Before: " + OldName.str() + ", " + std::to_string(D.OldSize) +
              " bytes",
          470, Height(D.OldSize));
  treemap(OS, std::move(After),
          "After: " + NewName.str() + ", " + std::to_string(D.NewSize) +
              " bytes",
          470, Height(D.NewSize));
  OS << "</div>\n";
  diffByDirectory(OS, NewName, D, O);

  diffTable(OS, D, O);
  htmlPageEnd(OS);
}

} // namespace report
} // namespace pcmap
