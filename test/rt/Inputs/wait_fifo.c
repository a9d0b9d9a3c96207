// A thread blocked 300 ms opening a FIFO for reading (openat waits for a
// writer), which main then opens for writing (wait-syscall-names.c).
// Usage: wait_fifo PATH
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *Path;

static void *reader(void *Arg) {
  int Fd = open(Path, O_RDONLY);
  if (Fd >= 0)
    close(Fd);
  return Arg;
}

int main(int argc, char **argv) {
  if (argc < 2 || mkfifo(argv[1], 0600) != 0)
    return 1;
  Path = argv[1];
  pthread_t T;
  pthread_create(&T, 0, reader, 0);
  struct timespec Wait = {0, 300000000};
  nanosleep(&Wait, 0);
  int Fd = open(Path, O_WRONLY);
  pthread_join(T, 0);
  if (Fd >= 0)
    close(Fd);
  unlink(Path);
  printf("done\n");
  return 0;
}
