//===- SourceTree.cpp - Functions by directory, file and symbol -----------===//
//
// The source tree of the HTML page's treemaps (Views.h): what a size review
// reads, the way bloaty's compile units or Chromium's SuperSize show a
// program. Built from the declaration lines the reader found in the DWARF
// line tables (elf/ReaderLines.cpp).
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <map>
#include <memory>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

constexpr const char *kNoDebugInfo = "(no debug info)";

/// A node while leaves are added: children by name, functions in order.
struct Builder {
  TreeKind Kind = TreeKind::Root;
  std::map<std::string, std::unique_ptr<Builder>> Sub;
  std::vector<TreeNode> Functions;

  Builder &child(const std::string &Name, TreeKind K) {
    std::unique_ptr<Builder> &B = Sub[Name];
    if (!B) {
      B = std::make_unique<Builder>();
      B->Kind = K;
    }
    return *B;
  }
};

using Components = std::vector<std::string>;

Components components(StringRef Path) {
  SmallString<256> Clean(Path);
  sys::path::remove_dots(Clean, /*remove_dot_dot=*/true,
                         sys::path::Style::posix);
  Components Out;
  for (auto It = sys::path::begin(Clean, sys::path::Style::posix),
            End = sys::path::end(Clean);
       It != End; ++It)
    Out.push_back(It->str());
  return Out;
}

/// How many leading components every file's directory shares.
size_t commonPrefix(ArrayRef<Components> Paths) {
  size_t Common = SIZE_MAX;
  const Components *First = nullptr;
  for (const Components &P : Paths) {
    if (P.empty())
      continue;
    if (!First) {
      First = &P;
      Common = P.size() - 1;
      continue;
    }
    size_t N = 0;
    while (N < Common && N + 1 < P.size() && P[N] == (*First)[N])
      ++N;
    Common = N;
  }
  return First ? Common : 0;
}

void sum(TreeNode &Parent, const TreeNode &Child) {
  Parent.Size += Child.Size;
  Parent.Atomics += Child.Atomics;
  Parent.OldSize += Child.OldSize;
  Parent.OldAtomics += Child.OldAtomics;
  Parent.Functions += Child.Functions;
}

TreeNode finish(std::string Name, Builder &B) {
  // A directory that only holds a directory is shown with it.
  while (B.Kind == TreeKind::Directory && B.Functions.empty() &&
         B.Sub.size() == 1 &&
         B.Sub.begin()->second->Kind == TreeKind::Directory) {
    Name += "/" + B.Sub.begin()->first;
    std::unique_ptr<Builder> Only = std::move(B.Sub.begin()->second);
    B = std::move(*Only);
  }
  TreeNode N;
  N.Name = std::move(Name);
  N.Kind = B.Kind;
  for (auto &Entry : B.Sub)
    N.Children.push_back(finish(Entry.first, *Entry.second));
  for (TreeNode &F : B.Functions)
    N.Children.push_back(std::move(F));
  for (const TreeNode &C : N.Children)
    sum(N, C);
  // Largest first (the old size for what a diff removed); then by name.
  llvm::sort(N.Children, [](const TreeNode &A, const TreeNode &C) {
    uint64_t SA = std::max(A.Size, A.OldSize), SC = std::max(C.Size, C.OldSize);
    if (SA != SC)
      return SA > SC;
    return std::tie(A.Name, A.Item) < std::tie(C.Name, C.Item);
  });
  return N;
}

} // namespace

const char *treeKindName(TreeKind K) {
  switch (K) {
  case TreeKind::Root:
    return "root";
  case TreeKind::Directory:
    return "dir";
  case TreeKind::File:
    return "file";
  case TreeKind::Group:
    return "group";
  case TreeKind::Function:
    return "function";
  }
  return "?";
}

std::vector<std::string> symbolGroups(StringRef Name) {
  // C++: the qualifiers before the last "::" outside template arguments and
  // parameters.
  std::vector<std::string> Groups;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '<' || C == '(')
      ++Depth;
    else if ((C == '>' || C == ')') && Depth > 0)
      --Depth;
    if (C == '(' && Depth == 1)
      break;
    if (Depth == 0 && Name.substr(I).starts_with("::")) {
      Groups.push_back(Name.slice(Start, I).str());
      Start = I + 2;
      ++I;
    }
  }
  if (!Groups.empty()) {
    if (Groups.size() > 2)
      Groups.resize(2);
    return Groups;
  }
  // C: the prefix up to the first underscore after the leading ones.
  size_t Lead = Name.find_first_not_of('_');
  size_t Under = Lead == StringRef::npos ? Lead : Name.find('_', Lead);
  if (Under == StringRef::npos)
    return {"(other)"};
  return {Name.take_front(Under + 1).str() + "*"};
}

SourceTree buildSourceTree(ArrayRef<TreeLeaf> Leaves) {
  std::vector<Components> Paths;
  for (const TreeLeaf &L : Leaves)
    Paths.push_back(L.File.empty() ? Components() : components(L.File));
  SourceTree T;
  size_t Common = commonPrefix(Paths);
  for (const Components &P : Paths)
    if (!P.empty()) {
      SmallString<256> Prefix;
      for (size_t I = 0; I < Common; ++I)
        sys::path::append(Prefix, sys::path::Style::posix, P[I]);
      T.Prefix = Prefix.str().str();
      break;
    }
  Builder Root;
  for (size_t I = 0; I < Leaves.size(); ++I) {
    const TreeLeaf &L = Leaves[I];
    Builder *At = &Root;
    const Components &P = Paths[I];
    if (P.empty()) {
      At = &At->child(kNoDebugInfo, TreeKind::Group);
      for (const std::string &G : symbolGroups(L.Name))
        At = &At->child(G, TreeKind::Group);
    } else {
      for (size_t C = Common; C + 1 < P.size(); ++C)
        At = &At->child(P[C], TreeKind::Directory);
      At = &At->child(P.back(), TreeKind::File);
    }
    TreeNode F;
    F.Name = L.Name;
    F.Kind = TreeKind::Function;
    F.Size = L.Size;
    F.Atomics = L.Atomics;
    F.OldSize = L.OldSize;
    F.OldAtomics = L.OldAtomics;
    F.Functions = 1;
    F.Item = I;
    At->Functions.push_back(std::move(F));
  }
  T.Root = finish("", Root);
  return T;
}

std::vector<TreeLeaf> functionLeaves(const BinaryReport &R, bool Demangle) {
  std::vector<TreeLeaf> Leaves;
  Leaves.reserve(R.Functions.size());
  for (const FunctionInfo &F : R.Functions) {
    TreeLeaf L;
    L.File = F.Source.File;
    L.Name = displayName(F, Demangle);
    L.Size = F.Size;
    L.Atomics = F.NumAtomics;
    Leaves.push_back(std::move(L));
  }
  return Leaves;
}

std::vector<TreeLeaf> diffLeaves(const DiffResult &D, bool Demangle) {
  std::vector<TreeLeaf> Leaves;
  Leaves.reserve(D.Rows.size());
  for (const DiffRow &R : D.Rows) {
    const FunctionInfo *F = R.New ? R.New : R.Old;
    TreeLeaf L;
    L.File = F->Source.File;
    L.Name = displayName(*F, Demangle);
    L.Size = R.NewSize;
    L.Atomics = R.NewAtomics;
    L.OldSize = R.OldSize;
    L.OldAtomics = R.OldAtomics;
    Leaves.push_back(std::move(L));
  }
  return Leaves;
}

} // namespace report
} // namespace pcmap
