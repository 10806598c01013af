package engines

import "testing"

func TestIsMoveText(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"e2e4", true}, {"e7e8q", true}, {"a7b8n", true}, {"e1g1", true}, {"h8a1", true},
		{"0000", false}, {"e2e", false}, {"e2e4e5", false}, {"e7e8k", false}, {"e7e8Q", false},
		{"i2e4", false}, {"e0e4", false}, {"e2e9", false}, {"E2E4", false}, {"", false}, {"(none)", false},
	} {
		if got := IsMoveText(c.s); got != c.want {
			t.Errorf("IsMoveText(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
