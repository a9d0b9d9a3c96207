// The operations of Inputs/ops.c (compiled into a test program or into a
// shared library).

#ifndef PCMAP_TEST_OPS_H
#define PCMAP_TEST_OPS_H

#include <stdint.h>

struct rt_op {
  const char *name;
  uint64_t (*fn)(void *p);
};

extern const struct rt_op rt_ops[];
extern const int rt_num_ops;

#endif
