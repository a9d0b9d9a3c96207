//===- OutputHTML.cpp - One self-contained HTML page ----------------------===//
//
// The page needs nothing but itself: inline CSS, an inline script that only
// sorts tables, and treemaps drawn here as SVG, so that the page reads the
// same without JavaScript and a headless browser's DOM holds every row.
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

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace report {

namespace {

constexpr double kMapWidth = 960, kMapHeight = 440;
/// Tiles drawn at most; the smallest functions beyond share one tile.
constexpr size_t kMaxTiles = 1500;

std::string escape(StringRef S) {
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

void pageStart(raw_ostream &OS, StringRef Title) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
     << "<meta name=\"generator\" content=\"pcmap-report\">\n"
     << "<title>" << escape(Title) << "</title>\n<style>" << kStyle
     << "</style>\n</head>\n<body>\n";
}

void pageEnd(raw_ostream &OS) {
  OS << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

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
  OS << "<p class=\"legend\">Area: function size. Colour: atomic sites per "
        "100 bytes <i style=\"background:"
     << densityColour(0, 1)
     << "\"></i>0 <i style=\"background:" << densityColour(1, 100)
     << "\"></i>1 <i style=\"background:" << densityColour(2, 100)
     << "\"></i>2 <i style=\"background:" << densityColour(4, 100)
     << "\"></i>4 or more</p>\n";
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
     << escape(Caption) << "\">\n";
  for (const Tile &T : Tiles) {
    const TreemapItem &I = Items[T.Item];
    if (!I.Link.empty())
      OS << "<a href=\"#" << I.Link << "\">";
    OS << "<rect x=\"" << llvm::format("%.1f", T.X) << "\" y=\""
       << llvm::format("%.1f", T.Y) << "\" width=\""
       << llvm::format("%.1f", T.W) << "\" height=\""
       << llvm::format("%.1f", T.H) << "\" fill=\"" << I.Colour << "\"><title>"
       << escape(I.Tooltip) << "</title></rect>";
    // A label where it fits, cut to the tile's width (about 6.5 px a
    // character at 11 px).
    if (T.W > 40 && T.H > 14) {
      size_t Chars = size_t((T.W - 6) / 6.5);
      std::string Label = I.Label;
      if (Label.size() > Chars)
        Label = Label.substr(0, Chars > 1 ? Chars - 1 : 0) + "\u2026";
      OS << "<text x=\"" << llvm::format("%.1f", T.X + 3) << "\" y=\""
         << llvm::format("%.1f", T.Y + 12) << "\">" << escape(Label)
         << "</text>";
    }
    if (!I.Link.empty())
      OS << "</a>";
    OS << "\n";
  }
  OS << "</svg>\n<figcaption>" << escape(Caption)
     << "</figcaption>\n</figure>\n";
}

std::string rowId(size_t File, size_t Row) {
  return "f" + std::to_string(File) + "-" + std::to_string(Row);
}

void fileHeading(raw_ostream &OS, const BinaryReport &R, StringRef What) {
  FunctionTotals T = totalsOf(R);
  OS << "<h1>" << What << " of " << escape(sys::path::filename(R.Path))
     << "</h1>\n<p class=\"meta\">" << escape(R.Path) << " &middot; "
     << escape(R.FileFormat) << " " << escape(R.FileType) << " &middot; "
     << T.Functions << " functions &middot; " << T.Size << " bytes &middot; "
     << R.Atomics.size() << " atomic sites</p>\n";
}

std::vector<TreemapItem> functionTiles(const BinaryReport &R, size_t File,
                                       const OutputOptions &O) {
  std::vector<TreemapItem> Items;
  Items.reserve(R.Functions.size());
  for (size_t I = 0; I < R.Functions.size(); ++I) {
    const FunctionInfo &F = R.Functions[I];
    TreemapItem T;
    T.Label = displayName(F, O.Demangle);
    T.Tooltip = T.Label + ": " + std::to_string(F.Size) + " bytes, " +
                std::to_string(F.NumAtomics) + " atomics";
    T.Colour = densityColour(F.NumAtomics, F.Size);
    T.Link = rowId(File, I);
    T.Size = F.Size;
    Items.push_back(std::move(T));
  }
  return Items;
}

void functionsSection(raw_ostream &OS, const BinaryReport &R, size_t File,
                      const OutputOptions &O) {
  fileHeading(OS, R, "Functions");
  OS << "<h2>Treemap</h2>\n";
  densityLegend(OS);
  treemap(OS, functionTiles(R, File, O),
          "Functions of " + sys::path::filename(R.Path).str() + " by size");

  OS << "<h2>Functions</h2>\n<table class=\"sortable functions\">\n<thead><tr>"
     << "<th>Function</th><th class=\"n\">Address</th><th class=\"n\">Size</th>"
     << "<th class=\"n\">Atomics</th>";
  for (unsigned K = 0; K < KC_Count; ++K)
    OS << "<th class=\"n\">" << kindColumnName(K) << "</th>";
  OS << "<th>Features</th><th>Source</th></tr></thead>\n<tbody>\n";
  for (uint32_t I : selectFunctions(R, O)) {
    const FunctionInfo &F = R.Functions[I];
    OS << "<tr id=\"" << rowId(File, I) << "\"><td>"
       << escape(displayName(F, O.Demangle)) << "</td><td class=\"n\">"
       << hexAddress(F.Address) << "</td><td class=\"n\">" << F.Size
       << "</td><td class=\"n\">" << F.NumAtomics << "</td>";
    for (unsigned K = 0; K < KC_Count; ++K)
      OS << "<td class=\"n\">" << F.AtomicsByKind[K] << "</td>";
    OS << "<td>" << escape(featureText(F)) << "</td><td title=\""
       << escape(F.Source.File) << "\">"
       << escape(sourceText(F.Source, /*BaseName=*/true)) << "</td></tr>\n";
  }
  FunctionTotals T = totalsOf(R);
  OS << "</tbody>\n<tfoot><tr><td>Total (" << T.Functions
     << " functions)</td><td></td><td class=\"n\">" << T.Size
     << "</td><td class=\"n\">" << T.Atomics << "</td>";
  for (unsigned K = 0; K < KC_Count; ++K)
    OS << "<td class=\"n\">" << T.AtomicsByKind[K] << "</td>";
  OS << "<td></td><td></td></tr></tfoot>\n</table>\n";
}

} // namespace

std::string htmlEscape(StringRef S) { return escape(S); }
void htmlPageStart(raw_ostream &OS, StringRef Title) { pageStart(OS, Title); }
void htmlPageEnd(raw_ostream &OS) { pageEnd(OS); }

void writeFunctionsHTML(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                        const OutputOptions &O) {
  std::string Title = "pcmap-report functions:";
  for (const BinaryReport &R : Reports)
    Title += " " + sys::path::filename(R.Path).str();
  pageStart(OS, Title);
  for (size_t I = 0; I < Reports.size(); ++I)
    functionsSection(OS, Reports[I], I, O);
  pageEnd(OS);
}

void writeAtomicsHTML(raw_ostream &OS, ArrayRef<BinaryReport> Reports,
                      const OutputOptions &O) {
  std::string Title = "pcmap-report atomics:";
  for (const BinaryReport &R : Reports)
    Title += " " + sys::path::filename(R.Path).str();
  pageStart(OS, Title);
  for (size_t File = 0; File < Reports.size(); ++File) {
    const BinaryReport &R = Reports[File];
    fileHeading(OS, R, "Atomics");
    OS << "<h2>Treemap</h2>\n";
    densityLegend(OS);
    std::vector<TreemapItem> Tiles = functionTiles(R, File, O);
    for (TreemapItem &T : Tiles)
      T.Link.clear(); // the table lists sites, not functions
    treemap(OS, std::move(Tiles),
            "Functions of " + sys::path::filename(R.Path).str() + " by size");
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
         << escape(Where) << "</td><td>" << Kind << "</td><td class=\"n\">"
         << Size << "</td><td>" << Order << "</td><td>" << Failure
         << "</td><td>" << Op << "</td><td>"
         << escape(join(atomicFlagNames(A), ",")) << "</td><td title=\""
         << escape(A.Source.File) << "\">"
         << escape(sourceText(A.Source, /*BaseName=*/true)) << "</td></tr>\n";
    }
    OS << "</tbody>\n<tfoot><tr><td colspan=\"9\">Total: " << R.Atomics.size()
       << " atomic sites</td></tr></tfoot>\n</table>\n";
  }
  pageEnd(OS);
}

void writeDiffHTML(raw_ostream &OS, const BinaryReport &Old,
                   const BinaryReport &New, const DiffResult &D,
                   const OutputOptions &O) {
  StringRef OldName = sys::path::filename(Old.Path);
  StringRef NewName = sys::path::filename(New.Path);
  pageStart(OS, "pcmap-report diff: " + OldName.str() + " -> " + NewName.str());
  OS << "<h1>Diff of " << escape(OldName) << " and " << escape(NewName)
     << "</h1>\n<p class=\"meta\">" << escape(Old.Path) << " &rarr; "
     << escape(New.Path) << "</p>\n<p class=\"summary\">" << escape(D.summary())
     << "</p>\n";

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
    OS << "<tr><td>" << escape(displayName(*F, O.Demangle))
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
  pageEnd(OS);
}

} // namespace report
} // namespace pcmap
