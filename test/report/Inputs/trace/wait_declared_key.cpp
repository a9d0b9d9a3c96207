// The key function of wait_declared.cpp's Comparator: its vtable, and with
// it (clang's limited debug information) the class's full description,
// are this file's alone.
#include "wait_declared.h"

Comparator::~Comparator() = default;
int Comparator::compare(long A, long B) const { return A < B ? -1 : A > B; }
