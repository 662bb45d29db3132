# The helpers of the kernel tier's guest scripts, written once and sourced by each: the default init
# (guest-init), the scenarios it runs (*-scenario, with bluetooth-setup after this file) and the lab twin's
# stage 1 (chroot-guest) in the guest's busybox sh, and the lab twin's stage 2 (lab-twin-scenario) in bash.
# build-guest copies this file into every guest as /etc/kernel-tier/lib.sh; lab-twin-scenario, which runs in
# a chroot of the host's root, sources it from the tree ($ROOT/scripts/kernel/lib.sh).

# result NAME pass|fail DETAIL: the marker line the host's test-* scripts count.
result() { echo "KT-RESULT $1 $2 $3"; }

# wait_path PATH present|absent SECONDS: polls every 0.1 s (busybox usleep); 1 if PATH is not so by then.
wait_path() {
  i=0; while [ $i -lt $(($3 * 10)) ]; do
    if [ "$2" = present ] && [ -e "$1" ]; then return 0; fi
    if [ "$2" = absent ] && [ ! -e "$1" ]; then return 0; fi
    usleep 100000; i=$((i + 1)); done; return 1
}

# uptime_now: the guest's uptime in seconds (the time base of every marker line).
uptime_now() { cut -d' ' -f1 /proc/uptime; }

# flat FILE [WIDTH]: FILE on one line (newlines as |), cut to WIDTH characters (800), for a marker line.
flat() { tr '\n' '|' < "$1" | cut -c1-"${2:-800}"; }
