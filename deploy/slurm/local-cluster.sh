#!/bin/sh
# A single-node Slurm on this machine, for trying the job files and for the
# test that submits them (crates/gammon-cli/tests/suite/slurm.rs).
#
#   deploy/slurm/local-cluster.sh install   apt-get the packages (slurm-wlm, munge)
#   deploy/slurm/local-cluster.sh start     write the config, start munged, slurmctld, slurmd
#   deploy/slurm/local-cluster.sh status    which daemons run; sinfo
#   deploy/slurm/local-cluster.sh stop      cancel this cluster's jobs, stop the daemons
#   deploy/slurm/local-cluster.sh env       the line that points Slurm's commands here
#
# It needs root (munged runs as the user munge, the Slurm daemons as root).
# There is no systemd: each daemon is started directly with a PID file, and
# stopped by it. Everything lives in $GAMMON_SLURM_DIR (default
# /tmp/gammon-slurm); Slurm's commands find the config through SLURM_CONF,
# which `env` prints:  eval "$(deploy/slurm/local-cluster.sh env)"
set -eu

DIR=${GAMMON_SLURM_DIR:-/tmp/gammon-slurm}
CONF=$DIR/slurm.conf
MUNGE_RUN=/run/munge

# Whether the PID in file $1 is a live process named $2. An exited daemon
# can linger as a zombie for a moment, and PIDs wrap: a zombie, or a live
# process of another name, counts as dead.
alive() {
    [ -f "$1" ] || return 1
    pid=$(cat "$1" 2>/dev/null) || return 1
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
    state=$(sed 's/^.*) //' "/proc/$pid/stat" | cut -c1)
    [ "$state" != Z ] || return 1
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

# Waits up to $3 tenths of a second for daemon $2 (PID file $1) to be alive.
wait_alive() {
    n=0
    while ! alive "$1" "$2"; do
        n=$((n + 1))
        if [ "$n" -gt "$3" ]; then
            echo "local-cluster: $2 did not start; its log:" >&2
            tail -n 20 "$DIR/$2.log" >&2 2>/dev/null || true
            return 1
        fi
        sleep 0.1
    done
}

# Stops the daemon $2 of PID file $1, waiting until it is gone.
stop_daemon() {
    if alive "$1" "$2"; then
        kill "$(cat "$1")" 2>/dev/null || true
        n=0
        while alive "$1" "$2" && [ "$n" -lt 100 ]; do
            n=$((n + 1))
            sleep 0.1
        done
        if alive "$1" "$2"; then
            kill -9 "$(cat "$1")" 2>/dev/null || true
        fi
    fi
    rm -f "$1"
}

write_config() {
    mkdir -p "$DIR/state" "$DIR/spool"
    host=$(hostname -s)
    # The node as slurmd sees it (CPUs, sockets, cores, memory).
    node=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
    cat >"$CONF" <<CONF
# Written by deploy/slurm/local-cluster.sh: one node, no accounting.
ClusterName=gammon-local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$host $node State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
    if [ "$(id -u)" != 0 ]; then
        echo "local-cluster: start needs root" >&2
        exit 1
    fi
    for bin in munged slurmctld slurmd sbatch; do
        command -v "$bin" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
        command -v "$bin" >/dev/null 2>&1 || { echo "local-cluster: $bin is missing: run '$0 install'" >&2; exit 1; }
    done
    write_config
    mkdir -p "$MUNGE_RUN" /var/lib/munge /var/log/munge
    chown munge:munge "$MUNGE_RUN" /var/lib/munge /var/log/munge
    chmod 0755 "$MUNGE_RUN"
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom of=/etc/munge/munge.key bs=128 count=1 2>/dev/null
        chown munge:munge /etc/munge/munge.key
        chmod 0400 /etc/munge/munge.key
    fi
    if ! alive "$MUNGE_RUN/munged.pid" munged; then
        rm -f "$MUNGE_RUN/munged.pid"
        runuser -u munge -- munged --pid-file="$MUNGE_RUN/munged.pid" --log-file=/var/log/munge/munged.log
        wait_alive "$MUNGE_RUN/munged.pid" munged 50
    fi
    if ! alive "$DIR/slurmctld.pid" slurmctld; then
        slurmctld -f "$CONF"
        wait_alive "$DIR/slurmctld.pid" slurmctld 100
    fi
    if ! alive "$DIR/slurmd.pid" slurmd; then
        slurmd -f "$CONF"
        wait_alive "$DIR/slurmd.pid" slurmd 100
    fi
    # Wait until the node takes jobs.
    n=0
    until SLURM_CONF=$CONF sinfo -h -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; do
        n=$((n + 1))
        if [ "$n" -gt 300 ]; then
            echo "local-cluster: the node did not come up:" >&2
            SLURM_CONF=$CONF sinfo >&2 || true
            tail -n 20 "$DIR/slurmctld.log" >&2 || true
            exit 1
        fi
        sleep 0.1
    done
    echo "local-cluster: up ($(SLURM_CONF=$CONF sinfo -h -o '%P %D node, %c CPUs, %t')); SLURM_CONF=$CONF"
}

stop() {
    if [ -f "$CONF" ] && alive "$DIR/slurmctld.pid" slurmctld; then
        SLURM_CONF=$CONF scancel --full -u "$(id -un)" 2>/dev/null || true
    fi
    stop_daemon "$DIR/slurmd.pid" slurmd
    stop_daemon "$DIR/slurmctld.pid" slurmctld
    stop_daemon "$MUNGE_RUN/munged.pid" munged
    echo "local-cluster: stopped"
}

status() {
    for d in "$MUNGE_RUN/munged.pid munged" "$DIR/slurmctld.pid slurmctld" "$DIR/slurmd.pid slurmd"; do
        # shellcheck disable=SC2086
        set -- $d
        if alive "$1" "$2"; then echo "$2: running (pid $(cat "$1"))"; else echo "$2: not running"; fi
    done
    [ -f "$CONF" ] && SLURM_CONF=$CONF sinfo 2>/dev/null || true
}

case "${1:-}" in
install)
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge
    ;;
start) start ;;
stop) stop ;;
status) status ;;
env) echo "export SLURM_CONF=$CONF" ;;
*)
    echo "usage: $0 install|start|status|stop|env" >&2
    exit 2
    ;;
esac
