// Package builtin carries the test suites of the papers in the binary:
// wac (Win at Chess, revised answers), wac-classic (its older answers), bk
// (Bratko-Kopec), crafty (the NMR paper's six CRAFTY benchmark positions),
// ecm (Encyclopedia of Chess Middlegames) and zugzwang (null-move zugzwang
// tests and the NMR paper's Figure 3). Where each EPD transcription comes
// from, and how it was checked, is in README.md beside this file.
//
// Load takes a suite name or an EPD file path, so every command that reads
// EPD positions takes both. Names win: a file called like a suite is read
// with a path (./wac).
package builtin

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"selfplay/epd"
)

//go:embed *.epd
var files embed.FS

// suiteInfo is a built-in test suite.
type suiteInfo struct {
	Name        string // what users type: -epd wac
	File        string // the embedded EPD file
	Description string
}

// suites lists the built-in suites in the order help texts show them.
var suites = []suiteInfo{
	{"wac", "wac.epd", "Win at Chess (Reinfeld 1958), 300 positions, revised answers"},
	{"wac-classic", "wac-classic.epd", "Win at Chess with the older answers, as papers around 2000 scored it"},
	{"bk", "bk.epd", "Bratko-Kopec (1982), 24 positions"},
	{"crafty", "crafty-bench.epd", "the six CRAFTY benchmark positions of the NMR paper, with its depths"},
	{"ecm", "ecm.epd", "Encyclopedia of Chess Middlegames, 879 positions"},
	{"zugzwang", "zugzwang.epd", "five null-move zugzwang tests and the NMR paper's Figure 3 (1. h3 mates in 15)"},
}

// allSuites returns the built-in suites.
func allSuites() []suiteInfo { return append([]suiteInfo(nil), suites...) }

// Names lists the suite names, comma-separated, for help and error texts.
func Names() string {
	names := make([]string, len(suites))
	for i, s := range suites {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// lookup finds a built-in suite by name.
func lookup(name string) (suiteInfo, bool) {
	for _, s := range suites {
		if s.Name == name {
			return s, true
		}
	}
	return suiteInfo{}, false
}

// Bytes returns the suite's EPD text (an error only if the suite list and
// the embedded files disagree, which the tests rule out).
func (s suiteInfo) Bytes() ([]byte, error) {
	b, err := files.ReadFile(s.File)
	if err != nil {
		return nil, fmt.Errorf("built-in suite %s: %w", s.Name, err)
	}
	return b, nil
}

// Load reads the positions of the built-in suite name, or else of the EPD
// file at that path, as epd.Load does (malformed lines are returned, not
// fatal). A name that is neither is an error listing the built-in suites.
func Load(nameOrPath string) ([]epd.Record, []epd.LineError, error) {
	return LoadContext(context.Background(), nameOrPath)
}

// LoadContext is Load that reads a file on ctx (see epd.LoadContext).
func LoadContext(ctx context.Context, nameOrPath string) ([]epd.Record, []epd.LineError, error) {
	if s, ok := lookup(nameOrPath); ok {
		text, err := s.Bytes()
		if err != nil {
			return nil, nil, err
		}
		recs, bad, err := epd.Parse(bytes.NewReader(text))
		if err != nil {
			return nil, nil, fmt.Errorf("built-in suite %s: %w", s.Name, err)
		}
		return recs, bad, nil
	}
	if _, err := os.Stat(nameOrPath); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%q is neither a built-in suite (%s) nor a file: %w", nameOrPath, Names(), err)
	}
	return epd.LoadContext(ctx, nameOrPath)
}
