package outcome

import (
	"slices"
	"testing"
)

func TestResult(t *testing.T) {
	tests := []struct {
		text            string
		valid, finished bool
		white, black    float64 // points, when finished
		winner          Side
		decisive        bool
	}{
		{"1-0", true, true, 1, 0, White, true},
		{"0-1", true, true, 0, 1, Black, true},
		{"1/2-1/2", true, true, 0.5, 0.5, White, false},
		{"*", true, false, 0, 0, White, false},
		{"", false, false, 0, 0, White, false},
		{"1-1", false, false, 0, 0, White, false},
		{"½-½", false, false, 0, 0, White, false},
		{"1-0 ", false, false, 0, 0, White, false},
	}
	for _, tt := range tests {
		r := Result(tt.text)
		if r.Valid() != tt.valid || r.Finished() != tt.finished {
			t.Errorf("%q: valid %v finished %v, want %v %v", tt.text, r.Valid(), r.Finished(), tt.valid, tt.finished)
		}
		got, err := Parse(tt.text)
		if tt.valid && (err != nil || got != r || got.String() != tt.text) {
			t.Errorf("Parse(%q) = %q, %v", tt.text, got, err)
		}
		if !tt.valid && err == nil {
			t.Errorf("Parse(%q) = %q, want an error", tt.text, got)
		}
		w, okW := r.Points(White)
		b, okB := r.Points(Black)
		if okW != tt.finished || okB != tt.finished || w != tt.white || b != tt.black {
			t.Errorf("%q: points %v %v (%v %v), want %v %v (%v)", tt.text, w, b, okW, okB, tt.white, tt.black, tt.finished)
		}
		if side, ok := r.Winner(); ok != tt.decisive || ok && side != tt.winner {
			t.Errorf("%q: winner %v %v, want %v %v", tt.text, side, ok, tt.winner, tt.decisive)
		}
	}
}

func TestWinLoss(t *testing.T) {
	tests := []struct {
		side      Side
		win, loss Result
	}{
		{White, WhiteWins, BlackWins},
		{Black, BlackWins, WhiteWins},
	}
	for _, tt := range tests {
		if win(tt.side) != tt.win || Loss(tt.side) != tt.loss {
			t.Errorf("side %d: win %q loss %q, want %q %q", tt.side, win(tt.side), Loss(tt.side), tt.win, tt.loss)
		}
		if w, ok := win(tt.side).Winner(); !ok || w != tt.side {
			t.Errorf("side %d: win's winner is %d %v", tt.side, w, ok)
		}
	}
}

func TestFinal(t *testing.T) {
	if got := Final(); !slices.Equal(got, []Result{"1-0", "0-1", "1/2-1/2"}) {
		t.Errorf("Final() = %q", got)
	}
	for _, r := range Final() {
		if !r.Finished() {
			t.Errorf("%q is listed as final but is not Finished", r)
		}
	}
}
