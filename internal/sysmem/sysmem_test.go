package sysmem

import "testing"

func TestFits(t *testing.T) {
	for _, c := range []struct {
		mib, physical int64
		want          string // "" for no error
	}{
		{16, 1024, ""},
		{1024, 1024, ""},
		{1025, 1024, "1025 MiB is more than this machine's physical memory (1024 MiB)"},
		{1 << 20, 0, ""}, // memory unknown: no bound
	} {
		got := ""
		if err := Fits(c.mib, c.physical); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Fits(%d, %d) = %q, want %q", c.mib, c.physical, got, c.want)
		}
	}
}
