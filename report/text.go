package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"selfplay/internal/termtext"
)

// WriteText writes the report as aligned plain text, one section per
// tournament and suite run. Section titles read "== Tournament NAME ==",
// headings "-- Heading --", facts "key  value", and the wording is stable
// so scripts can grep it. Every title, heading, fact and cell is printed
// through termtext.Escape: names, ids and reasons come from files, engines
// and databases, and must not act on the terminal that shows the report.
func WriteText(w io.Writer, r Report) error {
	bw := bufio.NewWriter(w)
	d := layout(r)
	if len(r.Tournaments) == 0 {
		fmt.Fprintln(bw, "no tournaments stored")
	}
	for i, s := range d.sections {
		if i > 0 || len(r.Tournaments) == 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "== %s ==\n", termtext.Escape(s.title))
		for _, p := range s.parts {
			writeTextPart(bw, p)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing text report: %w", err)
	}
	return nil
}

func writeTextPart(w io.Writer, p part) {
	fmt.Fprintln(w)
	if p.heading != "" {
		fmt.Fprintf(w, "-- %s --\n", termtext.Escape(p.heading))
	}
	width := 0
	for _, f := range p.facts {
		width = max(width, utf8.RuneCountInString(termtext.Escape(f.key)))
	}
	for _, f := range p.facts {
		fmt.Fprintf(w, "%s  %s\n", pad(termtext.Escape(f.key), width, false), termtext.Escape(f.value))
	}
	if p.table != nil {
		writeTextTable(w, p.table)
	}
}

// writeTextTable aligns the cells of every row, the header and the total
// row, and leaves no trailing spaces.
func writeTextTable(w io.Writer, t *table) {
	rows := append([][]string{t.head}, t.rows...)
	if t.total != nil {
		rows = append(rows, t.total)
	}
	for i, row := range rows {
		escaped := make([]string, len(row))
		for j, cell := range row {
			escaped[j] = termtext.Escape(cell)
		}
		rows[i] = escaped
	}
	widths := make([]int, len(t.head))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, cell := range row {
			cells[i] = pad(cell, widths[i], i < len(t.numeric) && t.numeric[i])
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(cells, "  "), " "))
	}
}

// pad widens s to width runes, on the left when right-aligned.
func pad(s string, width int, right bool) string {
	n := width - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}
