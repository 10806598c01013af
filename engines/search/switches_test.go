package search

import (
	"strconv"
	"strings"
	"testing"
)

// TestSwitchInfoMatchesSet: every switch's documented type and range is what
// Set accepts, and Get reads back what Set stored.
func TestSwitchInfoMatchesSet(t *testing.T) {
	// roundTrip sets key=v on a preset's options and checks that Get returns
	// want and that setting Get's value again changes nothing.
	roundTrip := func(base Options, key, v, want string) {
		t.Helper()
		o := base
		if err := o.Set(key, v); err != nil {
			t.Errorf("Set(%s, %q): %v", key, v, err)
			return
		}
		got, err := o.Get(key)
		if err != nil || got != want {
			t.Errorf("after Set(%s, %q): Get = %q, %v; want %q", key, v, got, err, want)
			return
		}
		o2 := o
		if err := o2.Set(key, got); err != nil || o2 != o {
			t.Errorf("Set(%s, Get() = %q) changed the options (%v)", key, got, err)
		}
	}
	rejects := func(base Options, key, v string) {
		t.Helper()
		o := base
		if err := o.Set(key, v); err == nil {
			t.Errorf("Set(%s, %q) accepted", key, v)
		}
		if o != base {
			t.Errorf("rejected Set(%s, %q) changed the options", key, v)
		}
	}
	seen := map[string]bool{}
	for _, p := range PresetNames() {
		base, err := Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sw := range Switches() {
			seen[sw.Name] = true
			switch sw.Kind {
			case SwitchBool:
				roundTrip(base, sw.Name, "true", "true")
				roundTrip(base, sw.Name, "false", "false")
				rejects(base, sw.Name, "maybe")
			case SwitchInt:
				if sw.Min > sw.Max {
					t.Fatalf("switch %s: range %d..%d", sw.Name, sw.Min, sw.Max)
				}
				for _, n := range []int{sw.Min, sw.Max, (sw.Min + sw.Max) / 2} {
					roundTrip(base, sw.Name, strconv.Itoa(n), strconv.Itoa(n))
				}
				rejects(base, sw.Name, strconv.Itoa(sw.Min-1))
				rejects(base, sw.Name, strconv.Itoa(sw.Max+1))
				rejects(base, sw.Name, "x")
			case SwitchChoice:
				if len(sw.Choices) == 0 {
					t.Fatalf("switch %s: no choices", sw.Name)
				}
				for _, c := range sw.Choices {
					want := c
					if sw.Name == "null" && c == "adaptive" {
						want = "standard" // adaptive is standard with r=N~M
					}
					roundTrip(base, sw.Name, c, want)
				}
				rejects(base, sw.Name, "bogus")
			case SwitchString:
				if sw.Name != "r" {
					t.Fatalf("switch %s: a string switch this test does not know", sw.Name)
				}
				for _, v := range []string{strconv.Itoa(sw.Min), strconv.Itoa(sw.Max), "3~4",
					strconv.Itoa(sw.Min) + "~" + strconv.Itoa(sw.Max)} {
					roundTrip(base, sw.Name, v, v)
				}
				for _, v := range []string{strconv.Itoa(sw.Min - 1), strconv.Itoa(sw.Max + 1), "4~3",
					strconv.Itoa(sw.Min-1) + "~3", "3~" + strconv.Itoa(sw.Max+1), "", "~"} {
					rejects(base, sw.Name, v)
				}
			default:
				t.Fatalf("switch %s: kind %d", sw.Name, sw.Kind)
			}
			// The preset's own setting reads back and sets to itself.
			v, err := base.Get(sw.Name)
			if err != nil {
				t.Errorf("%s: Get(%s): %v", p, sw.Name, err)
				continue
			}
			if v == "" && (sw.Name != "r" || base.Null != NullOff) {
				t.Errorf("%s: switch %s has no value", p, sw.Name)
				continue
			}
			if v != "" {
				o := base
				if err := o.Set(sw.Name, v); err != nil || o != base {
					t.Errorf("%s: switch %s=%s does not round-trip (%v)", p, sw.Name, v, err)
				}
			}
		}
	}
	if len(seen) != len(Switches()) {
		t.Errorf("%d switches, %d distinct names", len(Switches()), len(seen))
	}
	if _, err := (Options{}).Get("nonsense"); err == nil {
		t.Error("Get of an unknown switch: no error")
	}
	if v, err := (Options{}).Get("r"); v != "" || err != nil {
		t.Errorf("Get(r) of the zero Options = %q, %v; want \"\"", v, err)
	}
}

// TestCanonicalForm pins Options.String for every preset: config snapshots
// of stored tournaments compare these strings, so a change here makes every
// stored tournament refuse to resume. Each string also parses back to the
// preset's options.
func TestCanonicalForm(t *testing.T) {
	const see = "qsee=true see-order=true delta=true delta-margin=200"
	const shared = "ext-check=true ext-recapture=false ext-king-threat=false ext-attack-evading=false ext-single-reply=false " + see
	const nullOff = "null=off fhr=false futility=false " + shared
	// FALCON's switches come last and are listed only while on.
	const falconShared = "futility=true futility-margin=300 ext-check=true ext-recapture=true recapture-window=100 " +
		"ext-king-threat=false ext-attack-evading=false ext-single-reply=true " + see +
		" iid=true iid-depth=4 iid-reduction=2 aspiration=true aspiration-window=50 multi-cut=true mc-moves=6 mc-cuts=3 mc-r=2" +
		" ext-mate-threat=true ext-passed-pawn=true ext-futility=true ext-futility-margin=500"
	want := map[string]string{
		"plain":         nullOff,
		"fhr":           "null=off fhr=true fhr-margin=0 futility=false " + shared,
		"null-r1":       "null=standard r=1 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"null-r2":       "null=standard r=2 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"null-r3":       "null=standard r=3 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"null-r4":       "null=standard r=4 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"adaptive-r2-3": "null=standard r=2~3 r-depth=6 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"adaptive-r3-4": "null=standard r=3~4 r-depth=6 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"verified-r3":   "null=verified r=3 null-pawn-endings=false null-min-depth=1 fhr=false futility=false " + shared,
		"nmr-r3-4":      "null=nmr r=3~4 r-depth=6 dr=4 null-pawn-endings=true null-min-depth=1 fhr=false futility=false " + shared,
		"nmr-r4":        "null=nmr r=4 dr=4 null-pawn-endings=true null-min-depth=1 fhr=false futility=false " + shared,
		"ye-marsland": "null=standard r=1 null-pawn-endings=false null-min-depth=2 fhr=false futility=true futility-margin=300 " +
			"ext-check=true ext-recapture=true recapture-window=100 ext-king-threat=false ext-attack-evading=false ext-single-reply=false " + see,
		"falcon":               "null=off fhr=false " + falconShared,
		"falcon-null-r3":       "null=standard r=3 null-pawn-endings=false null-min-depth=1 fhr=false " + falconShared,
		"falcon-adaptive-r2-3": "null=standard r=2~3 r-depth=6 null-pawn-endings=false null-min-depth=1 fhr=false " + falconShared,
		"falcon-nmr-r3-4":      "null=nmr r=3~4 r-depth=6 dr=4 null-pawn-endings=true null-min-depth=1 fhr=false " + falconShared,
		"falcon-fhr":           "null=off fhr=true fhr-margin=0 " + falconShared,
	}
	if len(want) != len(PresetNames()) {
		t.Errorf("%d presets, %d canonical forms pinned", len(PresetNames()), len(want))
	}
	for _, p := range PresetNames() {
		o, err := Preset(p)
		if err != nil {
			t.Fatal(err)
		}
		got := o.String()
		if got != want[p] {
			t.Errorf("%s:\n got  %s\n want %s", p, got, want[p])
		}
		spec := p
		for _, kv := range strings.Fields(got) {
			spec += ":" + kv
		}
		if back, err := ParseVariant(spec); err != nil || back != o {
			t.Errorf("%s: its canonical form does not parse back to it (%v)", p, err)
		}
	}
	if got := (Options{}).String(); got != "null=off fhr=false futility=false ext-check=false ext-recapture=false ext-king-threat=false ext-attack-evading=false ext-single-reply=false qsee=false see-order=false delta=false" {
		t.Errorf("zero Options: %s", got)
	}
}

// TestSwitchErrors pins the messages people see for bad switches.
func TestSwitchErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"plain:bogus=1", `variant "plain:bogus=1": unknown switch "bogus" (valid: null, r, `},
		{"plain:fhr", `variant "plain:fhr": switch "fhr" is not key=value`},
		{"plain:fhr=maybe", `variant "plain:fhr=maybe": switch fhr: "maybe" is not true or false`},
		{"plain:dr=5", `variant "plain:dr=5": switch dr: "5" is not an integer in 1..4`},
		{"plain:null=sometimes", `variant "plain:null=sometimes": switch null: unknown value "sometimes" (valid: off, standard, adaptive, verified, nmr)`},
		{"plain:r=4~3", `variant "plain:r=4~3": switch r: "4~3" is not N or N~M with 1 <= N <= M <= 6`},
		{"nope", `unknown variant preset "nope" (valid: plain, fhr, `},
	}
	for _, tc := range tests {
		_, err := ParseVariant(tc.spec)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseVariant(%q) = %v, want an error starting %q", tc.spec, err, tc.want)
		}
	}
}
