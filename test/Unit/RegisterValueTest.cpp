//===- RegisterValueTest.cpp - pcmap-report trace: DWARF register values -===//
//
// The DWARF expressions a call site's argument (DW_AT_call_value) and a
// variable's location are read as: a register plus a constant, at the PC
// or at the function's entry (registerValue, TracePointerNames.cpp), and what
// they are not.
//
//===----------------------------------------------------------------------===//

#include "TraceDwarf.h"

#include "llvm/BinaryFormat/Dwarf.h"

#include "gtest/gtest.h"

#include <vector>

using namespace pcmap::report;
using namespace llvm;

namespace {

std::optional<RegisterValue> value(std::vector<uint8_t> Expr) {
  return registerValue(Expr, /*Location=*/false);
}
std::optional<RegisterValue> location(std::vector<uint8_t> Expr) {
  return registerValue(Expr, /*Location=*/true);
}

void expectValue(std::optional<RegisterValue> V, unsigned Reg, int64_t Offset,
                 bool Entry = false) {
  ASSERT_TRUE(V.has_value());
  EXPECT_EQ(V->Reg, Reg);
  EXPECT_EQ(V->Offset, Offset);
  EXPECT_EQ(V->Entry, Entry);
}

TEST(RegisterValue, CallValueBaseRegister) {
  // DW_OP_breg14 R14+0 (clang), DW_OP_breg3 RBX+40, DW_OP_breg6 RBP-8.
  expectValue(value({dwarf::DW_OP_breg14, 0}), 14, 0);
  expectValue(value({dwarf::DW_OP_breg3, 40}), 3, 40);
  expectValue(value({dwarf::DW_OP_breg6, 0x78}), 6, -8);
  // DW_OP_bregx 33 +16.
  expectValue(value({dwarf::DW_OP_bregx, 33, 16}), 33, 16);
}

TEST(RegisterValue, RegisterAlone) {
  expectValue(value({dwarf::DW_OP_reg5}), 5, 0);
  expectValue(location({dwarf::DW_OP_reg3}), 3, 0);
  expectValue(location({dwarf::DW_OP_regx, 19}), 19, 0);
  // A register location has nothing after it (a piece is part of a value).
  EXPECT_FALSE(location({dwarf::DW_OP_reg3, dwarf::DW_OP_piece, 8}));
}

TEST(RegisterValue, ConstantsAdded) {
  expectValue(value({dwarf::DW_OP_breg3, 0, dwarf::DW_OP_plus_uconst, 8}), 3,
              8);
  expectValue(
      value({dwarf::DW_OP_breg3, 0, dwarf::DW_OP_lit8, dwarf::DW_OP_plus}), 3,
      8);
  expectValue(value({dwarf::DW_OP_breg3, 16, dwarf::DW_OP_constu, 4,
                     dwarf::DW_OP_minus}),
              3, 12);
  // A constant pushed and never added is not a register's value.
  EXPECT_FALSE(value({dwarf::DW_OP_breg3, 0, dwarf::DW_OP_lit8}));
  EXPECT_FALSE(value({dwarf::DW_OP_breg3, 0, dwarf::DW_OP_deref}));
}

TEST(RegisterValue, EntryValue) {
  // DW_OP_entry_value(DW_OP_reg5 RDI), DW_OP_stack_value; GCC's older
  // DW_OP_GNU_entry_value; with an offset added.
  expectValue(location({dwarf::DW_OP_entry_value, 1, dwarf::DW_OP_reg5,
                        dwarf::DW_OP_stack_value}),
              5, 0, true);
  expectValue(value({dwarf::DW_OP_GNU_entry_value, 1, dwarf::DW_OP_reg5,
                     dwarf::DW_OP_plus_uconst, 8}),
              5, 8, true);
  // Only a register, alone, at entry.
  EXPECT_FALSE(value({dwarf::DW_OP_entry_value, 2, dwarf::DW_OP_breg5, 0}));
}

TEST(RegisterValue, LocationNeedsStackValueForAComputedValue) {
  // GCC's this of an inlined std::mutex::lock: RBX+8, a value.
  expectValue(location({dwarf::DW_OP_breg3, 8, dwarf::DW_OP_stack_value}), 3,
              8);
  // Without DW_OP_stack_value, the variable is in memory at RSP+24.
  EXPECT_FALSE(location({dwarf::DW_OP_breg7, 24}));
  EXPECT_FALSE(location({dwarf::DW_OP_entry_value, 1, dwarf::DW_OP_reg5}));
}

TEST(RegisterValue, NotARegister) {
  EXPECT_FALSE(value({}));
  EXPECT_FALSE(value({dwarf::DW_OP_lit1}));
  EXPECT_FALSE(value({dwarf::DW_OP_fbreg, 8}));
  EXPECT_FALSE(value({dwarf::DW_OP_addr, 0, 0, 0, 0, 0, 0, 0, 0}));
  // Truncated: a base register without its offset.
  EXPECT_FALSE(value({dwarf::DW_OP_breg3}));
}

} // namespace
