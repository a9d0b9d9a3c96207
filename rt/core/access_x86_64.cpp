//===- access_x86_64.cpp - The memory an x86-64 instruction accesses -----===//
//
// A table per opcode map, as the kernel's instruction decoder has
// (arch/x86/lib/insn.c), with what its tables lack: whether the ModRM
// memory operand is read, written or both, and its size. The legacy maps
// (one-byte, 0F, and the 0F38/0F3A instructions listed below) are decoded
// in full; VEX only for the moves and arithmetic of its first map; EVEX,
// XOP, 3DNow!, x87 memory forms, far pointers, bit strings addressed by a
// register, VSIB and masked accesses are unknown. An entry's access is the
// instruction's explicit memory operand; string instructions give one of
// their two (the destination of MOVS, the source of the others), stack
// operations the stack slot they push or pop.
//
//===----------------------------------------------------------------------===//

#include "core/access.h"

namespace pcmap {
namespace rt {

namespace {

/// An opcode's attributes: its immediate, whether it has a ModRM byte, what
/// its memory operand does, its size, and the registers it writes.
enum : uint16_t {
  Ib = 1, // immediates
  Iw = 2,
  Iz = 3,     // 2 bytes with 0x66, else 4
  Iv = 4,     // 8 bytes with REX.W, else as Iz (MOV r, imm)
  Ienter = 5, // 3 bytes
  Imoffs = 6, // an absolute address: 8 bytes, 4 with 0x67
  kImmMask = 7,
  M = 1 << 3,      // a ModRM byte
  R = 1 << 4,      // reads its memory operand
  W = 2 << 4,      // writes it
  RW = 3 << 4,     // both
  ADDR = 4 << 4,   // computes the address and accesses nothing there
  GRP = 5 << 4,    // the access depends on ModRM.reg (groupAccess)
  UNK = 6 << 4,    // not decoded
  SPEC = 7 << 4,   // an implicit operand (specialAccess)
  kAccessMask = 7 << 4,
  Sb = 1 << 7, // sizes
  Sw = 2 << 7,
  Sd = 3 << 7,
  Sq = 4 << 7,
  Sv = 5 << 7,  // 2 with 0x66, 8 with REX.W, else 4
  Sy = 6 << 7,  // 8 with REX.W, else 4
  Sx = 7 << 7,  // by the mandatory prefix (sseSize)
  S64 = 8 << 7, // 2 with 0x66, else 8 (stack operands, near branches)
  kSizeMask = 15 << 7,
  WREG = 1 << 11, // writes the general register of ModRM.reg
  WIMP = 1 << 12, // writes RAX, RCX or RDX implicitly
  BAD = 1 << 13,  // not an instruction in 64-bit mode
};

constexpr uint16_t AluB = M | RW | Sb, AluV = M | RW | Sv,
                   AluRB = M | R | Sb | WREG, AluRV = M | R | Sv | WREG;
#define PCMAP_ALU AluB, AluV, AluRB, AluRV, Ib, Iz

/// The one-byte map. Prefixes, REX, 0F, VEX (C4, C5) and EVEX (62) are
/// taken before it is read (their entries are 0).
const uint16_t kOneByte[] = {
    PCMAP_ALU, BAD, BAD,                                           // 00 add
    PCMAP_ALU, BAD, 0,                                             // 08 or
    PCMAP_ALU, BAD, BAD,                                           // 10 adc
    PCMAP_ALU, BAD, BAD,                                           // 18 sbb
    PCMAP_ALU, 0, BAD,                                             // 20 and
    PCMAP_ALU, 0, BAD,                                             // 28 sub
    PCMAP_ALU, 0, BAD,                                             // 30 xor
    M | R | Sb, M | R | Sv, M | R | Sb, M | R | Sv, Ib, Iz, 0, BAD, // 38 cmp
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                // 40 REX
    SPEC, SPEC, SPEC, SPEC, SPEC, SPEC, SPEC, SPEC,                // 50 push
    SPEC, SPEC, SPEC, SPEC, SPEC, SPEC, SPEC, SPEC,                // 58 pop
    BAD, BAD, 0, M | R | Sd | WREG, 0, 0, 0, 0,                    // 60
    SPEC | Iz, M | R | Sv | WREG | Iz, SPEC | Ib, M | R | Sv | WREG | Ib,
    UNK, UNK, UNK, UNK,                                         // 6c ins
    Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, // 70 jcc
    M | GRP | Sb | Ib, M | GRP | Sv | Iz, BAD, M | GRP | Sv | Ib,   // 80
    M | R | Sb, M | R | Sv, M | RW | Sb | WREG, M | RW | Sv | WREG, // 84
    M | W | Sb, M | W | Sv, M | R | Sb | WREG, M | R | Sv | WREG,   // 88 mov
    M | W | Sw, M | ADDR, M | R | Sw, M | GRP | S64,                // 8c
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, BAD, 0, SPEC, SPEC, 0, 0,         // 90
    SPEC | Imoffs, SPEC | Imoffs, SPEC | Imoffs, SPEC | Imoffs,     // a0
    SPEC, SPEC, SPEC, SPEC, Ib, Iz, SPEC, SPEC, SPEC, SPEC, SPEC, SPEC,
    Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, Iv, Iv, Iv, Iv, Iv, Iv, Iv, Iv, // b0 mov
    M | GRP | Sb | Ib, M | GRP | Sv | Ib, SPEC | Iw, SPEC,          // c0
    0, 0, M | GRP | Sb | Ib, M | GRP | Sv | Iz,                     // c4
    UNK | Ienter, UNK, UNK | Iw, UNK, 0, Ib, BAD, UNK,              // c8
    M | GRP | Sb, M | GRP | Sv, M | GRP | Sb, M | GRP | Sv,         // d0
    BAD, BAD, BAD, UNK,                                             // d4
    M | UNK, M | UNK, M | UNK, M | UNK, M | UNK, M | UNK, M | UNK, M | UNK,
    Ib, Ib, Ib, Ib, Ib, Ib, Ib, Ib, SPEC | Iz, Iz, BAD, Ib, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, M | GRP | Sb, M | GRP | Sv,                   // f0
    0, 0, 0, 0, 0, 0, M | GRP | Sb, M | GRP | Sv,                   // f8
};

constexpr uint16_t Sse = M | R | Sx, SseW = M | W | Sx;

/// The 0F map.
const uint16_t kTwoByte[] = {
    M | UNK, M | UNK, M | UNK | WREG, M | UNK | WREG, BAD, 0, 0, 0, // 00
    0, 0, BAD, 0, BAD, M | ADDR, 0, M | UNK | Ib,                    // 08
    Sse, SseW, Sse, SseW, Sse, Sse, Sse, SseW,                       // 10
    M | ADDR, M | ADDR, M | ADDR, M | ADDR, M | ADDR, M | ADDR, M | ADDR,
    M | ADDR,                                                        // 18 nop
    M | UNK, M | UNK, M | UNK, M | UNK, BAD, BAD, BAD, BAD,          // 20
    Sse, SseW, Sse, SseW, Sse | WREG, Sse | WREG, Sse, Sse,          // 28
    0, 0, 0, 0, 0, 0, BAD, 0, 0, BAD, 0, BAD, BAD, BAD, BAD, BAD,    // 30
    M | R | Sv | WREG, M | R | Sv | WREG, M | R | Sv | WREG,         // 40 cmov
    M | R | Sv | WREG, M | R | Sv | WREG, M | R | Sv | WREG,
    M | R | Sv | WREG, M | R | Sv | WREG, M | R | Sv | WREG,
    M | R | Sv | WREG, M | R | Sv | WREG, M | R | Sv | WREG,
    M | R | Sv | WREG, M | R | Sv | WREG, M | R | Sv | WREG,
    M | R | Sv | WREG,
    M | UNK, Sse, Sse, Sse, Sse, Sse, Sse, Sse,                      // 50
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, Sse,                          // 58
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, Sse,                          // 60
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, Sse,                          // 68
    Sse | Ib, M | UNK | Ib, M | UNK | Ib, M | UNK | Ib, Sse, Sse, Sse, 0,
    M | UNK, M | UNK, BAD, BAD, Sse, Sse, M | SPEC, SseW,            // 78
    Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz, Iz,  // 80 jcc
    M | W | Sb, M | W | Sb, M | W | Sb, M | W | Sb, M | W | Sb,      // 90 set
    M | W | Sb, M | W | Sb, M | W | Sb, M | W | Sb, M | W | Sb,
    M | W | Sb, M | W | Sb, M | W | Sb, M | W | Sb, M | W | Sb,
    M | W | Sb,
    UNK, UNK, 0, M | UNK, M | RW | Sv | Ib, M | RW | Sv, BAD, BAD,  // a0
    UNK, UNK, 0, M | UNK, M | RW | Sv | Ib, M | RW | Sv, M | GRP,    // a8
    M | R | Sv | WREG,
    M | RW | Sb | WIMP, M | RW | Sv | WIMP, M | UNK, M | UNK, M | UNK, // b0
    M | UNK, M | R | Sb | WREG, M | R | Sw | WREG,
    M | R | Sv | WREG, M | UNK, M | GRP | Sv | Ib, M | UNK,           // b8
    M | R | Sv | WREG, M | R | Sv | WREG, M | R | Sb | WREG,
    M | R | Sw | WREG,
    M | RW | Sb | WREG, M | RW | Sv | WREG, Sse | Ib, M | W | Sy,     // c0
    Sse | Ib, M | UNK | Ib, Sse | Ib, M | GRP, 0, 0, 0, 0, 0, 0, 0, 0,
    Sse, Sse, Sse, Sse, Sse, Sse, SseW, M | UNK,                      // d0
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, Sse,                           // d8
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, SseW,                          // e0
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, Sse,                           // e8
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, M | UNK,                       // f0
    Sse, Sse, Sse, Sse, Sse, Sse, Sse, M | UNK,                       // f8
};
#undef PCMAP_ALU
static_assert(sizeof(kOneByte) == 256 * sizeof(uint16_t), "an entry a byte");
static_assert(sizeof(kTwoByte) == 256 * sizeof(uint16_t), "an entry a byte");

/// Sizes that depend on the mandatory prefix: none, 66, F3, F2. 0: not an
/// instruction with a memory operand of a known size; Y: 8 with REX.W
/// (VEX.W), else 4; L: 16, or 32 with VEX.L.
constexpr uint8_t Y = 0xfe, L = 0xfd;
struct PrefixSizes {
  uint8_t Opcode, Size[4];
};

/// Sse entries of the 0F map. MMX forms (no prefix) of 60-62 read 4 bytes.
const PrefixSizes kSseSizes[] = {
    {0x10, {16, 16, 4, 8}}, {0x11, {16, 16, 4, 8}}, {0x12, {8, 8, 16, 8}},
    {0x13, {8, 8, 0, 0}},   {0x14, {16, 16, 0, 0}}, {0x15, {16, 16, 0, 0}},
    {0x16, {8, 8, 16, 0}},  {0x17, {8, 8, 0, 0}},   {0x28, {16, 16, 0, 0}},
    {0x29, {16, 16, 0, 0}}, {0x2a, {8, 8, Y, Y}},   {0x2b, {16, 16, 0, 0}},
    {0x2c, {8, 16, 4, 8}},  {0x2d, {8, 16, 4, 8}},  {0x2e, {4, 8, 0, 0}},
    {0x2f, {4, 8, 0, 0}},   {0x51, {16, 16, 4, 8}}, {0x52, {16, 0, 4, 0}},
    {0x53, {16, 0, 4, 0}},  {0x54, {16, 16, 0, 0}}, {0x55, {16, 16, 0, 0}},
    {0x56, {16, 16, 0, 0}}, {0x57, {16, 16, 0, 0}}, {0x58, {16, 16, 4, 8}},
    {0x59, {16, 16, 4, 8}}, {0x5a, {8, 16, 4, 8}},  {0x5b, {16, 16, 16, 0}},
    {0x5c, {16, 16, 4, 8}}, {0x5d, {16, 16, 4, 8}}, {0x5e, {16, 16, 4, 8}},
    {0x5f, {16, 16, 4, 8}}, {0x60, {4, 16, 0, 0}},  {0x61, {4, 16, 0, 0}},
    {0x62, {4, 16, 0, 0}},  {0x63, {8, 16, 0, 0}},  {0x64, {8, 16, 0, 0}},
    {0x65, {8, 16, 0, 0}},  {0x66, {8, 16, 0, 0}},  {0x67, {8, 16, 0, 0}},
    {0x68, {8, 16, 0, 0}},  {0x69, {8, 16, 0, 0}},  {0x6a, {8, 16, 0, 0}},
    {0x6b, {8, 16, 0, 0}},  {0x6c, {0, 16, 0, 0}},  {0x6d, {0, 16, 0, 0}},
    {0x6e, {Y, Y, 0, 0}},   {0x6f, {8, 16, 16, 0}}, {0x70, {8, 16, 16, 16}},
    {0x74, {8, 16, 0, 0}},  {0x75, {8, 16, 0, 0}},  {0x76, {8, 16, 0, 0}},
    {0x7c, {0, 16, 0, 16}}, {0x7d, {0, 16, 0, 16}}, {0x7f, {8, 16, 16, 0}},
    {0xc2, {16, 16, 4, 8}}, {0xc4, {2, 2, 0, 0}},   {0xc6, {16, 16, 0, 0}},
    {0xd0, {0, 16, 0, 16}}, {0xd6, {0, 8, 0, 0}},   {0xe6, {0, 16, 8, 16}},
    {0xf0, {0, 0, 0, 16}},
};

/// The 0F38 and 0F3A instructions decoded: their access and sizes.
struct ExtendedEntry {
  uint8_t Opcode, Access, Size[4];
};
constexpr uint8_t XR = 1, XW = 2, XRI = 5; // XRI: reads; writes RCX or XMM0
const ExtendedEntry k0F38[] = {
    {0x00, XR, {8, 16}}, {0x01, XR, {8, 16}}, {0x02, XR, {8, 16}},
    {0x03, XR, {8, 16}}, {0x04, XR, {8, 16}}, {0x05, XR, {8, 16}},
    {0x06, XR, {8, 16}}, {0x07, XR, {8, 16}}, {0x08, XR, {8, 16}},
    {0x09, XR, {8, 16}}, {0x0a, XR, {8, 16}}, {0x0b, XR, {8, 16}},
    {0x10, XR, {0, 16}}, {0x14, XR, {0, 16}}, {0x15, XR, {0, 16}},
    {0x17, XR, {0, 16}}, {0x1c, XR, {8, 16}}, {0x1d, XR, {8, 16}},
    {0x1e, XR, {8, 16}}, {0x20, XR, {0, 8}},  {0x21, XR, {0, 4}},
    {0x22, XR, {0, 2}},  {0x23, XR, {0, 8}},  {0x24, XR, {0, 4}},
    {0x25, XR, {0, 8}},  {0x28, XR, {0, 16}}, {0x29, XR, {0, 16}},
    {0x2a, XR, {0, 16}}, {0x2b, XR, {0, 16}}, {0x30, XR, {0, 8}},
    {0x31, XR, {0, 4}},  {0x32, XR, {0, 2}},  {0x33, XR, {0, 8}},
    {0x34, XR, {0, 4}},  {0x35, XR, {0, 8}},  {0x37, XR, {0, 16}},
    {0x38, XR, {0, 16}}, {0x39, XR, {0, 16}}, {0x3a, XR, {0, 16}},
    {0x3b, XR, {0, 16}}, {0x3c, XR, {0, 16}}, {0x3d, XR, {0, 16}},
    {0x3e, XR, {0, 16}}, {0x3f, XR, {0, 16}}, {0x40, XR, {0, 16}},
    {0x41, XR, {0, 16}}, {0xdb, XR, {0, 16}}, {0xdc, XR, {0, 16}},
    {0xdd, XR, {0, 16}}, {0xde, XR, {0, 16}}, {0xdf, XR, {0, 16}},
};
const ExtendedEntry k0F3A[] = {
    {0x08, XR, {0, 16}},  {0x09, XR, {0, 16}},  {0x0a, XR, {0, 4}},
    {0x0b, XR, {0, 8}},   {0x0c, XR, {0, 16}},  {0x0d, XR, {0, 16}},
    {0x0e, XR, {0, 16}},  {0x0f, XR, {8, 16}},  {0x14, XW, {0, 1}},
    {0x15, XW, {0, 2}},   {0x16, XW, {0, Y}},   {0x17, XW, {0, 4}},
    {0x20, XR, {0, 1}},   {0x21, XR, {0, 4}},   {0x22, XR, {0, Y}},
    {0x40, XR, {0, 16}},  {0x41, XR, {0, 16}},  {0x42, XR, {0, 16}},
    {0x44, XR, {0, 16}},  {0x60, XRI, {0, 16}}, {0x61, XRI, {0, 16}},
    {0x62, XRI, {0, 16}}, {0x63, XRI, {0, 16}}, {0xdf, XR, {0, 16}},
};

/// VEX map 1 (0F) instructions decoded: access and sizes by pp.
const ExtendedEntry kVexMap1[] = {
    {0x10, XR, {L, L, 4, 8}}, {0x11, XW, {L, L, 4, 8}},
    {0x12, XR, {8, 8}},       {0x13, XW, {8, 8}},
    {0x16, XR, {8, 8}},       {0x17, XW, {8, 8}},
    {0x28, XR, {L, L}},       {0x29, XW, {L, L}},
    {0x2b, XW, {L, L}},       {0x2e, XR, {4, 8}},
    {0x2f, XR, {4, 8}},       {0x51, XR, {L, L, 4, 8}},
    {0x54, XR, {L, L}},       {0x55, XR, {L, L}},
    {0x56, XR, {L, L}},       {0x57, XR, {L, L}},
    {0x58, XR, {L, L, 4, 8}}, {0x59, XR, {L, L, 4, 8}},
    {0x5c, XR, {L, L, 4, 8}}, {0x5d, XR, {L, L, 4, 8}},
    {0x5e, XR, {L, L, 4, 8}}, {0x5f, XR, {L, L, 4, 8}},
    {0x60, XR, {0, L}},       {0x61, XR, {0, L}},
    {0x62, XR, {0, L}},       {0x63, XR, {0, L}},
    {0x64, XR, {0, L}},       {0x65, XR, {0, L}},
    {0x66, XR, {0, L}},       {0x67, XR, {0, L}},
    {0x68, XR, {0, L}},       {0x69, XR, {0, L}},
    {0x6a, XR, {0, L}},       {0x6b, XR, {0, L}},
    {0x6c, XR, {0, L}},       {0x6d, XR, {0, L}},
    {0x6e, XR, {0, Y}},       {0x6f, XR, {0, L, L}},
    {0x74, XR, {0, L}},       {0x75, XR, {0, L}},
    {0x76, XR, {0, L}},       {0x7f, XW, {0, L, L}},
    {0xd1, XR, {0, 16}},      {0xd2, XR, {0, 16}},
    {0xd3, XR, {0, 16}},      {0xd4, XR, {0, L}},
    {0xd5, XR, {0, L}},       {0xd6, XW, {0, 8}},
    {0xd8, XR, {0, L}},       {0xd9, XR, {0, L}},
    {0xda, XR, {0, L}},       {0xdb, XR, {0, L}},
    {0xdc, XR, {0, L}},       {0xdd, XR, {0, L}},
    {0xde, XR, {0, L}},       {0xdf, XR, {0, L}},
    {0xe0, XR, {0, L}},       {0xe1, XR, {0, 16}},
    {0xe2, XR, {0, 16}},      {0xe3, XR, {0, L}},
    {0xe4, XR, {0, L}},       {0xe5, XR, {0, L}},
    {0xe7, XW, {0, L}},       {0xe8, XR, {0, L}},
    {0xe9, XR, {0, L}},       {0xea, XR, {0, L}},
    {0xeb, XR, {0, L}},       {0xec, XR, {0, L}},
    {0xed, XR, {0, L}},       {0xee, XR, {0, L}},
    {0xef, XR, {0, L}},       {0xf0, XR, {0, 0, 0, L}},
    {0xf1, XR, {0, 16}},      {0xf2, XR, {0, 16}},
    {0xf3, XR, {0, 16}},      {0xf4, XR, {0, L}},
    {0xf5, XR, {0, L}},       {0xf6, XR, {0, L}},
    {0xf8, XR, {0, L}},       {0xf9, XR, {0, L}},
    {0xfa, XR, {0, L}},       {0xfb, XR, {0, L}},
    {0xfc, XR, {0, L}},       {0xfd, XR, {0, L}},
    {0xfe, XR, {0, L}},
};

template <typename T, size_t N>
const T *findOpcode(const T (&Table)[N], uint8_t Opcode) {
  for (size_t I = 0; I < N; ++I)
    if (Table[I].Opcode == Opcode)
      return &Table[I];
  return nullptr;
}

enum OpcodeMap : uint8_t { kMapOneByte, kMap0F, kMap0F38, kMap0F3A };
enum : uint8_t { RegRAX = 0, RegRCX = 1, RegRDX = 2, RegRSP = 4 };

/// What the bytes before the opcode said, and the opcode.
struct Decoding {
  const uint8_t *Bytes;
  size_t Avail;
  size_t Pos = 0;
  bool OpSize = false, AddrSize = false, Lock = false;
  uint8_t Rep = 0;      // the last of F2 and F3
  uint8_t Segment = AS_None, Segments = 0;
  uint8_t LastPrefix = 0; // the legacy prefix right before REX or the opcode
  uint8_t Rex = 0;      // REX, or VEX's R, X, B and W in REX's places
  bool Vex = false, VexL = false;
  uint8_t VexPP = 0;    // 0 none, 1 66, 2 F3, 3 F2
  uint8_t Map = kMapOneByte, Opcode = 0;
  // ModRM
  uint8_t Mod = 0, Reg = 0;
  bool HasModRM = false;
};

bool rexW(const Decoding &D) { return D.Rex & 8; }

bool isLegacyPrefix(uint8_t B) {
  switch (B) {
  case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
  case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
    return true;
  default:
    return false;
  }
}

/// Whether LOCK may prefix the instruction (with a memory operand): other
/// instructions raise #UD with it.
bool lockable(const Decoding &D) {
  uint8_t Op = D.Opcode, Reg = D.Reg & 7;
  if (D.Map == kMap0F)
    return Op == 0xab || Op == 0xb3 || Op == 0xbb || (Op == 0xba && Reg >= 5) ||
           Op == 0xb0 || Op == 0xb1 || Op == 0xc0 || Op == 0xc1 ||
           (Op == 0xc7 && Reg == 1);
  if (Op < 0x38 && (Op & 7) < 2)
    return true; // ADD, OR, ADC, SBB, AND, SUB, XOR to memory
  return (Op >= 0x80 && Op <= 0x83 && Reg != 7) || Op == 0x86 ||
         Op == 0x87 || ((Op == 0xf6 || Op == 0xf7) && (Reg == 2 || Reg == 3)) ||
         ((Op == 0xfe || Op == 0xff) && Reg < 2);
}

/// Whether an SSE instruction's prefixes are unambiguous: at most one of
/// 66, F2 and F3 counts, and it is the last legacy prefix (disassemblers
/// disagree with a segment or another prefix after it, or with 66 and F3).
bool clearMandatoryPrefix(const Decoding &D) {
  if (D.Vex || !(D.OpSize || D.Rep))
    return true;
  return !(D.OpSize && D.Rep) && D.LastPrefix == (D.Rep ? D.Rep : 0x66);
}

/// The mandatory prefix of an SSE instruction: 0 none, 1 66, 2 F3, 3 F2.
uint8_t mandatoryPrefix(const Decoding &D) {
  if (D.Vex)
    return D.VexPP;
  if (D.Rep)
    return D.Rep == 0xf3 ? 2 : 3;
  return D.OpSize ? 1 : 0;
}

/// Legacy prefixes and REX. False if they run past the bytes or 15, or if
/// a REX is not right before the opcode (processors ignore it there, and
/// disassemblers disagree; no compiler writes it).
bool readPrefixes(Decoding &D) {
  for (; D.Pos < D.Avail && D.Pos < 15; ++D.Pos) {
    uint8_t B = D.Bytes[D.Pos];
    bool Rex = (B & 0xf0) == 0x40;
    if (D.Rex && (Rex || isLegacyPrefix(B)))
      return false;
    if (Rex) {
      D.Rex = B;
      continue;
    }
    switch (B) {
    case 0x66: D.OpSize = true; break;
    case 0x67: D.AddrSize = true; break;
    case 0xf0: D.Lock = true; break;
    case 0xf2: case 0xf3: D.Rep = B; break;
    case 0x64:
    case 0x65:
    case 0x26:
    case 0x2e:
    case 0x36:
    case 0x3e:
      // Two segment prefixes: processors and disassemblers differ on which
      // counts. CS, DS, ES, SS have no base in 64-bit mode.
      if (D.Segments++)
        return false;
      D.Segment = B == 0x64 ? AS_FS : B == 0x65 ? AS_GS : AS_None;
      break;
    default:
      return true;
    }
    D.LastPrefix = B;
  }
  return false;
}

/// VEX (C4, C5): the map, its R, X, B, W, L and pp. False if not decodable.
bool readVex(Decoding &D) {
  // VEX after 66, F2, F3, LOCK or REX is undefined.
  if (D.OpSize || D.Rep || D.Lock || D.Rex)
    return false;
  bool Three = D.Bytes[D.Pos] == 0xc4;
  if (D.Pos + (Three ? 4u : 3u) > D.Avail)
    return false;
  uint8_t P1 = D.Bytes[D.Pos + 1];
  uint8_t Last = Three ? D.Bytes[D.Pos + 2] : P1;
  uint8_t Map = Three ? (P1 & 0x1f) : 1;
  if (Map < 1 || Map > 3)
    return false;
  D.Rex = 0x40 | ((~P1 >> 5) & 4); // R
  if (Three)
    D.Rex |= ((~P1 >> 5) & 3) | ((Last >> 4) & 8); // X, B, W
  D.Vex = true;
  D.VexL = Last & 4;
  D.VexPP = Last & 3;
  D.Map = Map;
  D.Pos += Three ? 3 : 2;
  D.Opcode = D.Bytes[D.Pos++];
  return true;
}

/// The opcode and its map. False if the encoding is not decoded here.
bool readOpcode(Decoding &D) {
  if (D.Pos >= D.Avail)
    return false;
  uint8_t B = D.Bytes[D.Pos];
  if (B == 0xc4 || B == 0xc5)
    return readVex(D);
  if (B == 0x62) // EVEX
    return false;
  // 8F with ModRM.reg other than 0 is AMD's XOP.
  if (B == 0x8f && (D.Pos + 1 >= D.Avail || (D.Bytes[D.Pos + 1] & 0x38)))
    return false;
  ++D.Pos;
  if (B != 0x0f) {
    D.Opcode = B;
    return true;
  }
  if (D.Pos >= D.Avail)
    return false;
  B = D.Bytes[D.Pos++];
  if (B == 0x38 || B == 0x3a) {
    D.Map = B == 0x38 ? kMap0F38 : kMap0F3A;
    if (D.Pos >= D.Avail)
      return false;
    B = D.Bytes[D.Pos++];
  } else {
    D.Map = kMap0F;
  }
  D.Opcode = B;
  return true;
}

/// ModRM, SIB and displacement into Form. False if they do not fit.
bool readModRM(Decoding &D, AccessForm &Form) {
  if (D.Pos >= D.Avail)
    return false;
  uint8_t ModRM = D.Bytes[D.Pos++];
  D.HasModRM = true;
  D.Mod = ModRM >> 6;
  D.Reg = ((ModRM >> 3) & 7) | ((D.Rex & 4) << 1);
  uint8_t RM = ModRM & 7;
  if (D.Mod == 3)
    return true;
  unsigned DispBytes = D.Mod == 1 ? 1 : D.Mod == 2 ? 4 : 0;
  if (RM == 4) {
    if (D.Pos >= D.Avail)
      return false;
    uint8_t Sib = D.Bytes[D.Pos++];
    uint8_t Index = ((Sib >> 3) & 7) | ((D.Rex & 2) << 2);
    Form.Scale = uint8_t(1u << (Sib >> 6));
    Form.Index = Index == RegRSP ? uint8_t(kNoRegister) : Index;
    if ((Sib & 7) == 5 && D.Mod == 0)
      DispBytes = 4; // no base
    else
      Form.Base = (Sib & 7) | ((D.Rex & 1) << 3);
  } else if (RM == 5 && D.Mod == 0) {
    Form.Base = kX86RegRIP;
    DispBytes = 4;
  } else {
    Form.Base = RM | ((D.Rex & 1) << 3);
  }
  if (D.Pos + DispBytes > D.Avail)
    return false;
  int64_t Disp = 0;
  if (DispBytes == 1)
    Disp = int8_t(D.Bytes[D.Pos]);
  else if (DispBytes == 4)
    Disp = int32_t(uint32_t(D.Bytes[D.Pos]) | uint32_t(D.Bytes[D.Pos + 1]) << 8 |
                   uint32_t(D.Bytes[D.Pos + 2]) << 16 |
                   uint32_t(D.Bytes[D.Pos + 3]) << 24);
  D.Pos += DispBytes;
  Form.Displacement = Disp;
  return true;
}

/// The bytes of an immediate of kind Imm.
unsigned immediateBytes(const Decoding &D, unsigned Imm) {
  switch (Imm) {
  case Ib: return 1;
  case Iw: return 2;
  case Iz: return D.OpSize && !rexW(D) ? 2 : 4; // REX.W wins over 0x66
  case Iv: return rexW(D) ? 8 : D.OpSize ? 2 : 4;
  case Ienter: return 3;
  case Imoffs: return D.AddrSize ? 4 : 8;
  default: return 0;
  }
}

/// The size of rule Size (a kSizeMask value), 0 if it has none.
uint8_t ruleSize(const Decoding &D, uint16_t Size) {
  switch (Size) {
  case Sb: return 1;
  case Sw: return 2;
  case Sd: return 4;
  case Sq: return 8;
  case Sv: return rexW(D) ? 8 : D.OpSize ? 2 : 4;
  case Sy: return rexW(D) ? 8 : 4;
  case S64: return D.OpSize && !rexW(D) ? 2 : 8;
  default: return 0;
  }
}

/// A size of a PrefixSizes-like table entry (Y, L or bytes).
uint8_t tableSize(const Decoding &D, uint8_t Size) {
  if (Size == Y)
    return rexW(D) ? 8 : 4;
  if (Size == L)
    return D.VexL ? 32 : 16;
  return Size;
}

/// The access of a group opcode (GRP) by ModRM.reg; 0 if it is not
/// decoded, BAD if undefined. May change the size rule (Attr).
uint16_t groupAccess(const Decoding &D, uint16_t &Attr) {
  uint8_t Reg = D.Reg & 7;
  if (D.Map == kMap0F) {
    if (D.Opcode == 0xba)
      return Reg == 4 ? R : Reg > 4 ? RW : BAD;
    if (D.Opcode == 0xc7) { // CMPXCHG8B, CMPXCHG16B
      Attr = (Attr & ~kSizeMask) | (rexW(D) ? 0 : Sq) | WIMP;
      return Reg == 1 && !D.Rep && !D.OpSize ? RW : 0;
    }
    if (D.Opcode == 0xae && !D.Rep && !D.OpSize) { // LDMXCSR, STMXCSR
      Attr = (Attr & ~kSizeMask) | Sd;
      return Reg == 2 ? R : Reg == 3 ? W : Reg == 7 ? ADDR : 0;
    }
    if (D.Opcode == 0xae && D.OpSize && !D.Rep && !rexW(D)) // CLWB, CLFLUSHOPT
      return Reg >= 6 ? ADDR : 0;
    return 0;
  }
  switch (D.Opcode) {
  case 0x80: case 0x81: case 0x83: return Reg == 7 ? R : RW;
  case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
    return Reg == 6 ? 0 : RW;
  case 0xf6: case 0xf7:
    if (Reg >= 4)
      Attr |= WIMP;
    return Reg < 2 ? R : Reg < 4 ? RW : R;
  case 0xfe: return Reg < 2 ? RW : BAD;
  case 0xff:
    if (Reg < 2)
      return RW;
    // CALL and JMP with 0x66 and no REX.W: 16-bit on AMD, 64 on Intel.
    if ((Reg == 2 || Reg == 4) && D.OpSize && !rexW(D))
      return 0;
    if (Reg == 2 || Reg == 4 || Reg == 6) {
      Attr = (Attr & ~kSizeMask) | S64;
      return R;
    }
    return 0;
  case 0x8f: return Reg == 0 ? W : BAD;
  case 0xc6: case 0xc7: return Reg == 0 ? W : BAD;
  default: return 0;
  }
}

} // namespace

namespace {

bool uses(const AccessForm &Form, uint8_t Reg) {
  return Form.Base == Reg || Form.Index == Reg;
}

bool usesImplicitRegister(const AccessForm &Form) {
  return uses(Form, RegRAX) || uses(Form, RegRCX) || uses(Form, RegRDX);
}

/// An access through RSP, RSI or RDI that the instruction itself moves.
void implicitAccess(AccessForm &Form, uint8_t Base, uint8_t Kind,
                    uint8_t Size, int64_t Displacement) {
  Form.Base = Base;
  Form.Kind = Kind;
  Form.Size = Size;
  Form.Displacement = Displacement;
  Form.WritesAddressRegister = true;
}

/// One-byte opcodes whose operand is implicit (SPEC): the stack, string
/// instructions, and MOV with an absolute address.
AccessDecode specialAccess(const Decoding &D, AccessForm &Form) {
  constexpr uint8_t RSI = 6, RDI = 7;
  uint8_t Op = D.Opcode, Stack = D.OpSize && !rexW(D) ? 2 : 8;
  uint8_t Sv = rexW(D) ? 8 : D.OpSize ? 2 : 4, Size = (Op & 1) ? Sv : 1;
  if (D.AddrSize)
    Form.AddressBytes = 4;
  if ((Op >= 0x50 && Op <= 0x57) || Op == 0x68 || Op == 0x6a || Op == 0x9c) {
    implicitAccess(Form, RegRSP, AK_Write, Stack, -int64_t(Stack));
  } else if ((Op >= 0x58 && Op <= 0x5f) || Op == 0x9d || Op == 0xc2 ||
             Op == 0xc3) {
    implicitAccess(Form, RegRSP, AK_Read, Stack, 0);
  } else if (Op == 0xe8) {
    implicitAccess(Form, RegRSP, AK_Write, 8, -8);
  } else if (Op >= 0xa0 && Op <= 0xa3) {
    // The address is the immediate, right after the opcode.
    uint64_t Address = 0;
    for (unsigned I = D.AddrSize ? 4 : 8; I; --I)
      Address = Address << 8 | D.Bytes[D.Pos - (D.AddrSize ? 4 : 8) + I - 1];
    Form.Displacement = int64_t(Address);
    Form.Kind = Op < 0xa2 ? AK_Read : AK_Write;
    Form.Size = Size;
    Form.Segment = D.Segment;
  } else if (Op == 0xa4 || Op == 0xa5 || Op == 0xaa || Op == 0xab) {
    implicitAccess(Form, RDI, AK_Write, Size, 0); // MOVS, STOS: ES:rDI
  } else if (Op == 0xae || Op == 0xaf) {
    implicitAccess(Form, RDI, AK_Read, Size, 0); // SCAS
  } else if (Op >= 0xa6 && Op <= 0xad) {
    implicitAccess(Form, RSI, AK_Read, Size, 0); // CMPS, LODS: DS:rSI
    Form.Segment = D.Segment;
  } else {
    return AD_Unknown;
  }
  return AD_Memory;
}

/// Fills Form's kind, size and the registers it overwrites.
AccessDecode memoryAccess(const Decoding &D, uint16_t Attr, uint16_t Access,
                          uint8_t Size, AccessForm &Form) {
  Form.Kind = uint8_t(Access >> 4);
  Form.Size = Size;
  Form.Segment = D.Segment;
  Form.Locked = D.Lock;
  if (D.AddrSize)
    Form.AddressBytes = 4;
  if (Attr & WREG) {
    // Without REX, byte registers 4-7 are AH, CH, DH, BH.
    uint8_t Written = D.Reg;
    if (Size == 1 && !D.Rex && Written >= 4 && Written < 8)
      Written -= 4;
    Form.WritesAddressRegister |= uses(Form, Written);
  }
  if (Attr & WIMP)
    Form.WritesAddressRegister |= usesImplicitRegister(Form);
  return AD_Memory;
}

/// MOVD/MOVQ 0F 7E: a store of a general register's width, or (F3) a
/// 64-bit load.
AccessDecode moveQuad(const Decoding &D, AccessForm &Form) {
  if (!clearMandatoryPrefix(D))
    return AD_Unknown;
  uint8_t Prefix = mandatoryPrefix(D);
  if (D.Mod == 3)
    return Prefix == 3 || (D.Vex && Prefix == 0) ? AD_Unknown : AD_NoMemory;
  if (Prefix == 2) // F3 MOVQ xmm, m64 (with REX.W, disassemblers differ)
    return rexW(D) ? AD_Unknown : memoryAccess(D, 0, R, 8, Form);
  if (Prefix == 3 || (D.Vex && Prefix == 0))
    return AD_Unknown;
  return memoryAccess(D, 0, W, rexW(D) ? 8 : 4, Form);
}

/// 0F38 F0, F1 (MOVBE, CRC32) and F6 (ADCX, ADOX).
AccessDecode generalPurpose0F38(const Decoding &D, AccessForm &Form) {
  if (!clearMandatoryPrefix(D))
    return AD_Unknown;
  bool Store = D.Opcode == 0xf1;
  if (D.Opcode == 0xf6) {
    if (D.Rep == 0xf2 || (!D.OpSize && D.Rep != 0xf3))
      return AD_Unknown;
    return D.Mod == 3 ? AD_NoMemory
                      : memoryAccess(D, WREG, R, rexW(D) ? 8 : 4, Form);
  }
  uint8_t Sv = rexW(D) ? 8 : D.OpSize ? 2 : 4;
  if (D.Rep == 0xf2) // CRC32
    return D.Mod == 3 ? AD_NoMemory
                      : memoryAccess(D, WREG, R, Store ? Sv : 1, Form);
  if (D.Rep || D.Mod == 3) // MOVBE has no register form
    return AD_Unknown;
  return memoryAccess(D, Store ? 0 : WREG, Store ? W : R, Sv, Form);
}

/// The instructions of 0F38, 0F3A and VEX: only those the tables list.
AccessDecode decodeExtended(Decoding &D, AccessForm &Form) {
  if (D.Lock)
    return AD_Unknown; // none of them takes LOCK (#UD)
  if (D.Vex && D.Map == kMap0F && D.Opcode == 0x77) { // VZEROUPPER, VZEROALL
    Form.Length = uint8_t(D.Pos);
    return AD_NoMemory;
  }
  if (!readModRM(D, Form))
    return AD_Unknown;
  uint8_t Op = D.Opcode;
  bool Imm = D.Map == kMap0F3A ||
             (D.Map == kMap0F && ((Op >= 0x70 && Op <= 0x73) || Op == 0xc2 ||
                                  (Op >= 0xc4 && Op <= 0xc6)));
  D.Pos += Imm;
  if (D.Pos > D.Avail || D.Pos > 15)
    return AD_Unknown;
  Form.Length = uint8_t(D.Pos);
  if (!D.Vex && D.Map == kMap0F38 && (Op == 0xf0 || Op == 0xf1 || Op == 0xf6))
    return generalPurpose0F38(D, Form);
  if (D.Vex && D.Map == kMap0F && Op == 0x7e)
    return moveQuad(D, Form);
  const ExtendedEntry *E =
      !D.Vex ? (D.Map == kMap0F38 ? findOpcode(k0F38, Op)
                                  : findOpcode(k0F3A, Op))
             : (D.Map == kMap0F ? findOpcode(kVexMap1, Op) : nullptr);
  // A register form accesses no memory, but for VMASKMOVDQU's implicit
  // store through RDI.
  if (!E)
    return D.Mod == 3 && !(D.Vex && D.Map == kMap0F && Op == 0xf7)
               ? AD_NoMemory
               : AD_Unknown;
  uint8_t Size = E->Size[mandatoryPrefix(D)];
  if (!Size || (D.VexL && Size == 8) || !clearMandatoryPrefix(D))
    return AD_Unknown;
  if (D.Mod == 3)
    return AD_NoMemory;
  uint16_t Attr = E->Access == XRI ? WIMP : 0;
  return memoryAccess(D, Attr, (E->Access & 3) << 4, tableSize(D, Size),
                      Form);
}

/// A one-byte or 0F opcode without ModRM.
AccessDecode decodeWithoutModRM(Decoding &D, uint16_t Attr,
                                AccessForm &Form) {
  D.Pos += immediateBytes(D, Attr & kImmMask);
  if (D.Pos > D.Avail || D.Pos > 15)
    return AD_Unknown;
  Form.Length = uint8_t(D.Pos);
  uint16_t Access = Attr & kAccessMask;
  if (Access == SPEC && D.Map == kMapOneByte)
    return specialAccess(D, Form);
  return Access == UNK || Access == SPEC ? AD_Unknown : AD_NoMemory;
}

/// The size of a legacy opcode's memory operand; 0 if not known.
uint8_t legacySize(const Decoding &D, uint16_t Attr) {
  if ((Attr & kSizeMask) == Sx) {
    if (!clearMandatoryPrefix(D))
      return 0;
    const PrefixSizes *S = findOpcode(kSseSizes, D.Opcode);
    return S ? tableSize(D, S->Size[mandatoryPrefix(D)]) : 0;
  }
  // MOVSXD with 0x66: 16 bits by the manuals, 32 by disassemblers.
  if (D.Map == kMapOneByte && D.Opcode == 0x63 && D.OpSize && !rexW(D))
    return 0;
  return ruleSize(D, Attr & kSizeMask);
}

/// Whether an opcode not decoded with a memory operand accesses no memory
/// in its register form (ModRM.mod 3): x87's register forms, and the SSE
/// instructions that exist only with a register (MOVMSKPS, PMOVMSKB,
/// PEXTRW, the shifts by an immediate).
bool registerFormOnly(const Decoding &D) {
  uint8_t Op = D.Opcode;
  if (D.Map == kMapOneByte)
    return Op >= 0xd8 && Op <= 0xdf;
  return Op == 0x50 || Op == 0xd7 || (Op >= 0x71 && Op <= 0x73) || Op == 0xc5;
}

/// The access of a one-byte or 0F opcode with ModRM, once ModRM is read.
AccessDecode decodeLegacyAccess(Decoding &D, uint16_t Attr,
                                AccessForm &Form) {
  uint16_t Access = Attr & kAccessMask;
  if (Access == GRP) {
    Access = groupAccess(D, Attr);
    if (D.Mod == 3 && Access != BAD &&
        (Access || (D.Map == kMap0F && D.Opcode == 0xc7)))
      return AD_NoMemory;
    if (!Access || Access == BAD)
      return AD_Unknown;
  }
  if (Access == SPEC)
    return moveQuad(D, Form);
  if (Access == UNK)
    return D.Mod == 3 && registerFormOnly(D) ? AD_NoMemory : AD_Unknown;
  if (D.Mod == 3 || Access == ADDR)
    return AD_NoMemory;
  uint8_t Size = legacySize(D, Attr);
  if (!Size && (Attr & kSizeMask))
    return AD_Unknown;
  // POP with an RSP-based operand computes its address after the pop.
  if (D.Map == kMapOneByte && D.Opcode == 0x8f && uses(Form, RegRSP))
    return AD_Unknown;
  // PUSH and CALL with a memory operand move RSP.
  if (D.Map == kMapOneByte && D.Opcode == 0xff && (D.Reg & 7) >= 2)
    Form.WritesAddressRegister |= uses(Form, RegRSP);
  return memoryAccess(D, Attr, Access, Size, Form);
}

/// Whether F2 or F3 comes with 0x66, 0x67 or a segment on an instruction
/// other than a string instruction: which of them count (and whether F2 or
/// F3 is the instruction's own, as with SSE and POPCNT, or a hint), the
/// processors and disassemblers do not agree.
bool ambiguousPrefixes(const Decoding &D) {
  if (!D.Rep || !(D.OpSize || D.AddrSize || D.Segments))
    return false;
  uint8_t Op = D.Opcode;
  return D.Map != kMapOneByte ||
         !((Op >= 0xa4 && Op <= 0xa7) || (Op >= 0xaa && Op <= 0xaf));
}

/// A one-byte or 0F instruction.
AccessDecode decodeLegacy(Decoding &D, AccessForm &Form) {
  uint16_t Attr = (D.Map == kMapOneByte ? kOneByte : kTwoByte)[D.Opcode];
  if ((Attr & BAD) || ambiguousPrefixes(D))
    return AD_Unknown;
  if (D.Map == kMap0F && D.Opcode == 0xb8 && D.Rep != 0xf3) // POPCNT only
    return AD_Unknown;
  // A near branch with 0x66: rel16 on AMD, rel32 on Intel. Disassemblers
  // take rel32 only for CALL with REX.W (glibc pads its TLS calls so).
  bool Call = D.Map == kMapOneByte && D.Opcode == 0xe8;
  bool Branch =
      D.Map == kMapOneByte ? D.Opcode == 0xe9 : (D.Opcode & 0xf0) == 0x80;
  if (D.OpSize && (Branch || (Call && !rexW(D))))
    return AD_Unknown;
  if (!(Attr & M))
    return D.Lock ? AD_Unknown : decodeWithoutModRM(D, Attr, Form);
  if (!readModRM(D, Form))
    return AD_Unknown;
  if (D.Lock && (D.Mod == 3 || !lockable(D)))
    return AD_Unknown; // #UD
  unsigned Imm = Attr & kImmMask;
  if (D.Map == kMapOneByte && (D.Opcode == 0xf6 || D.Opcode == 0xf7) &&
      (D.Reg & 7) < 2)
    Imm = D.Opcode == 0xf6 ? Ib : Iz; // TEST's immediate
  D.Pos += immediateBytes(D, Imm);
  if (D.Pos > D.Avail || D.Pos > 15)
    return AD_Unknown;
  Form.Length = uint8_t(D.Pos);
  return decodeLegacyAccess(D, Attr, Form);
}

} // namespace

AccessDecode decodeX86_64Access(const uint8_t *Bytes, size_t Avail,
                                AccessForm &Form) {
  Form = AccessForm();
  Decoding D;
  D.Bytes = Bytes;
  D.Avail = Avail;
  if (!readPrefixes(D) || !readOpcode(D))
    return AD_Unknown;
  AccessDecode Result = D.Vex || D.Map == kMap0F38 || D.Map == kMap0F3A
                            ? decodeExtended(D, Form)
                            : decodeLegacy(D, Form);
  if (Result != AD_Memory)
    Form = AccessForm{Form.Length};
  return Result;
}

bool evaluateX86_64Access(const AccessForm &Form, const X86_64Registers &Regs,
                          uintptr_t &Address) {
  // Hardware register numbers (RAX RCX RDX RBX RSP RBP RSI RDI R8..R15) to
  // DWARF's.
  static constexpr uint8_t kDwarfOf[16] = {0, 2, 1,  3,  7,  6,  4,  5,
                                           8, 9, 10, 11, 12, 13, 14, 15};
  auto Value = [&](uint8_t Reg) -> uintptr_t {
    if (Reg == kX86RegRIP)
      return Regs.PC + Form.Length;
    return Reg < 16 ? Regs.Dwarf[kDwarfOf[Reg]] : 0;
  };
  uintptr_t Offset = uintptr_t(Form.Displacement);
  if (Form.Base != kNoRegister)
    Offset += Value(Form.Base);
  if (Form.Index != kNoRegister)
    Offset += Value(Form.Index) * Form.Scale;
  if (Form.AddressBytes == 4)
    Offset = uint32_t(Offset);
  uintptr_t Base = 0;
  if (Form.Segment != AS_None) {
    Base = Form.Segment == AS_FS ? Regs.FSBase : Regs.GSBase;
    if (!Base)
      return false;
  }
  Address = Base + Offset;
  return true;
}

ControlFlow x86_64ControlFlow(const uint8_t *Bytes, size_t Length, uintptr_t PC,
                              uintptr_t &Target) {
  size_t I = 0;
  // Legacy prefixes (a branch hint or NOTRACK among them), then REX.
  while (I < Length &&
         (Bytes[I] == 0xf0 || Bytes[I] == 0xf2 || Bytes[I] == 0xf3 ||
          Bytes[I] == 0x2e || Bytes[I] == 0x36 || Bytes[I] == 0x3e ||
          Bytes[I] == 0x26 || Bytes[I] == 0x64 || Bytes[I] == 0x65 ||
          Bytes[I] == 0x66 || Bytes[I] == 0x67))
    ++I;
  if (I < Length && (Bytes[I] & 0xf0) == 0x40)
    ++I;
  if (I >= Length)
    return CF_None;
  uint8_t Op = Bytes[I];
  uintptr_t Next = PC + Length;
  auto Rel8 = [&] {
    return Next + uintptr_t(intptr_t(int8_t(Bytes[Length - 1])));
  };
  auto Rel32 = [&] {
    const uint8_t *R = Bytes + Length - 4;
    int32_t V = int32_t(uint32_t(R[0]) | uint32_t(R[1]) << 8 |
                        uint32_t(R[2]) << 16 | uint32_t(R[3]) << 24);
    return Next + uintptr_t(intptr_t(V));
  };
  if ((Op >= 0x70 && Op <= 0x7f) || Op == 0xeb || (Op >= 0xe0 && Op <= 0xe3)) {
    Target = Rel8();
    return CF_Jump;
  }
  if (Op == 0xe9 && Length - I == 5) {
    Target = Rel32();
    return CF_Jump;
  }
  if (Op == 0x0f && I + 1 < Length) {
    uint8_t Op2 = Bytes[I + 1];
    if (Op2 >= 0x80 && Op2 <= 0x8f && Length - I == 6) {
      Target = Rel32();
      return CF_Jump;
    }
    // SYSCALL, SYSENTER, UD2: the kernel runs, or nothing after it.
    if (Op2 == 0x05 || Op2 == 0x34 || Op2 == 0x0b)
      return CF_Return;
    return CF_None;
  }
  // XBEGIN: an abort resumes at its target.
  if (Op == 0xc7 && I + 1 < Length && Bytes[I + 1] == 0xf8 && Length - I == 6) {
    Target = Rel32();
    return CF_Jump;
  }
  if (Op == 0xe8 || Op == 0x9a)
    return CF_Call;
  if (Op == 0xff && I + 1 < Length) {
    unsigned Reg = (Bytes[I + 1] >> 3) & 7;
    if (Reg == 2 || Reg == 3)
      return CF_Call;
    if (Reg == 4 || Reg == 5)
      return CF_IndirectJump;
    return CF_None;
  }
  if (Op == 0xc2 || Op == 0xc3 || Op == 0xca || Op == 0xcb || Op == 0xcc ||
      Op == 0xcd || Op == 0xcf || Op == 0xf4)
    return CF_Return;
  // A jump not decoded above (a 16-bit operand's): trust nothing.
  if (Op == 0xe9 || Op == 0xea)
    return CF_IndirectJump;
  return CF_None;
}

} // namespace rt
} // namespace pcmap
