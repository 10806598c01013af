package config

import (
	"encoding/binary"
	"strings"
	"testing"

	"selfplay/openings"
)

// tinyBook is a Polyglot book with two moves from the initial position
// (key 463b96181691fc9c): e2e4 (weight 3) and d2d4 (weight 1).
func tinyBook() string {
	var b []byte
	for _, e := range [][2]uint16{{12<<6 | 28, 3}, {11<<6 | 27, 1}} { // from<<6 | to, squares 8*rank+file
		b = binary.BigEndian.AppendUint64(b, 0x463b96181691fc9c)
		b = binary.BigEndian.AppendUint16(b, e[0])
		b = binary.BigEndian.AppendUint16(b, e[1])
		b = binary.BigEndian.AppendUint32(b, 0)
	}
	return string(b)
}

// A .bin file (or format = "polyglot") is a Polyglot book: plies, choice
// and count apply to it, its walks get the tournament's seed, and the
// snapshot records what makes its openings.
func TestPolyglotBookConfig(t *testing.T) {
	book := map[string]string{"book.bin": tinyBook(), "book.dat": tinyBook()}
	tests := []struct {
		name     string
		openings string
		choice   string
		count    int
		plies    int
		n        int // openings loaded
		snapshot string
	}{
		{"defaults", `file = "book.bin"`, openings.ChoiceWeighted, DefaultBookCount, DefaultPGNPlies, 2,
			`"openings":{"choice":"weighted","count":100,"file":"book.bin","order":"sequential","plies":8,"sha256":`},
		{"best", "file = \"book.bin\"\nchoice = \"best\"\nplies = 3", openings.ChoiceBest, 0, 3, 1,
			`"openings":{"choice":"best","file":"book.bin","order":"sequential","plies":3,"sha256":`},
		{"format", "file = \"book.dat\"\nformat = \"polyglot\"\ncount = 1", openings.ChoiceWeighted, 1, DefaultPGNPlies, 1,
			`"openings":{"choice":"weighted","count":1,"file":"book.dat","format":"polyglot","order":"sequential","plies":8,"sha256":`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustLoad(t, engAB+tourn("t", "seed = 7\n"+limits+"[tournament.openings]\n"+tc.openings+"\n"), book)
			tr := f.Tournaments[0]
			o := tr.Openings
			if o.Choice != tc.choice || o.Count != tc.count || o.Plies != tc.plies || len(o.List) != tc.n {
				t.Errorf("openings %+v (%d loaded), want choice %q, count %d, plies %d, %d loaded",
					o, len(o.List), tc.choice, tc.count, tc.plies, tc.n)
			}
			if spec := tr.OpeningSpec(); spec.Seed != 7 || spec.Choice != tc.choice {
				t.Errorf("spec %+v, want the tournament's seed 7", spec)
			}
			s, err := tr.Snapshot(f)
			if err != nil {
				t.Fatal(err)
			}
			js, err := s.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(js, tc.snapshot) {
				t.Errorf("snapshot %s does not hold %s", js, tc.snapshot)
			}
		})
	}
	bad := []struct{ openings, want string }{
		{"file = \"book.bin\"\nchoice = \"best\"\ncount = 5", `openings.count: count applies only to choice = "weighted"`},
		{"file = \"book.bin\"\nchoice = \"random\"", `openings.choice: unknown value "random"`},
		{"file = \"book.bin\"\ncount = 0", `openings.count:`},
		{"set = \"fhr25\"\nchoice = \"best\"", `openings.choice: choice applies only to a Polyglot book`},
		{"file = \"book.bin\"\nformat = \"epd\"", `NUL byte`},
		{"file = \"book.bin\"\nformat = \"bin\"", `openings.format: unknown value "bin"`},
	}
	for _, tc := range bad {
		_, _, err := load(t, engAB+tourn("t", limits+"[tournament.openings]\n"+tc.openings+"\n"), book)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.openings, err, tc.want)
		}
	}
}
