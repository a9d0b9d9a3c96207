//===- options.cpp - The runtime's options
//---------------------------------===//

#include "core/options.h"

#include "core/log.h"
#include "core/mapped.h"
#include "platform/platform.h"

#include <string.h>

extern "C" const char *__pcmap_default_options() __attribute__((weak));
// Defined by libpcmap_rt_driver.a, which the drivers link (driver_options.cpp).
extern "C" const char *__pcmap_driver_options() __attribute__((weak));

namespace pcmap {
namespace rt {

PCMAP_STARTUP_STATE Options Flags;
PCMAP_STARTUP_STATE bool SecureMode;

namespace {

/// Storage for string values: parsed once, never freed, no malloc; mapped
/// by the first (mapped.h).
constexpr size_t kStringPoolBytes = 4096;
MappedArray<char, kStringPoolBytes> StringPool;
size_t StringPoolUsed;

PCMAP_STARTUP_CODE const char *keepString(const char *Begin, size_t Len) {
  if (StringPoolUsed + Len + 1 > kStringPoolBytes || !StringPool.get())
    return nullptr;
  char *S = StringPool.get() + StringPoolUsed;
  memcpy(S, Begin, Len);
  S[Len] = '\0';
  StringPoolUsed += Len + 1;
  return S;
}

PCMAP_STARTUP_CODE bool isSeparator(char C) {
  return C == ':' || C == ',' || C == ' ' || C == '\t' || C == '\n' ||
         C == '\r';
}

PCMAP_STARTUP_CODE bool equals(const char *Begin, size_t Len,
                               const char *Word) {
  return strlen(Word) == Len && !memcmp(Begin, Word, Len);
}

PCMAP_STARTUP_CODE bool parseValue(bool &Out, const char *V, size_t Len) {
  if (equals(V, Len, "1") || equals(V, Len, "true") || equals(V, Len, "yes"))
    return Out = true, true;
  if (equals(V, Len, "0") || equals(V, Len, "false") || equals(V, Len, "no"))
    return Out = false, true;
  return false;
}

PCMAP_STARTUP_CODE bool parseValue(int &Out, const char *V, size_t Len) {
  bool Negative = Len && V[0] == '-';
  size_t I = Negative;
  if (I == Len)
    return false;
  long long Value = 0;
  for (; I < Len; ++I) {
    if (V[I] < '0' || V[I] > '9')
      return false;
    Value = Value * 10 + (V[I] - '0');
    if (Value > 0x7fffffff)
      return false;
  }
  Out = int(Negative ? -Value : Value);
  return true;
}

PCMAP_STARTUP_CODE bool parseValue(const char *&Out, const char *V,
                                   size_t Len) {
  const char *S = keepString(V, Len);
  if (!S)
    return false;
  Out = S;
  return true;
}

void warn(const char *Source, const char *What, const char *Begin, size_t Len,
          const char *Option) {
  char Quoted[128];
  size_t N = Len < sizeof(Quoted) - 1 ? Len : sizeof(Quoted) - 1;
  memcpy(Quoted, Begin, N);
  Quoted[N] = '\0';
  Message M;
  M << "warning: " << What << " '" << Quoted << "'";
  if (Option)
    M << " for option '" << Option << "'";
  M << " in " << Source << " (ignored)";
  M.emit();
}

/// Sets the option named [Key, Key + KeyLen) to the value; false if there is
/// no such option (Known is false) or the value is bad (Known is true).
PCMAP_STARTUP_CODE bool setOption(Options &O, const char *Key, size_t KeyLen,
                                  const char *Value, size_t ValueLen,
                                  bool &Known) {
  Known = true;
#define PCMAP_OPTION(Type, Name, Default, Description)                         \
  if (equals(Key, KeyLen, #Name))                                              \
    return parseValue(O.Name, Value, ValueLen);
#include "core/options.inc"
#undef PCMAP_OPTION
  Known = false;
  return false;
}

void printValue(Message &M, bool V) { M << (V ? "1" : "0"); }
void printValue(Message &M, int V) {
  if (V < 0)
    M << "-" << uint64_t(-int64_t(V));
  else
    M << uint64_t(V);
}
void printValue(Message &M, const char *V) { M << (V ? V : ""); }

} // namespace

PCMAP_STARTUP_CODE unsigned parseOptions(Options &Into, const char *Text,
                                         const char *Source) {
  unsigned Problems = 0;
  const char *P = Text;
  while (P && *P) {
    while (*P && isSeparator(*P))
      ++P;
    if (!*P)
      break;
    const char *Key = P;
    while (*P && *P != '=' && !isSeparator(*P))
      ++P;
    size_t KeyLen = size_t(P - Key);
    if (*P != '=') {
      warn(Source, "option without a value", Key, KeyLen, nullptr);
      ++Problems;
      continue;
    }
    ++P; // '='
    const char *Value = P;
    size_t ValueLen;
    if (*P == '\'' || *P == '"') {
      char Quote = *P++;
      Value = P;
      while (*P && *P != Quote)
        ++P;
      ValueLen = size_t(P - Value);
      if (*P)
        ++P; // closing quote
    } else {
      while (*P && !isSeparator(*P))
        ++P;
      ValueLen = size_t(P - Value);
    }
    bool Known;
    if (!setOption(Into, Key, KeyLen, Value, ValueLen, Known)) {
      char Name[64];
      size_t N = KeyLen < sizeof(Name) - 1 ? KeyLen : sizeof(Name) - 1;
      memcpy(Name, Key, N);
      Name[N] = '\0';
      if (Known)
        warn(Source, "bad value", Value, ValueLen, Name);
      else
        warn(Source, "unknown option", Key, KeyLen, nullptr);
      ++Problems;
    }
  }
  return Problems;
}

void resetOptionStrings() { StringPoolUsed = 0; }

void printOptions(const Options &O) {
  Message Header;
  Header << "options (PCMAP_OPTIONS=key=value:key=value):";
  Header.emit();
#define PCMAP_OPTION(Type, Name, Default, Description)                         \
  {                                                                            \
    Message M;                                                                 \
    M << "  " #Name " (" #Type ") = ";                                         \
    printValue(M, O.Name);                                                     \
    M << "\n      " Description;                                               \
    M.emit();                                                                  \
  }
#include "core/options.inc"
#undef PCMAP_OPTION
}

PCMAP_STARTUP_CODE void initOptions() {
  PCMAP_STARTUP_STATE static bool Done;
  if (Done)
    return;
  Done = true;
  if (&__pcmap_driver_options)
    if (const char *Defaults = __pcmap_driver_options())
      parseOptions(Flags, Defaults, "the driver's defaults");
  if (&__pcmap_default_options)
    if (const char *Defaults = __pcmap_default_options())
      parseOptions(Flags, Defaults, "__pcmap_default_options()");
  SecureMode = isSecureProcess();
  if (SecureMode) {
    // The environment is the caller's, who has fewer privileges than the
    // process: nothing in it may choose a file the process writes or a
    // program it runs. Options compiled into the program still apply, but
    // not those that name a path or a program: a path fixed by the program's
    // author is still one the caller can prepare (a link, a FIFO).
    Flags.log_path = "stderr";
    Flags.report_path = "stderr";
    Flags.symbolizer_path = "";
    Flags.suppressions = "";
  } else if (const char *Env = getEnv("PCMAP_OPTIONS")) {
    parseOptions(Flags, Env, "PCMAP_OPTIONS");
  }
  Verbosity = Flags.verbosity;
  openLog(Flags.log_path);
  if (SecureMode && Verbosity >= 1) {
    Message M;
    M << "secure mode (AT_SECURE: the process has privileges its caller "
         "lacks): PCMAP_OPTIONS and PCMAP_SYMBOLIZER_PATH are ignored, "
         "output goes to stderr only";
    M.emit();
  }
  if (Flags.help)
    printOptions(Flags);
}

} // namespace rt
} // namespace pcmap
