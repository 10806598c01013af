package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/internal/tooltest"
	"selfplay/report"
	"selfplay/standings"
)

// browser returns a headless-capable Chromium on PATH, or skips the test.
func browser(t *testing.T) string {
	t.Helper()
	return tooltest.Find(t, "chromium", "chromium", "chromium", "chromium-browser")
}

// windowHeight is the browser window's height in the tests.
const windowHeight = 2000

// runBrowser loads a local page headless with console logging to stderr
// and returns stdout and stderr. Extra arguments pick what it does
// (--screenshot=..., --dump-dom) at a window width.
func runBrowser(t *testing.T, bin, page string, width int, extra ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", fmt.Sprintf("--window-size=%d,%d", width, windowHeight)},
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

// layoutScript measures the page as laid out: the viewport and document
// widths, every element that reaches past the viewport's right edge
// outside a scroll container (SVG internals aside), each chart's size, and
// every chart text that does not fit inside its chart (cut off).
// It writes the figures as JSON into a <pre id="layout"> that --dump-dom
// shows.
const layoutScript = `<script>(function () {
  var W = document.documentElement.clientWidth;
  var out = {innerWidth: window.innerWidth, clientWidth: W, scrollWidth: document.documentElement.scrollWidth,
    offenders: [], charts: [], clippedTexts: []};
  function scrolls(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  }
  var wide = new Set(); // only the outermost of nested offenders is listed
  var all = document.body.getElementsByTagName("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i];
    if (el.tagName.toLowerCase() !== "svg" && el.closest("svg")) continue;
    var r = el.getBoundingClientRect();
    if (r.right > W + 0.5 && !scrolls(el)) {
      wide.add(el);
      if (!wide.has(el.parentElement) && out.offenders.length < 20) {
        out.offenders.push(el.tagName + "." + (el.getAttribute("class") || "") + " right " + Math.round(r.right) +
          ": " + (el.textContent || "").slice(0, 60));
      }
    }
  }
  var svgs = document.querySelectorAll("svg.chart");
  for (var j = 0; j < svgs.length; j++) {
    var b = svgs[j].getBoundingClientRect();
    out.charts.push({width: b.width, height: b.height, wide: svgs[j].closest("figure").classList.contains("wide")});
    var texts = svgs[j].querySelectorAll("text");
    for (var k = 0; k < texts.length; k++) {
      var t = texts[k].getBoundingClientRect();
      if (t.left < b.left - 0.5 || t.right > b.right + 0.5 || t.top < b.top - 0.5 || t.bottom > b.bottom + 0.5) {
        out.clippedTexts.push("chart " + j + ": " + texts[k].textContent);
      }
    }
  }
  var pre = document.createElement("pre");
  pre.id = "layout";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();</script>`

// pageLayout is what layoutScript measured.
type pageLayout struct {
	InnerWidth  float64  `json:"innerWidth"`
	ClientWidth float64  `json:"clientWidth"`
	ScrollWidth float64  `json:"scrollWidth"`
	Offenders   []string `json:"offenders"`
	// ClippedTexts are chart texts reaching past their chart's edge.
	ClippedTexts []string `json:"clippedTexts"`
	Charts       []struct {
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
		Wide   bool    `json:"wide"`
	} `json:"charts"`
}

// measure loads the page with layoutScript added at a window width and
// returns the layout and the console messages.
func measure(t *testing.T, bin, page string, width int) (pageLayout, []string) {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := strings.TrimSuffix(page, ".html") + "-probe.html"
	if err := os.WriteFile(probe, []byte(strings.Replace(string(data), "</body>", layoutScript+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, stderr := runBrowser(t, bin, probe, width, "--dump-dom")
	_, rest, ok := strings.Cut(dom, `<pre id="layout">`)
	text, _, ok2 := strings.Cut(rest, "</pre>")
	if !ok || !ok2 {
		t.Fatalf("the layout probe did not run at width %d:\n%.2000s", width, dom)
	}
	var l pageLayout
	if err := json.Unmarshal([]byte(html.UnescapeString(text)), &l); err != nil {
		t.Fatalf("layout probe: %v: %s", err, text)
	}
	if l.InnerWidth != float64(width) {
		t.Fatalf("window width %v, want %d: the measurement would not be at that width", l.InnerWidth, width)
	}
	return l, consoleMessages(stderr)
}

// layoutReport is what the browser tests render: the fixture's match under
// an SPRT and gauntlet (an engine with an infinite rating, one without
// games), a seven-engine round robin with a long name and a wide one,
// and the suite run.
func layoutReport(t *testing.T) report.Report {
	r := fixtureReport(t, standings.Options{})
	rr := roundRobinReport(t, "round-robin-7", []string{"fhr", "nmr-r3-4", "adaptive-r2-3",
		"verified-r3:null-min-depth=3:futility=true:delta=true", "null-r3", "Stockfish 16 MWQ", "plain"}, 16)
	r.Tournaments = append(r.Tournaments, rr.Tournaments...)
	return r
}

// The HTML report renders in a real browser without console errors at a
// desktop and a phone width: nothing reaches past the window's right edge
// (wide tables scroll in their own box), the charts take the page's width,
// and the screenshots are real pictures.
func TestHTMLRendersInChromium(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()

	// First make sure a console error and an overflow would be seen at all.
	control := filepath.Join(dir, "control.html")
	if err := os.WriteFile(control, []byte(`<!DOCTYPE html><html><body><div style="width:900px">wide</div><script>console.error("control-error"); missingFunction();</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	l, msgs := measure(t, bin, control, 640)
	if len(msgs) == 0 {
		t.Fatal("console errors of a control page are not visible in Chromium's log; the check below would prove nothing")
	}
	if l.ScrollWidth <= 640 || len(l.Offenders) == 0 {
		t.Fatalf("a 900 px element at 640 px is not seen as an overflow (%+v); the check below would prove nothing", l)
	}

	r := layoutReport(t)
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, render(t, r, writeHTML), 0o644); err != nil {
		t.Fatal(err)
	}
	// A folder to keep the page and its screenshots in: $SELFPLAY_ARTIFACTS/report
	// (CI's artifacts, beside the live page's), or $SELFPLAY_REPORT_SCREENSHOTS.
	keep := os.Getenv("SELFPLAY_REPORT_SCREENSHOTS")
	if dir := os.Getenv("SELFPLAY_ARTIFACTS"); dir != "" {
		keep = filepath.Join(dir, "report")
	}
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(keep, "report.html"), render(t, r, writeHTML), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, width := range []int{1280, 640} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			shot := filepath.Join(dir, fmt.Sprintf("report-%d.png", width))
			_, stderr := runBrowser(t, bin, page, width, "--screenshot="+shot)
			if msgs := consoleMessages(stderr); len(msgs) > 0 {
				t.Errorf("console messages while rendering the report:\n%s", strings.Join(msgs, "\n"))
			}
			checkScreenshot(t, shot, width)
			if keep != "" {
				data, _ := os.ReadFile(shot)
				if err := os.WriteFile(filepath.Join(keep, filepath.Base(shot)), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}

			l, msgs := measure(t, bin, page, width)
			if len(msgs) > 0 {
				t.Errorf("console messages while loading the report:\n%s", strings.Join(msgs, "\n"))
			}
			if l.ScrollWidth > l.ClientWidth {
				t.Errorf("the page is %v px wide in a %v px window", l.ScrollWidth, l.ClientWidth)
			}
			for _, o := range l.Offenders {
				t.Errorf("reaches past the window's right edge (%v px): %s", l.ClientWidth, o)
			}
			for _, c := range l.ClippedTexts {
				t.Errorf("text cut off at its chart's edge: %s", c)
			}
			if got, want := len(l.Charts), chartsOf(r); got != want || want != 28 {
				t.Fatalf("%d charts laid out, want %d (28)", got, want)
			}
			for i, c := range l.Charts {
				// At 1280 px the rating charts are wide (up to 860 px) and
				// the others share a row two by two; at 640 px each takes
				// the width.
				lo := 0.8 * l.ClientWidth
				if width == 1280 {
					lo = 440
					if c.Wide {
						lo = 800
					}
				}
				if c.Width < lo || c.Width > l.ClientWidth || c.Height < 100 {
					t.Errorf("chart %d (wide %v) is %.0fx%.0f px in a %v px window, want %.0f..%v px wide", i, c.Wide, c.Width,
						c.Height, l.ClientWidth, lo, l.ClientWidth)
				}
			}
		})
	}

	dom, stderr := runBrowser(t, bin, page, 1280, "--dump-dom")
	if msgs := consoleMessages(stderr); len(msgs) > 0 {
		t.Errorf("console messages while loading the report:\n%s", strings.Join(msgs, "\n"))
	}
	if got, want := strings.Count(dom, "<svg"), chartsOf(r); got != want {
		t.Errorf("rendered DOM has %d <svg> elements, want %d", got, want)
	}
	if !strings.Contains(dom, "Tournament fhr-vs-plain") || !strings.Contains(dom, "Tournament round-robin-7") ||
		!strings.Contains(dom, "<polyline") {
		t.Error("rendered DOM lacks the report's sections or chart lines")
	}
}

// checkScreenshot checks that the PNG has the window's size and is not a
// blank page: it has many colors and a good share of non-white pixels.
func checkScreenshot(t *testing.T, path string, width int) {
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
	if b := img.Bounds(); b.Dx() != width || b.Dy() != windowHeight {
		t.Errorf("screenshot is %v, want %dx%d", b, width, windowHeight)
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
