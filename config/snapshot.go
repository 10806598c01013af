package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"selfplay/config/snapshot"
)

// Snapshot returns the snapshot of the tournament in the file.
func (t Tournament) Snapshot(f *File) (snapshot.Snapshot, error) {
	s := snapshot.Snapshot{
		Version: snapshot.Version, Name: t.Name, Format: string(t.Format), Rounds: t.Rounds, Seed: t.Seed,
		Players: append([]string{}, t.Engines...), Engines: map[string]snapshot.Engine{},
		Event: t.Event, Site: t.Site,
	}
	if t.Format == FormatKnockout {
		s.Knockout = &snapshot.Knockout{Games: t.Knockout.Games, Seeds: t.Knockout.Seeds}
	}
	for _, name := range t.Engines {
		e, ok := f.Engine(name)
		if !ok {
			return snapshot.Snapshot{}, fmt.Errorf("config: snapshot of tournament %q: engine %q is not defined", t.Name, name)
		}
		if e.External() {
			es := snapshot.Engine{External: true, Command: portablePath(f, e.Command), Args: e.Args, UCIOptions: e.UCIOptions, Restart: e.Restart}
			if e.Dir != "" {
				es.Dir = portablePath(f, e.Dir)
			}
			s.Engines[name] = es
		} else {
			s.Engines[name] = snapshot.Engine{Preset: e.Preset, Options: e.Options.String(), Hash: e.Hash}
		}
	}

	s.Openings.Order = string(t.Openings.Order)
	// The new keys only when set, so that existing snapshots stay as they are.
	if t.Openings.Offset > 0 {
		s.Openings.Start = t.Openings.Offset + 1
	}
	if t.OneGamePerOpening {
		s.GamesPerOpening = 1
	}
	s.NoSwap, s.Reverse = t.NoSwap, t.Reverse
	if t.GauntletSeeds > 1 {
		s.GauntletSeeds = t.GauntletSeeds
	}
	if t.Schedule == ScheduleFastchess {
		s.Schedule = string(t.Schedule)
	}
	if t.Openings.File != "" {
		if t.Openings.Hash == "" {
			return snapshot.Snapshot{}, fmt.Errorf("config: snapshot of tournament %q: openings file %s not loaded (no hash)", t.Name, t.Openings.File)
		}
		s.Openings.File = portablePath(f, t.Openings.File)
		s.Openings.SHA256 = t.Openings.Hash
		s.Openings.Plies = t.Openings.Plies
		s.Openings.Format, s.Openings.Choice, s.Openings.Count = t.Openings.Format, t.Openings.Choice, t.Openings.Count
	} else {
		s.Openings.Set = t.Openings.Set
	}

	s.Limits = snapshotLimits(t.Limits)
	// An engine's own limits only where they change its games, so that a
	// tournament without them keeps its snapshot (and config hash).
	for name, l := range t.own {
		if own := snapshotLimits(l); own != s.Limits {
			e := s.Engines[name]
			e.Limits = &own
			s.Engines[name] = e
		}
	}

	a := t.Adjudication
	s.Adjudication.Move = a.Move
	if a.Move > 0 {
		s.Adjudication.Policy = string(a.Policy)
		if a.Policy != PolicyDraw {
			s.Adjudication.Margin = ptr(a.Margin)
		}
		if a.Policy == PolicyReferee {
			s.Adjudication.Referee = a.Referee
			s.Adjudication.RefereeOptions = a.RefereeOptions.String()
			s.Adjudication.RefereeNodes = a.RefereeNodes
		}
	}
	if a.ResignMoves > 0 {
		s.Adjudication.ResignScore, s.Adjudication.ResignMoves = a.ResignScore, a.ResignMoves
		if a.ResignOneSided { // only then, so that existing snapshots stay as they are
			s.Adjudication.ResignTwoSided = ptr(false)
		}
	}
	if a.DrawMoves > 0 {
		s.Adjudication.DrawScore, s.Adjudication.DrawMoves = ptr(a.DrawScore), a.DrawMoves
		s.Adjudication.DrawMoveFrom = ptr(a.DrawMoveFrom)
	}
	if a.Rules == RulesFastchess && (a.Move > 0 || a.ResignMoves > 0 || a.DrawMoves > 0) {
		// Only then, so that existing snapshots stay as they are.
		s.Adjudication.Rules = string(a.Rules)
	}

	if t.SPRT != nil {
		s.SPRT = ptr(*t.SPRT)
	}
	return s, nil
}

// snapshotLimits is the stored form of limits: the kind set, with
// nodes_jitter for nodes and time_margin for the time limits.
func snapshotLimits(l Limits) snapshot.Limits {
	var s snapshot.Limits
	switch {
	case l.Nodes > 0:
		s.Nodes = l.Nodes
		s.NodesJitter = max(l.NodesJitter, 0)
	case l.Depth > 0:
		s.Depth = l.Depth
	case l.MoveTime > 0:
		s.MoveTime = l.MoveTime.String()
		s.TimeMargin = l.TimeMargin.String()
	case l.TC != nil:
		s.TC = canonicalTC(l.TC)
		s.TimeMargin = l.TimeMargin.String()
	}
	return s
}

// String says the limit in words, as the report's header does ("5000
// nodes per move", "time control 40/60+0.6"): the stored form's.
func (l Limits) String() string { return snapshotLimits(l).String() }

// SameAs reports whether l and o give the same games: the same kind and
// budget, and for time limits the same margin.
func (l Limits) SameAs(o Limits) bool { return snapshotLimits(l) == snapshotLimits(o) }

func ptr[T any](v T) *T { return &v }

// portablePath writes a path inside the config directory relative to it
// (slash-separated), and any other path as it is.
func portablePath(f *File, path string) string {
	dir, err1 := filepath.Abs(f.Dir)
	abs, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}
