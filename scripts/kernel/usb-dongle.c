/*
 * An emulated USB Bluetooth dongle for the kernel tier: a FunctionFS gadget (on dummy_hcd) with one
 * interface of class E0/01/01 — interrupt IN for events, bulk OUT/IN for ACL, commands as class
 * requests on ep0 — bridged to an H4 controller on a Unix socket (btvirt -s in the guest).
 *
 * usage: usb-dongle --ffs DIR --h4 SOCKET [--udc-file PATH --udc NAME] [--wedge-after N]
 *                   [--never-recover] [--reboot-on-port-off LOCATION] [--log FILE]
 *                   [--realtek RECORD [--realtek-rom-version N] [--realtek-fw-version HEX]]
 *                   [--intel RECORD [--intel-firmware SFI] [--intel-sbe-type N]]
 *
 * Faults, for the recovery ladder: SIGUSR1 arms "stop answering at the Nth HCI Reset from now"
 * (--wedge-after, default 2). A wedged dongle takes commands on ep0 but never answers them. A USB
 * reset (the function disabled and enabled again) recovers it — it comes back with a fresh controller,
 * as a real dongle reboots — unless --never-recover was given, or SIGUSR2 armed the fault, in which case
 * nothing but a new process brings it back. Each state change is logged as one line.
 *
 * Port power, for the adapter power-cycle suite and the ladder's last rung: with --reboot-on-port-off
 * LOCATION (the dongle's own location as the host sees it, e.g. 3-1 on dummy_hcd's root hub), the dongle
 * watches /sys/bus/usb/devices/LOCATION; when the host cuts the port's power (the sysfs `disable` file)
 * and the device leaves the bus, the dongle has lost power: its controller is replaced by a fresh one
 * (a new H4 connection) and any fault is cleared, so the port coming back brings a rebooted dongle.
 *
 * A Realtek RTL8761BU, for the firmware download (--realtek RECORD; give the gadget btusb's USB ID for it,
 * 0bda:8771 or a TP-Link UB500's 2357:0604): the dongle answers Read Local Version itself as btrtl's
 * `rtl8761bu` row in ROM state (manufacturer 0x005D, HCI version 0x0A, HCI revision 0x000B, LMP subversion
 * 0x8761), the vendor Read ROM Version (0xFC6D) with --realtek-rom-version (default 1), and each vendor Download
 * (0xFC20) with a Command Complete of status 0 and the index; it refuses LE commands (Unknown HCI Command)
 * until the Download marked last (index bit 7), after which Read Local Version reports --realtek-fw-version
 * (default 0x09a98a6b, Debian's rtl8761bu_fw.bin) as HCI revision << 16 | LMP subversion. Every download's
 * payload is written to RECORD (replaced when a download starts again at index 0) and its indices, one a
 * line, to RECORD.indices, so the bytes btrtl and hil send can be compared. A USB reset or a port power cut
 * loses the patch, as on a real dongle.
 *
 * An Intel AX210 in its bootloader, for the Secure Send download (--intel RECORD; give the gadget 8087:0032):
 * Intel Read Version (0xFC05) answers the TLV form as btintel reads it — CNVi/CNVr top 0x410 (ibt-0041-0041),
 * platform 0x37, variant 0x17 (TyP), image type 0x01 (bootloader) or 0x03 (operational), secure boot engine
 * --intel-sbe-type (default 0, RSA), a minimum firmware build other than the file's. In the bootloader it takes
 * Secure Send (0xFC09) on ep0 (as Bumble's driver sends it) or bulk OUT (as btusb does), answering each, as a
 * real bootloader does, with a Command Complete on bulk IN (btusb_recv_bulk_intel: "in bootloader mode the
 * device can send events via the bulk endpoint"; Bumble's driver takes them "from the ACL channel"), and writing
 * its parameters (type octet, then data) to RECORD and "type length" to RECORD.fragments (both begun afresh at each
 * CSS header, a download's first fragment); once the command buffer of --intel-firmware (default
 * /lib/firmware/intel/ibt-0041-0041.sfi, read at each download's start; its length after the RSA and, if present,
 * ECDSA headers) has arrived it sends the vendor event 0xFF 0x06 "firmware loading complete"; Intel Reset (0xFC01)
 * gets a Command Complete, the vendor event 0xFF 0x02 "bootup", and operational firmware, whose Intel Write DDC
 * (0xFC8B) records go to RECORD.ddc. The bootloader takes HCI Reset and refuses every other command (Unknown HCI
 * Command); other vendor commands are refused in either state; once operational the rest goes to the controller
 * behind. A USB reset or a port power cut returns it to the bootloader.
 *
 * Two things a FunctionFS dongle must do (EMULATORS.md): FUNCTIONFS_ALL_CTRL_RECIP, because btusb
 * addresses its class requests to the device, not the interface; and a zero-length packet after any
 * event or ACL packet whose length is a multiple of the endpoint's max packet size.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define INT_MPS 16
#define BULK_MPS_FS 64
#define BULK_MPS_HS 512

static const char *ffs_dir, *h4_path, *udc_file, *udc_name;
static int wedge_after = 2, never_recover = 0;
static int ep0 = -1, ep_int = -1, ep_out = -1, ep_in = -1;
static pthread_mutex_t h4_lock = PTHREAD_MUTEX_INITIALIZER;
static int h4 = -1;
static volatile sig_atomic_t armed_signal = 0; /* 1: recoverable, 2: never */
static int armed = 0, armed_never = 0, resets = 0, wedged = 0, enabled = 0, disabled_since_enable = 0;
static unsigned long commands = 0, events = 0, acl_out = 0, acl_in = 0;
static int bulk_mps = BULK_MPS_HS;
/* Interrupt IN is written by the controller's reader and by the Realtek ROM's own answers. */
static pthread_mutex_t int_lock = PTHREAD_MUTEX_INITIALIZER;
/* --realtek: the RTL8761BU's ROM state and the record of what was downloaded. */
static const char *realtek_record;
static int realtek_rom_version = 1;
static uint32_t realtek_fw_version = 0x09a98a6b;
static volatile int realtek_patched = 0;
static FILE *realtek_payload, *realtek_indices;
static unsigned long realtek_fragments = 0, realtek_octets = 0;
/* --intel: declared here, defined with the rest of the Intel identity below. */
static const char *intel_record;
static volatile int intel_operational;
static size_t intel_bulk_commands(const uint8_t *buffer, size_t have);
static void intel_lose_firmware(const char *why);


static void say(const char *format, ...) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    va_list args;
    va_start(args, format);
    fprintf(stderr, "usb-dongle %ld.%03ld: ", (long)now.tv_sec, now.tv_nsec / 1000000);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

static void die(const char *what) {
    say("fatal: %s: %s", what, strerror(errno));
    exit(2);
}

static int write_all(int fd, const void *data, size_t length) {
    const uint8_t *bytes = data;
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += n;
        length -= (size_t)n;
    }
    return 0;
}

static int connect_h4(void) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", h4_path);
    for (int attempt = 0; attempt < 100; attempt++) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) die("socket");
        if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) return fd;
        close(fd);
        usleep(50000);
    }
    say("fatal: no H4 controller at %s after 5 s", h4_path);
    exit(2);
}

/* A fresh controller behind the dongle, as after a real dongle's reboot. */
static void reconnect_h4(void) {
    int fresh = connect_h4();
    pthread_mutex_lock(&h4_lock);
    int old = h4;
    h4 = fresh;
    pthread_mutex_unlock(&h4_lock);
    if (old >= 0) shutdown(old, SHUT_RDWR); /* the reader thread closes it */
}

/* --reboot-on-port-off: a thread that follows the dongle's own presence on the host's bus. */
static const char *own_location;

static void *port_power_watcher(void *unused) {
    (void)unused;
    char path[512];
    snprintf(path, sizeof path, "/sys/bus/usb/devices/%s", own_location);
    int present = access(path, F_OK) == 0;
    for (;;) {
        usleep(20000);
        int now = access(path, F_OK) == 0;
        if (now == present) continue;
        present = now;
        if (!now) {
            wedged = 0;
            armed = 0;
            realtek_patched = 0;
            intel_lose_firmware("port power off seen");
            reconnect_h4();
            say("port power off seen (%s left the bus): rebooted with a fresh controller", own_location);
        } else {
            say("on the bus at %s", own_location);
        }
    }
    return NULL;
}

static void write_descriptors(void) {
    struct {
        struct usb_functionfs_descs_head_v2 header;
        __le32 fs_count, hs_count;
        struct {
            struct usb_interface_descriptor interface;
            struct usb_endpoint_descriptor_no_audio events, acl_out, acl_in;
        } __attribute__((packed)) fs, hs;
    } __attribute__((packed)) d;
    memset(&d, 0, sizeof d);
    d.header.magic = htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2);
    d.header.length = htole32(sizeof d);
    d.header.flags = htole32(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC | FUNCTIONFS_ALL_CTRL_RECIP);
    d.fs_count = d.hs_count = htole32(4);
    for (int speed = 0; speed < 2; speed++) {
        __typeof__(d.fs) *set = speed == 0 ? &d.fs : &d.hs;
        set->interface = (struct usb_interface_descriptor){
            .bLength = USB_DT_INTERFACE_SIZE, .bDescriptorType = USB_DT_INTERFACE, .bInterfaceNumber = 0,
            .bNumEndpoints = 3, .bInterfaceClass = 0xE0, .bInterfaceSubClass = 0x01, .bInterfaceProtocol = 0x01,
            .iInterface = 1};
        set->events = (struct usb_endpoint_descriptor_no_audio){
            .bLength = USB_DT_ENDPOINT_SIZE, .bDescriptorType = USB_DT_ENDPOINT, .bEndpointAddress = 1 | USB_DIR_IN,
            .bmAttributes = USB_ENDPOINT_XFER_INT, .wMaxPacketSize = htole16(INT_MPS), .bInterval = 1};
        set->acl_out = (struct usb_endpoint_descriptor_no_audio){
            .bLength = USB_DT_ENDPOINT_SIZE, .bDescriptorType = USB_DT_ENDPOINT, .bEndpointAddress = 2 | USB_DIR_OUT,
            .bmAttributes = USB_ENDPOINT_XFER_BULK, .wMaxPacketSize = htole16(speed == 0 ? BULK_MPS_FS : BULK_MPS_HS)};
        set->acl_in = (struct usb_endpoint_descriptor_no_audio){
            .bLength = USB_DT_ENDPOINT_SIZE, .bDescriptorType = USB_DT_ENDPOINT, .bEndpointAddress = 3 | USB_DIR_IN,
            .bmAttributes = USB_ENDPOINT_XFER_BULK, .wMaxPacketSize = htole16(speed == 0 ? BULK_MPS_FS : BULK_MPS_HS)};
    }
    if (write_all(ep0, &d, sizeof d) < 0) die("writing descriptors to ep0");
    const struct {
        struct usb_functionfs_strings_head header;
        struct {
            __le16 code;
            const char text[sizeof "HCI"];
        } __attribute__((packed)) lang;
    } __attribute__((packed)) strings = {
        .header = {.magic = htole32(FUNCTIONFS_STRINGS_MAGIC), .length = htole32(sizeof strings),
                   .str_count = htole32(1), .lang_count = htole32(1)},
        .lang = {htole16(0x0409), "HCI"},
    };
    if (write_all(ep0, &strings, sizeof strings) < 0) die("writing strings to ep0");
}

static int open_endpoint(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", ffs_dir, name);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) die(path);
    return fd;
}

/* Writes one packet to an IN endpoint, then a zero-length packet when it fills whole max-size packets. */
static void send_in(int fd, const uint8_t *data, size_t length, int mps) {
    if (write_all(fd, data, length) < 0) {
        say("dropped a %zu-byte packet on an IN endpoint: %s", length, strerror(errno));
        return;
    }
    if (length % (size_t)mps == 0 && write(fd, data, 0) < 0) say("zero-length packet failed: %s", strerror(errno));
}

/* H4 from the controller → events on interrupt IN, ACL on bulk IN. */
static void *controller_reader(void *unused) {
    (void)unused;
    uint8_t buffer[8192];
    size_t have = 0;
    int fd = -1;
    for (;;) {
        pthread_mutex_lock(&h4_lock);
        if (fd != h4) { have = 0; fd = h4; }
        pthread_mutex_unlock(&h4_lock);
        ssize_t n = read(fd, buffer + have, sizeof buffer - have);
        if (n <= 0) {
            pthread_mutex_lock(&h4_lock);
            int replaced = h4 != fd;
            pthread_mutex_unlock(&h4_lock);
            if (replaced) { close(fd); continue; }
            say("fatal: the H4 controller closed (%s)", n < 0 ? strerror(errno) : "end of stream");
            exit(2);
        }
        have += (size_t)n;
        size_t start = 0;
        for (;;) {
            size_t left = have - start;
            if (left < 1) break;
            uint8_t type = buffer[start];
            size_t header = type == 0x04 ? 3 : type == 0x02 ? 5 : 0;
            if (header == 0) { say("fatal: H4 packet type 0x%02x from the controller", type); exit(2); }
            if (left < header) break;
            size_t body = type == 0x04 ? buffer[start + 2] : (size_t)(buffer[start + 3] | buffer[start + 4] << 8);
            if (left < header + body) break;
            const uint8_t *packet = buffer + start + 1;
            size_t length = header - 1 + body;
            if (!wedged) {
                if (type == 0x04) {
                    pthread_mutex_lock(&int_lock);
                    events++;
                    send_in(ep_int, packet, length, INT_MPS);
                    pthread_mutex_unlock(&int_lock);
                }
                else { acl_in++; send_in(ep_in, packet, length, bulk_mps); }
            }
            start += header + body;
        }
        memmove(buffer, buffer + start, have - start);
        have -= start;
    }
    return NULL;
}

static void forward_h4(uint8_t type, const uint8_t *data, size_t length) {
    uint8_t packet[4096 + 8];
    if (length + 1 > sizeof packet) return;
    packet[0] = type;
    memcpy(packet + 1, data, length);
    pthread_mutex_lock(&h4_lock);
    int fd = h4;
    int failed = write_all(fd, packet, length + 1);
    pthread_mutex_unlock(&h4_lock);
    if (failed) say("writing to the controller failed: %s", strerror(errno));
}

/* ACL from the host on bulk OUT, reassembled by its header → H4 (commands, for an Intel bootloader). */
static void *host_acl_reader(void *unused) {
    (void)unused;
    uint8_t buffer[16384];
    size_t have = 0;
    for (;;) {
        ssize_t n = read(ep_out, buffer + have, sizeof buffer - have);
        if (n < 0) {
            if (errno == EINTR) continue;
            have = 0; /* disabled (USB reset, unbind): drop the partial packet and wait */
            usleep(20000);
            continue;
        }
        have += (size_t)n;
        size_t start = 0;
        if (intel_record && !intel_operational) start = intel_bulk_commands(buffer, have);
        while (!(intel_record && !intel_operational) && have - start >= 4) {
            size_t body = buffer[start + 2] | buffer[start + 3] << 8;
            if (have - start < 4 + body) break;
            if (!wedged) { acl_out++; forward_h4(0x02, buffer + start, 4 + body); }
            start += 4 + body;
        }
        memmove(buffer, buffer + start, have - start);
        have -= start;
        if (have == sizeof buffer) have = 0;
    }
    return NULL;
}

static void arm_signal(int signal) { armed_signal = signal == SIGUSR2 ? 2 : 1; }

static void take_signals(void) {
    if (!armed_signal) return;
    armed = 1;
    armed_never = armed_signal == 2 || never_recover;
    armed_signal = 0;
    resets = 0;
    say("fault armed: stop answering at HCI Reset %d from now, %s", wedge_after,
        armed_never ? "never recovering" : "recovering on a USB reset");
}

/* A Command Complete the dongle sends itself: opcode, then `parameters` (status first). */
static void complete(uint16_t opcode, const uint8_t *parameters, size_t length) {
    uint8_t event[5 + 255];
    if (length > 250) return;
    event[0] = 0x0E;
    event[1] = (uint8_t)(3 + length);
    event[2] = 1;
    event[3] = opcode & 0xFF;
    event[4] = opcode >> 8;
    memcpy(event + 5, parameters, length);
    pthread_mutex_lock(&int_lock);
    events++;
    send_in(ep_int, event, 5 + length, INT_MPS);
    pthread_mutex_unlock(&int_lock);
}

/* Opens RECORD and RECORD.indices afresh: a download starts. */
static void realtek_start_record(void) {
    char path[512];
    if (realtek_payload) fclose(realtek_payload);
    if (realtek_indices) fclose(realtek_indices);
    snprintf(path, sizeof path, "%s.indices", realtek_record);
    realtek_payload = fopen(realtek_record, "w");
    realtek_indices = fopen(path, "w");
    if (!realtek_payload || !realtek_indices) die(realtek_record);
    realtek_fragments = realtek_octets = 0;
}

/* --realtek: answers what the RTL8761BU's ROM answers itself; 0 for a command the controller behind takes. */
static int realtek_command(const uint8_t *data, size_t length) {
    uint16_t opcode = (uint16_t)(data[0] | data[1] << 8);
    const uint8_t *parameters = data + 3;
    size_t count = length - 3 < data[2] ? length - 3 : data[2];
    if (opcode == 0x1001) { /* Read Local Version Information */
        uint16_t revision = realtek_patched ? (uint16_t)(realtek_fw_version >> 16) : 0x000B;
        uint16_t subversion = realtek_patched ? (uint16_t)(realtek_fw_version & 0xFFFF) : 0x8761;
        const uint8_t answer[] = {0x00, 0x0A, revision & 0xFF, revision >> 8, 0x0A, 0x5D, 0x00, subversion & 0xFF, subversion >> 8};
        complete(opcode, answer, sizeof answer);
        return 1;
    }
    if (opcode == 0xFC6D) { /* vendor Read ROM Version */
        const uint8_t answer[] = {0x00, (uint8_t)realtek_rom_version};
        complete(opcode, answer, sizeof answer);
        return 1;
    }
    if (opcode == 0xFC20) { /* vendor Download: an index, then up to 252 octets */
        uint8_t index = count >= 1 ? parameters[0] : 0;
        if (index == 0 || !realtek_payload) {
            realtek_start_record();
            say("realtek: download started");
        }
        if (count > 1 && fwrite(parameters + 1, 1, count - 1, realtek_payload) != count - 1) die(realtek_record);
        fprintf(realtek_indices, "0x%02x\n", index);
        fflush(realtek_payload);
        fflush(realtek_indices);
        realtek_fragments++;
        realtek_octets += count > 1 ? count - 1 : 0;
        if (index & 0x80) {
            realtek_patched = 1;
            say("realtek: download complete, %lu fragments, %lu octets; now patched (fw version 0x%08x)", realtek_fragments,
                realtek_octets, realtek_fw_version);
        }
        const uint8_t answer[] = {0x00, index};
        complete(opcode, answer, sizeof answer);
        return 1;
    }
    if (!realtek_patched && data[1] >> 2 == 0x08) { /* LE commands: not in ROM state */
        const uint8_t answer[] = {0x01};
        complete(opcode, answer, sizeof answer);
        return 1;
    }
    return 0;
}

static int intel_command(const uint8_t *data, size_t length);

static void on_command(const uint8_t *data, size_t length) {
    take_signals();
    commands++;
    int reset = length >= 3 && data[0] == 0x03 && data[1] == 0x0C;
    if (reset && armed && !wedged && ++resets >= wedge_after) {
        wedged = 1;
        say("wedged at HCI Reset %d: no more answers", resets);
    }
    if (wedged) return;
    if (realtek_record && realtek_command(data, length)) return;
    if (intel_record && intel_command(data, length)) return;
    forward_h4(0x01, data, length);
}

/*
 * --intel: an Intel AX210 (TyP) in its bootloader, as btintel meets it. Kept apart from the rest so that
 * other identities merge cleanly.
 */
static const char *intel_record;
static const char *intel_firmware = "/lib/firmware/intel/ibt-0041-0041.sfi";
static int intel_sbe_type = 0;
static volatile int intel_operational = 0;
static FILE *intel_payload, *intel_fragments_file, *intel_ddc;
static unsigned long intel_fragments = 0, intel_bulk_fragments = 0, intel_octets = 0, intel_data_octets = 0, intel_data_expected = 0;

/* Set while a command that came on bulk OUT is handled, to count the fragments sent that way. */
static int intel_on_bulk = 0;

/* An event the dongle sends itself on interrupt IN (on bulk IN with `bulk`): code, then `parameters`. */
static void intel_event_on(int bulk, uint8_t code, const uint8_t *parameters, size_t length) {
    uint8_t event[2 + 255];
    event[0] = code;
    event[1] = (uint8_t)length;
    memcpy(event + 2, parameters, length);
    if (bulk) { acl_in++; send_in(ep_in, event, 2 + length, bulk_mps); return; }
    pthread_mutex_lock(&int_lock);
    events++;
    send_in(ep_int, event, 2 + length, INT_MPS);
    pthread_mutex_unlock(&int_lock);
}

static void intel_event(uint8_t code, const uint8_t *parameters, size_t length) { intel_event_on(0, code, parameters, length); }

/* The command buffer's length in the .sfi the bootloader expects, read at each download's start: after the RSA
 * header (644 octets) and, when a CSS header of version 0x00020000 follows at 644 (as btintel checks), the ECDSA
 * header (320). The bootloader says "firmware loading complete" once that many data octets arrived. */
static void intel_expect_firmware(void) {
    FILE *file = fopen(intel_firmware, "rb");
    if (!file) die(intel_firmware);
    uint8_t header[13];
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    int ecdsa = size > 964 && fseek(file, 644, SEEK_SET) == 0 && fread(header, 1, sizeof header, file) == sizeof header
        && header[0] == 0x06 && header[8] == 0x00 && header[9] == 0x00 && header[10] == 0x02 && header[11] == 0x00;
    fclose(file);
    long start = ecdsa ? 964 : 644;
    if (size <= start) { say("fatal: %s is %ld octets, no command buffer", intel_firmware, size); exit(2); }
    intel_data_expected = (unsigned long)(size - start);
}

/* Opens RECORD (the Secure Send parameters), RECORD.fragments (type and length a line) and RECORD.ddc afresh. */
static void intel_start_record(void) {
    char path[512];
    if (intel_payload) fclose(intel_payload);
    if (intel_fragments_file) fclose(intel_fragments_file);
    if (intel_ddc) fclose(intel_ddc);
    intel_payload = fopen(intel_record, "w");
    snprintf(path, sizeof path, "%s.fragments", intel_record);
    intel_fragments_file = fopen(path, "w");
    snprintf(path, sizeof path, "%s.ddc", intel_record);
    intel_ddc = fopen(path, "w");
    if (!intel_payload || !intel_fragments_file || !intel_ddc) die(intel_record);
    intel_fragments = intel_bulk_fragments = intel_octets = intel_data_octets = 0;
}

/* Intel Read Version's TLV form (btintel.h's INTEL_TLV_* types): CNVi and CNVr top 0x410 (so btintel asks for
 * ibt-0041-0041), CNVi BT platform 0x37 variant 0x17, the image type, secure boot on, the minimum firmware build
 * 1-1.20 (not the file's, so btintel downloads), full CCE, the secure boot engine and an OTP address. */
static void intel_read_version(uint16_t opcode) {
    const uint8_t answer[] = {
        0x00,
        0x10, 4, 0x10, 0x04, 0x00, 0x00,  0x11, 4, 0x10, 0x04, 0x00, 0x00,  0x12, 4, 0x00, 0x37, 0x17, 0x00,
        0x13, 4, 0x00, 0x00, 0x00, 0x00,  0x16, 2, 0x00, 0x00,  0x1C, 1, intel_operational ? 0x03 : 0x01,
        0x1D, 2, 0x33, 0x16,  0x1E, 1, 0x01,  0x1F, 4, 0x6B, 0x00, 0x00, 0x00,
        0x28, 1, 0x01,  0x2A, 1, 0x00,  0x2B, 1, 0x00,  0x2C, 1, 0x00,  0x2D, 3, 0x01, 0x01, 0x14,
        0x2E, 1, 0x00,  0x2F, 1, (uint8_t)intel_sbe_type,  0x30, 6, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
    };
    complete(opcode, answer, sizeof answer);
}

/* --intel: answers what the AX210's bootloader (and the vendor side of its operational firmware) answers itself;
 * 0 for a command the controller behind takes. */
static int intel_command(const uint8_t *data, size_t length) {
    uint16_t opcode = (uint16_t)(data[0] | data[1] << 8);
    const uint8_t *parameters = data + 3;
    size_t count = length - 3 < data[2] ? length - 3 : data[2];
    const uint8_t ok[] = {0x00}, unknown[] = {0x01};
    if (opcode == 0xFC05) { intel_read_version(opcode); return 1; }
    if (opcode == 0xFC09 && !intel_operational && count >= 1) { /* Secure Send: a type, then up to 252 octets */
        if (!intel_payload || parameters[0] == 0x00) { /* the CSS header comes first: a download starts */
            intel_start_record();
            intel_expect_firmware();
            say("intel: download started (%lu octets of command buffer expected)", intel_data_expected);
        }
        if (fwrite(parameters, 1, count, intel_payload) != count) die(intel_record);
        fprintf(intel_fragments_file, "0x%02x %zu\n", parameters[0], count - 1);
        fflush(intel_payload);
        fflush(intel_fragments_file);
        intel_fragments++;
        intel_bulk_fragments += intel_on_bulk ? 1 : 0;
        intel_octets += count;
        if (parameters[0] == 0x01) intel_data_octets += count - 1;
        const uint8_t done[] = {0x01, 0x09, 0xFC, 0x00}; /* Command Complete: 1 credit, 0xFC09, status 0 */
        intel_event_on(1, 0x0E, done, sizeof done); /* on bulk IN, wherever the command came from */
        if (parameters[0] == 0x01 && intel_data_octets == intel_data_expected) {
            const uint8_t loaded[] = {0x06, 0x00, 0x09, 0xFC, 0x00}; /* firmware loading complete: result 0 */
            say("intel: download complete, %lu fragments (%lu on bulk OUT), %lu octets", intel_fragments, intel_bulk_fragments, intel_octets);
            intel_event(0xFF, loaded, sizeof loaded);
        }
        return 1;
    }
    if (opcode == 0xFC01 && !intel_operational) { /* Intel Reset: boot the operational firmware */
        char line[64] = "";
        for (size_t i = 0; i < count && i < 16; i++) snprintf(line + strlen(line), sizeof line - strlen(line), "%02x", parameters[i]);
        complete(opcode, ok, sizeof ok);
        if (intel_data_octets != intel_data_expected) {
            say("intel: Intel Reset %s before a complete download: stays in the bootloader", line);
            return 1;
        }
        intel_operational = 1;
        const uint8_t bootup[] = {0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00};
        say("intel: Intel Reset %s: booted into operational firmware", line);
        intel_event(0xFF, bootup, sizeof bootup);
        return 1;
    }
    if (opcode == 0xFC8B && intel_operational) { /* Intel Write DDC: one record */
        if (intel_ddc) { fwrite(parameters, 1, count, intel_ddc); fflush(intel_ddc); }
        say("intel: Write DDC of %zu octets", count);
        complete(opcode, ok, sizeof ok);
        return 1;
    }
    if (opcode == 0xFCA6 && intel_operational) { /* Read Debug Features: page 1, no telemetry */
        uint8_t features[19] = {0x00, 0x01};
        complete(opcode, features, sizeof features);
        return 1;
    }
    if (data[1] >> 2 == 0x3F) { complete(opcode, unknown, sizeof unknown); return 1; } /* other vendor commands */
    if (!intel_operational) { /* the bootloader takes HCI Reset and nothing else */
        complete(opcode, opcode == 0x0C03 ? ok : unknown, 1);
        return 1;
    }
    return 0;
}

/* In the bootloader btusb sends Secure Send on bulk OUT (btusb_send_frame_intel): commands, not ACL. */
static size_t intel_bulk_commands(const uint8_t *buffer, size_t have) {
    size_t start = 0;
    while (have - start >= 3 && have - start >= 3 + (size_t)buffer[start + 2]) {
        size_t length = 3 + buffer[start + 2];
        intel_on_bulk = 1;
        on_command(buffer + start, length);
        intel_on_bulk = 0;
        start += length;
    }
    return start;
}

/* A USB reset or a power cut: back to the bootloader. */
static void intel_lose_firmware(const char *why) {
    if (!intel_record || !intel_operational) return;
    intel_operational = 0;
    say("intel: %s: the firmware is lost, back to the bootloader", why);
}

static void handle_setup(const struct usb_ctrlrequest *setup) {
    uint16_t length = le16toh(setup->wLength);
    uint8_t data[4096];
    if (setup->bRequestType & USB_DIR_IN) {
        /* No IN request is defined for a Bluetooth controller: stall it (a read on an IN setup stalls). */
        if (read(ep0, data, 0) < 0 && errno != EL2HLT) say("stalling IN request 0x%02x failed: %s", setup->bRequest, strerror(errno));
        return;
    }
    ssize_t n = read(ep0, data, length < sizeof data ? length : sizeof data);
    if (n < 0) { say("reading a %u-byte class request failed: %s", length, strerror(errno)); return; }
    if ((setup->bRequestType & USB_TYPE_MASK) == USB_TYPE_CLASS && n >= 3) on_command(data, (size_t)n);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--ffs") && next) ffs_dir = argv[++i];
        else if (!strcmp(argv[i], "--h4") && next) h4_path = argv[++i];
        else if (!strcmp(argv[i], "--udc-file") && next) udc_file = argv[++i];
        else if (!strcmp(argv[i], "--udc") && next) udc_name = argv[++i];
        else if (!strcmp(argv[i], "--wedge-after") && next) wedge_after = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--never-recover")) never_recover = 1;
        else if (!strcmp(argv[i], "--reboot-on-port-off") && next) own_location = argv[++i];
        else if (!strcmp(argv[i], "--realtek") && next) realtek_record = argv[++i];
        else if (!strcmp(argv[i], "--realtek-rom-version") && next) realtek_rom_version = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--realtek-fw-version") && next) realtek_fw_version = (uint32_t)strtoul(argv[++i], NULL, 16);
        else if (!strcmp(argv[i], "--intel") && next) intel_record = argv[++i];
        else if (!strcmp(argv[i], "--intel-firmware") && next) intel_firmware = argv[++i];
        else if (!strcmp(argv[i], "--intel-sbe-type") && next) intel_sbe_type = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--log") && next) { if (!freopen(argv[++i], "a", stderr)) die("log"); setvbuf(stderr, NULL, _IOLBF, 0); }
        else { fprintf(stderr, "usage: usb-dongle --ffs DIR --h4 SOCKET [--udc-file PATH --udc NAME] [--wedge-after N] [--never-recover] [--reboot-on-port-off LOCATION] [--log FILE] [--realtek RECORD [--realtek-rom-version N] [--realtek-fw-version HEX]] [--intel RECORD [--intel-firmware SFI] [--intel-sbe-type N]]\n"); return 3; }
    }
    if (!ffs_dir || !h4_path || wedge_after < 1) { fprintf(stderr, "usb-dongle: --ffs and --h4 are required, --wedge-after ≥ 1\n"); return 3; }
    if (intel_record) intel_expect_firmware();
    struct sigaction action = {.sa_handler = arm_signal};
    sigaction(SIGUSR1, &action, NULL);
    sigaction(SIGUSR2, &action, NULL);
    signal(SIGPIPE, SIG_IGN);

    char path[512];
    snprintf(path, sizeof path, "%s/ep0", ffs_dir);
    ep0 = open(path, O_RDWR | O_CLOEXEC);
    if (ep0 < 0) die(path);
    write_descriptors();
    ep_int = open_endpoint("ep1");
    ep_out = open_endpoint("ep2");
    ep_in = open_endpoint("ep3");
    h4 = connect_h4();
    pthread_t reader, acl;
    if (pthread_create(&reader, NULL, controller_reader, NULL) || pthread_create(&acl, NULL, host_acl_reader, NULL)) die("pthread_create");
    pthread_t watcher;
    if (own_location && pthread_create(&watcher, NULL, port_power_watcher, NULL)) die("pthread_create");
    if (udc_file && udc_name) {
        int fd = open(udc_file, O_WRONLY);
        if (fd < 0 || write_all(fd, udc_name, strlen(udc_name)) < 0) die(udc_file);
        close(fd);
    }
    say("ready: %s bridged to %s", ffs_dir, h4_path);
    for (;;) {
        struct usb_functionfs_event event;
        ssize_t n = read(ep0, &event, sizeof event);
        if (n < 0) {
            if (errno == EINTR) { take_signals(); continue; }
            die("reading ep0 events");
        }
        if ((size_t)n < sizeof event) continue;
        switch (event.type) {
        case FUNCTIONFS_ENABLE:
            enabled = 1;
            if (disabled_since_enable && realtek_patched) {
                realtek_patched = 0;
                say("realtek: USB reset seen: the patch is lost, back to ROM state");
            }
            if (disabled_since_enable) intel_lose_firmware("USB reset seen");
            if (disabled_since_enable && wedged && !armed_never) {
                wedged = 0;
                armed = 0;
                reconnect_h4();
                say("USB reset seen: recovered with a fresh controller");
            } else if (disabled_since_enable) {
                say("enabled again (%s)", wedged ? "still wedged" : "not wedged");
            } else {
                say("enabled");
            }
            disabled_since_enable = 0;
            break;
        case FUNCTIONFS_DISABLE:
            enabled = 0;
            disabled_since_enable = 1;
            say("disabled (commands %lu, events %lu, ACL out %lu, ACL in %lu)", commands, events, acl_out, acl_in);
            break;
        case FUNCTIONFS_SETUP:
            handle_setup(&event.u.setup);
            break;
        default:
            break;
        }
    }
}
