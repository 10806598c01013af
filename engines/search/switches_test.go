package search

import (
	"strconv"
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
