#include "refusal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void put_escaped(const char *text) {
  char buffer[4 * PATH_MAX + 64];
  size_t used = 0;
  for (const unsigned char *byte = (const unsigned char *)text; *byte != '\0' && used + 4 < sizeof buffer; byte++) {
    if (*byte >= 0x20 && *byte < 0x7F) {
      buffer[used++] = (char)*byte;
    } else {
      used += (size_t)snprintf(buffer + used, sizeof buffer - used, "\\x%02X", *byte);
    }
  }
  (void)!write(STDERR_FILENO, buffer, used);
}

void put(const char *text) { (void)!write(STDERR_FILENO, text, strlen(text)); }

void put_error(const char *doing, const char *path, int error, const char *advice) {
  put("plugboard: ");
  put(doing);
  put(" ");
  put_escaped(path);
  put(": ");
  put(strerror(error));
  put(advice);
  put("\n");
}

const char *writers(mode_t mode) {
  int group = (mode & S_IWGRP) != 0, others = (mode & S_IWOTH) != 0;
  return group && others ? "group and others" : group ? "its group" : others ? "others" : NULL;
}

void put_mode(const struct stat *status) {
  char detail[64];
  snprintf(detail, sizeof detail, " (mode %04o, owner uid %u)", (unsigned)(status->st_mode & 07777),
           (unsigned)status->st_uid);
  put(detail);
}
