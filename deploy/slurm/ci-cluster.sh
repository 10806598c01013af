#!/bin/bash
# A one-node Slurm cluster on this machine, for tests: munged, slurmctld and
# slurmd started directly (no systemd), as root, with their own key, socket,
# slurm.conf and state under DIR; stopped again by their PIDs.
#
#   deploy/slurm/ci-cluster.sh start DIR   # then: export SLURM_CONF=DIR/slurm.conf
#   deploy/slurm/ci-cluster.sh stop DIR
#
# start installs Debian's slurm-wlm and munge when they are missing and
# fails if it cannot.
set -euo pipefail

cmd=${1:?usage: ci-cluster.sh start|stop DIR}
dir=${2:?usage: ci-cluster.sh start|stop DIR}

stop() {
  [ -f "$dir/pids" ] || return 0
  local pid
  while read -r pid; do
    kill "$pid" 2>/dev/null || true
  done < "$dir/pids"
  for _ in $(seq 50); do
    local alive=0
    while read -r pid; do
      if kill -0 "$pid" 2>/dev/null; then alive=1; fi
    done < "$dir/pids"
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  while read -r pid; do
    kill -9 "$pid" 2>/dev/null || true
  done < "$dir/pids"
  rm -f "$dir/pids"
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi
[ "$cmd" = start ] || { echo "usage: ci-cluster.sh start|stop DIR" >&2; exit 2; }
if [ "$(id -u)" -ne 0 ]; then
  echo "ci-cluster: slurmctld, slurmd and munged are started as root" >&2
  exit 1
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
  ! command -v sbatch >/dev/null; then
  echo "ci-cluster: installing slurm-wlm and munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
getent passwd slurm >/dev/null && getent passwd munge >/dev/null ||
  { echo "ci-cluster: the slurm and munge users are missing (Debian's packages create them)" >&2; exit 1; }

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
chmod 0755 "$dir" # munged and slurmctld run as their users
stop # a cluster left by an earlier run of this script
# munged's key and state are its own (0700); its socket's folder is open
# to all (slurmctld runs as slurm, jobs as their users).
mkdir -p "$dir/munge" "$dir/munge-key" "$dir/spool/ctld" "$dir/spool/d" "$dir/log"
chown munge:munge "$dir/munge" "$dir/munge-key"
chmod 0755 "$dir/munge"
chmod 0700 "$dir/munge-key"
chown -R slurm:slurm "$dir/spool"
chmod 0755 "$dir/log"
: > "$dir/pids"

dd if=/dev/urandom of="$dir/munge-key/munge.key" bs=1024 count=1 2>/dev/null
chown munge:munge "$dir/munge-key/munge.key"
chmod 0400 "$dir/munge-key/munge.key"
socket=$dir/munge/munge.socket
touch "$dir/log/munged.log" && chown munge:munge "$dir/log/munged.log"
setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground --force \
  --socket="$socket" --key-file="$dir/munge-key/munge.key" --pid-file="$dir/munge-key/munged.pid" \
  --log-file="$dir/log/munged.log" --seed-file="$dir/munge-key/munged.seed" >>"$dir/log/munged.out" 2>&1 &
echo $! >> "$dir/pids"
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "ci-cluster: munged did not start:" >&2; cat "$dir"/log/munged.* >&2; stop; exit 1; }

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
cat > "$dir/slurm.conf" <<CONF
ClusterName=selfplay-ci
SlurmctldHost=$host
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
export SLURM_CONF=$dir/slurm.conf
touch "$dir/log/slurmctld.log" "$dir/log/slurmd.log" && chown slurm:slurm "$dir/log/slurmctld.log"
/usr/sbin/slurmctld -D -f "$SLURM_CONF" >>"$dir/log/slurmctld.out" 2>&1 &
echo $! >> "$dir/pids"
/usr/sbin/slurmd -D -f "$SLURM_CONF" >>"$dir/log/slurmd.out" 2>&1 &
echo $! >> "$dir/pids"
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -q idle; then
    echo "ci-cluster: up: $(sinfo -h -o '%P %D nodes %c CPUs %t') (SLURM_CONF=$SLURM_CONF)"
    exit 0
  fi
  sleep 0.5
done
echo "ci-cluster: the node did not come up:" >&2
tail -n 20 "$dir"/log/* >&2 || true
sinfo >&2 || true
stop
exit 1
