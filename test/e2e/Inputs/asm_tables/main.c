#include <pcmap/pcmap.h>
#include <stdio.h>

#define ASK(label)                                                             \
  do {                                                                         \
    extern char label[];                                                       \
    int A = pcmap_is_atomic_pc((uintptr_t)label);                              \
    printf("%s: %s\n", #label,                                                 \
           A == PCMAP_YES ? "YES" : A == PCMAP_NO ? "NO" : "UNKNOWN");         \
  } while (0)

int main(void) {
  ASK(at_add_lock_line);
  ASK(at_swap);
  ASK(at_swap_plain);
  ASK(at_cas);
  ASK(at_plain);
  ASK(at_byte_lock);
  ASK(at_with_data);
  ASK(at_in_macro);
  ASK(at_in_group);
  ASK(at_no_size);
  ASK(at_outer);
  ASK(at_inner);
  return 0;
}
