//===- decode.cpp - Decoding and validating PC sections -------------------===//

#include "core/decode.h"

#include "pcmap/Format.h"
#include "pcmap/pcmap.h"
#include "platform/platform.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pcmap {
namespace rt {

using namespace pcmap::format;

bool CodeRanges::contains(uintptr_t PC, uint64_t Size) const {
  for (unsigned I = 0; I < NumRanges; ++I)
    if (PC >= Begin[I] && PC < End[I] && Size <= End[I] - PC)
      return true;
  return false;
}

uint64_t *ScratchBuffer::get(size_t Items) {
  if (Items <= Capacity)
    return Data;
  if (!Data && Items <= kInlineItems) {
    Data = Inline;
    Capacity = kInlineItems;
    return Data;
  }
  size_t NewCapacity = Capacity > kInlineItems ? Capacity : 4096;
  while (NewCapacity < Items)
    NewCapacity *= 2;
  void *P = reserveAddressSpace(NewCapacity * sizeof(uint64_t));
  if (!P)
    return nullptr;
  // The old buffer's address space is kept (it is small next to the new
  // one and only backed where written); its pages go back.
  if (Data && Data != Inline)
    releasePages(Data, Capacity * sizeof(uint64_t));
  Data = static_cast<uint64_t *>(P);
  Capacity = NewCapacity;
  return Data;
}

namespace {

ScratchBuffer Items, SortScratch, RecordScratch;

/// Reads one ULEB128 value; 0 bytes consumed means truncated or overflowing.
inline unsigned readULEB(const uint8_t *P, const uint8_t *End, uint64_t &V) {
  if (End - P >= 2) {
    // The common values of one or two bytes (function sizes below 16 KiB,
    // features, descriptors), without a branch on which.
    uint32_t B0 = P[0], B1 = P[1], C0 = B0 >> 7;
    if (!(C0 & (B1 >> 7))) {
      V = (B0 & 0x7f) | ((B1 << 7) & (0u - C0));
      return 1 + C0;
    }
  } else if (P < End && !(*P & 0x80)) {
    V = *P;
    return 1;
  }
  return readULEB128(P, End, V);
}

struct Cursor {
  const uint8_t *Start, *P, *Stop;
  DecodeError Error;
  bool fail(const char *What, uint64_t Entries) {
    Error.What = What;
    Error.Offset = uint64_t(P - Start);
    Error.EntriesSeen = Entries;
    return false;
  }
};

bool versionOk(MetadataKind Kind, uint32_t Version) {
  return format::checkSectionVersion(Kind, Version) == format::VC_Supported;
}

} // namespace

void sortByHighWord(uint64_t *A, uint64_t *Tmp, size_t N,
                    bool MaybeNearlySorted) {
  // Sections come sorted by function, with the records of one function in
  // any order: an insertion sort moves each item a short way. It gives up
  // after a budget of moves proportional to N (input in no useful order)
  // and leaves the rest to the radix sort, which is linear on any input.
  uint64_t Budget = MaybeNearlySorted ? 8 * uint64_t(N) + 64 : 0;
  size_t I = 1;
  for (; I < N && Budget; ++I) {
    uint64_t V = A[I];
    size_t J = I;
    for (; J && (A[J - 1] >> 32) > (V >> 32) && Budget; --J, --Budget)
      A[J] = A[J - 1];
    A[J] = V;
  }
  if (I >= N && Budget)
    return;
  // LSD radix sort on the 32-bit key in three passes (11, 11, 10 bits);
  // a pass whose digit is the same for all keys is skipped.
  static const unsigned Shifts[3] = {32, 43, 54};
  uint32_t *Count = reinterpret_cast<uint32_t *>(Tmp + N);
  uint64_t *From = A, *To = Tmp;
  for (unsigned Shift : Shifts) {
    unsigned Bits = Shift == 54 ? 10 : 11;
    uint32_t Mask = (1u << Bits) - 1;
    memset(Count, 0, sizeof(uint32_t) << Bits);
    for (size_t I = 0; I < N; ++I)
      ++Count[(From[I] >> Shift) & Mask];
    if (Count[(From[0] >> Shift) & Mask] == N)
      continue;
    uint32_t Sum = 0;
    for (uint32_t D = 0; D <= Mask; ++D) {
      uint32_t C = Count[D];
      Count[D] = Sum;
      Sum += C;
    }
    for (size_t I = 0; I < N; ++I)
      To[Count[(From[I] >> Shift) & Mask]++] = From[I];
    uint64_t *T = From;
    From = To;
    To = T;
  }
  if (From != A)
    memcpy(A, From, N * sizeof(uint64_t));
}

namespace {

template <unsigned Width> inline uint64_t readRelativePC(const uint8_t *P) {
  if (Width == 4) {
    int32_t V;
    memcpy(&V, P, 4);
    return uint64_t(int64_t(V));
  }
  int64_t V;
  memcpy(&V, P, 8);
  return uint64_t(V);
}

/// The offset from Code.TextLo of [PC, PC + Size) if it lies in one range of
/// Code, else ~0. One compare for a module with one range of code.
inline uint64_t codeOffset(const CodeRanges &Code, uint64_t Hull, uintptr_t PC,
                           uint64_t Size) {
  uint64_t Offset = uint64_t(PC - Code.TextLo);
  if (Offset >= Hull || Size > Hull - Offset)
    return ~uint64_t(0);
  if (Code.NumRanges > 1 && !Code.contains(PC, Size))
    return ~uint64_t(0);
  return Offset;
}

/// Bit I set if the Ith of the words of Width bytes at P (16 bytes) is
/// zero.
template <unsigned Width> inline unsigned zeroWords(const uint8_t *P) {
#if defined(__SSE2__)
  __m128i V = _mm_loadu_si128(reinterpret_cast<const __m128i *>(P));
  unsigned Halves = unsigned(_mm_movemask_ps(
      _mm_castsi128_ps(_mm_cmpeq_epi32(V, _mm_setzero_si128()))));
  if (Width == 4)
    return Halves;
  return ((Halves & 3) == 3) | (unsigned((Halves >> 2) == 3) << 1);
#else
  unsigned Mask = 0;
  for (unsigned I = 0; I < 16 / Width; ++I)
    Mask |= unsigned(readRelativePC<Width>(P + I * Width) == 0) << I;
  return Mask;
#endif
}

/// Byte J (0 <= J < 16 / Width) of the result: the bytes from P to the
/// end of the record if the Jth word at P is its zero word (Width * (J + 1)
/// and the descriptor's bytes), with bit 7 set if the descriptor has more
/// than three bytes. Byte 16 / Width: 16, the step when there is no zero
/// word. Computed for all J at once, apart from finding the zero word, so
/// that the step waits for nothing but the zero words' position. (For
/// 32-bit words with SSE2, decodeFast() reads the step from kNarrowSteps.)
template <unsigned Width> inline uint64_t stepLengths(const uint8_t *P) {
  constexpr unsigned Words = 16 / Width;
  uint64_t Steps = uint64_t(16) << (8 * Words);
  for (unsigned J = 0; J < Words; ++J) {
    uint32_t W;
    memcpy(&W, P + Width * (J + 1), 4);
    uint32_t C0 = (W >> 7) & 1, C1 = C0 & (W >> 15), C2 = C1 & (W >> 23);
    Steps |= uint64_t(Width * (J + 1) + 1 + C0 + C1 + (C2 << 7)) << (8 * J);
  }
  return Steps;
}

#if defined(__SSE2__)
/// The step of a run of 32-bit words, for each combination of the zero
/// words among four (bits 0 to 3 of the index) and the continuation bits of
/// the first and second byte after each (bits 4 to 7 and 8 to 11): the
/// bytes up to the end of the descriptor after the first zero word, or 16
/// when there is none. (Descriptors of more than three bytes are rejected
/// apart.)
struct StepTable {
  uint8_t Bytes[4096];
};
constexpr StepTable makeNarrowSteps() {
  StepTable T{};
  for (unsigned I = 0; I < 4096; ++I) {
    unsigned Zero = I & 15, C0 = (I >> 4) & 15, C1 = (I >> 8) & 15;
    unsigned J = 0;
    while (J < 4 && !((Zero >> J) & 1))
      ++J;
    if (J == 4) {
      T.Bytes[I] = 16;
      continue;
    }
    unsigned First = (C0 >> J) & 1, Second = First & (C1 >> J) & 1;
    T.Bytes[I] = uint8_t(4 * (J + 1) + 1 + First + Second);
  }
  return T;
}
inline constexpr StepTable kNarrowSteps = makeNarrowSteps();
#endif // __SSE2__

/// Decoding an atomics section: keys (offset << 32 | record) in section
/// order, and the descriptor of each record. Upstream entries have no
/// records: their keys all name record 0, whose descriptor is
/// kUpstreamDescriptor.
struct AtomicsDecoder {
  Cursor &C;
  const CodeRanges &Code;
  const uint64_t Hull; // bytes of code from TextLo
  uint64_t *const Keys;
  uint32_t *const Records;
  const uint8_t *P;
  size_t N = 0;           // keys
  uint32_t R = 0;         // records ended
  size_t RecordStart = 0; // the open record's first key
  uint64_t PrevOffset = 0;
  bool Disordered = false;

  AtomicsDecoder(Cursor &C, const CodeRanges &Code, uint64_t *Keys,
                 uint32_t *Records)
      : C(C), Code(Code), Hull(Code.TextHi - Code.TextLo), Keys(Keys),
        Records(Records), P(C.P) {}

  bool fail(const char *What) {
    C.P = P;
    return C.fail(What, N);
  }

  /// Decodes from P to the end, checking everything as it goes (the exact
  /// error and where it is).
  template <unsigned Width, bool Upstream> bool decodeChecked() {
    const uint8_t *const Stop = C.Stop;
    while (P < Stop) {
      if (size_t(Stop - P) < Width)
        return fail("truncated relative PC");
      uint64_t Rel = readRelativePC<Width>(P);
      if (Rel == 0) {
        if (Upstream)
          return fail("zero relative PC");
        // The zero word ending the record, and its descriptor.
        P += Width;
        if (N == RecordStart)
          return fail("record without PCs");
        uint64_t Value;
        unsigned Len = readULEB(P, Stop, Value);
        if (!Len)
          return fail("truncated or overlong descriptor");
        AtomicDescriptor D;
        if (!decodeDescriptor(Value, D))
          return fail("invalid descriptor");
        // Keep what this version defines; reserved bits are for newer
        // readers.
        Records[R++] = uint32_t(encodeDescriptor(D));
        RecordStart = N;
        P += Len;
        continue;
      }
      uint64_t Offset =
          codeOffset(Code, Hull, uintptr_t(P) + uintptr_t(Rel), 0);
      if (Offset == ~uint64_t(0))
        return fail("PC outside the module's executable code");
      Disordered |= Offset < PrevOffset;
      PrevOffset = Offset;
      Keys[N++] = (Offset << 32) | R;
      P += Width;
    }
    if (!Upstream && N != RecordStart)
      return fail("truncated relative PC"); // a record with no end
    return true;
  }

  /// Decodes the bulk of a pcmap section whose module has one range of
  /// code, a run of PCs at a time, without a branch on the data: 16 bytes
  /// of words are tested for a zero word at once, the words before it are
  /// PCs (checked and turned into keys together), and the descriptor after
  /// it (if there is one in these 16 bytes) ends the record. A record ends
  /// every two or three words, at no predictable place; what one step
  /// waits for from the one before is only where it starts, and the rest
  /// of a step is a few vector instructions, so that steps overlap. Stops
  /// near the section's end, or returns false at anything unusual (an
  /// error, a descriptor of more than three bytes), for decodeChecked to
  /// redo from the start. Descriptors are left as read (see
  /// finishRecords()), and the keys are not checked for order: Disordered
  /// is set, for the sort to check (which costs it one compare per key when
  /// they are in order). Narrow: the offsets of 32-bit PCs are computed in
  /// 32 bits (see narrowOffsetsExact()).
  template <unsigned Width, bool Narrow> bool decodeFast() {
    constexpr unsigned Words = 16 / Width; // per step
    const uint8_t *const Stop = C.Stop;
    const uint64_t Base = uint64_t(Code.TextLo);
    uint64_t Bad = 0;
    const uint8_t *Q = P;
    size_t K = N, Start = RecordStart;
    uint32_t Rec = R;
    // A step reads 16 bytes of words and the 16 bytes after the first word
    // (where the descriptor after a zero word at any of the positions
    // starts).
    while (size_t(Stop - Q) >= 16 + Width) {
      // The section and the keys are streams that the hardware does not
      // always fetch early enough: this loop waits for nothing else.
      __builtin_prefetch(Q + 1024);
      __builtin_prefetch(Keys + K + 128, 1);
      unsigned Zero = zeroWords<Width>(Q);
      // The PCs before the first zero word (all the words if none).
      unsigned J = unsigned(__builtin_ctz(Zero | (1u << Words)));
      uint64_t End = Zero != 0;
      Bad |= storeKeys<Width, Narrow>(Q, uint64_t(uintptr_t(Q)) - Base, J, Rec,
                                      Keys + K);
      K += J;
      // The record's end: its descriptor is read from 1 + Width * J on
      // (Without a zero word, J is Words and the descriptor read is that
      // after the first word, unused.)
      unsigned Step;
#if defined(__SSE2__)
      if constexpr (Width == 4) {
        // The step from a table, indexed by the zero words and the first
        // two continuation bits of the descriptor at each position: what
        // the next step waits for is two loads and a compare.
        __m128i D = _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q + 4));
        auto SignBits = [](__m128i X) {
          return unsigned(_mm_movemask_ps(_mm_castsi128_ps(X)));
        };
        unsigned C0 = SignBits(_mm_slli_epi32(D, 24));
        unsigned C1 = SignBits(_mm_slli_epi32(D, 16));
        unsigned C2 = SignBits(_mm_slli_epi32(D, 8));
        Step = kNarrowSteps.Bytes[Zero | C0 << 4 | C1 << 8];
        // A descriptor of more than three bytes at the first zero word.
        Bad |= C0 & C1 & C2 & Zero & (0u - Zero);
      } else
#endif
      {
        Step = unsigned(stepLengths<Width>(Q) >> (8 * J)) & 0xff;
        Bad |= End & (Step >> 7);
        Step &= 0x7f;
      }
      Bad |= End & (K == Start);
      Records[Rec] = descriptorAfter<Width>(Q, J % Words);
      Rec += uint32_t(End);
      Start = End ? K : Start;
      Q += Step;
    }
    if (Bad)
      return false;
    P = Q;
    N = K;
    R = Rec;
    RecordStart = Start;
    Disordered = true;
    return true;
  }

  /// Whether the offsets of the 32-bit PCs of a section from Start to Stop
  /// can be computed in 32 bits: an offset Distance + Rel (Distance from
  /// the start of the code to the word, Rel the word, signed) is one of
  /// 2^32 consecutive values, and if [0, Hull) lies among them, its low 32
  /// bits are below Hull exactly when it is.
  static bool narrowOffsetsExact(const uint8_t *Start, const uint8_t *Stop,
                                 const CodeRanges &Code) {
    const int64_t Half = int64_t(1) << 31;
    int64_t Hull = int64_t(Code.TextHi - Code.TextLo);
    int64_t Lo = int64_t(uintptr_t(Start) - Code.TextLo);
    int64_t Hi = int64_t(uintptr_t(Stop) - Code.TextLo);
    return Hull <= Half && Lo >= Hull - Half && Hi + 16 <= Half;
  }

  /// Stores the keys of the first J of the 16 / Width words at Q, which lie
  /// Distance bytes from the start of the code, to Out (all 16 / Width
  /// slots are written). Nonzero if one of them is not a PC in the code.
  template <unsigned Width, bool Narrow>
  uint64_t storeKeys(const uint8_t *Q, uint64_t Distance, unsigned J,
                     uint32_t Rec, uint64_t *Out) const {
#if defined(__SSE2__)
    if (Narrow) {
      static_assert(Width == 4 || !Narrow, "32-bit PCs only");
      __m128i Offsets =
          _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(Q)),
                        _mm_add_epi32(_mm_set1_epi32(int(uint32_t(Distance))),
                                      _mm_setr_epi32(0, 4, 8, 12)));
      // Unsigned compares, as signed ones of the values with the top bit
      // flipped.
      const __m128i Flip = _mm_set1_epi32(int(0x80000000u));
      __m128i Inside =
          _mm_cmplt_epi32(_mm_xor_si128(Offsets, Flip),
                          _mm_set1_epi32(int(uint32_t(Hull) ^ 0x80000000u)));
      unsigned Outside = ~unsigned(_mm_movemask_ps(_mm_castsi128_ps(Inside)));
      __m128i Records = _mm_set1_epi32(int(Rec));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(Out),
                       _mm_unpacklo_epi32(Records, Offsets));
      _mm_storeu_si128(reinterpret_cast<__m128i *>(Out + 2),
                       _mm_unpackhi_epi32(Records, Offsets));
      return Outside & ((1u << J) - 1);
    }
#endif
    uint64_t Bad = 0;
    for (unsigned I = 0; I < 16 / Width; ++I) {
      uint64_t Offset =
          Distance + I * Width + readRelativePC<Width>(Q + I * Width);
      Bad |= uint64_t(I < J) & (Offset >= Hull);
      Out[I] = (Offset << 32) | Rec;
    }
    return Bad;
  }

  /// The descriptor (of up to three bytes, as read) after a zero word at
  /// position J (< 16 / Width) of the words at Q.
  template <unsigned Width>
  static uint32_t descriptorAfter(const uint8_t *Q, unsigned J) {
    uint32_t W;
    memcpy(&W, Q + Width + Width * J, 4);
    uint32_t C0 = (W >> 7) & 1, C1 = C0 & (W >> 15);
    return (W & 0x7f) | ((W >> 1) & (0x7f << 7) & (0u - C0)) |
           ((W >> 2) & (0x7f << 14) & (0u - C1));
  }

  /// Keeps, of the descriptors decodeFast() read, what this version
  /// defines; false if one is invalid.
  bool finishRecords() {
    static constexpr uint32_t Defined[8] = {uint32_t(definedDescriptorBits(0)),
                                            uint32_t(definedDescriptorBits(1)),
                                            uint32_t(definedDescriptorBits(2)),
                                            uint32_t(definedDescriptorBits(3)),
                                            uint32_t(definedDescriptorBits(4)),
                                            0,
                                            0,
                                            0};
    static_assert(AK_LastKind == 4, "the kinds above are invalid");
    uint32_t Invalid = 0;
    for (uint32_t I = 0; I < R; ++I) {
      uint32_t V = Records[I];
      Invalid |= uint32_t(V & 7) > AK_LastKind;
      Records[I] = V & Defined[V & 7];
    }
    return !Invalid;
  }
};

/// Out's arrays, in blocks of their own, from the keys (sorted by offset)
/// and the records' descriptors, keeping the first of repeated PCs (a
/// zero-size instruction at the same address). False when out of memory.
bool storeAtomics(const uint64_t *Keys, size_t N, const uint32_t *Records,
                  DecodedAtomics &Out) {
  ArenaBlock OffsetsBlock, DescriptorsBlock;
  if (!OffsetsBlock.allocate(N * sizeof(uint32_t)) ||
      !DescriptorsBlock.allocate(N * sizeof(uint32_t)))
    return false;
  auto *Offsets = OffsetsBlock.data<uint32_t>();
  auto *Descs = DescriptorsBlock.data<uint32_t>();
  size_t Unique = 0;
  uint64_t Prev = ~uint64_t(0);
  for (size_t I = 0; I < N; ++I) {
    uint64_t Key = Keys[I];
    storeRelaxed(&Offsets[Unique], uint32_t(Key >> 32));
    storeRelaxed(&Descs[Unique], Records[uint32_t(Key)]);
    Unique += (Key >> 32) != Prev;
    Prev = Key >> 32;
  }
  Out.Offsets = OffsetsBlock.release();
  Out.Descriptors = DescriptorsBlock.release();
  Out.Count = uint32_t(Unique);
  Out.Capacity = uint32_t(N);
  return true;
}

/// Out's arrays, in blocks of their own, from the keys in section order,
/// when they are sorted but for short displacements (the records of one
/// function, each sorted, in any order): each key is inserted into the
/// arrays themselves, after a scan back over those it comes before, so
/// that the keys are read once and the arrays written once, in order, but
/// for the few entries moved. Keeps the first of repeated PCs (as the
/// stable sort in storeAtomics does). False, with nothing allocated, when
/// out of memory or when the keys are further out of order than a budget
/// of moves proportional to the keys read allows (the caller sorts them).
bool insertAtomics(const uint64_t *Keys, size_t N, const uint32_t *Records,
                   DecodedAtomics &Out) {
  ArenaBlock OffsetsBlock, DescriptorsBlock;
  if (!OffsetsBlock.allocate(N * sizeof(uint32_t)) ||
      !DescriptorsBlock.allocate(N * sizeof(uint32_t)))
    return false;
  auto *Offsets = OffsetsBlock.data<uint32_t>();
  auto *Descs = DescriptorsBlock.data<uint32_t>();
  // Four moves per key so far: input in no useful order is given up on
  // after a few keys, not after a few times N moves.
  uint64_t Budget = 64;
  size_t Count = 0;
  int64_t Last = -1; // the last offset stored, below any offset at first
  for (size_t I = 0; I < N; ++I, Budget += 4) {
    const uint64_t Key = Keys[I];
    const uint32_t Offset = uint32_t(Key >> 32), Desc = Records[uint32_t(Key)];
    if (__builtin_expect(int64_t(Offset) > Last, 1)) {
      storeRelaxed(&Offsets[Count], Offset);
      storeRelaxed(&Descs[Count++], Desc);
      Last = Offset;
      continue;
    }
    size_t J = Count - 1; // Offsets[J] >= Offset
    while (J && Offsets[J - 1] > Offset && Budget) {
      --J;
      --Budget;
    }
    if (!Budget)
      return false;
    if (Offsets[J] == Offset || (J && Offsets[J - 1] == Offset))
      continue; // a repeated PC: the first one stays
    for (size_t M = Count; M > J; --M) {
      storeRelaxed(&Offsets[M], Offsets[M - 1]);
      storeRelaxed(&Descs[M], Descs[M - 1]);
    }
    storeRelaxed(&Offsets[J], Offset);
    storeRelaxed(&Descs[J], Desc);
    ++Count;
  }
  Out.Offsets = OffsetsBlock.release();
  Out.Descriptors = DescriptorsBlock.release();
  Out.Count = uint32_t(Count);
  Out.Capacity = uint32_t(N);
  return true;
}

} // namespace

DecodeError decodeAtomics(MetadataKind Kind, uint32_t Version,
                          const uint8_t *Start, const uint8_t *Stop,
                          const CodeRanges &Code, DecodedAtomics &Out) {
  Cursor C{Start, Start, Stop, {}};
  Out = DecodedAtomics();
  if (!versionOk(Kind, Version)) {
    C.fail("unsupported section version", 0);
    return C.Error;
  }
  const unsigned Width = relativePCSize(Version, sizeof(void *));
  const bool Upstream = Kind == MK_UpstreamAtomics;
  // A PC is at least Width bytes. A record is two words and a byte, but
  // the fast decoder writes a descriptor at every step that ends one,
  // before it knows whether the record is well formed: a step may end a
  // "record" every Width + 1 bytes (a zero word and a one-byte
  // descriptor), and the descriptors are 32-bit, two to an item.
  size_t Bytes = size_t(Stop - Start);
  uint64_t *Keys = Items.get(Bytes / Width + 1);
  auto *Records = reinterpret_cast<uint32_t *>(
      RecordScratch.get((Bytes / (Width + 1) + 2) / 2 + 1));
  if (!Keys || !Records) {
    C.fail("out of memory", 0);
    return C.Error;
  }
  // The fast path first, where it applies; anything it does not take is
  // decoded again from the start, checked step by step.
  AtomicsDecoder Fast(C, Code, Keys, Records);
  bool FastOk = !Upstream && Code.NumRanges == 1 && Code.TextHi > Code.TextLo &&
                (Width == 8 ? Fast.decodeFast<8, false>()
                 : AtomicsDecoder::narrowOffsetsExact(Start, Stop, Code)
                     ? Fast.decodeFast<4, true>()
                     : Fast.decodeFast<4, false>()) &&
                (Width == 4 ? Fast.decodeChecked<4, false>()
                            : Fast.decodeChecked<8, false>()) &&
                Fast.finishRecords();
  C = Cursor{Start, Start, Stop, {}};
  AtomicsDecoder Checked(C, Code, Keys, Records);
  if (!FastOk) {
    Records[0] = kUpstreamDescriptor;
    bool Ok = Upstream ? (Width == 4 ? Checked.decodeChecked<4, true>()
                                     : Checked.decodeChecked<8, true>())
                       : (Width == 4 ? Checked.decodeChecked<4, false>()
                                     : Checked.decodeChecked<8, false>());
    if (!Ok)
      return C.Error;
  }
  const AtomicsDecoder &D = FastOk ? Fast : Checked;
  size_t N = D.N;
  if (!N)
    return C.Error;

  // Sections come sorted by function: most are stored as they are read;
  // the others are in no useful order (insertAtomics tried), for the radix
  // sort.
  if (D.Disordered && insertAtomics(Keys, N, Records, Out))
    return C.Error;
  if (D.Disordered) {
    uint64_t *Tmp = SortScratch.get(N + kSortScratchExtra);
    if (!Tmp) {
      C.fail("out of memory", N);
      return C.Error;
    }
    sortByHighWord(Keys, Tmp, N, /*MaybeNearlySorted=*/false);
  }
  if (!storeAtomics(Keys, N, Records, Out))
    C.fail("out of memory", N);
  return C.Error;
}

namespace {

/// Decodes the entries of a functions section into Records (room for
/// Capacity), in section order; Disordered is set when a function does not
/// start after the one before it. False, with C.Error set, at the first bad
/// entry.
template <unsigned Width, bool Upstream, bool Fixed32>
bool decodeFunctionRecords(Cursor &C, uint32_t VersionBase,
                           const CodeRanges &Code, FunctionRecord *Records,
                           size_t &Count, bool &Disordered) {
  const uint8_t *P = C.P, *const Stop = C.Stop;
  const uint64_t Hull = Code.TextHi - Code.TextLo;
  // Continues after the Count records decoded so far (decodeFastFunctions).
  size_t N = Count;
  uint64_t PrevStart = N ? Records[N - 1].Start : 0;
  bool Disorder = Disordered;
  auto Fail = [&](const char *What) {
    C.P = P;
    Count = N;
    return C.fail(What, N);
  };
  auto Read = [&](uint64_t &V) -> bool {
    if (Fixed32) {
      if (size_t(Stop - P) < 4)
        return false;
      uint32_t W;
      memcpy(&W, P, 4);
      V = W;
      P += 4;
      return true;
    }
    unsigned Len = readULEB(P, Stop, V);
    P += Len;
    return Len != 0;
  };
  while (P < Stop) {
    if (size_t(Stop - P) < Width)
      return Fail("truncated relative PC");
    const uint8_t *Entry = P;
    uint64_t Rel = readRelativePC<Width>(P);
    uintptr_t PC = uintptr_t(P) + uintptr_t(Rel);
    P += Width;
    uint64_t Size, Features, StackArgs = 0;
    if (!Read(Size) || !Read(Features))
      return Fail("truncated function size or features");
    if (Upstream && upstreamHasStackArgs(VersionBase, Features) &&
        !Read(StackArgs))
      return Fail("truncated stack-arguments size");
    if (StackArgs > 0xffffffffu)
      return Fail("stack-arguments size over 4 GiB");
    // Feature bits 32 and up are reserved: ignored like the other bits
    // this reader does not know (FunctionRecord keeps 32 of them).
    uint64_t Offset = codeOffset(Code, Hull, PC, Size);
    if (Rel == 0 || Size > 0xffffffffu || Offset == ~uint64_t(0)) {
      P = Entry; // the error is the entry's, not that of what follows
      return Fail("function outside the module's executable code");
    }
    Disorder |= N && Offset <= PrevStart;
    PrevStart = Offset;
    FunctionRecord R{};
    R.Start = uint32_t(Offset);
    R.Entry = uint32_t(Offset);
    R.Size = uint32_t(Size);
    if (Upstream) {
      // pcmap features are derived when the module's table is built, from
      // UpstreamFeatures and what else the module registered.
      R.Source = PCMAP_SOURCE_UPSTREAM;
      R.UpstreamFeatures = uint32_t(Features);
      R.UpstreamStackArgs = uint32_t(StackArgs);
    } else {
      R.Source = PCMAP_SOURCE_PCMAP;
      R.Declared = uint32_t(Features);
    }
    arenaStore(&Records[N++], &R, sizeof(R));
  }
  C.P = P;
  Count = N;
  Disordered = Disorder;
  return true;
}

/// A pcmap function entry's record, as five words in the order of its
/// fields (FunctionRecord): the fields a module table fills in are 0.
inline void storePCMapRecord(FunctionRecord *Out, uint64_t Offset,
                             uint64_t Size, uint64_t Features) {
  static_assert(offsetof(FunctionRecord, Source) == 16 &&
                    offsetof(FunctionRecord, Entry) == 28 &&
                    offsetof(FunctionRecord, Declared) == 36,
                "the words below");
  auto *W = reinterpret_cast<uint64_t *>(Out);
  storeRelaxed(&W[0], Offset | Size << 32);
  storeRelaxed(&W[1], uint64_t(0));
  storeRelaxed(&W[2], uint64_t(PCMAP_SOURCE_PCMAP));
  storeRelaxed(&W[3], Offset << 32);
  storeRelaxed(&W[4], (Features & 0xffffffffu) << 32);
}

/// Decodes the bulk of a pcmap functions section whose module has one range
/// of code, an entry at a time without a branch on the data: its size and
/// features are one or two bytes each (a size below 16 KiB; every feature
/// this version defines), read from one load, and whatever does not fit
/// that (or is not a function in the code) is noted, not tested. Stops
/// near the section's end, where decodeFunctionRecords carries on; false
/// at anything unusual, for it to redo the section from the start, checked.
template <unsigned Width>
bool decodeFastFunctions(Cursor &C, const CodeRanges &Code,
                         FunctionRecord *Records, size_t &Count,
                         bool &Disordered) {
  const uint8_t *P = C.P, *const Stop = C.Stop;
  // In registers: the stores to the records could alias Code.
  const uint64_t Hull = Code.TextHi - Code.TextLo, TextLo = Code.TextLo;
  uint64_t Bad = 0, Disorder = 0;
  int64_t Prev = -1; // below any offset: the first is in order
  FunctionRecord *Out = Records;
  // An entry is at most Width + 4 bytes here; 8 are read after its PC.
  while (size_t(Stop - P) >= Width + 8) {
    uint64_t Rel = readRelativePC<Width>(P), V;
    memcpy(&V, P + Width, 8);
    // Size: one byte, or two when the first has its continuation bit; then
    // the features, the same way. A third byte of either is unusual.
    uint64_t C0 = (V >> 7) & 1;
    uint64_t Size = (V & 0x7f) | ((V >> 1) & (0x3f80 & (0 - C0)));
    uint64_t F = V >> (8 + 8 * C0), F0 = (F >> 7) & 1;
    uint64_t Features = (F & 0x7f) | ((F >> 1) & (0x3f80 & (0 - F0)));
    Bad |= (C0 & (V >> 15)) | (F0 & (F >> 15));
    uint64_t Offset = uint64_t(uintptr_t(P) + uintptr_t(Rel)) - TextLo;
    Bad |= uint64_t(Rel == 0) | uint64_t(Offset >= Hull) |
           uint64_t(Size > Hull - Offset);
    Disorder |= uint64_t(int64_t(Offset) <= Prev);
    Prev = int64_t(Offset);
    storePCMapRecord(Out++, Offset, Size, Features);
    P += Width + 2 + C0 + F0;
  }
  if (Bad)
    return false;
  C.P = P;
  Count = size_t(Out - Records);
  Disordered = Disorder != 0;
  return true;
}

/// Decodes the entries of a functions section of pcmap or sanmd (SanmdV1:
/// version 1, of 32-bit words) with relative PCs of Width bytes
/// (decodeFunctionRecords).
template <unsigned Width>
bool decodeRecordsOfWidth(Cursor &C, bool Upstream, bool SanmdV1,
                          uint32_t VersionBase, const CodeRanges &Code,
                          FunctionRecord *R, size_t &N, bool &Disordered) {
  if (!Upstream) {
    // The fast path first, where it applies; the checked decoder carries on
    // where it stopped, or starts again if it gave up.
    const uint8_t *const Start = C.P;
    if (Code.NumRanges != 1 || Code.TextHi <= Code.TextLo ||
        !decodeFastFunctions<Width>(C, Code, R, N, Disordered)) {
      C.P = Start;
      N = 0;
      Disordered = false;
    }
    return decodeFunctionRecords<Width, false, false>(C, VersionBase, Code, R,
                                                      N, Disordered);
  }
  if (SanmdV1)
    return decodeFunctionRecords<Width, true, true>(C, VersionBase, Code, R, N,
                                                    Disordered);
  return decodeFunctionRecords<Width, true, false>(C, VersionBase, Code, R, N,
                                                   Disordered);
}

/// Out's records, in a block of their own: the N records R, which are out
/// of order or list a start twice, sorted by start, keeping one of the
/// functions that share a start. False when out of memory.
bool storeSortedFunctions(const FunctionRecord *R, size_t N,
                          DecodedFunctions &Out) {
  uint64_t *Keys = Items.get(N);
  uint64_t *Tmp = SortScratch.get(N + kSortScratchExtra);
  ArenaBlock Sorted;
  if (!Keys || !Tmp || !Sorted.allocate(N * sizeof(FunctionRecord)))
    return false;
  for (size_t I = 0; I < N; ++I)
    Keys[I] = (uint64_t(R[I].Start) << 32) | I;
  sortByHighWord(Keys, Tmp, N);
  auto *S = Sorted.data<FunctionRecord>();
  size_t Unique = 0;
  for (size_t I = 0; I < N; ++I) {
    const FunctionRecord &F = R[uint32_t(Keys[I])];
    // Functions folded by identical-code folding share a start: keep one.
    if (Unique && S[Unique - 1].Start == F.Start)
      continue;
    arenaStore(&S[Unique++], &F, sizeof(F));
  }
  Out.Records = Sorted.release();
  Out.Count = uint32_t(Unique);
  Out.Capacity = uint32_t(N);
  return true;
}

} // namespace

DecodeError decodeFunctions(MetadataKind Kind, uint32_t Version,
                            const uint8_t *Start, const uint8_t *Stop,
                            const CodeRanges &Code, DecodedFunctions &Out) {
  Cursor C{Start, Start, Stop, {}};
  Out = DecodedFunctions();
  if (!versionOk(Kind, Version)) {
    C.fail("unsupported section version", 0);
    return C.Error;
  }
  const unsigned Width = relativePCSize(Version, sizeof(void *));
  const uint32_t Base = versionBase(Version);
  const bool Upstream = Kind == MK_UpstreamCovered;
  const bool SanmdV1 = Upstream && Base == kUpstreamVersionV1;
  // Records are decoded straight into the arena, in an array sized for the
  // most entries the section can hold (an entry is at least Width bytes and
  // two ULEB128 values, or two 32-bit words in sanmd version 1).
  size_t Capacity = size_t(Stop - Start) / (Width + (SanmdV1 ? 8 : 2)) + 1;
  ArenaBlock Records;
  if (!Records.allocate(Capacity * sizeof(FunctionRecord))) {
    C.fail("out of memory", 0);
    return C.Error;
  }
  auto *R = Records.data<FunctionRecord>();
  size_t N = 0;
  bool Disordered = false;
  bool Ok = Width == 4 ? decodeRecordsOfWidth<4>(C, Upstream, SanmdV1, Base,
                                                 Code, R, N, Disordered)
                       : decodeRecordsOfWidth<8>(C, Upstream, SanmdV1, Base,
                                                 Code, R, N, Disordered);
  if (!Ok)
    return C.Error;
  if (!Disordered) {
    Out.Records = Records.release();
    Out.Count = uint32_t(N);
    Out.Capacity = uint32_t(Capacity);
    return C.Error;
  }
  // Out of order, or a start listed twice: sort a copy by start.
  if (!storeSortedFunctions(R, N, Out))
    C.fail("out of memory", N);
  return C.Error;
}

void freeDecoded(DecodedAtomics &A) {
  arenaFree(A.Offsets, uint64_t(A.Capacity) * sizeof(uint32_t));
  arenaFree(A.Descriptors, uint64_t(A.Capacity) * sizeof(uint32_t));
  A = DecodedAtomics();
}

void freeDecoded(DecodedFunctions &F) {
  arenaFree(F.Records, uint64_t(F.Capacity) * sizeof(FunctionRecord));
  F = DecodedFunctions();
}

} // namespace rt
} // namespace pcmap
