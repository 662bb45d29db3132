// Linux calls Swift's Glibc module does not expose: epoll, eventfd and timerfd for the host's event loop,
// the close-on-exec forms of accept and pipe (glibc declares those only under _GNU_SOURCE, which calls.c
// defines for itself), and line-buffered stdout. Only the C library (Debian libc6-dev) is used.
#ifndef HIL_CLINUXCALLS_H
#define HIL_CLINUXCALLS_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

/// accept(2) whose descriptor is non-blocking and close-on-exec from the start (accept4): no program
/// another thread starts meanwhile inherits it. -1 and errno on failure.
int hil_accept_cloexec(int fd);

/// pipe(2) whose both ends are close-on-exec from the start (pipe2 with O_CLOEXEC).
int hil_pipe_cloexec(int fds[2]);

/// Makes the C library's standard output line-buffered, even into a pipe (setvbuf with _IOLBF): Swift 6
/// cannot name the `stdout` global without a data-race diagnostic.
void hil_stdout_line_buffered(void);
#endif
#endif
