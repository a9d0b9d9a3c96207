//===- TargetTriple.cpp - The parts of a triple the runtime depends on ----===//
//
// The names below are LLVM's (llvm/lib/TargetParser/Triple.cpp): the
// spellings each part accepts and the canonical name of what they mean.
// Triple::normalize moves each part to its place: the first component that
// is an architecture becomes the architecture, then the vendor, the OS and
// the environment from the components left, in order; a component in its
// place already stays there. parseTargetTriple chooses the same components.
//
//===----------------------------------------------------------------------===//

#include "TargetTriple.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace pcmap::driver {

namespace {

/// A canonical name and the spellings that mean it, separated by spaces.
struct Spellings {
  const char *Canonical;
  const char *Names;
};

/// Each architecture's name (Triple::getArchTypeName) and the spellings LLVM
/// takes whole for it; ARM, BPF and versioned names are parsed below.
constexpr Spellings Architectures[] = {
    {"i386", "i386 i486 i586 i686 i786 i886 i986"},
    {"x86_64", "amd64 x86_64 x86_64h"},
    {"powerpc", "powerpc powerpcspe ppc ppc32"},
    {"powerpcle", "powerpcle ppcle ppc32le"},
    {"powerpc64", "powerpc64 ppu ppc64"},
    {"powerpc64le", "powerpc64le ppc64le"},
    {"arm", "arm xscale"},
    {"armeb", "armeb xscaleeb"},
    {"aarch64", "aarch64 arm64 arm64e arm64ec"},
    {"aarch64_be", "aarch64_be"},
    {"aarch64_32", "aarch64_32 arm64_32"},
    {"thumb", "thumb"},
    {"thumbeb", "thumbeb"},
    {"mips", "mips mipseb mipsallegrex mipsisa32r6 mipsr6"},
    {"mipsel", "mipsel mipsallegrexel mipsisa32r6el mipsr6el"},
    {"mips64", "mips64 mips64eb mipsn32 mipsisa64r6 mips64r6 mipsn32r6"},
    {"mips64el", "mips64el mipsn32el mipsisa64r6el mips64r6el mipsn32r6el"},
    {"s390x", "s390x systemz"},
    {"sparcv9", "sparcv9 sparc64"},
    {"spirv", "spirv spirv1.5 spirv1.6"},
    {"riscv32", "riscv32"},
    {"riscv64", "riscv64"},
    {"loongarch32", "loongarch32"},
    {"loongarch64", "loongarch64"},
    {"sparc", "sparc"},
    {"sparcel", "sparcel"},
    {"arc", "arc"},
    {"avr", "avr"},
    {"m68k", "m68k"},
    {"msp430", "msp430"},
    {"hexagon", "hexagon"},
    {"csky", "csky"},
    {"xtensa", "xtensa"},
    {"xcore", "xcore"},
    {"ve", "ve"},
    {"tce", "tce"},
    {"tcele", "tcele"},
    {"lanai", "lanai"},
    {"shave", "shave"},
    {"pe", "pe"},
    {"wasm32", "wasm32"},
    {"wasm64", "wasm64"},
    {"r600", "r600"},
    {"amdgcn", "amdgcn"},
    {"nvptx", "nvptx"},
    {"nvptx64", "nvptx64"},
    {"amdil", "amdil"},
    {"amdil64", "amdil64"},
    {"hsail", "hsail"},
    {"hsail64", "hsail64"},
    {"spir", "spir"},
    {"spir64", "spir64"},
    {"renderscript32", "renderscript32"},
    {"renderscript64", "renderscript64"}};

/// The OSes: each one's name (Triple::getOSTypeName) and the prefixes of its
/// spellings, in the order LLVM tries them.
constexpr Spellings OSes[] = {{"darwin", "darwin"},
                              {"dragonfly", "dragonfly"},
                              {"freebsd", "freebsd"},
                              {"fuchsia", "fuchsia"},
                              {"ios", "ios"},
                              {"kfreebsd", "kfreebsd"},
                              {"linux", "linux"},
                              {"lv2", "lv2"},
                              {"macosx", "macos"},
                              {"netbsd", "netbsd"},
                              {"openbsd", "openbsd"},
                              {"solaris", "solaris"},
                              {"uefi", "uefi"},
                              {"windows", "win32 windows"},
                              {"zos", "zos"},
                              {"haiku", "haiku"},
                              {"rtems", "rtems"},
                              {"nacl", "nacl"},
                              {"aix", "aix"},
                              {"cuda", "cuda"},
                              {"nvcl", "nvcl"},
                              {"amdhsa", "amdhsa"},
                              {"ps4", "ps4"},
                              {"ps5", "ps5"},
                              {"elfiamcu", "elfiamcu"},
                              {"tvos", "tvos"},
                              {"watchos", "watchos"},
                              {"bridgeos", "bridgeos"},
                              {"driverkit", "driverkit"},
                              {"xros", "xros visionos"},
                              {"mesa3d", "mesa3d"},
                              {"amdpal", "amdpal"},
                              {"hermit", "hermit"},
                              {"hurd", "hurd"},
                              {"wasi", "wasi"},
                              {"emscripten", "emscripten"},
                              {"shadermodel", "shadermodel"},
                              {"liteos", "liteos"},
                              {"serenity", "serenity"},
                              {"vulkan", "vulkan"}};

/// The environments, each its name and the prefix of its spellings, in
/// LLVM's order (a longer name before its prefix).
constexpr const char *Environments =
    "eabihf eabi gnuabin32 gnuabi64 gnueabihft64 gnueabihf gnueabit64 gnueabi "
    "gnuf32 gnuf64 gnusf gnux32 gnu_ilp32 code16 gnut64 gnu android "
    "muslabin32 muslabi64 musleabihf musleabi muslf32 muslsf muslx32 musl "
    "msvc itanium cygnus coreclr simulator macabi pixel vertex geometry hull "
    "domain compute library raygeneration intersection anyhit closesthit "
    "miss callable mesh amplification opencl ohos pauthtest llvm";

/// Object file formats, which may stand in the environment's place: each a
/// suffix of its spellings.
constexpr const char *ObjectFormats = "xcoff coff elf goff macho wasm spirv";

constexpr const char *Vendors =
    "apple pc scei sie fsl ibm img mti nvidia csr amd mesa suse oe intel";

/// The first word of the space-separated List for which Match holds; "" if
/// none.
template <typename Predicate>
std::string_view findWord(std::string_view List, Predicate Match) {
  while (!List.empty()) {
    size_t Space = List.find(' ');
    std::string_view Word = List.substr(0, Space);
    if (Match(Word))
      return Word;
    List = Space == std::string_view::npos ? "" : List.substr(Space + 1);
  }
  return {};
}

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

/// What follows "arm", "thumb" or "aarch64" (and "eb"), as
/// ARM::getCanonicalArchName returns it: the whole name if nothing follows,
/// "" if the name is not an ARM architecture.
std::string_view armSubArch(std::string_view Name) {
  size_t Offset = std::string_view::npos;
  for (std::string_view Prefix :
       {"arm64_32", "arm64e", "arm64", "aarch64_32", "arm", "thumb"})
    if (startsWith(Name, Prefix)) {
      Offset = Prefix.size();
      break;
    }
  if (Offset == std::string_view::npos && startsWith(Name, "aarch64")) {
    if (Name.find("eb") != std::string_view::npos)
      return {}; // AArch64 says "_be".
    Offset = Name.substr(7, 3) == "_be" ? 10 : 7;
  }
  std::string_view Rest = Name;
  if (Offset != std::string_view::npos && Name.substr(Offset, 2) == "eb")
    Offset += 2;
  else if (endsWith(Rest, "eb"))
    Rest.remove_suffix(2);
  if (Offset != std::string_view::npos)
    Rest = Rest.substr(std::min(Offset, Rest.size()));
  if (Rest.empty())
    return Name;
  if (Rest.size() >= 2 && (Rest[0] != 'v' || !std::isdigit(Rest[1])))
    return {};
  return Rest.find("eb") == std::string_view::npos ? Rest : std::string_view();
}

/// An ARM, Thumb or AArch64 name with a version or an endianness
/// ("armv7a", "thumbv7eb", "aarch64_be").
std::string_view parseARMArch(std::string_view Name) {
  bool AArch64 = startsWith(Name, "aarch64") || startsWith(Name, "arm64");
  bool Thumb = !AArch64 && startsWith(Name, "thumb");
  bool Big = startsWith(Name, "armeb") || startsWith(Name, "thumbeb") ||
             startsWith(Name, "aarch64_be") ||
             ((startsWith(Name, "arm") || Thumb) && endsWith(Name, "eb"));
  std::string_view Sub = armSubArch(Name);
  if (Sub.empty())
    return {};
  if (Thumb && (startsWith(Sub, "v2") || startsWith(Sub, "v3")))
    return {}; // Thumb exists from v4 on.
  for (std::string_view V6M : {"v6m", "v6sm", "v6s-m", "v6-m"})
    if (Sub == V6M) // Thumb only.
      return Big ? "thumbeb" : "thumb";
  if (AArch64)
    return Big ? "aarch64_be" : "aarch64";
  if (Thumb)
    return Big ? "thumbeb" : "thumb";
  return Big ? "armeb" : "arm";
}

/// Triple::getArchTypeName of what Component names; "" if none.
std::string_view parseArch(std::string_view Component) {
  auto Is = [&](std::string_view Name) { return Component == Name; };
  for (const Spellings &S : Architectures)
    if (!findWord(S.Names, Is).empty())
      return S.Canonical;
  if (startsWith(Component, "kalimba"))
    return "kalimba";
  if (startsWith(Component, "arm") || startsWith(Component, "thumb") ||
      startsWith(Component, "aarch64"))
    return parseARMArch(Component);
  if (Component == "bpf") // The host's byte order.
    return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "bpfeb" : "bpfel";
  if (Component == "bpf_be" || Component == "bpfeb")
    return "bpfeb";
  if (Component == "bpf_le" || Component == "bpfel")
    return "bpfel";
  if (startsWith(Component, "dxil")) {
    std::string_view V = Component.substr(4);
    if (V.empty() ||
        (V.size() == 4 && startsWith(V, "v1.") && V[3] >= '0' && V[3] <= '8'))
      return "dxil";
  }
  for (std::string_view SPIRV : {"spirv32", "spirv64"})
    if (startsWith(Component, SPIRV)) {
      std::string_view V = Component.substr(SPIRV.size());
      if (V.empty() ||
          (V.size() == 4 && startsWith(V, "v1.") && V[3] >= '0' && V[3] <= '6'))
        return SPIRV;
    }
  return {};
}

std::string_view parseOS(std::string_view Component) {
  auto Prefixes = [&](std::string_view Name) {
    return startsWith(Component, Name);
  };
  for (const Spellings &S : OSes)
    if (!findWord(S.Names, Prefixes).empty())
      return S.Canonical;
  return {};
}

std::string_view parseEnvironment(std::string_view Component) {
  return findWord(Environments, [&](std::string_view Name) {
    return startsWith(Component, Name);
  });
}

std::string_view parseObjectFormat(std::string_view Component) {
  return findWord(ObjectFormats, [&](std::string_view Name) {
    return endsWith(Component, Name);
  });
}

bool isVendor(std::string_view Component) {
  return !findWord(Vendors, [&](std::string_view Name) {
            return Component == Name;
          }).empty();
}

enum Part { ArchPart, VendorPart, OSPart, EnvironmentPart, NumParts };

/// Whether Component may fill Part when normalize looks for one: the OS may
/// be Windows' "mingw" and "cygwin", the environment an object format.
bool canFill(std::string_view Component, int P) {
  switch (P) {
  case ArchPart:
    return !parseArch(Component).empty();
  case VendorPart:
    return isVendor(Component);
  case OSPart:
    return !parseOS(Component).empty() || startsWith(Component, "cygwin") ||
           startsWith(Component, "mingw");
  default:
    return !parseEnvironment(Component).empty() ||
           !parseObjectFormat(Component).empty();
  }
}

/// The component that normalize puts in each part's place, or -1: a
/// component in its place that parses as the part stays; a part still
/// missing takes the first component left that fits it.
std::vector<int>
choosePartComponents(const std::vector<std::string_view> &Components) {
  std::vector<int> Chosen(NumParts, -1);
  std::vector<bool> Taken(Components.size(), false);
  auto Take = [&](int P, size_t I) {
    Chosen[P] = int(I);
    Taken[I] = true;
  };
  if (Components.size() > 0 && !parseArch(Components[0]).empty())
    Take(ArchPart, 0);
  if (Components.size() > 1 && isVendor(Components[1]))
    Take(VendorPart, 1);
  if (Components.size() > 2 && !parseOS(Components[2]).empty())
    Take(OSPart, 2);
  if (Components.size() > 3 && !parseEnvironment(Components[3]).empty())
    Take(EnvironmentPart, 3);
  for (int P = 0; P != NumParts; ++P) {
    for (size_t I = 0; Chosen[P] < 0 && I != Components.size(); ++I)
      if (!Taken[I] && canFill(Components[I], P))
        Take(P, I);
  }
  return Chosen;
}

/// The environment of a triple of one component: a MIPS architecture's
/// default ABI, as Triple's constructor gives it.
std::string_view mipsEnvironment(std::string_view Arch) {
  if (startsWith(Arch, "mipsn32"))
    return "gnuabin32";
  if (startsWith(Arch, "mips64") || startsWith(Arch, "mipsisa64"))
    return "gnuabi64";
  if (startsWith(Arch, "mipsisa32") || Arch == "mips" || Arch == "mipsel" ||
      Arch == "mipsr6" || Arch == "mipsr6el")
    return "gnu";
  return {};
}

std::string nameOrUnknown(std::string_view Name) {
  return Name.empty() ? "unknown" : std::string(Name);
}

} // namespace

TargetTriple parseTargetTriple(std::string_view Triple) {
  std::vector<std::string_view> Components;
  for (size_t Pos = 0;;) {
    size_t Dash = Triple.find('-', Pos);
    Components.push_back(Triple.substr(Pos, Dash - Pos));
    if (Dash == std::string_view::npos)
      break;
    Pos = Dash + 1;
  }
  std::vector<int> Chosen = choosePartComponents(Components);
  auto Component = [&](int P) {
    return Chosen[P] < 0 ? std::string_view() : Components[Chosen[P]];
  };
  std::string_view OSComponent = Component(OSPart);
  std::string_view EnvComponent = Component(EnvironmentPart);
  std::string_view Arch = parseArch(Component(ArchPart));
  std::string_view OS = parseOS(OSComponent);
  std::string_view Environment = parseEnvironment(EnvComponent);
  // A lone component that is no other part keeps its place (and a MIPS one
  // its ABI).
  if (Components.size() == 1 && Chosen[VendorPart] < 0 && Chosen[OSPart] < 0 &&
      Chosen[EnvironmentPart] < 0)
    Environment = mipsEnvironment(Components[0]);
  if (Component(VendorPart) == "suse" && Environment == "gnueabi")
    Environment = "gnueabihf"; // SUSE's gnueabi is hard-float.
  if (OS == "windows" && Environment.empty()) {
    std::string_view Format = parseObjectFormat(EnvComponent);
    if (Format.empty() || Format == "coff")
      Environment = "msvc";
  } else if (startsWith(OSComponent, "mingw")) {
    OS = "windows";
    Environment = "gnu";
  } else if (startsWith(OSComponent, "cygwin")) {
    OS = "windows";
    Environment = "cygnus";
  }
  return {nameOrUnknown(Arch), nameOrUnknown(OS), nameOrUnknown(Environment)};
}

} // namespace pcmap::driver
