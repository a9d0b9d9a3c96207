// Stands in for llvm-symbolizer in secure-mode.test. It writes what it was
// started with to ARGV0.seen (the descriptors open in /proc/self/fd, the
// number of environment variables, its effective user), then answers every
// request with a function name no real symbolizer gives.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv, char **envp) {
  (void)argc;
  char Fds[1024] = "";
  DIR *D = opendir("/proc/self/fd");
  if (!D)
    return 1;
  struct dirent *E;
  while ((E = readdir(D))) {
    if (E->d_name[0] == '.' || atoi(E->d_name) == dirfd(D))
      continue;
    strncat(Fds, " ", sizeof(Fds) - strlen(Fds) - 1);
    strncat(Fds, E->d_name, sizeof(Fds) - strlen(Fds) - 1);
  }
  closedir(D);
  int Env = 0;
  while (envp[Env])
    ++Env;
  char Path[4096];
  snprintf(Path, sizeof(Path), "%s.seen", argv[0]);
  FILE *Seen = fopen(Path, "w");
  if (!Seen)
    return 1;
  fprintf(Seen, "fds:%s\nenv: %d\neuid: %d\n", Fds, Env, (int)geteuid());
  fclose(Seen);
  char Line[4096];
  while (fgets(Line, sizeof(Line), stdin)) {
    fputs("fake_symbolized_function\nfake.c:1:1\n\n", stdout);
    fflush(stdout);
  }
  return 0;
}
