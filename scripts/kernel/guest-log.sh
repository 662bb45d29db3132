# Sourced by the host's kernel-tier tests (test-bluetooth, test-usb-power, test-lab-twin): reading the
# guest's serial log, which carries the marker lines of scripts/kernel/lib.sh's result() and guest-init.

# tally_guest LOG EXPECTED: prints LOG indented; sets passed and failed (a check that never reported counts
# as failed, up to EXPECTED checks), booted and done_at (the guest uptimes of KT-BOOTED and KT-DONE).
tally_guest() {
  sed 's/^/  | /' "$1"
  passed=$(grep -c '^KT-RESULT [^ ]* pass' "$1")
  failed=$(grep -c '^KT-RESULT [^ ]* fail' "$1")
  if [ $((passed + failed)) -lt "$2" ]; then failed=$(($2 - passed)); fi
  booted="$(grep -o "KT-BOOTED uptime=[0-9.]*" "$1" | sed "s/.*=//")"
  done_at="$(sed -n 's/^KT-DONE uptime=//p' "$1")"
}
