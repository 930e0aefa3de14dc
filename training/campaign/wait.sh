# Sourced by run.sh and label-chunk.sh. `wait_for PID` waits until the
# child PID has ended, even when a trapped signal (a stop passed on to it)
# ends `wait` early, and leaves its exit status in $status.
wait_for() {
  status=0
  wait "$1" || status=$?
  while kill -0 "$1" 2>/dev/null; do
    status=0
    wait "$1" || status=$?
  done
  # A trap that ends `wait` leaves 128 + the signal. When the child ended
  # before the `kill -0` above, its own status is still the shell's to
  # collect (127: it was collected already, and the status stands).
  if [ "$status" -gt 128 ]; then
    local again=0
    wait "$1" 2>/dev/null || again=$?
    [ "$again" = 127 ] || status=$again
  fi
}
