//===- TraceFlame.cpp - The HTML page's flame graph of the stacks ---------===//
//
// The merged stacks as one tree, outermost frame at the root (the folded
// stacks' frames: inline frames expanded, a stack's atomic samples in a
// leaf of their own, " [atomic ...]"), embedded as JSON and drawn by the
// page's script as SVG: a box per node, as wide as its samples, the root at
// the bottom. A click on a box zooms to it (its ancestors stay, full
// width); a click on the root zooms out; "#flame=NAME" in the address
// opens the heaviest node of that name.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "Trace.h"

#include "llvm/Support/JSON.h"

#include <map>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

/// A node of the tree: a name (index in Names) and its samples.
struct FlameNode {
  uint32_t Name = 0;
  uint64_t Samples = 0;
  std::map<uint32_t, uint32_t> Children; // name -> node index
};

class FlameTree {
public:
  explicit FlameTree(const TraceReport &R) {
    name("all");
    Nodes.emplace_back();
    for (const MergedStack &S : R.Stacks) {
      std::vector<std::string> Frames = foldedFrames(R, S, /*Short=*/false);
      if (S.AtomicSamples) {
        std::vector<std::string> Atomic = Frames;
        Atomic.back() += atomicSuffix(R, S);
        add(Atomic, S.AtomicSamples);
      }
      add(Frames, S.Samples - S.AtomicSamples);
    }
  }
  void write(json::OStream &J, const OutputOptions &O) const;

private:
  uint32_t name(const std::string &N) {
    auto [It, New] = NameIndex.try_emplace(N, Names.size());
    if (New)
      Names.push_back(N);
    return It->second;
  }
  void add(ArrayRef<std::string> Frames, uint64_t Samples);
  void node(json::OStream &J, uint32_t I) const;

  std::vector<std::string> Names;
  std::map<std::string, uint32_t> NameIndex;
  std::vector<FlameNode> Nodes; // 0: the root
};

void FlameTree::add(ArrayRef<std::string> Frames, uint64_t Samples) {
  if (!Samples)
    return;
  uint32_t At = 0;
  Nodes[0].Samples += Samples;
  for (const std::string &F : Frames) {
    uint32_t N = name(F);
    auto [It, New] = Nodes[At].Children.try_emplace(N, Nodes.size());
    if (New) {
      Nodes.emplace_back();
      Nodes.back().Name = N;
    }
    At = It->second;
    Nodes[At].Samples += Samples;
  }
}

/// [name, samples, [children...]], children heaviest first.
void FlameTree::node(json::OStream &J, uint32_t I) const {
  const FlameNode &N = Nodes[I];
  std::vector<uint32_t> Children;
  for (const auto &C : N.Children)
    Children.push_back(C.second);
  llvm::stable_sort(Children, [&](uint32_t A, uint32_t B) {
    return Nodes[A].Samples > Nodes[B].Samples;
  });
  J.array([&] {
    J.value(int64_t(N.Name));
    J.value(int64_t(N.Samples));
    J.array([&] {
      for (uint32_t C : Children)
        node(J, C);
    });
  });
}

/// {"names": [[short, full]...], "root": node}
void FlameTree::write(json::OStream &J, const OutputOptions &O) const {
  J.object([&] {
    J.attributeArray("names", [&] {
      for (const std::string &N : Names)
        J.array([&] {
          J.value(utf8(tableName(N, O)));
          J.value(utf8(N));
        });
    });
    J.attributeBegin("root");
    node(J, 0);
    J.attributeEnd();
  });
}

const char *kFlameStyle = R"(
svg.flame { display: block; border: 1px solid #ccc; background: #fff; }
svg.flame g { cursor: pointer; }
svg.flame rect { stroke: #fff; stroke-width: 0.5; }
svg.flame g:hover > rect { stroke: #000; }
svg.flame text { font: 11px monospace; pointer-events: none; fill: #111; }
)";

const char *kFlameScript = R"(
(function () {
  // The stacks' tree (script.flame-data): [name, samples, children].
  var NS = 'http://www.w3.org/2000/svg', ROW = 17, CHAR = 6.7;
  var svg = document.querySelector('svg.flame');
  var data = JSON.parse(document.querySelector('script.flame-data').textContent);
  var width = +svg.getAttribute('width');
  function build(a, parent) {
    var n = {name: data.names[a[0]], value: a[1], parent: parent, children: []};
    n.depth = parent ? parent.depth + 1 : 0;
    a[2].forEach(function (c) { n.children.push(build(c, n)); });
    return n;
  }
  var root = build(data.root, null);
  function height(n) {
    return 1 + n.children.reduce(function (m, c) { return Math.max(m, height(c)); }, 0);
  }
  var rows = height(root);
  svg.setAttribute('height', rows * ROW);
  function colour(n) {
    if (n.name[1].indexOf(' [atomic') >= 0) return '#4c9be8';
    var h = 0;
    for (var i = 0; i < n.name[1].length; ++i) h = (h * 31 + n.name[1].charCodeAt(i)) % 997;
    return 'hsl(' + (10 + h % 40) + ',85%,' + (55 + h % 15) + '%)';
  }
  function box(n, x, w) {
    var g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'frame');
    var y = (rows - 1 - n.depth) * ROW;
    var r = document.createElementNS(NS, 'rect');
    [['x', x], ['y', y], ['width', w], ['height', ROW - 1], ['fill', colour(n)]]
      .forEach(function (p) { r.setAttribute(p[0], p[1]); });
    var t = document.createElementNS(NS, 'title');
    t.textContent = n.name[1] + ': ' + n.value + ' samples (' +
      (100 * n.value / root.value).toFixed(1) + '%)';
    g.appendChild(t);
    g.appendChild(r);
    var fit = Math.floor((w - 4) / CHAR), label = n.name[0];
    if (fit >= 3) {
      var s = document.createElementNS(NS, 'text');
      s.setAttribute('x', x + 2);
      s.setAttribute('y', y + ROW - 5);
      s.textContent = label.length > fit ? label.slice(0, fit - 2) + '..' : label;
      g.appendChild(s);
    }
    g.addEventListener('click', function () { draw(n === zoomed ? root : n); });
    svg.appendChild(g);
  }
  function lay(n, x, w) {
    box(n, x, w);
    n.children.forEach(function (c) {
      var cw = w * c.value / n.value;
      if (cw >= 0.5) lay(c, x, cw);
      x += cw;
    });
  }
  var zoomed = root;
  function draw(n) {
    zoomed = n;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    for (var a = n.parent; a; a = a.parent) box(a, 0, width);
    lay(n, 0, width);
  }
  function find(name) {
    var best = null, queue = [root];
    while (queue.length) {
      var n = queue.shift();
      if ((n.name[0] === name || n.name[1] === name) && (!best || n.value > best.value)) best = n;
      queue = queue.concat(n.children);
    }
    return best;
  }
  var m = /^#flame=(.*)$/.exec(location.hash);
  draw((m && find(decodeURIComponent(m[1]))) || root);
})();
)";

} // namespace

void writeFlameGraph(raw_ostream &OS, const TraceReport &R,
                     const OutputOptions &O) {
  if (R.Stacks.empty())
    return;
  std::string Data;
  raw_string_ostream DS(Data);
  {
    json::OStream J(DS);
    FlameTree(R).write(J, O);
  }
  // "</script>" must not end the data early: "<\/" is the same JSON.
  std::string Safe;
  for (size_t I = 0; I < Data.size(); ++I) {
    Safe += Data[I];
    if (Data[I] == '<' && I + 1 < Data.size() && Data[I + 1] == '/')
      Safe += '\\';
  }
  OS << "<h2>Flame graph of the stacks</h2>\n<p class=\"meta\">Each box is a "
     << "frame, as wide as its samples, its callers below it; blue boxes are "
     << "samples on an atomic. Click a box to zoom to it, the bottom one to "
     << "zoom out; hover for the whole name.</p>\n<style>" << kFlameStyle
     << "</style>\n<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
     << "width=\"1100\" height=\"17\" role=\"img\" aria-label=\"flame graph\">"
     << "</svg>\n<noscript><p>The flame graph needs "
        "JavaScript.</p></noscript>\n"
     << "<script type=\"application/json\" class=\"flame-data\">" << Safe
     << "</script>\n<script>" << kFlameScript << "</script>\n";
}

} // namespace report
} // namespace pcmap
