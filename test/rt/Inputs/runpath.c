// A plugin loader as libraries write them: libloader.so finds its plugins
// through its own search path (DT_RUNPATH or DT_RPATH $ORIGIN/plugins), not
// the program's. Built three ways: -DPLUGIN (libplug.so), -DLOADER
// (libloader.so), and the program.
#include <dlfcn.h>
#include <stdio.h>

#if defined(PLUGIN)
int plugin_value(void) { return 42; }
#elif defined(LOADER)
int load_plugin(void) {
  void *h = dlopen("libplug.so", RTLD_NOW);
  if (!h) {
    printf("plugin not loaded: %s\n", dlerror());
    return 1;
  }
  int (*value)(void) = (int (*)(void))dlsym(h, "plugin_value");
  printf("plugin says %d\n", value ? value() : -1);
  // Again: the loaded library, by its name.
  void *again = dlopen("libplug.so", RTLD_NOW);
  printf("same handle: %s\n", again == h ? "yes" : "no");
  dlclose(again);
  dlclose(h);
  return 0;
}
#else
int load_plugin(void);
int main(void) { return load_plugin(); }
#endif
