// Linked into a stress_dso.c library for stress-fork.c: the bounds of the
// library's own pcmap sections (version 1, docs/FORMAT.md), so that a thread
// can unregister and register them again through the callbacks.

extern char __start_pcmap_atomics1[], __stop_pcmap_atomics1[];
extern char __start_pcmap_functions1[], __stop_pcmap_functions1[];

void fork_sections(const char **atomics, const char **functions) {
  atomics[0] = __start_pcmap_atomics1;
  atomics[1] = __stop_pcmap_atomics1;
  functions[0] = __start_pcmap_functions1;
  functions[1] = __stop_pcmap_functions1;
}
