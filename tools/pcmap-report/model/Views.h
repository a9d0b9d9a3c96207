//===- Views.h - What the subcommands show, whatever the format -*- C++ -*-===//
//
// The rows each subcommand prints (functions in the requested order, atomic
// sites, the per-function diff of two files) and how their fields read as
// text. Every output format (output/: text, CSV, JSON, HTML) renders these,
// so the formats cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef PCMAP_REPORT_VIEWS_H
#define PCMAP_REPORT_VIEWS_H

#include "BinaryReport.h"
#include "Text.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pcmap {
namespace report {

enum class OutputFormat { Text, CSV, JSON, HTML };
enum class SortKey { Size, Atomics, Name, Address };

struct OutputOptions {
  OutputFormat Format = OutputFormat::Text;
  bool Demangle = true;
  SortKey Sort = SortKey::Size;
  size_t Top = 0;             // 0: every row
  bool ShowUnchanged = false; // diff: also functions that did not change
  bool PerProcess = false;    // trace: each process's counts in text, CSV
  /// Text and HTML show C++ names shortened (shortName); JSON and CSV,
  /// and HTML's tooltips, always have them whole.
  bool FullNames = false;
};

//===----------------------------------------------------------------------===//
// Field text
//===----------------------------------------------------------------------===//

/// The function's name, demangled if asked; "<function at 0x...>" if the
/// file has no symbol for it.
std::string displayName(const FunctionInfo &F, bool Demangle);

/// A demangled C++ name as size tools show it in a table (bloaty,
/// SuperSize): template argument lists elided to "<...>", the function's
/// parameter list to "(...)" ("()" when empty), qualifiers after it kept;
/// "(anonymous namespace)", operators and lambdas' "{lambda(...)#N}" read
/// correctly. "std::vector<int, std::allocator<int>>::push_back(int const&)"
/// becomes "std::vector<...>::push_back(...)". Names without them are
/// unchanged.
std::string shortName(llvm::StringRef Name);
/// The name a table shows: shortName unless O.FullNames.
std::string tableName(const std::string &Name, const OutputOptions &O);
std::string displaySymbol(llvm::StringRef Mangled, bool Demangle);
/// pcmap feature names ("atomics", "has-atomics", "bit5").
std::vector<std::string> featureNames(uint64_t Features);
/// sanmd feature names ("atomics", "uar", "uar-has-size").
std::vector<std::string> upstreamFeatureNames(uint64_t Features,
                                              uint32_t Version);
/// "pcmap", "sanmd".
std::vector<std::string> sourceNames(uint8_t Sources);
/// Features for one text column: "atomics,has-atomics" for pcmap entries,
/// "sanmd:atomics,uar" for upstream ones; "-" for none.
std::string featureText(const FunctionInfo &F);
/// "file:line", or "" when unknown; BaseName drops the directories.
std::string sourceText(const SourceLine &S, bool BaseName);
/// A frame's function, demangled if asked; "??" if the debug information
/// does not name it (as llvm-symbolizer prints it).
std::string frameFunction(const SourceFrame &F, bool Demangle);
/// A site's frames as llvm-symbolizer --inlines prints them, innermost
/// first: for each, its function on a line and "file:line" on the next
/// ("??:0" when unknown), lines joined by '\n'; "" without frames.
std::string symbolizerFrames(const AtomicSite &A, bool Demangle);
/// For a tooltip: "f at /a/x.c:27", then a line "inlined into g at
/// /a/x.c:44" per outer frame; the source file alone when nothing was
/// inlined.
std::string inlinedChainText(const AtomicSite &A, bool Demangle);
/// For a table: the function the innermost frame was inlined into and the
/// line of the call, "g at x.c:44" (the name as tableName shows it),
/// followed by ", +N more" when N more frames hold that one; "" when nothing
/// was inlined.
std::string inlinedIntoText(const AtomicSite &A, const OutputOptions &O);
/// "volatile", "weak", "asm" (an instruction of an inline asm), "upstream".
std::vector<std::string> atomicFlagNames(const AtomicSite &A);

//===----------------------------------------------------------------------===//
// Rows
//===----------------------------------------------------------------------===//

struct FunctionTotals {
  uint64_t Functions = 0;
  uint64_t Size = 0;
  uint64_t Atomics = 0; // atomic sites inside function entries
  uint64_t AtomicsByKind[KC_Count] = {};
  uint64_t AtomicsOutsideFunctions = 0;
};
FunctionTotals totalsOf(const BinaryReport &R);

/// Indexes of R.Functions in the order of O.Sort, cut to O.Top.
std::vector<uint32_t> selectFunctions(const BinaryReport &R,
                                      const OutputOptions &O);

/// A treemap tile (the HTML page): a function, or the sum of the smallest
/// ones when there are too many to draw.
struct Tile {
  double X, Y, W, H;
  size_t Item; // index into the caller's items
};
/// Squarified treemap (Bruls, Huizing, van Wijk) of Sizes in a W x H box;
/// items of size 0 get no tile.
std::vector<Tile> squarify(llvm::ArrayRef<uint64_t> Sizes, double W, double H);

/// The source tree of a size review (the HTML page's treemaps):
/// directories, files and functions from the functions' declaration lines,
/// directories relative to their common prefix, a chain of directories that
/// only hold one directory shown as one ("src/lib"). Functions without debug
/// information sit under "(no debug info)", grouped by symbol (symbolGroups).
enum class TreeKind { Root, Directory, File, Group, Function };
const char *treeKindName(TreeKind K); // "root", "dir", "file", ...

struct TreeNode {
  std::string Name;
  TreeKind Kind = TreeKind::Root;
  uint64_t Size = 0, Atomics = 0, Functions = 0;
  uint64_t OldSize = 0, OldAtomics = 0; // a diff's old file
  size_t Item = SIZE_MAX;               // a function: the caller's leaf index
  std::vector<TreeNode> Children;       // largest first
};

/// A function for buildSourceTree.
struct TreeLeaf {
  std::string File; // its declaration's file; "" without debug information
  std::string Name; // as displayed
  uint64_t Size = 0, Atomics = 0, OldSize = 0, OldAtomics = 0;
};

struct SourceTree {
  TreeNode Root;
  std::string Prefix; // the directories' common prefix ("" if none)
};
SourceTree buildSourceTree(llvm::ArrayRef<TreeLeaf> Leaves);
/// Groups of a function without debug information: its namespace and class
/// ("std", "vector<int>") for a C++ name, at most two; the name's prefix up
/// to its first underscore ("pcmap_*") for a C name; else "(other)".
std::vector<std::string> symbolGroups(llvm::StringRef DisplayName);
/// Leaves of a file's functions, in R.Functions' order.
std::vector<TreeLeaf> functionLeaves(const BinaryReport &R, bool Demangle);

enum class DiffStatus { Added, Removed, Changed, Unchanged };
const char *diffStatusName(DiffStatus S);

struct DiffRow {
  std::string Name;        // mangled; the key with Occurrence
  unsigned Occurrence = 0; // n-th function of that name in address order
  DiffStatus Status = DiffStatus::Unchanged;
  const FunctionInfo *Old = nullptr, *New = nullptr;
  uint64_t OldSize = 0, NewSize = 0;
  uint64_t OldAtomics = 0, NewAtomics = 0;
  int64_t delta() const { return int64_t(NewSize) - int64_t(OldSize); }
  int64_t atomicsDelta() const {
    return int64_t(NewAtomics) - int64_t(OldAtomics);
  }
};

struct DiffResult {
  std::vector<DiffRow> Rows; // every function, by |delta| then |atomics delta|
  uint64_t Added = 0, Removed = 0, Changed = 0, Unchanged = 0;
  uint64_t OldSize = 0, NewSize = 0, OldAtomics = 0, NewAtomics = 0;
  /// Rows to print: changed ones (all with ShowUnchanged), cut to Top.
  std::vector<const DiffRow *> select(const OutputOptions &O) const;
  /// "3 added, 1 removed, 2 changed, 40 unchanged; size 1000 -> 1070
  /// (+70, +7.0%); atomics 12 -> 13 (+1)"
  std::string summary() const;
};
DiffResult diffReports(const BinaryReport &Old, const BinaryReport &New);

std::string signedText(int64_t V); // "+5", "-3", "0"
/// Leaves of a diff's rows, in D.Rows' order (the new function's source).
std::vector<TreeLeaf> diffLeaves(const DiffResult &D, bool Demangle);

} // namespace report
} // namespace pcmap

#endif // PCMAP_REPORT_VIEWS_H
