//===- writer.cpp - The runtime's one bounded text writer -----------------===//

#include "core/writer.h"

#include "platform/platform.h"

#include <string.h>

namespace pcmap {
namespace rt {

Writer::Writer(char *Buffer, size_t Capacity, int Fd)
    : Buf(Buffer), Cap(Capacity), Fd(Fd) {
  if (Fd < 0 && Cap)
    Buf[0] = '\0';
}

void Writer::append(const char *S, size_t N) {
  if (!LineWidth)
    return appendRaw(S, N);
  // Columns counted as UTF-8 characters (continuation bytes add none).
  for (size_t I = 0; I < N; ++I) {
    char C = S[I];
    if (C == '\n') {
      appendRaw(Held, NumHeld);
      appendRaw(&C, 1);
      Column = NumHeld = 0;
      LineCut = false;
      continue;
    }
    if (LineCut)
      continue;
    if ((static_cast<unsigned char>(C) & 0xC0) != 0x80)
      ++Column;
    if (Column + 3 <= LineWidth) {
      appendRaw(&C, 1);
    } else if (Column <= LineWidth && NumHeld < sizeof(Held)) {
      Held[NumHeld++] = C; // the last three columns: the line may end here
    } else {
      appendRaw("...", 3);
      NumHeld = 0;
      LineCut = true;
    }
  }
}

void Writer::appendRaw(const char *S, size_t N) {
  if (Fd >= 0) {
    for (size_t I = 0; I < N; ++I) {
      if (Len == Cap)
        flush();
      Buf[Len++] = S[I];
    }
    return;
  }
  if (!Cap || Truncated)
    return;
  size_t I = 0;
  for (; I < N && Len + 1 < Cap; ++I)
    Buf[Len++] = S[I];
  if (I < N) {
    Truncated = true;
    for (size_t Dot = Len > 3 ? Len - 3 : 0; Dot < Len; ++Dot)
      Buf[Dot] = '.';
  }
  Buf[Len] = '\0';
}

void Writer::flush() {
  if (Fd < 0)
    return;
  writeAll(Fd, Buf, Len);
  Len = 0;
}

Writer &Writer::operator<<(const char *S) {
  if (S)
    append(S, strlen(S));
  return *this;
}

Writer &Writer::operator<<(uint64_t V) {
  char Digits[20];
  size_t N = sizeof(Digits);
  do {
    Digits[--N] = char('0' + V % 10);
    V /= 10;
  } while (V);
  append(Digits + N, sizeof(Digits) - N);
  return *this;
}

Writer &Writer::hex(uint64_t V) {
  char Digits[18];
  size_t N = sizeof(Digits);
  do {
    Digits[--N] = "0123456789abcdef"[V & 15];
    V >>= 4;
  } while (V);
  Digits[--N] = 'x';
  Digits[--N] = '0';
  append(Digits + N, sizeof(Digits) - N);
  return *this;
}

Writer &Writer::fixed(double V, int Digits) {
  if (V < 0) {
    *this << "-";
    V = -V;
  }
  uint64_t Scale = 1;
  for (int I = 0; I < Digits; ++I)
    Scale *= 10;
  uint64_t Scaled = uint64_t(V * double(Scale) + 0.5);
  *this << Scaled / Scale;
  if (Digits > 0) {
    *this << ".";
    char Frac[24];
    uint64_t F = Scaled % Scale;
    for (int I = Digits - 1; I >= 0; --I, F /= 10)
      Frac[I] = char('0' + F % 10);
    append(Frac, size_t(Digits));
  }
  return *this;
}

Writer &Writer::pad(const char *S, size_t Width, bool Right) {
  size_t N = strlen(S);
  if (Right)
    for (size_t I = N; I < Width; ++I)
      append(" ", 1);
  append(S, N);
  if (!Right)
    for (size_t I = N; I < Width; ++I)
      append(" ", 1);
  return *this;
}

Writer &Writer::padNumber(uint64_t V, size_t Width) {
  char Digits[24];
  Text T(Digits, sizeof(Digits));
  T << V;
  return pad(Digits, Width, /*Right=*/true);
}

Writer &Writer::csv(const char *S) {
  if (!strpbrk(S, ",\"\r\n"))
    return *this << S;
  append("\"", 1);
  for (; *S; ++S)
    append(*S == '"' ? "\"\"" : S, *S == '"' ? 2 : 1);
  append("\"", 1);
  return *this;
}

Writer &Writer::json(const char *S) {
  append("\"", 1);
  for (; *S; ++S) {
    unsigned char C = static_cast<unsigned char>(*S);
    if (C == '"')
      append("\\\"", 2);
    else if (C == '\\')
      append("\\\\", 2);
    else if (C == '\n')
      append("\\n", 2);
    else if (C == '\t')
      append("\\t", 2);
    else if (C < 0x20) {
      const char Esc[6] = {'\\',
                           'u',
                           '0',
                           '0',
                           "0123456789abcdef"[C >> 4],
                           "0123456789abcdef"[C & 15]};
      append(Esc, sizeof(Esc));
    } else {
      append(S, 1);
    }
  }
  append("\"", 1);
  return *this;
}

} // namespace rt
} // namespace pcmap
