//===- Views.cpp - What the subcommands show, independent of format -------===//

#include "Views.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace report {

std::string displaySymbol(StringRef Mangled, bool Demangle) {
  if (!Demangle)
    return Mangled.str();
  return llvm::demangle(Mangled);
}

std::string displayName(const FunctionInfo &F, bool Demangle) {
  if (F.Name.empty())
    return "<function at " + hexAddress(F.Address) + ">";
  return displaySymbol(F.Name, Demangle);
}

std::vector<std::string> featureNames(uint64_t Features) {
  std::vector<std::string> Out;
  if (Features & kFeatureAtomics)
    Out.push_back("atomics");
  if (Features & kFeatureHasAtomics)
    Out.push_back("has-atomics");
  if (Features & kFeatureOpaqueAsm)
    Out.push_back("opaque-asm");
  if (Features & kFeatureFragmented)
    Out.push_back("fragmented");
  for (unsigned Bit = 0; Bit < 64; ++Bit)
    if ((Features & ~kKnownFeatures) & (uint64_t(1) << Bit))
      Out.push_back("bit" + std::to_string(Bit));
  return Out;
}

std::vector<std::string> upstreamFeatureNames(uint64_t Features,
                                              uint32_t Version) {
  std::vector<std::string> Out;
  uint64_t Known = kUpstreamFeatureAtomics | kUpstreamFeatureUAR;
  if (Features & kUpstreamFeatureAtomics)
    Out.push_back("atomics");
  if (Features & kUpstreamFeatureUAR)
    Out.push_back("uar");
  if (Version == kUpstreamVersionV2) {
    Known |= kUpstreamFeatureUARHasSize;
    if (Features & kUpstreamFeatureUARHasSize)
      Out.push_back("uar-has-size");
  }
  for (unsigned Bit = 0; Bit < 64; ++Bit)
    if ((Features & ~Known) & (uint64_t(1) << Bit))
      Out.push_back("bit" + std::to_string(Bit));
  return Out;
}

std::string shortName(StringRef Name) {
  std::string Out;
  Out.reserve(Name.size());
  // Depth inside template argument lists and parentheses.
  int Angle = 0, Paren = 0;
  const StringRef Anonymous = "(anonymous namespace)";
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    StringRef Rest = Name.substr(I);
    bool Top = Angle == 0 && Paren == 0;
    // What reads as brackets but is not: an operator's name, the anonymous
    // namespace.
    if (Top && StringRef(Out).ends_with("operator")) {
      for (StringRef Op : {"<<=", ">>=", "<=>", "<<", ">>", "<=", ">=", "->*",
                           "->", "()", "<", ">"})
        if (Rest.starts_with(Op)) {
          Out += Op.str();
          I += Op.size() - 1;
          C = 0;
          break;
        }
      if (!C)
        continue;
    }
    if (Top && Rest.starts_with(Anonymous)) {
      Out += Anonymous.str();
      I += Anonymous.size() - 1;
      continue;
    }
    if (C == '<' && Paren == 0) {
      if (Angle++ == 0)
        Out += "<...>";
      continue;
    }
    if (C == '>' && Paren == 0 && Angle > 0) {
      --Angle;
      continue;
    }
    if (Angle > 0)
      continue;
    if (C == '(') {
      if (Paren++ == 0)
        Out += Rest.starts_with("()") ? "()" : "(...)";
      continue;
    }
    if (C == ')' && Paren > 0) {
      --Paren;
      continue;
    }
    if (Paren > 0)
      continue;
    Out += C;
  }
  return Out;
}

std::string tableName(const std::string &Name, const OutputOptions &O) {
  return O.FullNames ? Name : shortName(Name);
}

std::vector<std::string> sourceNames(uint8_t Sources) {
  std::vector<std::string> Out;
  if (Sources & FromPCMap)
    Out.push_back("pcmap");
  if (Sources & FromUpstream)
    Out.push_back("sanmd");
  if (Sources & FromSymbolTable)
    Out.push_back("symtab");
  return Out;
}

std::string featureText(const FunctionInfo &F) {
  std::string Out;
  if (F.Sources & FromPCMap) {
    Out = join(featureNames(F.Features), ",");
    if (Out.empty())
      Out = "none";
  }
  if (F.Sources & FromUpstream) {
    std::string Up =
        join(upstreamFeatureNames(F.UpstreamFeatures, F.UpstreamVersion), ",");
    if (!Out.empty())
      Out += " ";
    Out += "sanmd:" + (Up.empty() ? std::string("none") : Up);
  }
  return Out.empty() ? "-" : Out;
}

std::string sourceText(const SourceLine &S, bool BaseName) {
  if (!S.Line)
    return "";
  StringRef File = S.File;
  if (BaseName)
    File = sys::path::filename(File);
  return (File + ":" + Twine(S.Line)).str();
}

std::string frameFunction(const SourceFrame &F, bool Demangle) {
  return F.Function.empty() ? "??" : displaySymbol(F.Function, Demangle);
}

std::string symbolizerFrames(const AtomicSite &A, bool Demangle) {
  std::string Out;
  for (const SourceFrame &F : A.Frames) {
    if (!Out.empty())
      Out += "\n";
    std::string Where = sourceText(F.Source, /*BaseName=*/false);
    Out += frameFunction(F, Demangle) + "\n" + (Where.empty() ? "??:0" : Where);
  }
  return Out;
}

std::string inlinedChainText(const AtomicSite &A, bool Demangle) {
  if (A.Frames.size() < 2)
    return A.Source.File;
  std::string Out;
  for (const SourceFrame &F : A.Frames) {
    if (!Out.empty())
      Out += "\ninlined into ";
    std::string Where = sourceText(F.Source, /*BaseName=*/false);
    Out += frameFunction(F, Demangle) + " at " + (Where.empty() ? "??" : Where);
  }
  return Out;
}

std::string inlinedIntoText(const AtomicSite &A, const OutputOptions &O) {
  if (A.Frames.size() < 2)
    return "";
  const SourceFrame &Caller = A.Frames[1];
  std::string Where = sourceText(Caller.Source, /*BaseName=*/true);
  std::string Out = tableName(frameFunction(Caller, O.Demangle), O) + " at " +
                    (Where.empty() ? "??" : Where);
  if (A.Frames.size() > 2)
    Out += ", +" + std::to_string(A.Frames.size() - 2) + " more";
  return Out;
}

std::vector<std::string> atomicFlagNames(const AtomicSite &A) {
  std::vector<std::string> Out;
  if (A.HasDescriptor && A.Descriptor.Volatile)
    Out.push_back("volatile");
  if (A.HasDescriptor && A.Descriptor.Weak)
    Out.push_back("weak");
  if (A.HasDescriptor && A.Descriptor.FromAsm)
    Out.push_back("asm");
  if (A.Sources & FromUpstream)
    Out.push_back("upstream");
  return Out;
}

std::string signedText(int64_t V) {
  if (V > 0)
    return "+" + std::to_string(V);
  return std::to_string(V);
}

FunctionTotals totalsOf(const BinaryReport &R) {
  FunctionTotals T;
  T.Functions = R.Functions.size();
  for (const FunctionInfo &F : R.Functions) {
    T.Size += F.Size;
    T.Atomics += F.NumAtomics;
    for (unsigned K = 0; K < KC_Count; ++K)
      T.AtomicsByKind[K] += F.AtomicsByKind[K];
  }
  T.AtomicsOutsideFunctions = R.Atomics.size() - T.Atomics;
  return T;
}

std::vector<uint32_t> selectFunctions(const BinaryReport &R,
                                      const OutputOptions &O) {
  std::vector<uint32_t> Order(R.Functions.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  const std::vector<FunctionInfo> &Fs = R.Functions;
  // Functions are in address order: the index breaks ties.
  switch (O.Sort) {
  case SortKey::Address:
    break;
  case SortKey::Size:
    llvm::sort(Order, [&](uint32_t A, uint32_t B) {
      return Fs[A].Size != Fs[B].Size ? Fs[A].Size > Fs[B].Size : A < B;
    });
    break;
  case SortKey::Atomics:
    llvm::sort(Order, [&](uint32_t A, uint32_t B) {
      if (Fs[A].NumAtomics != Fs[B].NumAtomics)
        return Fs[A].NumAtomics > Fs[B].NumAtomics;
      return Fs[A].Size != Fs[B].Size ? Fs[A].Size > Fs[B].Size : A < B;
    });
    break;
  case SortKey::Name: {
    std::vector<std::string> Names(Fs.size());
    for (uint32_t I = 0; I < Fs.size(); ++I)
      Names[I] = displayName(Fs[I], O.Demangle);
    llvm::sort(Order, [&](uint32_t A, uint32_t B) {
      return Names[A] != Names[B] ? Names[A] < Names[B] : A < B;
    });
    break;
  }
  }
  if (O.Top && Order.size() > O.Top)
    Order.resize(O.Top);
  return Order;
}

std::vector<Tile> squarify(ArrayRef<uint64_t> Sizes, double W, double H) {
  std::vector<Tile> Tiles;
  double Total = 0;
  for (uint64_t S : Sizes)
    Total += double(S);
  if (Total <= 0 || W <= 0 || H <= 0)
    return Tiles;
  std::vector<size_t> Order;
  for (size_t I = 0; I < Sizes.size(); ++I)
    if (Sizes[I])
      Order.push_back(I);
  llvm::sort(Order, [&](size_t A, size_t B) {
    return Sizes[A] != Sizes[B] ? Sizes[A] > Sizes[B] : A < B;
  });
  double Scale = W * H / Total;
  double X = 0, Y = 0;
  // Worst aspect ratio of a row of areas Sum (largest Max, smallest Min)
  // laid along a side of length Side.
  auto Worst = [](double Sum, double Max, double Min, double Side) {
    double S2 = Side * Side, Sum2 = Sum * Sum;
    return std::max(S2 * Max / Sum2, Sum2 / (S2 * Min));
  };
  size_t I = 0;
  while (I < Order.size()) {
    double Side = std::min(W, H);
    double Sum = double(Sizes[Order[I]]) * Scale;
    double Max = Sum, Min = Sum;
    size_t J = I + 1;
    double Current = Worst(Sum, Max, Min, Side);
    for (; J < Order.size(); ++J) {
      double A = double(Sizes[Order[J]]) * Scale;
      double Next = Worst(Sum + A, std::max(Max, A), std::min(Min, A), Side);
      if (Next > Current)
        break;
      Sum += A;
      Max = std::max(Max, A);
      Min = std::min(Min, A);
      Current = Next;
    }
    // Lay the row along the shorter side, then shrink the free rectangle.
    if (W >= H) {
      double ColumnW = Sum / H, At = Y;
      for (size_t K = I; K < J; ++K) {
        double TileH = double(Sizes[Order[K]]) * Scale / ColumnW;
        Tiles.push_back({X, At, ColumnW, TileH, Order[K]});
        At += TileH;
      }
      X += ColumnW;
      W -= ColumnW;
    } else {
      double RowH = Sum / W, At = X;
      for (size_t K = I; K < J; ++K) {
        double TileW = double(Sizes[Order[K]]) * Scale / RowH;
        Tiles.push_back({At, Y, TileW, RowH, Order[K]});
        At += TileW;
      }
      Y += RowH;
      H -= RowH;
    }
    I = J;
  }
  return Tiles;
}

const char *diffStatusName(DiffStatus S) {
  switch (S) {
  case DiffStatus::Added:
    return "added";
  case DiffStatus::Removed:
    return "removed";
  case DiffStatus::Changed:
    return "changed";
  case DiffStatus::Unchanged:
    return "unchanged";
  }
  return "?";
}

DiffResult diffReports(const BinaryReport &Old, const BinaryReport &New) {
  DiffResult D;
  // Functions match by symbol name; the n-th function of a name in one file
  // matches the n-th in the other (static functions of several translation
  // units), and a function without a symbol matches by address.
  auto Key = [](const FunctionInfo &F) {
    return F.Name.empty() ? displayName(F, false) : F.Name;
  };
  StringMap<std::vector<const FunctionInfo *>> OldByName;
  for (const FunctionInfo &F : Old.Functions)
    OldByName[Key(F)].push_back(&F);
  StringMap<unsigned> Seen;
  for (const FunctionInfo &F : New.Functions) {
    DiffRow Row;
    Row.Name = Key(F);
    Row.Occurrence = Seen[Row.Name]++;
    Row.New = &F;
    auto It = OldByName.find(Row.Name);
    if (It != OldByName.end() && Row.Occurrence < It->second.size())
      Row.Old = It->second[Row.Occurrence];
    D.Rows.push_back(std::move(Row));
  }
  for (auto &Entry : OldByName) {
    unsigned Matched = 0;
    auto It = Seen.find(Entry.getKey());
    if (It != Seen.end())
      Matched = It->second;
    for (unsigned N = Matched; N < Entry.second.size(); ++N) {
      DiffRow Row;
      Row.Name = Entry.getKey().str();
      Row.Occurrence = N;
      Row.Old = Entry.second[N];
      D.Rows.push_back(std::move(Row));
    }
  }
  for (DiffRow &Row : D.Rows) {
    if (Row.Old) {
      Row.OldSize = Row.Old->Size;
      Row.OldAtomics = Row.Old->NumAtomics;
    }
    if (Row.New) {
      Row.NewSize = Row.New->Size;
      Row.NewAtomics = Row.New->NumAtomics;
    }
    if (!Row.Old)
      Row.Status = DiffStatus::Added, ++D.Added;
    else if (!Row.New)
      Row.Status = DiffStatus::Removed, ++D.Removed;
    else if (Row.OldSize != Row.NewSize || Row.OldAtomics != Row.NewAtomics)
      Row.Status = DiffStatus::Changed, ++D.Changed;
    else
      Row.Status = DiffStatus::Unchanged, ++D.Unchanged;
    D.OldSize += Row.OldSize;
    D.NewSize += Row.NewSize;
    D.OldAtomics += Row.OldAtomics;
    D.NewAtomics += Row.NewAtomics;
  }
  llvm::sort(D.Rows, [](const DiffRow &A, const DiffRow &B) {
    uint64_t DA = uint64_t(std::llabs(A.delta()));
    uint64_t DB = uint64_t(std::llabs(B.delta()));
    if (DA != DB)
      return DA > DB;
    uint64_t AA = uint64_t(std::llabs(A.atomicsDelta()));
    uint64_t AB = uint64_t(std::llabs(B.atomicsDelta()));
    if (AA != AB)
      return AA > AB;
    return std::tie(A.Name, A.Occurrence) < std::tie(B.Name, B.Occurrence);
  });
  return D;
}

std::vector<const DiffRow *> DiffResult::select(const OutputOptions &O) const {
  std::vector<const DiffRow *> Out;
  for (const DiffRow &Row : Rows) {
    if (Row.Status == DiffStatus::Unchanged && !O.ShowUnchanged)
      continue;
    if (O.Top && Out.size() >= O.Top)
      break;
    Out.push_back(&Row);
  }
  return Out;
}

std::string DiffResult::summary() const {
  std::string Out;
  raw_string_ostream OS(Out);
  int64_t Delta = int64_t(NewSize) - int64_t(OldSize);
  OS << Added << " added, " << Removed << " removed, " << Changed
     << " changed, " << Unchanged << " unchanged; size " << OldSize << " -> "
     << NewSize << " (" << signedText(Delta);
  if (OldSize)
    OS << ", " << (Delta >= 0 ? "+" : "")
       << llvm::format("%.1f", 100.0 * double(Delta) / double(OldSize)) << "%";
  OS << "); atomics " << OldAtomics << " -> " << NewAtomics << " ("
     << signedText(int64_t(NewAtomics) - int64_t(OldAtomics)) << ")";
  return Out;
}

} // namespace report
} // namespace pcmap
