//===- TraceDataNames.cpp - The data named as C and C++ write it ----------===//
//
// A module's static data is named by the ELF symbol that covers it (a data
// symbol: STT_OBJECT, STT_TLS, or any other sized symbol that is not code),
// then, from the DWARF debug information, by the member or element of the
// symbol's variable that holds the bytes: "stats.hits", "plain_counts[1]",
// "g.shards[3].lock". Without debug information, "stats+8"; without a
// symbol, "prog+0x4048". Thread-local storage likewise, from the module's
// TLS segment and STT_TLS symbols. The other regions have no symbols: a
// shared file's bytes are "/dev/shm/x+0x48", a process's memory "heap
// 0x...", "stack of thread N". The module files are those whose build ID
// matched (TraceSymbolize.cpp).
//
//===----------------------------------------------------------------------===//

#include "Trace.h"
#include "TraceDwarf.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDie.h"
#include "llvm/DebugInfo/DWARF/DWARFUnit.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/DataExtractor.h"

#include <memory>

using namespace llvm;

namespace pcmap {
namespace report {

namespace {

/// The deepest type nesting followed (a loop in broken debug information
/// ends there).
constexpr unsigned kMaxTypeDepth = 32;

//===----------------------------------------------------------------------===//
// Types: the member or element at an offset
//===----------------------------------------------------------------------===//

/// The type under typedefs and qualifiers (const, volatile, _Atomic,
/// restrict).
DWARFDie stripType(DWARFDie T) {
  for (unsigned I = 0; T && I < kMaxTypeDepth; ++I) {
    switch (T.getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_atomic_type:
    case dwarf::DW_TAG_restrict_type:
      T = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
      continue;
    default:
      return T;
    }
  }
  return DWARFDie();
}

uint64_t typeSize(DWARFDie T) {
  if (!T)
    return 0;
  return T.getTypeSize(T.getDwarfUnit()->getAddressByteSize()).value_or(0);
}

uint64_t constantOf(DWARFDie D, dwarf::Attribute A, uint64_t Default) {
  if (std::optional<DWARFFormValue> V = D.find(A))
    if (std::optional<uint64_t> N = V->getAsUnsignedConstant())
      return *N;
  return Default;
}

/// A member of a struct, class or union: its name ("" for an anonymous
/// struct or union, or a base class, whose members are the enclosing
/// one's), its bytes, its type.
struct Field {
  std::string Name;
  uint64_t Begin = 0, End = 0;
  DWARFDie Type;
  bool BitField = false;
};

/// DW_AT_data_member_location: a constant, or (DWARF 2) the expression
/// DW_OP_plus_uconst N.
std::optional<uint64_t> memberLocation(DWARFDie D) {
  std::optional<DWARFFormValue> V = D.find(dwarf::DW_AT_data_member_location);
  if (!V)
    return std::nullopt;
  if (std::optional<uint64_t> N = V->getAsUnsignedConstant())
    return N;
  std::optional<ArrayRef<uint8_t>> Block = V->getAsBlock();
  if (!Block || Block->empty() || (*Block)[0] != dwarf::DW_OP_plus_uconst)
    return std::nullopt;
  DataExtractor Data(toStringRef(*Block), true, 8);
  DataExtractor::Cursor C(1);
  uint64_t N = Data.getULEB128(C);
  if (!C) {
    consumeError(C.takeError());
    return std::nullopt;
  }
  return N;
}

/// The bytes a member holds; a bit-field's, the bytes its bits lie in
/// (little-endian).
std::optional<Field> fieldOf(DWARFDie D) {
  Field F;
  F.Type = D.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
  if (const char *Name = D.getShortName();
      Name && D.getTag() != dwarf::DW_TAG_inheritance)
    F.Name = Name;
  std::optional<uint64_t> Bits;
  if (std::optional<DWARFFormValue> V = D.find(dwarf::DW_AT_bit_size))
    Bits = V->getAsUnsignedConstant();
  std::optional<uint64_t> At = memberLocation(D);
  if (Bits && *Bits) {
    uint64_t First = 0;
    if (std::optional<DWARFFormValue> V = D.find(dwarf::DW_AT_data_bit_offset))
      First = V->getAsUnsignedConstant().value_or(0);
    else // DWARF 2 and 3: bits from the storage unit's most significant
      First = At.value_or(0) * 8 +
              constantOf(D, dwarf::DW_AT_byte_size, typeSize(F.Type)) * 8 -
              constantOf(D, dwarf::DW_AT_bit_offset, 0) - *Bits;
    F.Begin = First / 8;
    F.End = (First + *Bits + 7) / 8;
    F.BitField = true;
    return F;
  }
  F.Begin = At.value_or(0); // a union's members have none
  uint64_t Size = typeSize(F.Type);
  // A flexible array member has no size: it holds the rest.
  F.End = Size ? F.Begin + Size : UINT64_MAX;
  return F;
}

std::vector<Field> fieldsOf(DWARFDie T) {
  std::vector<Field> Out;
  for (DWARFDie Child : T.children()) {
    dwarf::Tag Tag = Child.getTag();
    bool Static = Child.find(dwarf::DW_AT_declaration).has_value();
    if ((Tag != dwarf::DW_TAG_member && Tag != dwarf::DW_TAG_inheritance) ||
        Static)
      continue;
    if (std::optional<Field> F = fieldOf(Child))
      Out.push_back(std::move(*F));
  }
  // A member whose type has no size here (a class this unit only declares,
  // as clang's limited debug information does for a class whose virtual
  // functions another file defines) ends where the next member begins: it
  // is no flexible array, and taking the rest for it named every later
  // member by it (DBImpl::mutex_ as DBImpl::internal_comparator_).
  for (Field &F : Out) {
    if (F.End != UINT64_MAX || F.BitField)
      continue;
    DWARFDie Type = stripType(F.Type);
    if (Type && Type.getTag() == dwarf::DW_TAG_array_type)
      continue;
    for (const Field &Next : Out)
      if (Next.Begin > F.Begin && Next.Begin < F.End)
        F.End = Next.Begin;
  }
  return Out;
}

std::string memberPath(DWARFDie T, uint64_t Off, uint64_t Size, unsigned Depth);

/// In a struct, class or union: the first member that holds all the bytes
/// (of a union's members, or of bit-fields that share bytes), else the
/// first that holds the first; an access over several members names them
/// all, ".{first..last}"; padding, none.
std::string recordPath(DWARFDie T, uint64_t Off, uint64_t Size,
                       unsigned Depth) {
  std::vector<Field> Fields = fieldsOf(T);
  const Field *First = nullptr, *Whole = nullptr, *Last = nullptr;
  for (const Field &F : Fields) {
    if (F.Begin <= Off && Off < F.End) {
      First = First ? First : &F;
      if (Off + Size <= F.End && !Whole)
        Whole = &F;
    }
    if (F.Begin < Off + Size && Off < F.End)
      Last = &F;
  }
  const Field *F = Whole ? Whole : First;
  if (!F)
    return "";
  if (!Whole && Last != F) {
    if (F->Name.empty() || !Last || Last->Name.empty())
      return "";
    return ".{" + F->Name + ".." + Last->Name + "}";
  }
  // One member, and maybe the padding after it.
  std::string Path = F->Name.empty() ? "" : "." + F->Name;
  if (F->BitField)
    return Path;
  return Path + memberPath(F->Type, Off - F->Begin,
                           std::min(Size, F->End - Off), Depth + 1);
}

/// "[1][2]"
std::string indexText(ArrayRef<uint64_t> Index) {
  std::string Out;
  for (uint64_t I : Index)
    Out += "[" + std::to_string(I) + "]";
  return Out;
}

/// The indices of the element that holds byte Off of an array whose
/// dimensions are Counts (0: not known, the first only) and whose
/// elements are Element bytes; none past the end.
std::optional<std::vector<uint64_t>> elementAt(ArrayRef<uint64_t> Counts,
                                               uint64_t Element, uint64_t Off) {
  std::vector<uint64_t> Strides(Counts.size(), Element);
  for (size_t I = Counts.size() - 1; I > 0; --I) {
    if (!Counts[I])
      return std::nullopt;
    Strides[I - 1] = Strides[I] * Counts[I];
  }
  std::vector<uint64_t> Index;
  for (size_t I = 0; I < Counts.size(); ++I) {
    Index.push_back(Off / Strides[I]);
    Off %= Strides[I];
  }
  if (Counts[0] && Index[0] >= Counts[0])
    return std::nullopt;
  return Index;
}

/// In an array: the element's indices, then its member; an access over
/// several elements, "[1..2]" (or "[1][3]..[2][0]").
std::string arrayPath(DWARFDie T, uint64_t Off, uint64_t Size, unsigned Depth) {
  DWARFDie Element = T.getAttributeValueAsReferencedDie(dwarf::DW_AT_type);
  uint64_t ElementSize = typeSize(Element);
  std::vector<uint64_t> Counts;
  for (DWARFDie Child : T.children()) {
    if (Child.getTag() != dwarf::DW_TAG_subrange_type)
      continue;
    uint64_t Count = constantOf(Child, dwarf::DW_AT_count, 0);
    if (std::optional<DWARFFormValue> Upper =
            Child.find(dwarf::DW_AT_upper_bound))
      if (std::optional<uint64_t> N = Upper->getAsUnsignedConstant())
        Count = *N + 1 - constantOf(Child, dwarf::DW_AT_lower_bound, 0);
    Counts.push_back(Count);
  }
  if (!ElementSize || Counts.empty())
    return "";
  std::optional<std::vector<uint64_t>> First =
      elementAt(Counts, ElementSize, Off);
  std::optional<std::vector<uint64_t>> Last =
      elementAt(Counts, ElementSize, Off + Size - 1);
  if (!First)
    return "";
  if (!Last || *First == *Last)
    return indexText(*First) +
           memberPath(Element, Off % ElementSize,
                      std::min(Size, ElementSize - Off % ElementSize),
                      Depth + 1);
  size_t Common = 0;
  while (Common + 1 < First->size() && (*First)[Common] == (*Last)[Common])
    ++Common;
  std::string Out = indexText(ArrayRef(*First).take_front(Common));
  if (Common + 1 == First->size())
    return Out + "[" + std::to_string(First->back()) + ".." +
           std::to_string(Last->back()) + "]";
  return Out + indexText(ArrayRef(*First).drop_front(Common)) + ".." +
         indexText(ArrayRef(*Last).drop_front(Common));
}

/// std::atomic<T> (and std::atomic_ref<T>): C++ names the atomic, not the
/// members of the library's implementation (libstdc++'s _M_i).
bool isStdAtomic(DWARFDie T) {
  const char *Name = T.getShortName();
  if (!Name || !(StringRef(Name).starts_with("atomic<") ||
                 StringRef(Name).starts_with("atomic_ref<")))
    return false;
  DWARFDie Parent = T.getParent();
  // libc++'s inline namespace std::__1.
  if (Parent && Parent.getShortName() &&
      StringRef(Parent.getShortName()) == "__1")
    Parent = Parent.getParent();
  return Parent && Parent.getTag() == dwarf::DW_TAG_namespace &&
         Parent.getShortName() && StringRef(Parent.getShortName()) == "std";
}

/// The path, as C writes it, from an object of type T to the member or
/// element that holds its bytes [Off, Off + Size): ".hits", "[1]",
/// ".shards[3].lock"; "" for the object itself.
std::string memberPath(DWARFDie T, uint64_t Off, uint64_t Size,
                       unsigned Depth) {
  T = stripType(T);
  if (!T || Depth > kMaxTypeDepth)
    return "";
  switch (T.getTag()) {
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_class_type:
  case dwarf::DW_TAG_union_type:
    if (isStdAtomic(T))
      return "";
    return recordPath(T, Off, Size, Depth);
  case dwarf::DW_TAG_array_type:
    return arrayPath(T, Off, Size, Depth);
  default:
    return "";
  }
}

/// A variable's type, from its declaration if the definition has none (a
/// C++ static member).
DWARFDie variableType(DWARFDie V) {
  for (unsigned I = 0; V && I < 4; ++I) {
    if (DWARFDie T = V.getAttributeValueAsReferencedDie(dwarf::DW_AT_type))
      return T;
    DWARFDie Next =
        V.getAttributeValueAsReferencedDie(dwarf::DW_AT_specification);
    V = Next ? Next
             : V.getAttributeValueAsReferencedDie(dwarf::DW_AT_abstract_origin);
  }
  return DWARFDie();
}

} // namespace

std::string dataMemberPath(DWARFDie T, uint64_t Off, uint64_t Size) {
  return memberPath(T, Off, Size, 0);
}

DWARFDie dataUnqualifiedType(DWARFDie T) { return stripType(T); }

DWARFDie dataVariableType(DWARFDie V) { return variableType(V); }

namespace {

//===----------------------------------------------------------------------===//
// A module file: its data symbols, its TLS segment, its variables
//===----------------------------------------------------------------------===//

/// A data symbol: its value (a TLS symbol's is its offset in the module's
/// TLS segment), size and name; Rank 0 for an object or TLS symbol, 1 for
/// another kind.
struct DataSymbol {
  uint64_t Value = 0, Size = 0;
  std::string Name;
  unsigned Rank = 0;
  bool TLS = false;
};

class ModuleData {
public:
  /// The ELF file at Path (its debug information with Types), or null.
  static std::unique_ptr<ModuleData> load(StringRef Path, bool Types);
  /// The symbol that covers Offset (of the TLS segment, with TLS): the
  /// best ranked, then the smallest, then the first.
  const DataSymbol *symbolAt(uint64_t Offset, bool TLS) const;
  /// The debug information's variable of symbol S: at its address (in the
  /// TLS block), or of its name.
  DWARFDie variable(const DataSymbol &S);
  /// Where an address TpOffset from the thread pointer lies in the
  /// executable's own TLS block, if this is an executable and it does
  /// there.
  std::optional<uint64_t> executableTlsOffset(int64_t TpOffset) const;
  /// What names the arguments of its calls into lock functions
  /// (TracePointerNames.cpp); null without debug information or a rule for
  /// the machine.
  PointerNamer *pointerNamer();

private:
  template <typename Range> void addSymbols(Range Symbols);
  void readHeaders(const object::ELF64LEObjectFile &Elf);
  void index();

  object::OwningBinary<object::Binary> File;
  std::vector<DataSymbol> Symbols; // by value, TLS ones among them
  std::unique_ptr<DWARFContext> Dwarf;
  std::optional<std::unique_ptr<PointerNamer>> Arguments;
  bool Indexed = false;
  /// (TLS, address or TLS offset) and (TLS, name) -> variable.
  std::map<std::pair<bool, uint64_t>, DWARFDie> Variables;
  std::map<std::pair<bool, std::string>, DWARFDie> Names;
  bool Executable = false;
  uint16_t Machine = 0;
  uint64_t TlsSize = 0, TlsAlign = 1;
};

template <typename Range> void ModuleData::addSymbols(Range Syms) {
  for (const object::ELFSymbolRef &Sym : Syms) {
    uint8_t Type = Sym.getELFType();
    if (!Sym.getSize() || Type == ELF::STT_FUNC || Type == ELF::STT_SECTION ||
        Type == ELF::STT_FILE || Type == ELF::STT_GNU_IFUNC)
      continue;
    Expected<StringRef> Name = Sym.getName();
    Expected<uint64_t> Value = Sym.getValue();
    Expected<object::section_iterator> Section = Sym.getSection();
    if (!Name || !Value || !Section || Name->empty()) {
      consumeError(Name.takeError());
      consumeError(Value.takeError());
      consumeError(Section.takeError());
      continue;
    }
    // Sized symbols in code are functions without their type.
    if (Type == ELF::STT_NOTYPE && *Section != Sym.getObject()->section_end() &&
        (*Section)->isText())
      continue;
    bool Object = Type == ELF::STT_OBJECT || Type == ELF::STT_TLS ||
                  Type == ELF::STT_COMMON;
    Symbols.push_back({*Value, Sym.getSize(), Name->str(), Object ? 0u : 1u,
                       Type == ELF::STT_TLS});
  }
}

void ModuleData::readHeaders(const object::ELF64LEObjectFile &Elf) {
  const auto &File = Elf.getELFFile();
  Machine = File.getHeader().e_machine;
  Executable = File.getHeader().e_type == ELF::ET_EXEC;
  Expected<ArrayRef<object::ELF64LE::Phdr>> Phdrs = File.program_headers();
  if (!Phdrs) {
    consumeError(Phdrs.takeError());
    return;
  }
  for (const object::ELF64LE::Phdr &P : *Phdrs) {
    Executable |= P.p_type == ELF::PT_INTERP; // a PIE
    if (P.p_type == ELF::PT_TLS) {
      TlsSize = P.p_memsz;
      TlsAlign = std::max<uint64_t>(P.p_align, 1);
    }
  }
}

std::unique_ptr<ModuleData> ModuleData::load(StringRef Path, bool Types) {
  Expected<object::OwningBinary<object::Binary>> B = object::createBinary(Path);
  if (!B) {
    consumeError(B.takeError());
    return nullptr;
  }
  auto M = std::make_unique<ModuleData>();
  M->File = std::move(*B);
  auto *Elf = dyn_cast<object::ELF64LEObjectFile>(M->File.getBinary());
  if (!Elf)
    return nullptr;
  M->readHeaders(*Elf);
  M->addSymbols(Elf->symbols());
  M->addSymbols(Elf->getDynamicSymbolIterators());
  llvm::sort(M->Symbols, [](const DataSymbol &A, const DataSymbol &B) {
    return std::tie(A.Value, A.Rank, A.Size, A.Name) <
           std::tie(B.Value, B.Rank, B.Size, B.Name);
  });
  // Broken debug information costs the members' names, nothing else.
  auto Ignore = [](Error E) { consumeError(std::move(E)); };
  if (Types)
    M->Dwarf = DWARFContext::create(
        *Elf, DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
        Ignore, Ignore);
  return M;
}

const DataSymbol *ModuleData::symbolAt(uint64_t Offset, bool TLS) const {
  auto It = partition_point(
      Symbols, [&](const DataSymbol &S) { return S.Value <= Offset; });
  const DataSymbol *Best = nullptr;
  // Symbols that overlap are few (aliases): look back a little.
  for (unsigned N = 0; It != Symbols.begin() && N < 64; ++N) {
    const DataSymbol &S = *--It;
    if (S.TLS != TLS || Offset - S.Value >= S.Size)
      continue;
    if (!Best || std::tie(S.Rank, S.Size) < std::tie(Best->Rank, Best->Size))
      Best = &S;
  }
  return Best;
}

/// A variable's DW_AT_location, if it is a static address (DW_OP_addr,
/// DW_OP_addrx) or a TLS offset (an address or constant, then
/// DW_OP_GNU_push_tls_address or DW_OP_form_tls_address).
std::optional<std::pair<bool, uint64_t>> variableLocation(DWARFDie D) {
  std::optional<DWARFFormValue> V = D.find(dwarf::DW_AT_location);
  std::optional<ArrayRef<uint8_t>> Block = V ? V->getAsBlock() : std::nullopt;
  if (!Block || Block->empty())
    return std::nullopt;
  DWARFUnit &U = *D.getDwarfUnit();
  DataExtractor Data(toStringRef(*Block), true, U.getAddressByteSize());
  DataExtractor::Cursor C(0);
  uint8_t Op = Data.getU8(C);
  uint64_t Value = 0;
  bool Address = Op == dwarf::DW_OP_addr || Op == dwarf::DW_OP_addrx ||
                 Op == dwarf::DW_OP_GNU_addr_index;
  if (Op == dwarf::DW_OP_addr)
    Value = Data.getAddress(C);
  else if (Op == dwarf::DW_OP_addrx || Op == dwarf::DW_OP_GNU_addr_index) {
    std::optional<object::SectionedAddress> A =
        U.getAddrOffsetSectionItem(uint32_t(Data.getULEB128(C)));
    Value = A ? A->Address : 0;
    Address = A.has_value();
  } else if (Op == dwarf::DW_OP_const4u)
    Value = Data.getU32(C);
  else if (Op == dwarf::DW_OP_const8u)
    Value = Data.getU64(C);
  else if (Op == dwarf::DW_OP_constu)
    Value = Data.getULEB128(C);
  else
    return std::nullopt;
  bool End = C && C.tell() == Data.size();
  uint8_t Next = End ? 0 : Data.getU8(C);
  bool TLS = Next == dwarf::DW_OP_GNU_push_tls_address ||
             Next == dwarf::DW_OP_form_tls_address;
  if (!C) {
    consumeError(C.takeError());
    return std::nullopt;
  }
  if ((End && Address) || (TLS && C.tell() == Data.size()))
    return std::make_pair(TLS, Value);
  return std::nullopt;
}

/// Every variable with a static or TLS location, by it and by its name:
/// one walk over the debug information, the first time it is needed.
void ModuleData::index() {
  Indexed = true;
  if (!Dwarf)
    return;
  for (const std::unique_ptr<DWARFUnit> &U : Dwarf->compile_units())
    for (const DWARFDebugInfoEntry &E : U->dies()) {
      DWARFDie D(U.get(), &E);
      if (D.getTag() != dwarf::DW_TAG_variable)
        continue;
      std::optional<std::pair<bool, uint64_t>> At = variableLocation(D);
      if (!At)
        continue;
      Variables.try_emplace(*At, D);
      for (const char *Name : {D.getLinkageName(), D.getShortName()})
        if (Name)
          Names.try_emplace({At->first, Name}, D);
    }
}

DWARFDie ModuleData::variable(const DataSymbol &S) {
  if (!Indexed)
    index();
  auto It = Variables.find({S.TLS, S.Value});
  if (It != Variables.end())
    return It->second;
  auto ByName = Names.find({S.TLS, S.Name});
  return ByName == Names.end() ? DWARFDie() : ByName->second;
}

PointerNamer *ModuleData::pointerNamer() {
  if (!Arguments)
    Arguments =
        Dwarf
            ? PointerNamer::create(
                  *cast<object::ObjectFile>(File.getBinary()), *Dwarf,
                  [this](uint64_t Address) {
                    const DataSymbol *S = symbolAt(Address, /*TLS=*/false);
                    return S && S->Value == Address ? variable(*S) : DWARFDie();
                  })
            : nullptr;
  return Arguments->get();
}

std::optional<uint64_t>
ModuleData::executableTlsOffset(int64_t TpOffset) const {
  if (!Executable || !TlsSize)
    return std::nullopt;
  // Where the executable's block starts from the thread pointer: x86-64's
  // TLS variant II puts it right below, AArch64's variant I after the
  // 16-byte thread control block.
  int64_t Begin;
  if (Machine == ELF::EM_X86_64)
    Begin = -int64_t(alignTo(TlsSize, TlsAlign));
  else if (Machine == ELF::EM_AARCH64)
    Begin = int64_t(alignTo(16, TlsAlign));
  else
    return std::nullopt;
  if (TpOffset < Begin || uint64_t(TpOffset - Begin) >= TlsSize)
    return std::nullopt;
  return uint64_t(TpOffset - Begin);
}

//===----------------------------------------------------------------------===//
// The lines' accesses named
//===----------------------------------------------------------------------===//

/// "+0x10", "-0x38"
std::string signedHex(int64_t V) {
  return V < 0 ? "-" + hexAddress(0 - uint64_t(V)) : "+" + hexAddress(V);
}

class DataNamer {
public:
  DataNamer(TraceReport &R, bool Demangle, bool Files, bool Types)
      : R(R), Demangle(Demangle), Files(Files), Types(Types) {}
  /// Names the accesses of L and L itself; with Sites, bytes without a
  /// symbol also by what each access's own code says (a data line's; a
  /// wait's line has no access site).
  void nameLine(DataLine &L, bool Sites);
  /// The name the code gives a wait's word (PointerNamer), from the
  /// stacks of its waits, heaviest first.
  std::optional<std::string> waitArgument(const WaitObject &O);

private:
  ModuleData *module(uint32_t M);
  bool nameStatic(DataAccess &A, uint32_t Module, uint64_t Offset, bool TLS);
  /// Bytes without a symbol (the heap, a stack, shared memory): the member
  /// the access's code says it touches (PointerNamer::accessName), after
  /// its region: "heap Shard::mu", "stack Server::requests".
  bool nameByAccess(const DataLine &L, DataAccess &A);
  void nameTLS(DataLine &L, bool Sites);
  /// What a line is called where its bytes have no symbol.
  std::string lineName(const DataLine &L) const;
  std::string lineObject(const DataLine &L) const;

  TraceReport &R;
  bool Demangle, Files, Types;
  std::map<uint32_t, std::unique_ptr<ModuleData>> Modules;
  int64_t ThreadPointer = 0; // of the TLS line being named
  /// waitArgument's answers by frame (module, offset): many waits share
  /// their callers.
  std::map<std::tuple<uint32_t, uint64_t, bool>, std::optional<std::string>>
      ArgumentNames;
  /// nameByAccess's answers by site (module, offset).
  std::map<std::pair<uint32_t, uint64_t>, std::optional<std::string>>
      AccessNames;
};

ModuleData *DataNamer::module(uint32_t M) {
  auto [It, New] = Modules.try_emplace(M);
  const TraceModule &Mod = R.Modules[M];
  if (New && Files && Mod.Symbolized)
    It->second = ModuleData::load(Mod.SymbolizedPath, Types);
  return It->second.get();
}

std::optional<std::string> DataNamer::waitArgument(const WaitObject &O) {
  if (!Files || !Types)
    return std::nullopt;
  for (uint32_t Row : O.Rows) {
    int64_t Stack = R.Waits[Row].Stack;
    if (Stack < 0)
      continue;
    // Frame 0 is where the thread blocked, each other a return address
    // less one. The caller is the innermost frame with debug information
    // that is not a lock function's own (an out-of-line std::mutex::lock).
    ArrayRef<uint32_t> Frames = R.WaitStacks[Stack].Frames;
    for (uint32_t I : Frames.drop_front()) {
      const TraceFrame &F = R.Frames[I];
      ModuleData *M = R.Modules[F.Module].NoModule ? nullptr : module(F.Module);
      PointerNamer *A = M ? M->pointerNamer() : nullptr;
      if (!A || !A->hasFunction(F.Offset) || A->inWaitFunction(F.Offset))
        continue;
      // The row's kind, from its whole stack: which word a condition
      // variable's wait blocked on.
      bool OnCondition = trace::isConditionWaitKind(R.Waits[Row].Kind.c_str());
      auto [It, New] =
          ArgumentNames.try_emplace({F.Module, F.Offset, OnCondition});
      if (New)
        It->second = A->argumentName(F.Offset, OnCondition);
      if (It->second)
        return It->second;
      break;
    }
  }
  return std::nullopt;
}

/// Static data or TLS: the symbol, then (from the debug information) the
/// member; false without a symbol.
bool DataNamer::nameStatic(DataAccess &A, uint32_t Module, uint64_t Offset,
                           bool TLS) {
  ModuleData *M = module(Module);
  const DataSymbol *S = M ? M->symbolAt(Offset, TLS) : nullptr;
  if (!S)
    return false;
  A.Object = displaySymbol(S->Name, Demangle);
  uint64_t In = Offset - S->Value;
  DWARFDie V = Types ? M->variable(*S) : DWARFDie();
  if (!V) {
    A.Name = In ? A.Object + "+" + std::to_string(In) : A.Object;
    return true;
  }
  uint64_t Size = std::min<uint64_t>(A.Size ? A.Size : 1, S->Size - In);
  A.Name = A.Object + memberPath(variableType(V), In, Size, 0);
  A.Typed = true;
  return true;
}

bool DataNamer::nameByAccess(const DataLine &L, DataAccess &A) {
  if (!Files || !Types || A.Site >= R.Frames.size())
    return false;
  const TraceFrame &F = R.Frames[A.Site];
  if (R.Modules[F.Module].NoModule)
    return false;
  auto [It, New] = AccessNames.try_emplace({F.Module, F.Offset});
  if (New) {
    ModuleData *M = module(F.Module);
    PointerNamer *P = M ? M->pointerNamer() : nullptr;
    if (P)
      It->second = P->accessName(F.Offset);
  }
  if (!It->second)
    return false;
  switch (L.Region) {
  case DataRegion::Heap:
    A.Name = "heap " + *It->second;
    break;
  case DataRegion::Stack:
    A.Name = "stack " + *It->second;
    break;
  case DataRegion::TLS:
    A.Name = "tls " + *It->second;
    break;
  case DataRegion::Shared:
    A.Name = "shared " + *It->second;
    break;
  case DataRegion::Module:
  case DataRegion::Unknown:
    A.Name = *It->second;
    break;
  }
  A.Typed = true;
  return true;
}

/// TLS: the bytes of one thread's block, from the thread pointer of the
/// thread whose TLS it is (its own accesses; another thread's, given a
/// pointer, say it is private memory), in the module the dump says or
/// else in the executable's block.
void DataNamer::nameTLS(DataLine &L, bool Sites) {
  const DataAccess *Own = nullptr;
  for (const DataAccess &A : L.Accesses)
    if (A.Region == DataRegion::TLS && !Own)
      Own = &A;
  if (!Own)
    return;
  ThreadPointer = int64_t(Own->Address - uint64_t(Own->TpOffset));
  const std::vector<uint32_t> &Mods = R.Processes[L.Process].Modules;
  for (DataAccess &A : L.Accesses) {
    int64_t TpOffset = int64_t(A.Address - uint64_t(ThreadPointer));
    std::optional<std::pair<uint32_t, uint64_t>> In;
    int64_t Delta = int64_t(A.Address - Own->Address);
    if (Own->TlsModule >= 0 && int64_t(Own->Place) + Delta >= 0)
      In = {uint32_t(Own->TlsModule), Own->Place + Delta};
    for (size_t I = 0; I < Mods.size() && !In && Own->TlsModule < 0; ++I)
      if (ModuleData *M = module(Mods[I]))
        if (std::optional<uint64_t> Off = M->executableTlsOffset(TpOffset))
          In = {Mods[I], *Off};
    if ((!In || !nameStatic(A, In->first, In->second, /*TLS=*/true)) &&
        !(Sites && nameByAccess(L, A)))
      A.Name = "tls tp" + signedHex(TpOffset);
  }
}

std::string DataNamer::lineName(const DataLine &L) const {
  switch (L.Region) {
  case DataRegion::Module:
    return moduleText(R, L.Module, L.Start);
  case DataRegion::Shared:
    return L.File + "+" + hexAddress(L.Start);
  case DataRegion::TLS:
    return "tls tp" + signedHex(int64_t(L.Start - uint64_t(ThreadPointer)));
  case DataRegion::Heap:
    return "heap " + hexAddress(L.Start);
  case DataRegion::Unknown:
    return "unknown " + hexAddress(L.Start);
  case DataRegion::Stack:
    break;
  }
  // The stack's own thread, as the dump says (the sampled thread's own
  // stack, or the main thread's, the process's initial stack), or else the
  // thread that saw it as its stack; of several, the one with the most
  // samples.
  std::map<int64_t, uint64_t> Samples;
  for (const DataAccess &A : L.Accesses)
    if (A.Region == DataRegion::Stack)
      Samples[A.StackOwner >= 0 ? A.StackOwner : R.Threads[A.Thread].Tid] +=
          A.Samples;
  auto Most = max_element(Samples, [](const auto &A, const auto &B) {
    return A.second < B.second;
  });
  int64_t Tid =
      Most == Samples.end() ? R.Threads[L.Accesses[0].Thread].Tid : Most->first;
  return "stack of thread " + std::to_string(Tid);
}

/// The objects of a line, by offset: the variables its bytes are of (the
/// line's own name for bytes of none); four at most.
std::string DataNamer::lineObject(const DataLine &L) const {
  std::vector<std::string> Out;
  for (const DataAccess &A : L.Accesses) {
    std::string Name = A.Object.empty() ? lineName(L) : A.Object;
    if (!is_contained(Out, Name))
      Out.push_back(Name);
  }
  if (Out.size() > 4) {
    size_t More = Out.size() - 3;
    Out.resize(3);
    Out.push_back("+" + std::to_string(More) + " more");
  }
  return join(Out, ", ");
}

void DataNamer::nameLine(DataLine &L, bool Sites) {
  ThreadPointer = 0;
  for (DataAccess &A : L.Accesses) {
    A.Name.clear();
    A.Object.clear();
    A.Typed = false;
  }
  if (L.Region == DataRegion::TLS)
    nameTLS(L, Sites);
  for (DataAccess &A : L.Accesses) {
    if (!A.Name.empty())
      continue;
    if (L.Region == DataRegion::Module &&
        nameStatic(A, L.Module, A.Place, /*TLS=*/false))
      continue;
    if (Sites && nameByAccess(L, A))
      continue;
    if (L.Region == DataRegion::Module)
      A.Name = moduleText(R, L.Module, A.Place);
    else if (L.Region == DataRegion::Shared)
      A.Name = L.File + "+" + hexAddress(A.Place);
    else
      A.Name = lineName(L);
  }
  // Bytes without a symbol that one access's code names are so named for
  // the line's other accesses to the same bytes, whose code does not say
  // (the compiler's location of the pointer variable does not cover them).
  if (Sites && L.Region != DataRegion::Module)
    for (DataAccess &A : L.Accesses) {
      if (A.Typed)
        continue;
      auto Named = find_if(L.Accesses, [&](const DataAccess &B) {
        return B.Typed && B.Offset == A.Offset && B.Size == A.Size;
      });
      if (Named != L.Accesses.end()) {
        A.Name = Named->Name;
        A.Typed = true;
      }
    }
  L.Object = lineObject(L);
}

} // namespace

void nameData(TraceReport &R, bool Demangle, bool Files, bool Types) {
  DataNamer N(R, Demangle, Files, Types);
  for (DataLine &L : R.Lines)
    N.nameLine(L, /*Sites=*/true);
  groupMembers(R);
}

namespace {

/// An identifier the C and C++ standards reserve for the implementation.
bool isReserved(StringRef Name) {
  return Name.starts_with("__") ||
         (Name.size() > 1 && Name[0] == '_' && isUpper(Name[1]));
}

/// What a wait's object is called where it is no futex word: its file, or
/// its descriptor; "(none)".
std::string otherObjectName(const TraceReport &R, const WaitObject &O) {
  if (O.Target == WaitTarget::None)
    return "(none)";
  if (!O.Line.File.empty())
    return O.Line.File;
  std::string Name = "fd " + std::to_string(O.Fd);
  if (R.Processes.size() > 1)
    Name += " " + processLabel(R, O.Line.Process);
  return Name;
}

} // namespace

std::string withoutLibraryMembers(StringRef Name) {
  for (size_t At = Name.find('.'); At != StringRef::npos;
       At = Name.find('.', At + 1)) {
    StringRef Member = Name.substr(At + 1);
    Member.consume_front("{");
    if (isReserved(Member))
      return Name.take_front(At).str();
  }
  return Name.str();
}

void nameWaitObjects(TraceReport &R, bool Demangle, bool Files, bool Types) {
  DataNamer N(R, Demangle, Files, Types);
  for (WaitObject &O : R.WaitObjects) {
    if (O.Target != WaitTarget::Address) {
      O.Name = otherObjectName(R, O);
      continue;
    }
    N.nameLine(O.Line, /*Sites=*/false);
    const DataAccess &A = O.Line.Accesses.front();
    O.Name = A.Typed ? withoutLibraryMembers(A.Name) : A.Name;
    // A process's memory: the word's address, and whose it is.
    DataRegion Region = O.Line.Region;
    if (Region == DataRegion::Heap || Region == DataRegion::Stack)
      if (std::optional<std::string> Name = N.waitArgument(O)) {
        O.Name = (Region == DataRegion::Heap ? "heap " : "stack ") + *Name;
        if (R.Processes.size() > 1)
          O.Name += " " + processLabel(R, O.Line.Process);
        continue;
      }
    if (Region == DataRegion::Stack)
      O.Name += " at " + hexAddress(A.Address);
    if (Region != DataRegion::Module && Region != DataRegion::Shared &&
        !A.Typed && R.Processes.size() > 1)
      O.Name += " " + processLabel(R, O.Line.Process);
  }
}

} // namespace report
} // namespace pcmap
