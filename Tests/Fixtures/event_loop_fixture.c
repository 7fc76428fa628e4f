// The descriptors of an event loop like libdispatch's, made in the calling
// process for the tests of what plugboard keeps of the runtime's loop. The
// tests compile it with the toolchain's clang (`clang -shared -fPIC`) and
// open it with dlopen: Swift's Glibc module has no eventfd, timerfd or
// signalfd.
#define _GNU_SOURCE
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

// Fills `numbers` with: an eventfd no epoll instance watches; an epoll
// instance; an eventfd, a timerfd and a signalfd (for SIGUSR2) it watches.
// 0, or -1 when one could not be made (those made are closed again).
int fixture_make_event_loop(int numbers[5]) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGUSR2);
  numbers[0] = eventfd(0, EFD_CLOEXEC);
  numbers[1] = epoll_create1(EPOLL_CLOEXEC);
  numbers[2] = eventfd(0, EFD_CLOEXEC);
  numbers[3] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  numbers[4] = signalfd(-1, &signals, SFD_CLOEXEC);
  int made = 1;
  for (int index = 0; index < 5; index++) made = made && numbers[index] >= 0;
  for (int index = 2; made && index < 5; index++) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = numbers[index]};
    made = epoll_ctl(numbers[1], EPOLL_CTL_ADD, numbers[index], &event) == 0;
  }
  if (made) return 0;
  for (int index = 0; index < 5; index++) {
    if (numbers[index] >= 0) close(numbers[index]);
  }
  return -1;
}
