package report_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/standings"
)

// browser returns a headless-capable Chromium on PATH, or skips the test.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if strings.Contains(os.Getenv("SELFPLAY_REQUIRE_TOOLS"), "chromium") {
		t.Fatal("chromium is required (SELFPLAY_REQUIRE_TOOLS) but not on PATH (Debian package chromium)")
	}
	t.Skip("no chromium or chromium-browser on PATH (Debian package chromium)")
	return ""
}

// runBrowser loads a local page headless with console logging to stderr
// and returns stdout and stderr. Extra arguments pick what it does
// (--screenshot=..., --dump-dom).
func runBrowser(t *testing.T, bin, page string, extra ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", "--window-size=1200,2000"},
		extra...)
	args = append(args, "file://"+page)
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, errb.String())
	}
	return out.String(), errb.String()
}

// consoleMessages returns Chromium's console log lines: with
// --enable-logging=stderr every console message and uncaught exception is
// logged as "...:CONSOLE:..." (Chromium's own dbus and GPU warnings are
// not).
func consoleMessages(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, ":CONSOLE") || strings.Contains(line, "Uncaught") {
			out = append(out, line)
		}
	}
	return out
}

// The HTML report renders in a real browser without console errors, and
// the screenshot is a real picture; --dump-dom shows every chart.
func TestHTMLRendersInChromium(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()

	// First make sure a console error would be seen at all.
	control := filepath.Join(dir, "control.html")
	if err := os.WriteFile(control, []byte(`<!DOCTYPE html><html><body><script>console.error("control-error"); missingFunction();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr := runBrowser(t, bin, control, "--dump-dom"); len(consoleMessages(stderr)) == 0 {
		t.Fatalf("console errors of a control page are not visible in Chromium's log; the check below would prove nothing:\n%s", stderr)
	}

	r := fixtureReport(t, standings.Options{})
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, render(t, r, writeHTML), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "report.png")
	_, stderr := runBrowser(t, bin, page, "--screenshot="+shot)
	if msgs := consoleMessages(stderr); len(msgs) > 0 {
		t.Errorf("console messages while rendering the report:\n%s", strings.Join(msgs, "\n"))
	}
	checkScreenshot(t, shot)
	if keep := os.Getenv("SELFPLAY_REPORT_SCREENSHOT"); keep != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	dom, stderr := runBrowser(t, bin, page, "--dump-dom")
	if msgs := consoleMessages(stderr); len(msgs) > 0 {
		t.Errorf("console messages while loading the report:\n%s", strings.Join(msgs, "\n"))
	}
	if got, want := strings.Count(dom, "<svg"), chartsOf(r); got != want {
		t.Errorf("rendered DOM has %d <svg> elements, want %d", got, want)
	}
	if !strings.Contains(dom, "Tournament fhr-vs-plain") || !strings.Contains(dom, "<polyline") {
		t.Error("rendered DOM lacks the report's sections or chart lines")
	}
}

// checkScreenshot checks that the PNG has the window's size and is not a
// blank page: it has many colors and a good share of non-white pixels.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 2000 {
		t.Errorf("screenshot is %v, want 1200x2000", b)
	}
	colors, ink := countColors(img)
	if colors < 20 || ink < 0.02 {
		t.Errorf("screenshot looks blank: %d colors, %.1f%% non-white pixels", colors, 100*ink)
	}
}

func countColors(img image.Image) (colors int, ink float64) {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	dark := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r>>8 < 240 || g>>8 < 240 || bl>>8 < 240 {
				dark++
			}
		}
	}
	return len(seen), float64(dark) / float64((b.Dx()/2)*(b.Dy()/2))
}
