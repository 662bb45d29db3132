/*
 * The raw-libusb baseline of scripts/bench/bench-transports: the HCI command round trip (Read BD_ADDR) to a USB
 * Bluetooth controller with nothing of ours in the way — a C loop on libusb, no Swift, no host, no thread
 * hop. Run beside `hil-benchmark transports --a usb:…` in the same guest, it shows which part of usb:'s round
 * trip is the bus (dummy_hcd's frame scheduling, the dongle program) and which part is our transport.
 *
 * usage: usb-raw-rtt [--device VID:PID] [--count N] [--mode sync|async|thread] [--bulk-in N] [--label TEXT]
 *   sync   libusb_control_transfer (the command as a class request on ep0, Core v5.4 Vol 4 Part B §2.2),
 *          then libusb_interrupt_transfer until its Command Complete: what a minimal driver does
 *   async  one interrupt IN transfer always in flight (resubmitted in its callback) and the command as an
 *          asynchronous control transfer, one thread in libusb_handle_events
 *   thread async's transfers, but libusb_handle_events runs on its own thread and the event is handed to the
 *          main thread through a pipe, which then submits the next command: the shape of our transport
 *          before it ran libusb's events on the host's loop
 *   --bulk-in N also keeps N bulk IN transfers in flight (as a driver that reads ACL must)
 * Prints one line `RESULT LABEL rtt-median-us=… rtt-p99-us=… ctrl-median-us=… cpu-us=…` (ctrl: submit → the
 * control transfer's completion, i.e. setup + data stage, async mode and sync; cpu: this process's CPU time per
 * command). Exit 2 when the device cannot be opened or stops
 * answering (every wait has a 2 s deadline), 3 on bad arguments.
 */
#include <libusb-1.0/libusb.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEADLINE_MS 2000
#define EVENT_BUFFER 1024

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static double cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double *samples, int count, double p) {
    qsort(samples, (size_t)count, sizeof *samples, compare);
    int index = (int)(p * (count - 1) + 0.5);
    return samples[index];
}

/* True when `event` (without H4 indicator) is the Command Complete for `opcode`. */
static int completes(const uint8_t *event, int length, uint16_t opcode) {
    return length >= 6 && event[0] == 0x0E && event[3] == (opcode & 0xFF) && event[4] == (opcode >> 8);
}

/* ---- sync ---- */

static int sync_round_trip(libusb_device_handle *handle, uint8_t endpoint, uint16_t opcode, double *ctrl_us) {
    uint8_t command[3] = {opcode & 0xFF, opcode >> 8, 0};
    double start = now_us();
    int sent = libusb_control_transfer(handle, 0x20, 0, 0, 0, command, sizeof command, DEADLINE_MS);
    if (sent != (int)sizeof command) {
        fprintf(stderr, "usb-raw-rtt: command 0x%04x on ep0: %s\n", opcode, sent < 0 ? libusb_error_name(sent) : "short");
        return -1;
    }
    *ctrl_us = now_us() - start;
    for (;;) {
        uint8_t event[EVENT_BUFFER];
        int got = 0;
        int code = libusb_interrupt_transfer(handle, endpoint, event, sizeof event, &got, DEADLINE_MS);
        if (code != 0) {
            fprintf(stderr, "usb-raw-rtt: waiting %d ms for Command Complete 0x%04x on 0x%02x: %s\n", DEADLINE_MS, opcode,
                    endpoint, libusb_error_name(code));
            return -1;
        }
        if (completes(event, got, opcode)) return 0;
    }
}

/* ---- async ---- */

struct async_state {
    volatile int event_done, ctrl_done, failed, stop;
    int notify; /* thread mode: the pipe the event thread writes one byte to per Command Complete */
    uint16_t opcode;
    double ctrl_end;
};

static void LIBUSB_CALL on_event(struct libusb_transfer *transfer) {
    struct async_state *state = transfer->user_data;
    if (transfer->status != LIBUSB_TRANSFER_COMPLETED) {
        if (transfer->status != LIBUSB_TRANSFER_CANCELLED) {
            fprintf(stderr, "usb-raw-rtt: interrupt IN: transfer status %d\n", transfer->status);
            state->failed = 1;
        }
        return;
    }
    if (completes(transfer->buffer, transfer->actual_length, state->opcode)) {
        state->event_done = 1;
        if (state->notify >= 0 && write(state->notify, "", 1) != 1) state->failed = 1;
    }
    int code = libusb_submit_transfer(transfer);
    if (code != 0) {
        fprintf(stderr, "usb-raw-rtt: resubmitting interrupt IN: %s\n", libusb_error_name(code));
        state->failed = 1;
    }
}

static void LIBUSB_CALL on_control(struct libusb_transfer *transfer) {
    struct async_state *state = transfer->user_data;
    state->ctrl_end = now_us();
    if (transfer->status != LIBUSB_TRANSFER_COMPLETED) {
        fprintf(stderr, "usb-raw-rtt: command on ep0: transfer status %d\n", transfer->status);
        state->failed = 1;
    }
    state->ctrl_done = 1;
}

static void LIBUSB_CALL on_bulk(struct libusb_transfer *transfer) {
    struct async_state *state = transfer->user_data;
    if (transfer->status == LIBUSB_TRANSFER_COMPLETED && libusb_submit_transfer(transfer) == 0) return;
    if (transfer->status != LIBUSB_TRANSFER_CANCELLED) state->failed = 1;
}

static void LIBUSB_CALL on_owned_control(struct libusb_transfer *transfer) {
    struct async_state *state = transfer->user_data;
    if (transfer->status != LIBUSB_TRANSFER_COMPLETED) state->failed = 1;
    libusb_free_transfer(transfer); /* LIBUSB_TRANSFER_FREE_BUFFER frees the buffer too */
}

struct event_thread { libusb_context *context; struct async_state *state; };

static void *run_events(void *argument) {
    struct event_thread *thread = argument;
    while (!thread->state->stop) {
        struct timeval timeout = {0, 100000};
        libusb_handle_events_timeout_completed(thread->context, &timeout, NULL);
    }
    return NULL;
}

/* thread mode: a fresh control transfer per command (freed in its callback), submitted from this thread;
   the Command Complete arrives as one byte on `wake` from the event thread. */
static int thread_round_trip(libusb_device_handle *handle, struct async_state *state, int wake, uint16_t opcode) {
    struct libusb_transfer *control = libusb_alloc_transfer(0);
    uint8_t *buffer = malloc(LIBUSB_CONTROL_SETUP_SIZE + 3);
    if (!control || !buffer) { fprintf(stderr, "usb-raw-rtt: out of memory\n"); return -1; }
    libusb_fill_control_setup(buffer, 0x20, 0, 0, 0, 3);
    buffer[LIBUSB_CONTROL_SETUP_SIZE] = opcode & 0xFF;
    buffer[LIBUSB_CONTROL_SETUP_SIZE + 1] = opcode >> 8;
    buffer[LIBUSB_CONTROL_SETUP_SIZE + 2] = 0;
    libusb_fill_control_transfer(control, handle, buffer, on_owned_control, state, DEADLINE_MS);
    control->flags = LIBUSB_TRANSFER_FREE_BUFFER;
    state->opcode = opcode;
    state->event_done = 0;
    int code = libusb_submit_transfer(control);
    if (code != 0) { fprintf(stderr, "usb-raw-rtt: submitting command 0x%04x: %s\n", opcode, libusb_error_name(code)); return -1; }
    struct pollfd fd = {.fd = wake, .events = POLLIN};
    if (poll(&fd, 1, DEADLINE_MS) != 1) {
        fprintf(stderr, "usb-raw-rtt: no Command Complete 0x%04x within %d ms (thread mode)\n", opcode, DEADLINE_MS);
        return -1;
    }
    char byte;
    if (read(wake, &byte, 1) != 1) return -1;
    return state->failed ? -1 : 0;
}

static int async_round_trip(libusb_context *context, struct libusb_transfer *control, struct async_state *state,
                            uint16_t opcode, double *ctrl_us) {
    uint8_t *buffer = control->buffer;
    libusb_fill_control_setup(buffer, 0x20, 0, 0, 0, 3);
    /* libusb_fill_control_transfer takes the transfer's length from the setup packet: fill it after. */
    libusb_fill_control_transfer(control, control->dev_handle, buffer, on_control, state, DEADLINE_MS);
    buffer[LIBUSB_CONTROL_SETUP_SIZE] = opcode & 0xFF;
    buffer[LIBUSB_CONTROL_SETUP_SIZE + 1] = opcode >> 8;
    buffer[LIBUSB_CONTROL_SETUP_SIZE + 2] = 0;
    state->opcode = opcode;
    state->event_done = state->ctrl_done = 0;
    double start = now_us();
    int code = libusb_submit_transfer(control);
    if (code != 0) {
        fprintf(stderr, "usb-raw-rtt: submitting command 0x%04x: %s\n", opcode, libusb_error_name(code));
        return -1;
    }
    while (!(state->event_done && state->ctrl_done) && !state->failed) {
        if (now_us() - start > DEADLINE_MS * 1000.0) {
            fprintf(stderr, "usb-raw-rtt: no Command Complete 0x%04x within %d ms (control transfer %s)\n", opcode,
                    DEADLINE_MS, state->ctrl_done ? "done" : "pending");
            return -1;
        }
        struct timeval timeout = {0, 100000};
        libusb_handle_events_timeout_completed(context, &timeout, NULL);
    }
    *ctrl_us = state->ctrl_end - start;
    return state->failed ? -1 : 0;
}

static uint8_t find_endpoint(libusb_device *device, int type) {
    struct libusb_config_descriptor *config = NULL;
    if (libusb_get_active_config_descriptor(device, &config) != 0) return 0;
    uint8_t found = 0;
    const struct libusb_interface_descriptor *setting = &config->interface[0].altsetting[0];
    for (int i = 0; i < setting->bNumEndpoints; i++) {
        const struct libusb_endpoint_descriptor *e = &setting->endpoint[i];
        if ((e->bmAttributes & 3) == type && (e->bEndpointAddress & 0x80)) found = e->bEndpointAddress;
    }
    libusb_free_config_descriptor(config);
    return found;
}

int main(int argc, char **argv) {
    unsigned vid = 0x2fe3, pid = 0x000b;
    int count = 300, mode = 0, bulk_in = 0; /* mode: 0 sync, 1 async, 2 thread */
    const char *label = "guest-usb-raw";
    for (int i = 1; i < argc; i++) {
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--device") && next && sscanf(argv[++i], "%x:%x", &vid, &pid) == 2) continue;
        else if (!strcmp(argv[i], "--count") && next && (count = atoi(argv[++i])) > 0) continue;
        else if (!strcmp(argv[i], "--mode") && next && (!strcmp(next, "sync") || !strcmp(next, "async") || !strcmp(next, "thread")))
            mode = !strcmp(argv[++i], "sync") ? 0 : !strcmp(argv[i], "async") ? 1 : 2;
        else if (!strcmp(argv[i], "--bulk-in") && next && (bulk_in = atoi(argv[++i])) >= 0 && bulk_in <= 8) continue;
        else if (!strcmp(argv[i], "--label") && next) label = argv[++i];
        else {
            fprintf(stderr, "usage: usb-raw-rtt [--device VID:PID] [--count N>0] [--mode sync|async|thread] [--bulk-in 0…8] [--label TEXT]\n");
            return 3;
        }
    }
    libusb_context *context = NULL;
    if (libusb_init(&context) != 0) { fprintf(stderr, "usb-raw-rtt: libusb_init failed\n"); return 2; }
    libusb_device_handle *handle = libusb_open_device_with_vid_pid(context, (uint16_t)vid, (uint16_t)pid);
    if (!handle) { fprintf(stderr, "usb-raw-rtt: no %04x:%04x to open\n", vid, pid); return 2; }
    libusb_set_auto_detach_kernel_driver(handle, 1);
    int code = libusb_claim_interface(handle, 0);
    if (code != 0) { fprintf(stderr, "usb-raw-rtt: claiming interface 0: %s\n", libusb_error_name(code)); return 2; }
    uint8_t endpoint = find_endpoint(libusb_get_device(handle), LIBUSB_TRANSFER_TYPE_INTERRUPT);
    uint8_t bulk_endpoint = find_endpoint(libusb_get_device(handle), LIBUSB_TRANSFER_TYPE_BULK);
    if (!endpoint || !bulk_endpoint) { fprintf(stderr, "usb-raw-rtt: no interrupt IN or bulk IN endpoint on interface 0\n"); return 2; }

    struct async_state state = {.notify = -1};
    struct libusb_transfer *events = NULL, *control = NULL, *bulk[8] = {0};
    static uint8_t event_buffer[EVENT_BUFFER], control_buffer[LIBUSB_CONTROL_SETUP_SIZE + 3], bulk_buffer[8][4096];
    for (int b = 0; b < bulk_in; b++) {
        if (!(bulk[b] = libusb_alloc_transfer(0))) return 2;
        libusb_fill_bulk_transfer(bulk[b], handle, bulk_endpoint, bulk_buffer[b], sizeof bulk_buffer[b], on_bulk, &state, 0);
        if ((code = libusb_submit_transfer(bulk[b])) != 0) { fprintf(stderr, "usb-raw-rtt: bulk IN: %s\n", libusb_error_name(code)); return 2; }
    }
    int pipe_fds[2] = {-1, -1};
    pthread_t thread;
    struct event_thread thread_args = {context, &state};
    if (mode == 2) {
        if (pipe(pipe_fds) != 0) return 2;
        state.notify = pipe_fds[1];
    }
    if (mode >= 1) {
        events = libusb_alloc_transfer(0);
        control = libusb_alloc_transfer(0);
        if (!events || !control) { fprintf(stderr, "usb-raw-rtt: out of memory\n"); return 2; }
        libusb_fill_interrupt_transfer(events, handle, endpoint, event_buffer, sizeof event_buffer, on_event, &state, 0);
        control->dev_handle = handle;
        control->buffer = control_buffer;
        if ((code = libusb_submit_transfer(events)) != 0) { fprintf(stderr, "usb-raw-rtt: interrupt IN: %s\n", libusb_error_name(code)); return 2; }
    }
    if (mode == 2 && pthread_create(&thread, NULL, run_events, &thread_args) != 0) return 2;
    double *rtt = calloc((size_t)count, sizeof *rtt), *ctrl = calloc((size_t)count, sizeof *ctrl);
    if (!rtt || !ctrl) return 2;
    int status = 0;
    double cpu_start = 0;
    for (int i = -21; i < count && status == 0; i++) { /* HCI Reset, 20 warm-up commands, then the measured ones */
        uint16_t opcode = i == -21 ? 0x0C03 : 0x1009;
        if (i == 0) cpu_start = cpu_us();
        double control_us = 0, start = now_us();
        status = mode == 1 ? async_round_trip(context, control, &state, opcode, &control_us)
               : mode == 2 ? thread_round_trip(handle, &state, pipe_fds[0], opcode)
                           : sync_round_trip(handle, endpoint, opcode, &control_us);
        if (i >= 0) { rtt[i] = now_us() - start; ctrl[i] = control_us; }
    }
    double cpu_per_command = (cpu_us() - cpu_start) / count;
    if (mode == 2) {
        state.stop = 1;
        pthread_join(thread, NULL);
    }
    if (events) libusb_cancel_transfer(events);
    for (int b = 0; b < bulk_in; b++) libusb_cancel_transfer(bulk[b]);
    struct timeval timeout = {0, 200000};
    libusb_handle_events_timeout_completed(context, &timeout, NULL);
    libusb_release_interface(handle, 0);
    libusb_close(handle);
    libusb_exit(context);
    if (status != 0) return 2;
    double median = percentile(rtt, count, 0.5), p99 = percentile(rtt, count, 0.99), ctrl_median = percentile(ctrl, count, 0.5);
    printf("%s: command round trip (Read BD_ADDR, %d, raw libusb, %s, %d bulk IN): median %.1f µs, p99 %.1f µs, %.1f µs of CPU per command; control transfer median %.1f µs\n",
           label, count, mode == 0 ? "sync" : mode == 1 ? "async" : "thread", bulk_in, median, p99, cpu_per_command, ctrl_median);
    printf("RESULT %s rtt-median-us=%.1f rtt-p99-us=%.1f ctrl-median-us=%.1f cpu-us=%.1f\n", label, median, p99, ctrl_median, cpu_per_command);
    return 0;
}
