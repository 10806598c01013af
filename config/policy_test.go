package config

import "testing"

// Only the referee policy with a move limit needs a referee engine.
func TestUsesReferee(t *testing.T) {
	tests := []struct {
		policy Policy
		move   int
		want   bool
	}{
		{PolicyReferee, 100, true},
		{PolicyReferee, 1, true},
		{PolicyReferee, 0, false},
		{PolicyAgree, 100, false},
		{PolicyDraw, 100, false},
		{"", 100, false},
	}
	for _, tt := range tests {
		if got := (Adjudication{Policy: tt.policy, Move: tt.move}).UsesReferee(); got != tt.want {
			t.Errorf("policy %q, move %d: UsesReferee() = %v, want %v", tt.policy, tt.move, got, tt.want)
		}
	}
}
