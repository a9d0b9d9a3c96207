//===- PCMapPass.cpp - Attach pcmap !pcsections metadata ------------------===//
//
// For every instrumented function the pass attaches
//   !pcsections !{!"pcmap_functions<V>!C", !{i64 <features>}}
// and for every atomic instruction in it
//   !pcsections !{!"pcmap_atomics<V>!C", !{[W x i8] zeroinitializer,
//                                          i64 <descriptor>}}
// The backend then emits, per function, one record per distinct descriptor:
// the relative PCs of all instructions carrying the node, a zero word, and the
// descriptor (include/pcmap/Format.h explains why the zero word is needed).
//
// The pass is idempotent: running it again (as the LTO link does after the
// link-time optimisations) replaces its own metadata and keeps everyone
// else's.
//
//===----------------------------------------------------------------------===//

#include "PCMapPass.h"

#include "AtomicClassifier.h"
#include "InlineAsmAtomics.h"
#include "pcmap/Format.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace llvm;
using namespace pcmap::format;

namespace pcmap {
namespace {

cl::opt<bool> ClAtomics("pcmap-atomics",
                        cl::desc("pcmap: record atomic instructions"),
                        cl::init(true));
cl::opt<bool> ClFunctions("pcmap-functions",
                          cl::desc("pcmap: record every instrumented function "
                                   "(start, size, features)"),
                          cl::init(true));
cl::list<std::string>
    ClIgnorelist("pcmap-ignorelist",
                 cl::desc("pcmap: SpecialCaseList file of functions (fun:) "
                          "and sources (src:) not to instrument"));
cl::opt<bool> ClLTOPreLink(
    "pcmap-lto-prelink",
    cl::desc("pcmap: this compilation produces (Thin)LTO bitcode; mark the "
             "functions to instrument and leave the work to the link"),
    cl::init(false));
cl::opt<bool> ClFragmented(
    "pcmap-fragmented",
    cl::desc("pcmap: the code generator splits functions into fragments "
             "(-fbasic-block-sections=all|list=, -fsplit-machine-functions); "
             "mark every function so that readers look for its fragments"),
    cl::init(false));

/// Function attribute recording, before an LTO link, what to record for the
/// function at link time. The value is a RequestBits set in decimal.
constexpr char kRequestAttr[] = "pcmap-features";
enum RequestBits : unsigned {
  RequestAtomics = 1,
  RequestFunctions = 2,
  /// The function may be split into fragments (kFeatureFragmented): set by
  /// -pcmap-fragmented at the compile or at the link.
  RequestFragmented = 4
};

constexpr char kSectionPrefix[] = "pcmap_";

/// The labels pcmap puts before each atomic of an inline asm; ${:uid} makes
/// them unique per emission of the asm (codegen may duplicate it).
constexpr char kAsmLabelPrefix[] = ".Lpcmap_asm${:uid}_";
/// What starts the records pcmap appends to an inline asm.
constexpr char kAsmRecordsStart[] = "\n\t.pushsection ";

std::string asmLabel(unsigned K) {
  return (Twine(kAsmLabelPrefix) + Twine(K)).str();
}

/// An inline asm template without what an earlier run of the pass added.
std::string originalAsmTemplate(StringRef T) {
  if (!T.contains(kAsmLabelPrefix))
    return T.str();
  size_t Records =
      T.rfind((Twine(kAsmRecordsStart) + kAtomicsSectionBase).str());
  if (Records != StringRef::npos)
    T = T.take_front(Records);
  std::string Out;
  for (;;) {
    size_t At = T.find(kAsmLabelPrefix);
    if (At == StringRef::npos)
      break;
    Out += T.take_front(At);
    T = T.drop_front(At + strlen(kAsmLabelPrefix)).drop_while(isDigit);
    T.consume_front(": ");
  }
  return Out + T.str();
}

/// A symbol name as an assembler operand inside an asm template: quoted when
/// it has characters a bare name cannot, and with `$` escaped.
std::string asmSymbolOperand(StringRef Name) {
  bool Bare = !Name.empty() && !isDigit(Name[0]) && all_of(Name, [](char C) {
    return isAlnum(C) || C == '_' || C == '.' || C == '$';
  });
  std::string Out = Bare ? "" : "\"";
  for (char C : Name) {
    if (C == '$')
      Out += "$$";
    else if (!Bare && (C == '"' || C == '\\'))
      Out += std::string("\\") + C;
    else
      Out += C;
  }
  return Bare ? Out : Out + "\"";
}

unsigned requestOf(const PCMapOptions &Options) {
  unsigned Request = (Options.Atomics ? RequestAtomics : 0) |
                     (Options.Functions ? RequestFunctions : 0);
  return Request && ClFragmented ? Request | RequestFragmented : Request;
}

bool isPCMapSectionName(const MDOperand &Op) {
  const auto *S = dyn_cast<MDString>(Op);
  return S && S->getString().starts_with(kSectionPrefix);
}

/// Returns the operands of an existing !pcsections node without the sections
/// pcmap owns (a section name and the constant tuples that follow it).
SmallVector<Metadata *, 8> foreignSections(const MDNode *Existing) {
  SmallVector<Metadata *, 8> Ops;
  if (!Existing)
    return Ops;
  bool Ours = false;
  for (const MDOperand &Op : Existing->operands()) {
    if (isa<MDString>(Op))
      Ours = isPCMapSectionName(Op);
    if (!Ours)
      Ops.push_back(Op.get());
  }
  return Ops;
}

/// True for modules that clang prepared for a (Thin)LTO link: they carry these
/// flags from the pre-link compilation into the link's back ends.
bool isLTOBitcode(const Module &M) {
  return M.getModuleFlag("EnableSplitLTOUnit") || M.getModuleFlag("ThinLTO");
}

/// The features recorded in a function's existing pcmap function entry, if it
/// has one: a function instrumented before (e.g. before an LTO link) is
/// instrumented again with the same request.
std::optional<unsigned> existingRequest(const Function &F) {
  const MDNode *MD = F.getMetadata(LLVMContext::MD_pcsections);
  if (!MD)
    return std::nullopt;
  for (unsigned I = 0, E = MD->getNumOperands(); I != E; ++I) {
    const auto *S = dyn_cast<MDString>(MD->getOperand(I));
    if (!S || !S->getString().starts_with(kFunctionsSectionBase))
      continue;
    unsigned Request = RequestFunctions;
    if (I + 1 < E)
      if (const auto *Aux = dyn_cast<MDNode>(MD->getOperand(I + 1)))
        if (Aux->getNumOperands() == 1)
          if (const auto *C =
                  mdconst::dyn_extract<ConstantInt>(Aux->getOperand(0))) {
            if (C->getZExtValue() & kFeatureAtomics)
              Request |= RequestAtomics;
            if (C->getZExtValue() & kFeatureFragmented)
              Request |= RequestFragmented;
          }
    return Request;
  }
  return std::nullopt;
}

/// A message from the plugin, reported through the context's diagnostic
/// handler (clang prints it as "warning:"/"error:" and fails on errors).
class PCMapDiagnostic : public DiagnosticInfo {
public:
  PCMapDiagnostic(const Twine &Message, DiagnosticSeverity Severity)
      : DiagnosticInfo(kind(), Severity), Message(Message.str()) {}
  void print(DiagnosticPrinter &DP) const override {
    DP << "pcmap: " << Message;
  }

private:
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
  std::string Message;
};

class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, const PCMapOptions &Options)
      : M(M), Ctx(M.getContext()), Options(Options) {
    std::optional<CodeModel::Model> CM = M.getCodeModel();
    bool PtrSized = CM && (*CM == CodeModel::Medium || *CM == CodeModel::Large);
    Version = kVersionBase | (PtrSized ? kVersionPtrSizeRel : 0);
    PCWidth = relativePCSize(Version, M.getDataLayout().getPointerSize());
    AtomicsSection = (Twine(kAtomicsSectionBase) + Twine(Version)).str();
    FunctionsSection = (Twine(kFunctionsSectionBase) + Twine(Version)).str();
  }

  bool run(PCMapPhase Phase);

private:
  bool loadIgnorelist();
  bool isIgnored(const Function &F) const;
  unsigned requestFor(const Function &F, bool AttributeDriven) const;
  void instrumentFunction(Function &F, unsigned Request);
  bool instrumentAsm(CallBase &Call, Function &F, bool &HasAtomics);
  std::string asmWithRecords(StringRef Template, const AsmAnalysis &A,
                             const Function &F) const;
  MDNode *atomicNode(uint64_t Descriptor);
  void setSections(GlobalObject &GO, Metadata *Section, Metadata *Aux);
  void setSections(Instruction &I, MDNode *Ours);
  void emitRegistration();

  Module &M;
  LLVMContext &Ctx;
  const PCMapOptions &Options;
  uint32_t Version;
  unsigned PCWidth;
  std::string AtomicsSection, FunctionsSection;
  std::unique_ptr<SpecialCaseList> Ignorelist;
  DenseMap<uint64_t, MDNode *> AtomicNodes;
  std::optional<InlineAsmAnalyzer> AsmAnalyzer;
  bool EmittedAtomics = false, EmittedFunctions = false;
};

bool ModuleInstrumenter::loadIgnorelist() {
  if (Options.IgnorelistFiles.empty())
    return true;
  std::string Error;
  Ignorelist = SpecialCaseList::create(Options.IgnorelistFiles,
                                       *vfs::getRealFileSystem(), Error);
  if (!Ignorelist) {
    Ctx.diagnose(PCMapDiagnostic(Error, DS_Error));
    return false;
  }
  return true;
}

bool ModuleInstrumenter::isIgnored(const Function &F) const {
  if (!Ignorelist)
    return false;
  for (StringRef Section : {"pcmap", "metadata"})
    if (Ignorelist->inSection(Section, "fun", F.getName()))
      return true;
  return false;
}

/// The RequestBits to instrument F with; 0 to leave it alone.
unsigned ModuleInstrumenter::requestFor(const Function &F,
                                        bool AttributeDriven) const {
  if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked) ||
      F.hasAvailableExternallyLinkage() ||
      F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
      isIgnored(F))
    return 0;
  if (std::optional<unsigned> Previous = existingRequest(F))
    return *Previous;
  if (!AttributeDriven)
    return requestOf(Options);
  unsigned Request = 0;
  if (F.hasFnAttribute(kRequestAttr) && F.getFnAttribute(kRequestAttr)
                                            .getValueAsString()
                                            .getAsInteger(10, Request))
    return 0;
  return Request & (RequestAtomics | RequestFunctions | RequestFragmented);
}

MDNode *ModuleInstrumenter::atomicNode(uint64_t Descriptor) {
  MDNode *&Node = AtomicNodes[Descriptor];
  if (Node)
    return Node;
  Type *Int8 = Type::getInt8Ty(Ctx), *Int64 = Type::getInt64Ty(Ctx);
  Metadata *Aux[] = {
      // The zero word that ends the record's run of PCs.
      ConstantAsMetadata::get(
          ConstantAggregateZero::get(ArrayType::get(Int8, PCWidth))),
      ConstantAsMetadata::get(ConstantInt::get(Int64, Descriptor))};
  Metadata *Ops[] = {MDString::get(Ctx, AtomicsSection + "!C"),
                     MDNode::get(Ctx, Aux)};
  // Uniqued: all atomics of a function with the same descriptor share one
  // record, so the zero word and the descriptor are paid once per function.
  Node = MDNode::get(Ctx, Ops);
  return Node;
}

void ModuleInstrumenter::setSections(Instruction &I, MDNode *Ours) {
  SmallVector<Metadata *, 8> Ops =
      foreignSections(I.getMetadata(LLVMContext::MD_pcsections));
  if (Ops.empty()) {
    I.setMetadata(LLVMContext::MD_pcsections, Ours);
    return;
  }
  Ops.append(Ours->op_begin(), Ours->op_end());
  I.setMetadata(LLVMContext::MD_pcsections, MDNode::get(Ctx, Ops));
}

void ModuleInstrumenter::setSections(GlobalObject &GO, Metadata *Section,
                                     Metadata *Aux) {
  SmallVector<Metadata *, 8> Ops =
      foreignSections(GO.getMetadata(LLVMContext::MD_pcsections));
  Ops.push_back(Section);
  Ops.push_back(Aux);
  GO.setMetadata(LLVMContext::MD_pcsections, MDNode::get(Ctx, Ops));
}

void ModuleInstrumenter::instrumentFunction(Function &F, unsigned Request) {
  const DataLayout &DL = M.getDataLayout();
  uint64_t Features = 0;
  if (Request & RequestAtomics) {
    bool Complete = true, HasAtomics = false;
    for (Instruction &I : instructions(F)) {
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isInlineAsm()) {
        Complete &= instrumentAsm(*Call, F, HasAtomics);
      } else if (std::optional<AtomicDescriptor> D = classifyAtomic(I, DL)) {
        setSections(I, atomicNode(encodeDescriptor(*D)));
        EmittedAtomics = true;
        HasAtomics = true;
      }
    }
    if (HasAtomics)
      Features |= kFeatureHasAtomics;
    // An asm pcmap cannot analyse may hold atomics the table does not have;
    // the function says so, so that readers can tell users why.
    Features |= Complete ? kFeatureAtomics : kFeatureOpaqueAsm;
  }
  if ((Request & RequestFragmented) || ClFragmented)
    Features |= kFeatureFragmented;
  Type *Int64 = Type::getInt64Ty(Ctx);
  Metadata *Aux = MDNode::get(
      Ctx, {ConstantAsMetadata::get(ConstantInt::get(Int64, Features))});
  setSections(F, MDString::get(Ctx, FunctionsSection + "!C"), Aux);
  EmittedFunctions = true;
}

/// Records the atomics of an inline asm the way the Linux kernel records its
/// lock prefixes (LOCK_PREFIX, .smp_locks): a local label before each atomic
/// and, from the same asm, a record in the atomics section that points at
/// it. The code the asm assembles to is unchanged. Returns false if the asm
/// cannot be analysed completely; its function then does not claim complete
/// atomics, and a missed-optimisation remark says why.
bool ModuleInstrumenter::instrumentAsm(CallBase &Call, Function &F,
                                       bool &HasAtomics) {
  auto *IA = cast<InlineAsm>(Call.getCalledOperand());
  std::string Original = originalAsmTemplate(IA->getAsmString());
  if (!AsmAnalyzer)
    AsmAnalyzer.emplace(M);
  AsmAnalysis A = AsmAnalyzer->analyze(Call, Original);
  std::string Template = Original;
  if (A.Complete && !A.Atomics.empty()) {
    Template = asmWithRecords(Original, A, F);
    HasAtomics = EmittedAtomics = true;
  }
  if (Template != IA->getAsmString())
    Call.setCalledOperand(
        InlineAsm::get(IA->getFunctionType(), Template,
                       IA->getConstraintString(), IA->hasSideEffects(),
                       IA->isAlignStack(), IA->getDialect(), IA->canThrow()));
  if (!A.Complete) {
    OptimizationRemarkMissed R("pcmap", "UnanalysedInlineAsm", &Call);
    // On one line, as the statement appears in the asm.
    std::string Statement;
    for (char C : A.Statement)
      Statement += C == '\n' ? std::string("\\n") : std::string(1, C);
    R << "function '" << F.getName()
      << "' does not claim complete atomics: inline asm statement '"
      << Statement << "' is not analysed (" << A.Reason << ")";
    Ctx.diagnose(R);
  }
  return A.Complete;
}

std::string ModuleInstrumenter::asmWithRecords(StringRef Template,
                                               const AsmAnalysis &A,
                                               const Function &F) const {
  std::string Out;
  size_t Done = 0;
  // Atomics with the same descriptor share a record, as the backend's do.
  MapVector<uint64_t, SmallVector<unsigned, 2>> Records;
  for (unsigned K = 0; K < A.Atomics.size(); ++K) {
    size_t At = A.Atomics[K].Offset;
    Out += Template.slice(Done, At);
    Out += asmLabel(K) + ": ";
    Done = At;
    Records[encodeDescriptor(A.Atomics[K].Descriptor)].push_back(K);
  }
  Out += Template.substr(Done);
  // Flags, link and group as the backend's PC sections have them
  // (TargetLoweringObjectFileELF::getPCSection), linked to the atomic's own
  // code so that the record follows it through --gc-sections and COMDAT
  // deduplication.
  std::string Flags = "awo", Group;
  if (const Comdat *C = F.getComdat()) {
    Flags += "G";
    Group = "," + asmSymbolOperand(C->getName()) + ",comdat";
  }
  const char *Word = PCWidth == 8 ? ".quad" : ".long";
  Out += (Twine(kAsmRecordsStart) + AtomicsSection + ",\"" + Flags +
          "\",@progbits," + asmLabel(0) + Group)
             .str();
  for (auto &[Descriptor, Labels] : Records) {
    for (unsigned K : Labels)
      Out += (Twine("\n\t") + Word + " " + asmLabel(K) + " - .").str();
    Out += (Twine("\n\t") + Word + " 0\n\t.uleb128 " + Twine(Descriptor)).str();
  }
  Out += "\n\t.popsection";
  return Out;
}

/// The attributes that choose a function's code-generation subtarget
/// ("target-cpu", "target-features", "tune-cpu", the vector widths of x86,
/// vscale_range of AArch64) that every function defined in M has alike,
/// copied onto F. Without them F is compiled for the target machine's
/// defaults, which differ from the ones clang gives every function: the code
/// generator then builds a second subtarget for F, its register and
/// lowering tables included, which costs more than the rest of a small
/// file's code generation. Attributes that differ between functions
/// (`__attribute__((target))`) are left out, so that F never needs more of
/// the CPU than the module's common ground.
static void copyCommonSubtargetAttributes(const Module &M, Function &F) {
  auto CopyIfCommon = [&](auto Kind) {
    std::optional<Attribute> Common;
    for (const Function &G : M) {
      if (G.isDeclaration() || &G == &F)
        continue;
      Attribute A = G.getFnAttribute(Kind);
      if (!Common)
        Common = A;
      else if (*Common != A)
        return;
    }
    if (Common && Common->isValid())
      F.addFnAttr(*Common);
  };
  for (StringRef Kind : {"target-cpu", "target-features", "tune-cpu",
                         "min-legal-vector-width", "prefer-vector-width"})
    CopyIfCommon(Kind);
  CopyIfCommon(Attribute::VScaleRange);
}

/// Emits a hidden, comdat-deduplicated constructor and destructor that pass
/// the bounds of both sections of this version to the runtime's (weak)
/// callbacks, once per executable or shared object. Every translation unit
/// emits the same pair, whatever it instrumented, so that the copy the
/// linker keeps registers whatever sections the module has.
void ModuleInstrumenter::emitRegistration() {
  std::string Prefix = ("__pcmap_sections" + Twine(Version)).str();
  std::string CtorName = Prefix + ".module_ctor";
  std::string DtorName = Prefix + ".module_dtor";
  if (M.getFunction(CtorName))
    return; // Already emitted by an earlier run.

  Type *Int8 = Type::getInt8Ty(Ctx), *Int32 = Type::getInt32Ty(Ctx);
  PointerType *Ptr = PointerType::getUnqual(Ctx);
  auto Marker = [&](const Twine &Name) {
    // Weak: a module may have no such section (no translation unit
    // instrumented atomics), or with --gc-sections every piece of it may be
    // discarded, and then the linker defines no __start_/__stop_ symbol.
    auto *GV = cast<GlobalVariable>(M.getOrInsertGlobal(Name.str(), Int8));
    GV->setLinkage(GlobalValue::ExternalWeakLinkage);
    GV->setVisibility(GlobalValue::HiddenVisibility);
    return GV;
  };
  Value *Bounds[] = {Marker("__start_" + AtomicsSection),
                     Marker("__stop_" + AtomicsSection),
                     Marker("__start_" + FunctionsSection),
                     Marker("__stop_" + FunctionsSection)};
  FunctionType *CallbackTy = FunctionType::get(
      Type::getVoidTy(Ctx), {Int32, Ptr, Ptr, Ptr, Ptr}, false);
  FunctionType *CtorTy = FunctionType::get(Type::getVoidTy(Ctx), false);

  auto Build = [&](StringRef Name, StringRef Callback) {
    FunctionCallee CB = M.getOrInsertFunction(Callback, CallbackTy);
    if (auto *CBF = dyn_cast<Function>(CB.getCallee()))
      if (CBF->isDeclaration())
        // Weak, and called only when present: a program built with the flag
        // but linked without the runtime still runs.
        CBF->setLinkage(GlobalValue::ExternalWeakLinkage);
    Function *F =
        Function::Create(CtorTy, GlobalValue::ExternalLinkage, Name, M);
    F->setVisibility(GlobalValue::HiddenVisibility);
    F->setComdat(M.getOrInsertComdat(Name));
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::DisableSanitizerInstrumentation);
    copyCommonSubtargetAttributes(M, *F);
    // Run once, a branch and a call: compiled as at -O0 (fast instruction
    // selection, the optimising machine passes skipped), which makes the
    // pair cost a small file's compile a tenth of what it did.
    F->addFnAttr(Attribute::OptimizeNone);
    F->addFnAttr(Attribute::NoInline);
    BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
    BasicBlock *Call = BasicBlock::Create(Ctx, "call", F);
    BasicBlock *Ret = BasicBlock::Create(Ctx, "ret", F);
    IRBuilder<> B(Entry);
    Value *Present = B.CreateICmpNE(CB.getCallee(),
                                    ConstantPointerNull::get(Ptr), "present");
    B.CreateCondBr(Present, Call, Ret);
    B.SetInsertPoint(Call);
    B.CreateCall(
        CB, {B.getInt32(Version), Bounds[0], Bounds[1], Bounds[2], Bounds[3]});
    B.CreateBr(Ret);
    B.SetInsertPoint(Ret);
    B.CreateRetVoid();
    return F;
  };
  Function *Ctor = Build(CtorName, kSectionsAddCallback);
  Function *Dtor = Build(DtorName, kSectionsDelCallback);
  // Keyed on the comdat: when the linker drops a duplicate constructor, its
  // init_array entry goes with it.
  appendToGlobalCtors(M, Ctor, kCtorPriority, Ctor);
  appendToGlobalDtors(M, Dtor, kCtorPriority, Dtor);
}

bool ModuleInstrumenter::run(PCMapPhase Phase) {
  Triple TT(M.getTargetTriple());
  if (!TT.isOSBinFormatELF()) {
    Ctx.diagnose(PCMapDiagnostic("target '" + TT.str() +
                                     "' does not use ELF; no pcmap metadata "
                                     "emitted",
                                 DS_Warning));
    return false;
  }
  if (!loadIgnorelist())
    return false;
  if (Ignorelist)
    for (StringRef Section : {"pcmap", "metadata"})
      if (Ignorelist->inSection(Section, "src", M.getSourceFileName()))
        return false;

  // Functions marked before an LTO link. A module of LTO bitcode without them
  // is left alone: in a link's back end it comes from a translation unit
  // built without pcmap; in a pre-link compilation whose extension point did
  // not say so (LLVM 19 without -pcmap-lto-prelink) the link could not
  // instrument it completely. Either way its code stays unknown to pcmap.
  bool AttributeDriven = any_of(
      M, [](const Function &F) { return F.hasFnAttribute(kRequestAttr); });
  if (Phase == PCMapPhase::Final && !AttributeDriven && isLTOBitcode(M))
    return false;

  if (Phase == PCMapPhase::LTOPreLink) {
    std::string Value = utostr(requestOf(Options));
    bool Changed = false;
    for (Function &F : M) {
      if (!requestFor(F, /*AttributeDriven=*/false))
        continue;
      F.addFnAttr(kRequestAttr, Value);
      Changed = true;
    }
    // The constructors are made now, not by the link: the linker resolves
    // COMDATs among bitcode symbols, but lld does not deduplicate COMDATs in
    // the objects ThinLTO back ends produce, so constructors created there
    // would be defined once per back end.
    if (Changed)
      emitRegistration();
    return Changed;
  }

  SmallVector<std::pair<Function *, unsigned>, 64> Work;
  for (Function &F : M)
    if (unsigned Request = requestFor(F, AttributeDriven))
      Work.emplace_back(&F, Request);
  for (auto &[F, Request] : Work)
    instrumentFunction(*F, Request);

  if (EmittedAtomics || EmittedFunctions)
    emitRegistration();
  return !Work.empty();
}

} // namespace

PCMapOptions commandLineOptions() {
  PCMapOptions O;
  O.Atomics = ClAtomics;
  O.Functions = ClFunctions;
  O.IgnorelistFiles.assign(ClIgnorelist.begin(), ClIgnorelist.end());
  return O;
}

bool commandLineSaysLTOPreLink() { return ClLTOPreLink; }

bool instrumentModule(Module &M, const PCMapOptions &Options,
                      PCMapPhase Phase) {
  if (!Options.Atomics && !Options.Functions)
    return false;
  return ModuleInstrumenter(M, Options).run(Phase);
}

PreservedAnalyses PCMapPass::run(Module &M, ModuleAnalysisManager &) {
  return instrumentModule(M, Options, Phase) ? PreservedAnalyses::none()
                                             : PreservedAnalyses::all();
}

void PCMapPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << "pcmap<";
  ListSeparator LS(";");
  if (Options.Atomics)
    OS << LS << "atomics";
  if (Options.Functions)
    OS << LS << "functions";
  if (Phase == PCMapPhase::LTOPreLink)
    OS << LS << "lto-prelink";
  OS << '>';
}

} // namespace pcmap
