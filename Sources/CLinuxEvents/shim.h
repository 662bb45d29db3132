// Linux's event descriptors for the host's event loop: epoll, eventfd (wake-ups) and timerfd
// (nanosecond deadlines). Headers of the C library (Debian libc6-dev); nothing extra is linked.
#ifndef HIL_CLINUXEVENTS_SHIM_H
#define HIL_CLINUXEVENTS_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif
