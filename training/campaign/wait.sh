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
}
