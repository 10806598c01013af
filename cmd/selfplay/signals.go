package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// repeatGrace is how long after the first SIGINT or SIGTERM another one is
// taken for the same signal delivered twice rather than a request to kill.
// GNU timeout signals both the process and its process group, and Slurm or
// a shell may signal every process of a job as well as the one that forwards
// to them: the copies arrive within milliseconds. A person who presses Ctrl-C
// again to force the end is almost always slower than this.
const repeatGrace = 250 * time.Millisecond

// signalStopper turns the first SIGINT or SIGTERM into a cancellation, so
// that the command stores what it has and exits 130, and a later one, at
// least repeatGrace after the first, into the signal's default action.
type signalStopper struct {
	cancel context.CancelFunc
	kill   func(os.Signal) // ends the process by the signal
	first  time.Time       // when the first signal came; zero before
}

func (s *signalStopper) handle(sig os.Signal, now time.Time) {
	switch {
	case s.first.IsZero():
		s.first = now
		s.cancel()
	case now.Sub(s.first) >= repeatGrace:
		s.kill(sig)
	}
}

// stopOnSignals cancels the returned context on the first SIGINT or SIGTERM;
// release stops listening.
func stopOnSignals() (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	s := &signalStopper{cancel: cancel, kill: raiseDefault}
	go func() {
		for sig := range sigs {
			s.handle(sig, time.Now())
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}

// raiseDefault ends the process by sig's default action, so that a parent
// (a shell loop, a batch system) sees it killed by that signal; where a
// signal cannot be raised, it exits with 130.
func raiseDefault(sig os.Signal) {
	signal.Reset(sig)
	if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
		time.Sleep(time.Second) // the signal is delivered asynchronously
	}
	os.Exit(exitInterrupted)
}
