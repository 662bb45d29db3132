#include <libusb-1.0/libusb.h>
