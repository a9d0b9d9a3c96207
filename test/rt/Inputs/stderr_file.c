// A program that closes its standard error and opens a file of its own,
// which takes descriptor 2, then crashes. Modes:
//   data FILE    the file is data (opened read-write, not for appending)
//   append FILE  the file is the program's log (opened for appending)
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int *volatile bad_pointer = (int *)16;

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int append = !strcmp(argv[1], "append");
  close(2);
  int fd =
      open(argv[2], O_CREAT | O_TRUNC | (append ? O_WRONLY | O_APPEND : O_RDWR),
           0600);
  if (fd != 2) {
    printf("the file is descriptor %d, not 2\n", fd);
    return 2;
  }
  const char *line = append ? "the program's log\n" : "the program's data\n";
  write(2, line, strlen(line));
  printf("crashing\n");
  fflush(stdout);
  *bad_pointer = 1;
  return 0;
}
