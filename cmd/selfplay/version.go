package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// cmdVersion prints the module version and the version-control revision
// the binary was built from (as `go build` records them; `go run` and
// -buildvcs=false record no revision), one fact per line.
func cmdVersion(_ context.Context, e env, args []string) error {
	fs := newFlagSet(e, "version", "", "Prints the module version, the VCS revision, its time, whether the\n"+
		"working tree had changes, and the Go version and platform. `selfplay -version` is the same.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{}
	}
	fmt.Fprint(e.stdout, versionText(bi))
	return nil
}

// versionText renders the build information.
func versionText(bi *debug.BuildInfo) string {
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	text := fmt.Sprintf("selfplay %s\n", version)
	if rev := settings["vcs.revision"]; rev != "" {
		text += fmt.Sprintf("revision %s\n", rev)
		if t := settings["vcs.time"]; t != "" {
			text += fmt.Sprintf("committed %s\n", t)
		}
		if m := settings["vcs.modified"]; m != "" {
			text += fmt.Sprintf("modified %s\n", m)
		}
	} else {
		text += "revision unknown (built without version control information: go run, go test, or -buildvcs=false)\n"
	}
	goVersion := bi.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	return text + fmt.Sprintf("go %s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
