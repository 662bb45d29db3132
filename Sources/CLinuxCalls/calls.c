#ifdef __linux__
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include "CLinuxCalls.h"

int hil_accept_cloexec(int fd) {
    return accept4(fd, 0, 0, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int hil_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

void hil_stdout_line_buffered(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}
#endif
