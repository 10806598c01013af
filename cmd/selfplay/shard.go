package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"selfplay/config"
	"selfplay/store/record"
)

// maxShards bounds N of -shard I/N: far beyond any cluster's array, and
// small enough that shard numbers stay readable in file names.
const maxShards = 1_000_000

// parseShard reads run's -shard value: "I/N", "slurm" (I and N from the
// Slurm array task's environment) or "k8s/N" (I from a Kubernetes Indexed
// Job's JOB_COMPLETION_INDEX). lookup reads the environment. A missing or
// inconsistent variable is an error that names it.
func parseShard(spec string, lookup func(string) (string, bool)) (record.Shard, error) {
	switch {
	case spec == "slurm":
		return slurmShard(lookup)
	case strings.HasPrefix(spec, "k8s/"):
		n, err := shardCount(strings.TrimPrefix(spec, "k8s/"), spec)
		if err != nil {
			return record.Shard{}, err
		}
		i, err := envInt(lookup, "JOB_COMPLETION_INDEX", "-shard "+spec+" reads it from a Kubernetes Indexed Job (completionMode: Indexed)")
		if err != nil {
			return record.Shard{}, err
		}
		if i < 0 || i >= n {
			return record.Shard{}, fmt.Errorf("-shard %s: JOB_COMPLETION_INDEX=%d is outside 0..%d: the Job's completions must equal N (%d)",
				spec, i, n-1, n)
		}
		return record.Shard{Index: i, Count: n}, nil
	}
	is, ns, ok := strings.Cut(spec, "/")
	if !ok {
		return record.Shard{}, fmt.Errorf("-shard %q: want I/N (0 <= I < N), slurm or k8s/N", spec)
	}
	n, err := shardCount(ns, spec)
	if err != nil {
		return record.Shard{}, err
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return record.Shard{}, fmt.Errorf("-shard %s: the shard number %q is not in 0..%d", spec, is, n-1)
	}
	return record.Shard{Index: i, Count: n}, nil
}

// shardCount reads N of a -shard value.
func shardCount(s, spec string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxShards {
		return 0, fmt.Errorf("-shard %s: the number of shards %q is not in 1..%d", spec, s, maxShards)
	}
	return n, nil
}

// slurmShard numbers the tasks of a Slurm job array 0..COUNT-1: the task
// ID minus the array's first ID. The array must be a contiguous range
// (--array=0-15, or 1-16; a %limit on running tasks is fine), else the
// shards would not cover the schedule.
func slurmShard(lookup func(string) (string, bool)) (record.Shard, error) {
	const why = "-shard slurm reads it from a Slurm array task (sbatch --array=0-15)"
	id, err := envInt(lookup, "SLURM_ARRAY_TASK_ID", why)
	if err != nil {
		return record.Shard{}, err
	}
	lo, err := envInt(lookup, "SLURM_ARRAY_TASK_MIN", why)
	if err != nil {
		return record.Shard{}, err
	}
	n, err := envInt(lookup, "SLURM_ARRAY_TASK_COUNT", why)
	if err != nil {
		return record.Shard{}, err
	}
	if n < 1 || n > maxShards {
		return record.Shard{}, fmt.Errorf("-shard slurm: SLURM_ARRAY_TASK_COUNT=%d is not in 1..%d", n, maxShards)
	}
	if step, ok := lookup("SLURM_ARRAY_TASK_STEP"); ok && strings.TrimSpace(step) != "1" {
		return record.Shard{}, fmt.Errorf("-shard slurm: SLURM_ARRAY_TASK_STEP=%s: the array must be a contiguous range "+
			"such as --array=0-%d, so that the tasks number the shards 0..%d", step, n-1, n-1)
	}
	if _, ok := lookup("SLURM_ARRAY_TASK_MAX"); ok {
		hi, err := envInt(lookup, "SLURM_ARRAY_TASK_MAX", why)
		if err != nil {
			return record.Shard{}, err
		}
		if hi-lo+1 != n {
			return record.Shard{}, fmt.Errorf("-shard slurm: SLURM_ARRAY_TASK_MIN=%d, SLURM_ARRAY_TASK_MAX=%d and "+
				"SLURM_ARRAY_TASK_COUNT=%d are not a contiguous range: submit the array as --array=FIRST-LAST", lo, hi, n)
		}
	}
	if id < lo || id-lo >= n {
		return record.Shard{}, fmt.Errorf("-shard slurm: SLURM_ARRAY_TASK_ID=%d is outside the array "+
			"SLURM_ARRAY_TASK_MIN=%d .. %d (SLURM_ARRAY_TASK_COUNT=%d)", id, lo, lo+n-1, n)
	}
	return record.Shard{Index: id - lo, Count: n}, nil
}

// envInt reads an integer environment variable; why says who needs it.
func envInt(lookup func(string) (string, bool), name, why string) (int, error) {
	v, ok := lookup(name)
	if !ok || strings.TrimSpace(v) == "" {
		return 0, fmt.Errorf("%s is not set (%s)", name, why)
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a whole number (%s)", name, v, why)
	}
	return n, nil
}

// shardFile is a shard's own file for the config's path: beside it, with
// the shard in its name before the extension (selfplay.db, shard 3 of 16:
// selfplay.shard-03-of-16.db), so that shards never share a file and the
// names sort in shard order. It names a shard's default database and its
// live files and log (shardOutputs).
func shardFile(path string, sh record.Shard) string {
	ext := filepath.Ext(path)
	w := max(2, len(strconv.Itoa(sh.Count)))
	return fmt.Sprintf("%s.shard-%0*d-of-%0*d%s", strings.TrimSuffix(path, ext), w, sh.Index, w, sh.Count, ext)
}

// shardOutputs gives each tournament of a sharded run its own live files
// (pgn_out, epd_out) and traffic log, named as its default database is
// (shardFile: live.pgn, shard 3 of 16: live.shard-03-of-16.pgn). The
// shards of a config run side by side, in one folder or on a shared file
// system; with one name they would mix their games in one file (the live files' lock
// refuses the second shard) and interleave their logs. The names do not
// enter the tournament's snapshot, so a shard resumes whatever they are.
// A path that exists and is not a regular file keeps its name: a device
// (/dev/null) or a FIFO keeps no games to mix, and a symbolic link may
// lead to one (/dev/stdout, which Slurm's --output makes a regular file);
// a link to a regular file shared by shards is refused by its lock.
func shardOutputs(cfg *config.File, sh record.Shard) {
	rename := func(path string) string {
		if path == "" {
			return ""
		}
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return path
		}
		return shardFile(path, sh)
	}
	for i := range cfg.Tournaments {
		t := &cfg.Tournaments[i]
		t.Live.PGN, t.Live.EPD, t.Log = rename(t.Live.PGN), rename(t.Live.EPD), rename(t.Log)
	}
}
