// plugboard-peak-rss: runs a program and reports its peak resident size,
// for the benchmark's memory scenario.
//
//   plugboard-peak-rss PROGRAM [ARGUMENT...]
//
// The program inherits standard input and output; when it ends, one line
// "peak-rss-kib N" goes to standard error and the program's exit status
// becomes this one's (128 + signal when a signal ended it).
//
// Why a separate, small C program: Linux records, at exec, the resident
// peak of the memory image being replaced into the process's ru_maxrss.
// The benchmark starts children with posix_spawn, whose child shares the
// benchmark's memory until exec, so every child would report at least the
// benchmark's own peak. This program's image is a few hundred KiB, far
// below anything it measures, and it forks its own child.

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: plugboard-peak-rss PROGRAM [ARGUMENT...]\n");
    return 2;
  }
  pid_t child = fork();
  if (child < 0) {
    perror("plugboard-peak-rss: fork");
    return 2;
  }
  if (child == 0) {
    execv(argv[1], argv + 1);
    perror("plugboard-peak-rss: exec");
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  while (wait4(child, &status, 0, &usage) < 0) {
    if (errno == EINTR) continue;
    perror("plugboard-peak-rss: wait4");
    return 2;
  }
  fprintf(stderr, "peak-rss-kib %ld\n", usage.ru_maxrss);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
