// BlueZ's headers (libbluetooth-dev) for the HCI socket transport. Only macros, structures and the
// functions below are used, all compiled from the headers: nothing from libbluetooth is linked.
#include <stddef.h>
#include <sys/ioctl.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

// The ioctl requests are function-like macros (_IOW, _IOR), which Swift cannot import; these return them.

/// `HCIDEVUP`: `_IOW('H', 201, int)`.
static inline unsigned long hil_ioctl_hcidevup(void) { return HCIDEVUP; }
/// `HCIDEVDOWN`: `_IOW('H', 202, int)`.
static inline unsigned long hil_ioctl_hcidevdown(void) { return HCIDEVDOWN; }
/// `HCIGETDEVLIST`: `_IOR('H', 210, int)`.
static inline unsigned long hil_ioctl_hcigetdevlist(void) { return HCIGETDEVLIST; }
/// `HCIGETDEVINFO`: `_IOR('H', 211, int)`.
static inline unsigned long hil_ioctl_hcigetdevinfo(void) { return HCIGETDEVINFO; }

/// `struct hci_dev_list_req` with room for `HCI_MAX_DEV` entries, the buffer `ioctl(HCIGETDEVLIST)`
/// fills (Swift does not import the flexible array member `dev_req[]`).
struct hil_hci_dev_list_req {
    uint16_t dev_num;
    struct hci_dev_req dev_req[HCI_MAX_DEV];
};
_Static_assert(offsetof(struct hil_hci_dev_list_req, dev_num) == offsetof(struct hci_dev_list_req, dev_num),
               "hil_hci_dev_list_req.dev_num is where hci_dev_list_req has it");
_Static_assert(offsetof(struct hil_hci_dev_list_req, dev_req) == offsetof(struct hci_dev_list_req, dev_req),
               "hil_hci_dev_list_req.dev_req is where hci_dev_list_req has it");
