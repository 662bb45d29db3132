/* A Power Profiler Kit II for the lab twin: the protocol of scripts/peers/ppk2-emulator.py (the PPK2's serial
 * commands as Nordic's Power Profiler and ppk2-api send them, GET_META_DATA answered with a metadata file, from
 * each AVERAGE_START until AVERAGE_STOP 100,000 samples a second of a current profile, each word with its sample
 * counter in bits 18-23), in C so that a guest under software emulation keeps the real rate: the samples owed for
 * the time elapsed on CLOCK_MONOTONIC are written in large blocks. DEVICE_RUNNING_SET 0 cuts the DUT supply (it
 * then draws 0 A) and 1 restores it. Alone, the supply is on from the start, as ppk2-emulator.py plays it; with
 * --control it starts off, as a PPK2 boots, and the state at start and each change are told to `hil sim serve
 * --control` as `power ACCESSORY on|off`, so that a served simulated accessory is powered exactly when the PPK2
 * supplies it.
 *
 * usage: ppk2-gadget [--port TTY] [--control PATH --accessory NAME] METADATA LEVELS SECONDS_PER_LEVEL
 *   --port TTY       serve this serial port (a USB gadget's /dev/ttyGS0) instead of a new pseudo-terminal
 *   --control PATH   the unix socket of `hil sim serve --control unix:PATH`, told of each DUT power change
 *   METADATA         the text to answer GET_META_DATA with (its calibration turns currents into readings)
 *   LEVELS           comma-separated currents in µA, each streamed for SECONDS_PER_LEVEL from every start
 * Prints the port's path on its first line, then one line per command it took and, at each AVERAGE_STOP, how
 * many samples it streamed in how long and how far its port fell behind its clock at most until the last command it
 * took (the samples due but not yet taken by the port: a gadget whose host controller is emulated moves them only
 * while the guest runs; after a reader's last command it may have stopped reading) and by the end; runs
 * until SIGTERM or SIGINT, and says how far behind it fell then too if it was streaming. Readings are found as ppk2-emulator.py finds them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define RATE 100000
#define MAX_LEVELS 16
#define BACKLOG_CAP (256 * 1024)
#define BLOCK_SAMPLES 8192

struct calibration { double r[5], gs[5], gi[5], o[5], s[5], i[5], ug[5]; };

static const int argument_lengths[256] = {
  [0x01] = 3, [0x02] = 1, [0x03] = 1, [0x04] = 2, [0x08] = 1, [0x09] = 1, [0x0c] = 1, [0x0d] = 2, [0x0e] = 1,
  [0x0f] = 1, [0x11] = 1, [0x12] = 1, [0x25] = 5,
};

static volatile sig_atomic_t stopping;
static void stop(int signal) { (void)signal; stopping = 1; }

static void die(const char *what) { fprintf(stderr, "ppk2-gadget: %s: %s\n", what, strerror(errno)); exit(2); }

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void parse_calibration(const char *text, struct calibration *c) {
  static const double r[5] = {1031.64, 101.65, 10.15, 0.94, 0.043};
  for (int k = 0; k < 5; k++) {
    c->r[k] = r[k]; c->gs[k] = c->gi[k] = c->ug[k] = 1.0; c->o[k] = c->s[k] = c->i[k] = 0.0;
  }
  struct { const char *name; double *field; } names[] = {
    {"R", c->r}, {"GS", c->gs}, {"GI", c->gi}, {"O", c->o}, {"S", c->s}, {"I", c->i}, {"UG", c->ug}};
  for (const char *line = text; *line; ) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    const char *colon = memchr(line, ':', length);
    if (colon && colon > line && colon[1] == ' ' && colon[-1] >= '0' && colon[-1] <= '4') {
      size_t key = (size_t)(colon - line) - 1;
      double value = strtod(colon + 2, NULL);
      for (size_t n = 0; n < sizeof names / sizeof names[0]; n++)
        if (strlen(names[n].name) == key && !strncmp(line, names[n].name, key) && value != 0)
          names[n].field[colon[-1] - '0'] = value;
    }
    line += length + (end != NULL);
  }
}

/* The Power Profiler's calibration formula (ppk2-api's get_adc_result without its filter). */
static double amperes(const struct calibration *c, int reading, int r, double volts) {
  double x = (reading * 4 - c->o[r]) * (1.8 / 163840 / c->r[r]);
  return c->ug[r] * (x * (c->gs[r] * x + c->gi[r]) + (c->s[r] * volts + c->i[r]));
}

/* The reading nearest the current on the most sensitive range whose full scale holds it. */
static uint32_t word_for(const struct calibration *c, double microamperes, double volts) {
  double target = microamperes / 1e6;
  int r = 0;
  while (r < 4 && !(amperes(c, 0x3FFF, r, volts) * 0.9 >= target)) r++;
  int low = 0, high = 0x3FFF;
  while (high - low > 1) {
    int middle = (low + high) / 2;
    if (amperes(c, middle, r, volts) < target) low = middle; else high = middle;
  }
  int chosen = fabs(amperes(c, low, r, volts) - target) <= fabs(amperes(c, high, r, volts) - target) ? low : high;
  return (uint32_t)chosen | ((uint32_t)r << 14);
}

/* Tells `hil sim serve --control` the DUT supply's state; logs its answer (or why there is none, in at most 2 s). */
static void report_power(const char *control, const char *accessory, int on) {
  char line[512], answer[512] = "";
  int length = snprintf(line, sizeof line, "power %s %s\n", accessory, on ? "on" : "off");
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  snprintf(address.sun_path, sizeof address.sun_path, "%s", control);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) < 0 || write(fd, line, (size_t)length) != length) {
    printf("control %s: %s not sent: %s\n", control, on ? "on" : "off", strerror(errno));
  } else {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    size_t got = 0;
    double deadline = now_seconds() + 2;
    while (got < sizeof answer - 1 && !memchr(answer, '\n', got)) {
      int left = (int)((deadline - now_seconds()) * 1000);
      if (left <= 0 || poll(&p, 1, left) <= 0) break;
      ssize_t n = read(fd, answer + got, sizeof answer - 1 - got);
      if (n <= 0) break;
      got += (size_t)n;
    }
    answer[got] = 0;
    answer[strcspn(answer, "\n")] = 0;
    printf("control %s: power %s %s -> %s\n", control, accessory, on ? "on" : "off", got ? answer : "(no answer within 2 s)");
  }
  if (fd >= 0) close(fd);
  fflush(stdout);
}

/* A process of its own tells the control socket, in order, each state the parent writes to `pipe` (one octet, 0 or
 * 1), so that the stream and the commands never wait for the air's answer. Returns the pipe's writing end. */
static int start_reporter(const char *control, const char *accessory) {
  int ends[2];
  if (pipe(ends) < 0) die("pipe");
  fflush(stdout);
  pid_t child = fork();
  if (child < 0) die("fork");
  if (child == 0) {
    close(ends[1]);
    unsigned char state;
    while (read(ends[0], &state, 1) == 1) report_power(control, accessory, state);
    _exit(0);
  }
  close(ends[0]);
  return ends[1];
}

static void report_behind(double commanded, double commanded_at, double command_at, double behind) {
  printf("behind its clock by at most %.3f s (%.3f s after the start) until its last command (%.3f s after it); "
         "%.3f s by the end\n", commanded, commanded_at, command_at, behind);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) die(path);
  static char text[65536];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  return text;
}

static void make_raw(int fd) {
  struct termios t;
  if (tcgetattr(fd, &t) == 0) { cfmakeraw(&t); tcsetattr(fd, TCSANOW, &t); }
}

int main(int argc, char **argv) {
  const char *port = NULL, *control = NULL, *accessory = NULL;
  int a = 1;
  for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
    if (!strcmp(argv[a], "--port")) port = argv[a + 1];
    else if (!strcmp(argv[a], "--control")) control = argv[a + 1];
    else if (!strcmp(argv[a], "--accessory")) accessory = argv[a + 1];
    else break;
  }
  if (argc - a != 3 || (control == NULL) != (accessory == NULL)) {
    fprintf(stderr, "usage: ppk2-gadget [--port TTY] [--control PATH --accessory NAME] METADATA LEVELS SECONDS_PER_LEVEL\n");
    return 2;
  }
  const char *metadata = read_file(argv[a]);
  double levels[MAX_LEVELS];
  int count = 0;
  for (char *text = argv[a + 1], *end; *text && count < MAX_LEVELS; text = *end ? end + 1 : end) {
    levels[count++] = strtod(text, &end);
    if (end == text || (*end && *end != ',')) { fprintf(stderr, "ppk2-gadget: LEVELS '%s': expected µA,µA,…\n", argv[a + 1]); return 2; }
  }
  char *end;
  double seconds = strtod(argv[a + 2], &end);
  long per_level = lround(seconds * RATE);
  if (count == 0 || *end || per_level < 1) { fprintf(stderr, "ppk2-gadget: bad LEVELS or SECONDS_PER_LEVEL\n"); return 2; }
  struct calibration calibration;
  parse_calibration(metadata, &calibration);

  int fd;
  if (port) {
    fd = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) die(port);
    make_raw(fd);
    printf("%s\n", port);
  } else {
    fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0 || grantpt(fd) < 0 || unlockpt(fd) < 0) die("pseudo-terminal");
    int slave = open(ptsname(fd), O_RDWR | O_NOCTTY);  /* kept open: the port stays up between readers */
    if (slave < 0) die(ptsname(fd));
    make_raw(slave);
    printf("%s\n", ptsname(fd));
  }
  fflush(stdout);

  /* How far behind its clock the port fell: at most, at most until the last command, and when. */
  double volts = 3.0, since = 0, last_report = 0, behind = 0, behind_at = 0, commanded = 0, commanded_at = 0, command_at = 0;
  uint32_t words[MAX_LEVELS], off_word = 0;
  /* A PPK2 boots with its DUT supply off; alone the emulator starts it on, as ppk2-emulator.py plays it. */
  int have_words = 0, streaming = 0, dut_on = control == NULL;
  int reporter = -1;
  if (control) {
    report_power(control, accessory, dut_on);
    reporter = start_reporter(control, accessory);
  }
  struct sigaction on_stop = {.sa_handler = stop};
  sigaction(SIGTERM, &on_stop, NULL);
  sigaction(SIGINT, &on_stop, NULL);
  long long sent = 0;
  static unsigned char pending[4096], backlog[BACKLOG_CAP];
  size_t pending_length = 0, backlog_start = 0, backlog_end = 0;
  for (;;) {
    struct pollfd p = {.fd = fd, .events = POLLIN | (backlog_end > backlog_start ? POLLOUT : 0)};
    poll(&p, 1, streaming ? 1 : 20);  /* streaming, a write a millisecond, as a PPK2 sends a packet every USB frame */
    if (stopping) {
      if (streaming) {
        printf("stopped while streaming: %lld samples in %.3f s\n", sent, now_seconds() - since);
        report_behind(commanded, commanded_at, command_at, behind);
      }
      fflush(stdout);
      return 0;
    }
    ssize_t n = read(fd, pending + pending_length, sizeof pending - pending_length);
    if (n > 0) pending_length += (size_t)n;
    else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) usleep(5000);  /* no reader has the port open yet */
    size_t at = 0;
    while (at < pending_length) {
      int opcode = pending[at], length = argument_lengths[opcode];
      if (pending_length - at < (size_t)(1 + length)) break;
      const unsigned char *arguments = pending + at + 1;
      printf("command 0x%02x ", opcode);
      for (int k = 0; k < length; k++) printf("%02x", arguments[k]);
      printf("\n");
      fflush(stdout);
      at += 1 + (size_t)length;
      if (streaming) commanded = behind, commanded_at = behind_at, command_at = now_seconds() - since;
      if (opcode == 0x19) {  /* GET_META_DATA: what a reader before left unread is dropped first */
        backlog_start = backlog_end = 0;
        tcflush(fd, TCOFLUSH);
        if (write(fd, metadata, strlen(metadata)) < 0) printf("metadata not written: %s\n", strerror(errno));
      } else if (opcode == 0x0d) {  /* REGULATOR_SET */
        volts = (arguments[0] * 256 + arguments[1]) / 1000.0;
        have_words = 0;
      } else if (opcode == 0x0c) {  /* DEVICE_RUNNING_SET */
        if (dut_on != !!arguments[0]) {
          dut_on = !!arguments[0];
          unsigned char state = (unsigned char)dut_on;
          if (reporter >= 0 && write(reporter, &state, 1) != 1) printf("control: DUT %s not told: %s\n", dut_on ? "on" : "off", strerror(errno));
        }
      } else if (opcode == 0x06) {  /* AVERAGE_START */
        if (!have_words) {
          for (int k = 0; k < count; k++) words[k] = word_for(&calibration, levels[k], volts);
          off_word = word_for(&calibration, 0, volts);
          have_words = 1;
        }
        streaming = 1, sent = 0, behind = behind_at = commanded = commanded_at = command_at = 0, since = last_report = now_seconds();
      } else if (opcode == 0x07 && streaming) {  /* AVERAGE_STOP */
        double took = now_seconds() - since;
        printf("streamed %lld samples in %.3f s: %.0f samples/s\n", sent, took, took > 0 ? sent / took : 0);
        report_behind(commanded, commanded_at, command_at, behind);
        fflush(stdout);
        streaming = 0, backlog_start = backlog_end = 0;
      }
    }
    memmove(pending, pending + at, pending_length - at);
    pending_length -= at;
    if (streaming) {
      double now = now_seconds();
      long long due = (long long)((now - since) * RATE);
      if (backlog_start == backlog_end) backlog_start = backlog_end = 0;
      /* The samples owed for the time elapsed, a run of one level at a time, while the backlog has room. */
      while (sent < due && backlog_end + 4 * BLOCK_SAMPLES <= BACKLOG_CAP) {
        long level = (long)((sent / per_level) % count);
        long long run = (sent / per_level + 1) * per_level;
        if (run > due) run = due;
        if (run > sent + BLOCK_SAMPLES) run = sent + BLOCK_SAMPLES;
        uint32_t word = (dut_on ? words[level] : off_word) | ((uint32_t)(level & 0xFF) << 24);
        for (; sent < run; sent++, backlog_end += 4) {  /* each with its sample counter, bits 18-23 */
          uint32_t counted = word | ((uint32_t)(sent & 0x3F) << 18);
          unsigned char *octets = backlog + backlog_end;
          octets[0] = counted & 0xFF, octets[1] = (counted >> 8) & 0xFF, octets[2] = (counted >> 16) & 0xFF, octets[3] = counted >> 24;
        }
      }
      if (now - last_report >= 5) {
        printf("streaming: %lld samples in %.3f s, %zu octets waiting\n", sent, now - since, backlog_end - backlog_start);
        fflush(stdout);
        last_report = now;
      }
    }
    /* What the port does not take now waits for the next turn, so that commands (a stop) are still read. */
    while (backlog_end > backlog_start) {
      ssize_t w = write(fd, backlog + backlog_start, backlog_end - backlog_start);
      if (w <= 0) break;
      backlog_start += (size_t)w;
    }
    if (streaming) {  /* the samples due by now that the port has not taken: owed, and written but waiting */
      double now = now_seconds();
      double late = ((double)((long long)((now - since) * RATE) - sent) + (double)(backlog_end - backlog_start) / 4) / RATE;
      if (late > behind) behind = late, behind_at = now - since;
    }
    if (backlog_end > backlog_start && backlog_start > BACKLOG_CAP / 2) {
      memmove(backlog, backlog + backlog_start, backlog_end - backlog_start);
      backlog_end -= backlog_start, backlog_start = 0;
    }
  }
}
