//===- AsmSourceTables.cpp - pcmap's tables for assembly sources ----------===//
//
// pcmap-asm: the drivers run it on every assembly source (.s) they assemble
// with -fsanitize-metadata. It parses the source with LLVM's assembler
// parser (MC), as clang's integrated assembler does, and sees what the
// assembler knows: each instruction (an MCInst, with the statement it came
// from), each function (`.type f,@function` and `.size f,.-f`), and the data
// a function's code holds. It writes the source back with a local label
// before each atomic instruction and, at its end, the function and atomics
// tables, which reference the functions and the labels by name: clang then
// assembles that text, so that the tables hold the addresses the assembler
// gives the code, and the code's bytes stay those of the source.
//
// An instruction is atomic for pcmap as the inline-asm classifiers of the
// plugin say (AsmClassifier.h), reading it as the assembler prints it. A
// function is left UNKNOWN (its entry claims no atomics) when pcmap cannot
// be sure: data among its instructions, an atomic the text cannot label
// (it comes from a macro, a .rept or an included file), a statement the
// classifier cannot read. A function whose size is not `label - f` gets no
// entry. Any error leaves the source as it is: no tables, UNKNOWN.
//
// usage: pcmap-asm -triple <triple> [-target-cpu <cpu>]
//                  [-target-feature <+f|-f>]... [-I <dir>]... <in.s> -o <out.s>
//
//===----------------------------------------------------------------------===//

#include "../AsmClassifier.h"
#include "../AsmTemplateLexer.h"
#include "pcmap/Format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbolELF.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace pcmap;

namespace {

/// What a section of code holds, in the order the source emits it.
struct Event {
  enum KindT { Instruction, Data, Label } Kind;
  /// Instruction: index in RecordingStreamer::Instructions; Data: in
  /// RecordingStreamer::Data; Label: none.
  size_t Index = 0;
};

/// Bytes a statement writes into code (`.byte`, `.long`, `.inst`, ...).
struct RecordedData {
  SMLoc Statement;
  std::string Bytes;
  /// Whether Bytes are all the statement wrote: false for a value the
  /// assembler computes later (a symbol, a fill, an alignment's padding).
  bool Known = true;
};

struct RecordedInstruction {
  MCInst Inst;
  SMLoc Statement; // the statement's first token (its first prefix)
};

/// A `.size` directive: where it is, and the expression it gives.
struct SizeDirective {
  const MCSymbol *Symbol;
  const MCExpr *Value;
  SMLoc Statement;
};

/// A streamer that assembles nothing: it records, per section, the
/// instructions, the data and the labels in source order, the symbols typed
/// as functions and the sizes given to symbols.
class RecordingStreamer final : public MCStreamer {
public:
  explicit RecordingStreamer(MCContext &Ctx) : MCStreamer(Ctx) {}

  std::vector<RecordedInstruction> Instructions;
  std::vector<RecordedData> Data;
  DenseMap<const MCSection *, std::vector<Event>> Events;
  /// A defined label: its section, its index in that section's events,
  /// and the statement that defined it (for `.`, the statement using it).
  struct LabelSite {
    const MCSection *Section;
    size_t Event;
    SMLoc Statement;
  };
  DenseMap<const MCSymbol *, LabelSite> Labels;
  SetVector<const MCSymbol *> Functions;
  std::vector<SizeDirective> Sizes;

  void emitInstruction(const MCInst &Inst, const MCSubtargetInfo &) override {
    Instructions.push_back({Inst, getStartTokLoc()});
    here().push_back({Event::Instruction, Instructions.size() - 1});
  }
  void emitLabel(MCSymbol *Symbol, SMLoc Loc) override {
    MCStreamer::emitLabel(Symbol, Loc);
    Labels[Symbol] = {getCurrentSectionOnly(), here().size(),
                      getStartTokLoc()};
    here().push_back({Event::Label});
  }
  bool emitSymbolAttribute(MCSymbol *Symbol, MCSymbolAttr Attr) override {
    if (Attr == MCSA_ELF_TypeFunction)
      Functions.insert(Symbol);
    return true;
  }
  void emitELFSize(MCSymbol *Symbol, const MCExpr *Value) override {
    Sizes.push_back({Symbol, Value, getStartTokLoc()});
  }
  // Bytes that are not instructions: in code, a function that holds them is
  // not analysed.
  void emitBytes(StringRef Bytes) override { data(Bytes, true); }
  void emitValueImpl(const MCExpr *, unsigned, SMLoc) override {
    data("", false);
  }
  void emitFill(const MCExpr &, uint64_t, SMLoc) override { data("", false); }
  void emitFill(const MCExpr &, int64_t, int64_t, SMLoc) override {
    data("", false);
  }
  void emitULEB128Value(const MCExpr *) override { data("", false); }
  void emitSLEB128Value(const MCExpr *) override { data("", false); }
#if LLVM_VERSION_MAJOR >= 22
  void emitValueToAlignment(Align, int64_t, uint8_t, unsigned) override{
#else
  void emitValueToAlignment(Align, int64_t, unsigned, unsigned) override {
#endif
      data("", false); // padding with a value the source chose
  }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {}
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align,
                    SMLoc) override {}

private:
  std::vector<Event> &here() { return Events[getCurrentSectionOnly()]; }
  /// Bytes in code: one data event per statement (`.byte 1, 2` writes its
  /// values one by one).
  void data(StringRef Bytes, bool Known) {
    // ELF only (main() checks): every section is an MCSectionELF.
    const auto *Section =
        static_cast<const MCSectionELF *>(getCurrentSectionOnly());
    if (!Section || !(Section->getFlags() & ELF::SHF_EXECINSTR))
      return;
    std::vector<Event> &Events = here();
    SMLoc Statement = getStartTokLoc();
    if (Events.empty() || Events.back().Kind != Event::Data ||
        Data[Events.back().Index].Statement != Statement) {
      Data.push_back({Statement, "", true});
      Events.push_back({Event::Data, Data.size() - 1});
    }
    RecordedData &D = Data[Events.back().Index];
    D.Bytes += Bytes;
    D.Known &= Known;
  }
};

/// One function of the source and what pcmap records of it.
struct FunctionTables {
  const MCSymbol *Symbol;
  const MCSectionELF *Section;
  /// The end of the function in the output's text: a label the source
  /// defines, or one pcmap adds at EndStatement (the `.size` of `.-f`).
  std::string EndLabel;
  SMLoc EndStatement;
  /// The statement that defines the function's symbol: pcmap's entry
  /// names a local label there, as the compiler's do. A PC-relative
  /// reference to the symbol itself, global in a shared object, would be
  /// one the linker cannot resolve (it may be preempted).
  SMLoc BeginStatement;
  /// The function's events in its section: [BeginEvent, EndEvent).
  size_t BeginEvent = 0, EndEvent = 0;
  bool Complete = true;
  /// The atomics: the statement before which a label marks the atomic, and
  /// its descriptor.
  std::vector<std::pair<SMLoc, uint64_t>> Atomics;
};

} // namespace

namespace {

/// The machinery of one target's assembler, as clang's integrated assembler
/// sets it up.
struct Assembler {
  Triple TT;
  const Target *TheTarget = nullptr;
  MCTargetOptions Options;
  std::unique_ptr<MCRegisterInfo> MRI;
  std::unique_ptr<MCAsmInfo> MAI;
  std::unique_ptr<MCInstrInfo> MCII;
  std::unique_ptr<MCSubtargetInfo> STI;
  std::unique_ptr<MCInstPrinter> Printer;

  bool init(StringRef TripleName, StringRef CPU, StringRef Features,
            std::string &Error) {
    TT = Triple(Triple::normalize(TripleName));
#if LLVM_VERSION_MAJOR >= 22
    const Triple &Name = TT;
#else
    const std::string Name = TT.str();
#endif
    TheTarget = TargetRegistry::lookupTarget(Name, Error);
    if (!TheTarget)
      return false;
    MRI.reset(TheTarget->createMCRegInfo(Name));
    MAI.reset(TheTarget->createMCAsmInfo(*MRI, Name, Options));
    MCII.reset(TheTarget->createMCInstrInfo());
    STI.reset(TheTarget->createMCSubtargetInfo(Name, CPU, Features));
    if (!MRI || !MAI || !MCII || !STI) {
      Error = "no assembler for " + TT.str();
      return false;
    }
    // The syntax the classifiers read: AT&T on x86.
    Printer.reset(TheTarget->createMCInstPrinter(TT, 0, *MAI, *MCII, *MRI));
    if (!Printer) {
      Error = "no instruction printer for " + TT.str();
      return false;
    }
    return true;
  }

  /// The instruction as the assembler prints it, prefixes included.
  std::string print(const MCInst &Inst) const {
    std::string Text;
    raw_string_ostream OS(Text);
    Printer->printInst(&Inst, 0, "", *STI, OS);
    OS.flush();
    return Text;
  }
};

/// Parses Source (with SrcMgr's include directories) into Streamer; false,
/// with the first diagnostic in Error, if the assembler rejects it.
bool parse(Assembler &A, SourceMgr &SrcMgr, RecordingStreamer &Streamer,
           MCContext &Ctx, std::string &Error) {
  std::unique_ptr<MCAsmParser> Parser(
      createMCAsmParser(SrcMgr, Ctx, Streamer, *A.MAI));
  std::unique_ptr<MCTargetAsmParser> TAP(A.TheTarget->createMCAsmParser(
      *A.STI, *Parser, *A.MCII, A.Options));
  if (!TAP) {
    Error = "no assembly parser for " + A.TT.str();
    return false;
  }
  Parser->setTargetParser(*TAP);
  return !Parser->Run(/*NoInitialTextSection=*/false) && Error.empty();
}

/// The end of F: the label of its `.size f, L - f`, where L is a label of
/// F's section after it, or `.` (the `.size` statement itself).
bool findEnd(const RecordingStreamer &S, const SizeDirective &Size,
             FunctionTables &F, size_t &EndEvent) {
  const auto *Diff = dyn_cast<MCBinaryExpr>(Size.Value);
  if (!Diff || Diff->getOpcode() != MCBinaryExpr::Sub)
    return false;
  const auto *LHS = dyn_cast<MCSymbolRefExpr>(Diff->getLHS());
  const auto *RHS = dyn_cast<MCSymbolRefExpr>(Diff->getRHS());
  if (!LHS || !RHS || &RHS->getSymbol() != F.Symbol)
    return false;
  auto End = S.Labels.find(&LHS->getSymbol());
  auto Begin = S.Labels.find(F.Symbol);
  if (End == S.Labels.end() || Begin == S.Labels.end() ||
      End->second.Section != Begin->second.Section ||
      End->second.Event < Begin->second.Event)
    return false;
  EndEvent = End->second.Event;
  if (End->second.Statement == Size.Statement) {
    F.EndStatement = Size.Statement; // `.`: pcmap labels the statement
  } else {
    F.EndLabel = LHS->getSymbol().getName().str();
  }
  return true;
}

} // namespace

namespace {

using format::AtomicDescriptor;

/// One instruction of a function, as the classifier reads it, and where a
/// label can mark it (invalid if none can).
struct Unit {
  std::string Text;
  SMLoc Label;
};

/// The source, its instructions and its functions.
class SourceTables {
public:
  SourceTables(const Assembler &A, const SourceMgr &SrcMgr,
               const RecordingStreamer &S, const MCCodeEmitter &Emitter,
               const MCDisassembler &Disassembler)
      : A(A), SrcMgr(SrcMgr), S(S), Emitter(Emitter),
        Disassembler(Disassembler) {}

  /// The functions with an entry, and their atomics, by section and in
  /// the order of their code.
  std::vector<FunctionTables> analyse() const {
    std::vector<FunctionTables> Result = separate(candidates());
    for (FunctionTables &F : Result) {
      const std::vector<Event> &Events = S.Events.lookup(F.Section);
      std::vector<Unit> Units;
      F.Complete = units(ArrayRef<Event>(Events).slice(
                             F.BeginEvent, F.EndEvent - F.BeginEvent),
                         Units);
      if (F.Complete)
        classify(Units, F);
    }
    return Result;
  }

  bool inMainFile(SMLoc Loc) const {
    return Loc.isValid() &&
           SrcMgr.FindBufferContainingLoc(Loc) == SrcMgr.getMainFileID();
  }

private:
  /// The functions whose beginning and end pcmap can label, grouped by
  /// section (in the order the source first uses them) and sorted by their
  /// beginning.
  std::vector<FunctionTables> candidates() const {
    MapVector<const MCSection *, std::vector<FunctionTables>> BySection;
    for (const SizeDirective &Size : S.Sizes) {
      if (!S.Functions.contains(Size.Symbol))
        continue;
      auto Begin = S.Labels.find(Size.Symbol);
      if (Begin == S.Labels.end())
        continue;
      FunctionTables F;
      F.Symbol = Size.Symbol;
      F.Section = static_cast<const MCSectionELF *>(Begin->second.Section);
      if (!F.Section || !findEnd(S, Size, F, F.EndEvent))
        continue; // no size pcmap can name: no entry
      if (F.EndLabel.empty() && !inMainFile(F.EndStatement))
        continue;
      F.BeginStatement = Begin->second.Statement;
      F.BeginEvent = Begin->second.Event;
      if (inMainFile(F.BeginStatement))
        BySection[F.Section].push_back(std::move(F));
    }
    std::vector<FunctionTables> Result;
    for (auto &[Section, Functions] : BySection) {
      // Each label is an event of its own: the beginnings differ.
      llvm::sort(Functions, [](const auto &X, const auto &Y) {
        return X.BeginEvent < Y.BeginEvent;
      });
      for (FunctionTables &F : Functions)
        Result.push_back(std::move(F));
    }
    return Result;
  }

  /// Entries never overlap, as the compiler's never do: a function that
  /// begins inside another (an entry point that falls through into the rest
  /// of one, as GMP's `_1c_` entries do, or a second name of one address)
  /// has no entry of its own; the enclosing one covers its code.
  std::vector<FunctionTables> separate(std::vector<FunctionTables> All) const {
    std::vector<FunctionTables> Result;
    for (FunctionTables &F : All) {
      if (!Result.empty() && Result.back().Section == F.Section &&
          F.BeginEvent < Result.back().EndEvent)
        continue;
      Result.push_back(std::move(F));
    }
    return Result;
  }

  const Assembler &A;
  const SourceMgr &SrcMgr;
  const RecordingStreamer &S;
  const MCCodeEmitter &Emitter;
  const MCDisassembler &Disassembler;

  /// The instructions of Body: those the assembler parsed, and those the
  /// bytes the source writes among them encode. False if some bytes are no
  /// whole instructions (data in code), or not known.
  bool units(ArrayRef<Event> Body, std::vector<Unit> &Units) const {
    for (size_t I = 0; I < Body.size();) {
      const Event &E = Body[I];
      if (E.Kind == Event::Instruction)
        Units.push_back(
            {A.print(S.Instructions[E.Index].Inst), labelFor(E.Index)});
      if (E.Kind != Event::Data) {
        ++I;
        continue;
      }
      size_t Next = I;
      if (!decodeData(Body, Next, Units))
        return false;
      I = Next;
    }
    return true;
  }

  /// Decodes the run of data statements at Body[I] (labels between them
  /// aside), with the instruction after them if its bytes complete the
  /// last one (a prefix written as a byte: OpenSSL's `.byte 0xf0` before
  /// `cmpxchgl`). Every byte must belong to one whole instruction that ends
  /// where a statement's bytes end; I moves past what was decoded.
  bool decodeData(ArrayRef<Event> Body, size_t &I,
                  std::vector<Unit> &Units) const {
    std::string Bytes;
    DenseMap<size_t, SMLoc> Starts; // byte offset -> statement
    for (; I < Body.size() && Body[I].Kind != Event::Instruction; ++I) {
      if (Body[I].Kind != Event::Data)
        continue;
      const RecordedData &D = S.Data[Body[I].Index];
      if (!D.Known)
        return false;
      if (inMainFile(D.Statement))
        Starts[Bytes.size()] = D.Statement;
      Bytes += D.Bytes;
    }
    size_t DataSize = Bytes.size();
    std::optional<size_t> Following;
    if (I < Body.size()) {
      Following = Body[I].Index;
      SmallVector<char, 16> Code;
      SmallVector<MCFixup, 2> Fixups;
      Emitter.encodeInstruction(S.Instructions[*Following].Inst, Code, Fixups,
                                *A.STI);
      Bytes.append(Code.begin(), Code.end());
    }
    ArrayRef<uint8_t> All(reinterpret_cast<const uint8_t *>(Bytes.data()),
                          Bytes.size());
    for (size_t At = 0; At < DataSize;) {
      MCInst Inst;
      uint64_t Size = 0;
      if (Disassembler.getInstruction(Inst, Size, All.slice(At), At, nulls()) !=
              MCDisassembler::Success ||
          Size == 0)
        return false;
      // Within the data, or exactly to the end of the instruction after it.
      if (At + Size > DataSize && (!Following || At + Size != Bytes.size()))
        return false;
      Units.push_back({A.print(Inst), Starts.lookup(At)});
      if (At + Size > DataSize)
        ++I; // the following instruction is the decoded one's last part
      At += Size;
    }
    return true;
  }

  /// Records the atomics of Units in F, or marks F incomplete.
  void classify(const std::vector<Unit> &Units, FunctionTables &F) const {
    // The instructions as one asm template, each on its own line, and where
    // each begins in it.
    std::string Template;
    std::vector<std::pair<size_t, size_t>> Starts; // template offset, unit
    for (size_t U = 0; U < Units.size(); ++U) {
      Starts.push_back({Template.size(), U});
      for (char C : Units[U].Text)
        Template += C == '$' ? std::string("$$") : std::string(1, C);
      Template += '\n';
    }
    const AsmClassifier &Classifier =
        A.TT.isAArch64() ? aarch64AsmClassifier() : x86AsmClassifier();
    LexedTemplate L = lexTemplate(Template, Classifier.lineComment());
    AsmAnalysis Result;
    StringSet<> NoMacros;
    AsmClassification Out({}, NoMacros, Result);
    if (L.Problem.empty())
      Classifier.classify(L.Statements, Out);
    if (!L.Problem.empty() || !Result.Complete) {
      F.Complete = false;
      return;
    }
    for (const AsmAtomic &Atomic : Result.Atomics) {
      auto It = llvm::upper_bound(Starts, std::make_pair(Atomic.Offset,
                                                         ~size_t(0)));
      SMLoc Label = Units[std::prev(It)->second].Label;
      if (!Label.isValid()) {
        F.Complete = false;
        F.Atomics.clear();
        return;
      }
      F.Atomics.push_back({Label, format::encodeDescriptor(Atomic.Descriptor)});
    }
  }

  /// Where a label before the statement of instruction Index is at the
  /// instruction: the statement is in the source itself (not a macro's
  /// expansion, a repetition or an included file), and the instruction is
  /// the first it emits. Invalid otherwise.
  SMLoc labelFor(size_t Index) const {
    SMLoc Loc = S.Instructions[Index].Statement;
    if (!inMainFile(Loc) ||
        (Index > 0 && S.Instructions[Index - 1].Statement == Loc))
      return SMLoc();
    return Loc;
  }
};

std::string symbolName(const MCSymbol *Symbol, const MCAsmInfo &MAI) {
  std::string Name;
  raw_string_ostream OS(Name);
  Symbol->print(OS, &MAI);
  OS.flush();
  return Name;
}

/// The label of the atomic at Statement: named by its offset in the source
/// (Source points at its beginning).
std::string atomicLabel(SMLoc Statement, const char *Source) {
  return ".Lpcmap.asm.atomic." +
         std::to_string(Statement.getPointer() - Source);
}

std::string endLabel(size_t Function) {
  return ".Lpcmap.asm.end." + std::to_string(Function);
}

std::string beginLabel(size_t Function) {
  return ".Lpcmap.asm.begin." + std::to_string(Function);
}

/// The section directive of the tables in Base of the functions of Code:
/// linked to Code, in its group, as the backend's PC sections are. Code is
/// named by its section name, or, if other sections have that name, by
/// Function, one of its symbols.
std::string tableSection(StringRef Base, const MCSectionELF &Code,
                         const std::string &Function, const MCAsmInfo &MAI) {
  std::string Flags = "awo", Group;
  if (const MCSymbolELF *G = Code.getGroup()) {
    Flags += "G";
    Group = "," + symbolName(G, MAI) + (Code.isComdat() ? ",comdat" : "");
  }
  std::string Link =
      Code.isUnique() ? Function : Code.getName().str();
  return ("\t.pushsection " + Base + "1,\"" + Flags + "\",@progbits," + Link +
          Group + "\n")
      .str();
}

/// The entry of F, which the labels Begin and End delimit.
std::string functionEntry(const FunctionTables &F, const std::string &Begin,
                          const std::string &End) {
  uint64_t Features =
      F.Complete ? format::kFeatureAtomics : format::kFeatureOpaqueAsm;
  if (F.Complete && !F.Atomics.empty())
    Features |= format::kFeatureHasAtomics;
  return "\t.long " + Begin + " - .\n\t.uleb128 " + End + " - " + Begin +
         "\n\t.uleb128 " + std::to_string(Features) + "\n";
}

/// F's atomic records: atomics with the same descriptor share one.
std::string atomicRecords(const FunctionTables &F, const char *Source) {
  MapVector<uint64_t, std::vector<SMLoc>> Records;
  for (auto [Statement, Descriptor] : F.Atomics)
    Records[Descriptor].push_back(Statement);
  std::string Out;
  for (auto &[Descriptor, Statements] : Records) {
    for (SMLoc Statement : Statements)
      Out += "\t.long " + atomicLabel(Statement, Source) + " - .\n";
    Out += "\t.long 0\n\t.uleb128 " + std::to_string(Descriptor) + "\n";
  }
  return Out;
}

/// The tables of Functions, in assembly: one function table and one atomics
/// table per section of code.
std::string tablesText(const std::vector<FunctionTables> &Functions,
                       const MCAsmInfo &MAI, const char *Source) {
  std::string Out = "\n" + std::string(MAI.getCommentString()) +
                    " pcmap: the tables of the functions above (pcmap-asm).\n";
  MapVector<const MCSectionELF *, std::vector<size_t>> BySection;
  for (size_t I = 0; I < Functions.size(); ++I)
    BySection[Functions[I].Section].push_back(I);
  for (auto &[Code, Indices] : BySection) {
    std::string Link = symbolName(Functions[Indices[0]].Symbol, MAI);
    std::string Entries, Records;
    for (size_t I : Indices) {
      const FunctionTables &F = Functions[I];
      Entries += functionEntry(F, beginLabel(I),
                               F.EndLabel.empty() ? endLabel(I) : F.EndLabel);
      if (F.Complete)
        Records += atomicRecords(F, Source);
    }
    Out += tableSection(format::kFunctionsSectionBase, *Code, Link, MAI) +
           Entries + "\t.popsection\n";
    if (!Records.empty())
      Out += tableSection(format::kAtomicsSectionBase, *Code, Link, MAI) +
             Records + "\t.popsection\n";
  }
  return Out;
}

/// The source with a label before each atomic and at each function end
/// pcmap names, and the tables after it.
std::string annotatedSource(const SourceMgr &SrcMgr,
                            const std::vector<FunctionTables> &Functions,
                            const MCAsmInfo &MAI) {
  StringRef Source =
      SrcMgr.getMemoryBuffer(SrcMgr.getMainFileID())->getBuffer();
  std::vector<std::pair<const char *, std::string>> Inserts;
  for (size_t I = 0; I < Functions.size(); ++I) {
    const FunctionTables &F = Functions[I];
    Inserts.push_back({F.BeginStatement.getPointer(), beginLabel(I) + ": "});
    if (F.EndLabel.empty())
      Inserts.push_back({F.EndStatement.getPointer(), endLabel(I) + ": "});
    if (!F.Complete)
      continue;
    for (auto [Statement, Descriptor] : F.Atomics)
      Inserts.push_back({Statement.getPointer(),
                         atomicLabel(Statement, Source.begin()) + ": "});
  }
  llvm::sort(Inserts);
  std::string Out;
  const char *Done = Source.begin();
  for (auto &[At, Text] : Inserts) {
    Out.append(Done, At);
    Out += Text;
    Done = At;
  }
  Out.append(Done, Source.end());
  if (!Out.empty() && Out.back() != '\n')
    Out += '\n';
  return Out + tablesText(Functions, MAI, Source.begin());
}

struct Arguments {
  std::string Triple, CPU, Input, Output;
  std::vector<std::string> Features, IncludeDirs, DefSyms;
};

bool parseArguments(int Argc, char **Argv, Arguments &Args) {
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    bool HasValue = I + 1 < Argc;
    if (Arg == "-triple" && HasValue)
      Args.Triple = Argv[++I];
    else if (Arg == "-target-cpu" && HasValue)
      Args.CPU = Argv[++I];
    else if (Arg == "-target-feature" && HasValue)
      Args.Features.push_back(Argv[++I]);
    else if (Arg == "-I" && HasValue)
      Args.IncludeDirs.push_back(Argv[++I]);
    else if (Arg.starts_with("-I") && Arg.size() > 2)
      Args.IncludeDirs.push_back(Arg.drop_front(2).str());
    else if (Arg == "-defsym" && HasValue)
      Args.DefSyms.push_back(Argv[++I]);
    else if (Arg == "-o" && HasValue)
      Args.Output = Argv[++I];
    else if (!Arg.starts_with("-") && Args.Input.empty())
      Args.Input = Arg.str();
    else
      return false;
  }
  return !Args.Triple.empty() && !Args.Input.empty() && !Args.Output.empty();
}

/// -defsym name=value, as clang's assembler defines them.
bool defineSymbols(const Arguments &Args, MCContext &Ctx, MCStreamer &S) {
  for (StringRef Def : Args.DefSyms) {
    auto [Name, Value] = Def.split('=');
    int64_t N;
    if (Value.getAsInteger(0, N))
      return false;
    S.emitAssignment(Ctx.getOrCreateSymbol(Name),
                     MCConstantExpr::create(N, Ctx));
  }
  return true;
}

int fail(const Twine &Message) {
  errs() << "pcmap-asm: " << Message << "\n";
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  Arguments Args;
  if (!parseArguments(Argc, Argv, Args))
    return fail("usage: pcmap-asm -triple <triple> [-target-cpu <cpu>] "
                "[-target-feature <f>]... [-I <dir>]... [-defsym <s>=<v>]... "
                "<in.s> -o <out.s>");
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  InitializeAllAsmParsers();
  InitializeAllDisassemblers();
  Assembler A;
  std::string Error;
  if (!A.init(Args.Triple, Args.CPU, join(Args.Features, ","), Error))
    return fail(Error);
  if (!A.TT.isOSBinFormatELF() || !(A.TT.isX86() || A.TT.isAArch64()))
    return fail("tables for assembly sources are made for ELF on x86-64 and "
                "AArch64, not " + A.TT.str());
  auto Buffer = MemoryBuffer::getFileOrSTDIN(Args.Input);
  if (!Buffer)
    return fail("cannot read '" + Args.Input + "': " +
                Buffer.getError().message());
  SourceMgr SrcMgr;
  SrcMgr.AddNewSourceBuffer(std::move(*Buffer), SMLoc());
  SrcMgr.setIncludeDirs(Args.IncludeDirs);
  SrcMgr.setDiagHandler(
      [](const SMDiagnostic &D, void *Context) {
        auto &First = *static_cast<std::string *>(Context);
        if (D.getKind() == SourceMgr::DK_Error && First.empty())
          First = (D.getFilename() + ":" + Twine(D.getLineNo()) + ": " +
                   D.getMessage())
                      .str();
      },
      &Error);
  MCContext Ctx(A.TT, A.MAI.get(), A.MRI.get(), A.STI.get(), &SrcMgr,
                &A.Options);
  std::unique_ptr<MCObjectFileInfo> MOFI(
      A.TheTarget->createMCObjectFileInfo(Ctx, /*PIC=*/true));
  Ctx.setObjectFileInfo(MOFI.get());
  RecordingStreamer Streamer(Ctx);
  A.TheTarget->createNullTargetStreamer(Streamer);
  if (!defineSymbols(Args, Ctx, Streamer))
    return fail("bad -defsym");
  if (!parse(A, SrcMgr, Streamer, Ctx, Error))
    return fail("cannot read '" + Args.Input + "': " + Error);
  std::unique_ptr<MCCodeEmitter> Emitter(
      A.TheTarget->createMCCodeEmitter(*A.MCII, Ctx));
  std::unique_ptr<MCDisassembler> Disassembler(
      A.TheTarget->createMCDisassembler(*A.STI, Ctx));
  if (!Emitter || !Disassembler)
    return fail("no code emitter or disassembler for " + A.TT.str());
  SourceTables Tables(A, SrcMgr, Streamer, *Emitter, *Disassembler);
  std::string Text = annotatedSource(SrcMgr, Tables.analyse(), *A.MAI);
  std::error_code EC;
  raw_fd_ostream OS(Args.Output, EC, sys::fs::OF_None);
  if (EC)
    return fail("cannot write '" + Args.Output + "': " + EC.message());
  OS << Text;
  OS.close();
  return OS.has_error() ? fail("cannot write '" + Args.Output + "'") : 0;
}
