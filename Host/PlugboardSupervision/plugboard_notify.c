#include "plugboard_notify.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int plugboard_notify_send(const char *address, const char *message, size_t length) {
  if (address == NULL) return EINVAL;
  size_t size = strlen(address);
  struct sockaddr_un to;
  memset(&to, 0, sizeof to);
  to.sun_family = AF_UNIX;
  // An abstract name has no terminating NUL, and its length is exact; a
  // path must fit with its NUL.
  if ((address[0] != '/' && address[0] != '@') || size < 2 || size >= sizeof to.sun_path) return EINVAL;
  memcpy(to.sun_path, address, size);
  if (address[0] == '@') to.sun_path[0] = '\0';
  size_t terminator = address[0] == '/' ? 1 : 0;
  socklen_t to_length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size + terminator);
  // A socket per message, as sd_notify makes one: the parent sends a
  // handful, and a long-lived descriptor would be one more for a forked
  // child to inherit.
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  ssize_t sent;
  do {
    sent = sendto(fd, message, length, MSG_NOSIGNAL, (const struct sockaddr *)&to, to_length);
  } while (sent < 0 && errno == EINTR);
  int result = sent < 0 ? errno : ((size_t)sent == length ? 0 : EMSGSIZE);
  close(fd);
  return result;
}
