package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

func TestSignalStopper(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		after       []time.Duration // arrival of each signal after t0
		wantCancels int
		wantKills   int
	}{
		{"one signal cancels", []time.Duration{0}, 1, 0},
		{"a copy at once is ignored", []time.Duration{0, 0}, 1, 0},
		{"copies within the grace are ignored", []time.Duration{0, 5 * time.Millisecond, repeatGrace - time.Millisecond}, 1, 0},
		{"a second one at the grace kills", []time.Duration{0, repeatGrace}, 1, 1},
		{"a copy, then a second one later", []time.Duration{0, time.Millisecond, 3 * time.Second}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cancels, kills := 0, 0
			s := &signalStopper{
				cancel: func() { cancels++ },
				kill: func(sig os.Signal) {
					if sig != syscall.SIGTERM {
						t.Errorf("killed by %v, want the signal received", sig)
					}
					kills++
				},
			}
			for _, d := range tt.after {
				s.handle(syscall.SIGTERM, t0.Add(d))
			}
			if cancels != tt.wantCancels || kills != tt.wantKills {
				t.Errorf("cancels %d, kills %d; want %d, %d", cancels, kills, tt.wantCancels, tt.wantKills)
			}
		})
	}
}
