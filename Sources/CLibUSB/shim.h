#include <libusb-1.0/libusb.h>
#if defined(__linux__)
/* epoll gathers libusb's file descriptors into the one descriptor a host's event loop watches
   (HCIUSB's LibUSBPollSet); Glibc's Swift module does not export it. */
#include <sys/epoll.h>
#endif
