package suite

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"selfplay/epd"
	"selfplay/internal/termtext"
)

// Malformed turns the malformed lines of an EPD file into Skipped entries.
func Malformed(bad []epd.LineError) []Skipped {
	var out []Skipped
	for _, b := range bad {
		out = append(out, Skipped{Line: b.Line, Reason: "malformed: " + b.Err.Error()})
	}
	return out
}

// Note explains what a budget of the run's kind means; it heads the text
// output and is the "note" of the JSON.
func (p Plan) Note() string {
	switch p.Kind {
	case Nodes:
		return "node budgets are hard limits: each search stops the moment it has entered N nodes " +
			"(quiescence nodes included), in the middle of an iteration if need be, and plays the best move of " +
			"the last completed iteration (or of the interrupted one if its first move or a confirmed improvement " +
			"was searched). The FHR paper's time units (2700 nodes each) instead drove a timing heuristic that " +
			"tries to stop between iterations, so its searches used somewhat more or fewer nodes than the budget."
	case Depth:
		return "fixed-depth searches: iterative deepening to the given depth; node counts are exact and repeatable."
	default:
		return "fixed time per search: results depend on the machine and its load, and are not repeatable."
	}
}

// Diffs says at which budgets the text output lists the positions one
// variant solved and another did not.
type Diffs int

// Diff settings.
const (
	DiffLargest Diffs = iota // at the largest budget
	DiffAll                  // at every budget
	DiffNone                 // not at all
)

// TextOptions choose the optional parts of the text output.
type TextOptions struct {
	Diffs     Diffs
	Positions bool // a table of per-position results
}

// WriteText writes the run as tables: one row per variant and budget, the
// solved counts per budget (FHR Table 1 shape) when there are several
// budgets, nodes per depth with ratios (FHR Figure 3 shape) for depth runs,
// and, with two or more variants, the positions one variant solved and
// another did not, pair by pair.
func (r *Results) WriteText(w io.Writer, opt TextOptions) error {
	var buf bytes.Buffer
	r.textHeader(&buf)
	rows := r.Rows()
	r.textRows(&buf, rows)
	if len(r.Plan.Values) > 1 {
		r.textSolvedMatrix(&buf, rows)
	}
	if r.Plan.Kind == Depth {
		r.textDepthNodes(&buf, rows)
	}
	if len(r.Variants) > 1 && r.anyJudged() && opt.Diffs != DiffNone {
		last := len(r.Plan.Values) - 1
		first := last
		if opt.Diffs == DiffAll {
			first = 0
		}
		fmt.Fprintln(&buf)
		for b := first; b <= last; b++ {
			r.textDiffs(&buf, b)
		}
	}
	if opt.Positions {
		r.textPositions(&buf)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func (r *Results) textHeader(w io.Writer) {
	fmt.Fprintf(w, "suite %s: %d positions", termtext.Escape(r.Suite), len(r.Positions))
	if n := len(r.Skipped); n > 0 {
		fmt.Fprintf(w, " (%d lines skipped)", n)
	}
	fmt.Fprintf(w, ", variants %s, %s %s\n", strings.Join(r.Variants, " "), r.Plan.Kind, r.budgetList())
	fmt.Fprintln(w, wrap(r.Plan.Note(), 100))
	fmt.Fprintf(w, "each search: one thread, empty %d MiB transposition table; %d workers; wall time %s\n",
		r.HashMiB, r.Concurrency, r.Wall.Round(time.Millisecond))
	if !r.Complete {
		fmt.Fprintf(w, "INTERRUPTED: %d of %d searches done; rows marked * are partial\n", r.Done(), len(r.Outcomes))
	}
	fmt.Fprintln(w)
}

func (r *Results) budgetList() string {
	var s []string
	for _, v := range r.Plan.Values {
		s = append(s, r.Plan.Format(v))
	}
	out := strings.Join(s, ",")
	if r.Plan.Spec != "" && r.Plan.Spec != out {
		out += " (" + r.Plan.Spec + ")"
	}
	return out
}

func (r *Results) anyJudged() bool {
	for _, p := range r.Positions {
		if Judged(p) {
			return true
		}
	}
	return false
}

func (r *Results) textRows(w io.Writer, rows []Row) {
	showJudged := false
	for _, row := range rows {
		if row.Judged != row.Positions {
			showJudged = true
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "variant\t%s\tpositions\t", r.Plan.Kind)
	if showJudged {
		fmt.Fprint(tw, "judged\t")
	}
	fmt.Fprint(tw, "solved\ttotal nodes\tmain nodes\tq nodes\t")
	if r.Plan.Kind != Depth {
		fmt.Fprint(tw, "mean depth\t")
	}
	fmt.Fprintln(tw, "time_ms\tnps\t")
	for _, row := range rows {
		mark := ""
		if !row.Complete {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d%s\t", row.Variant, r.Plan.Format(row.Budget), row.Positions, mark)
		if showJudged {
			fmt.Fprintf(tw, "%d\t", row.Judged)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t", solvedCell(row), row.Nodes, row.MainNodes, row.QNodes)
		if r.Plan.Kind != Depth {
			fmt.Fprintf(tw, "%.2f\t", row.MeanDepth())
		}
		fmt.Fprintf(tw, "%d\t%d\t\n", row.Time.Milliseconds(), nps(row.Nodes, row.Time))
	}
	tw.Flush()
}

func solvedCell(row Row) string {
	if row.Judged == 0 {
		return "-"
	}
	return strconv.Itoa(row.Solved)
}

// textSolvedMatrix: variants down, budgets across (FHR Table 1).
func (r *Results) textSolvedMatrix(w io.Writer, rows []Row) {
	if !r.anyJudged() {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "solved / %s\t", r.Plan.Kind)
	for _, v := range r.Plan.Values {
		fmt.Fprintf(tw, "%s\t", r.Plan.Format(v))
	}
	fmt.Fprintln(tw)
	nb := len(r.Plan.Values)
	for v, name := range r.Variants {
		fmt.Fprintf(tw, "%s\t", name)
		for b := range nb {
			row := rows[v*nb+b]
			mark := ""
			if !row.Complete {
				mark = "*"
			}
			fmt.Fprintf(tw, "%s%s\t", solvedCell(row), mark)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// textDepthNodes: depths down, each variant's total nodes across, then the
// first variant's total divided by each other's (FHR Figure 3).
func (r *Results) textDepthNodes(w io.Writer, rows []Row) {
	fmt.Fprintln(w)
	nb := len(r.Plan.Values)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "total nodes / depth\t")
	for _, name := range r.Variants {
		fmt.Fprintf(tw, "%s\t", name)
	}
	for _, name := range r.Variants[1:] {
		fmt.Fprintf(tw, "%s/%s\t", r.Variants[0], name)
	}
	fmt.Fprintln(tw)
	for b, d := range r.Plan.Values {
		fmt.Fprintf(tw, "%d\t", d)
		for v := range r.Variants {
			fmt.Fprintf(tw, "%d\t", rows[v*nb+b].Nodes)
		}
		base := rows[b].Nodes
		for v := 1; v < len(r.Variants); v++ {
			if n := rows[v*nb+b].Nodes; n > 0 {
				fmt.Fprintf(tw, "%.2f\t", float64(base)/float64(n))
			} else {
				fmt.Fprint(tw, "-\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// budgetText names budget b in prose: "10800 nodes", "depth 6", "5s per
// search".
func (r *Results) budgetText(b int) string {
	switch v := r.Plan.Format(r.Plan.Values[b]); r.Plan.Kind {
	case Nodes:
		return v + " nodes"
	case Depth:
		return "depth " + v
	default:
		return v + " per search"
	}
}

func (r *Results) textDiffs(w io.Writer, b int) {
	budget := r.budgetText(b)
	for a := range r.Variants {
		for c := a + 1; c < len(r.Variants); c++ {
			onlyA, onlyC := r.Diff(b, a, c)
			fmt.Fprintf(w, "at %s, %s solved and %s did not (%d): %s\n", budget, r.Variants[a], r.Variants[c], len(onlyA), idList(onlyA))
			fmt.Fprintf(w, "at %s, %s solved and %s did not (%d): %s\n", budget, r.Variants[c], r.Variants[a], len(onlyC), idList(onlyC))
		}
	}
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "-"
	}
	escaped := make([]string, len(ids))
	for i, id := range ids {
		escaped[i] = termtext.Escape(id) // from the EPD file
	}
	return strings.Join(escaped, " ")
}

// textPositions: one line per position; per variant the smallest budget
// that solved it ("-": none, "n/a": no bm or am), and the final move at the
// largest budget with its first_depth ("ok" when it solves the position).
func (r *Results) textPositions(w io.Writer) {
	fmt.Fprintln(w)
	last := len(r.Plan.Values) - 1
	fmt.Fprintf(w, "per variant: the smallest %s that solved the position (-: none, n/a: no bm or am), and the final move\n", r.Plan.Kind)
	fmt.Fprintf(w, "at %s as move@first_depth, first_depth being the first iteration that chose it (later ones may have left it\n"+
		"and come back: not \"solved from that depth on\"); ok: it solves the position\n", r.budgetText(last))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "id\tbm\tam\t")
	for _, name := range r.Variants {
		fmt.Fprintf(tw, "%s\tmove@first_depth\t", name)
	}
	fmt.Fprintln(tw)
	for p, rec := range r.Positions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t", termtext.Escape(rec.ID), orDash(strings.Join(rec.BestSAN, " ")), orDash(strings.Join(rec.AvoidSAN, " ")))
		for v := range r.Variants {
			first := "-"
			if !Judged(rec) {
				first = "n/a"
			} else if b, ok := r.FirstSolved(v, p); ok {
				first = r.Plan.Format(b)
			}
			o := r.At(last, v, p)
			move := "-"
			if o.Done {
				move = fmt.Sprintf("%s@%d", o.Move, o.FirstDepth)
				if o.Solved {
					move += " ok"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t", first, move)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func wrap(s string, width int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return strings.Join(append(lines, line), "\n")
}

func nps(nodes int64, d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(float64(nodes) / d.Seconds())
}

func millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// field is one named value of a JSON object or CSV record, in order.
type field struct {
	name  string
	value any
}

// object is a JSON object with its keys in a fixed order.
type object []field

func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(f.name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func (r *Results) rowFields(row Row) object {
	return object{
		{"variant", row.Variant},
		{string(r.Plan.Kind), row.Budget},
		{"positions", row.Positions},
		{"judged", row.Judged},
		{"solved", row.Solved},
		{"nodes_searched", row.Nodes},
		{"main_nodes", row.MainNodes},
		{"q_nodes", row.QNodes},
		{"mean_depth", math.Round(row.MeanDepth()*100) / 100},
		{"time_ms", millis(row.Time)},
		{"nps", nps(row.Nodes, row.Time)},
		{"complete", row.Complete},
	}
}

// positionFields is the record of one search: variant at budget on rec
// with outcome o; firstSolved is the smallest budget at which the variant
// solved rec (nil if none).
func (r *Results) positionFields(variant string, budget int64, rec epd.Record, o Outcome, firstSolved any) object {
	var mate any
	if o.Score.IsMate() {
		mate = o.Score.MateMoves()
	}
	f := object{
		{"variant", variant},
		{string(r.Plan.Kind), budget},
		{"id", rec.ID},
		{"line", rec.Line},
		{"judged", o.Judged},
		{"solved", o.Solved},
		{"move", o.Move},
		{"bm", strs(rec.Best)},
		{"am", strs(rec.Avoid)},
		{"bm_san", strs(rec.BestSAN)},
		{"am_san", strs(rec.AvoidSAN)},
		{"first_depth", o.FirstDepth},
		{"first_solved", firstSolved},
	}
	if r.Plan.Kind != Depth { // in depth runs the depth reached is the budget
		f = append(f, field{"depth", o.Depth})
	}
	return append(f, object{
		{"score", int(o.Score)},
		{"mate", mate},
		{"nodes_searched", o.Nodes},
		{"main_nodes", o.MainNodes},
		{"q_nodes", o.QNodes},
		{"time_ms", millis(o.Time)},
	}...)
}

func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// positionRecords are the records of the finished searches: variant by
// variant, budgets ascending, positions in file order.
func (r *Results) positionRecords() []object {
	recs := []object{}
	for v, variant := range r.Variants {
		for b, budget := range r.Plan.Values {
			for p, rec := range r.Positions {
				o := r.At(b, v, p)
				if !o.Done {
					continue
				}
				var firstSolved any
				if fs, ok := r.FirstSolved(v, p); ok {
					firstSolved = fs
				}
				recs = append(recs, r.positionFields(variant, budget, rec, *o, firstSolved))
			}
		}
	}
	return recs
}

// rowRecords are the records of the rows.
func (r *Results) rowRecords() []object {
	recs := []object{}
	for _, row := range r.Rows() {
		recs = append(recs, r.rowFields(row))
	}
	return recs
}

// WriteJSON writes the run as one JSON object; see the package doc.
func (r *Results) WriteJSON(w io.Writer) error {
	rows := r.rowRecords()
	positions := r.positionRecords()
	skipped := []object{}
	for _, s := range r.Skipped {
		skipped = append(skipped, object{{"line", s.Line}, {"id", s.ID}, {"reason", s.Reason}})
	}
	doc := object{
		{"suite", r.Suite},
		{"limit", string(r.Plan.Kind)},
		{"budgets", r.Plan.Values},
		{"variants", r.Variants},
		{"position_count", len(r.Positions)},
		{"skipped", skipped},
		{"hash_mib", r.HashMiB},
		{"concurrency", r.Concurrency},
		{"complete", r.Complete},
		{"wall_ms", millis(r.Wall)},
		{"note", r.Plan.Note()},
		{"rows", rows},
		{"positions", positions},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteCSV writes the rows (a header line, then one line per variant and
// budget) or, with positions, the per-position results instead; the columns
// are the JSON keys.
func (r *Results) WriteCSV(w io.Writer, positions bool) error {
	// The header is the keys of any record (an empty run has none).
	recs, header := r.rowRecords(), r.rowFields(Row{})
	if positions {
		recs, header = r.positionRecords(), r.positionFields("", 0, epd.Record{}, Outcome{}, nil)
	}
	cw := csv.NewWriter(w)
	names := make([]string, len(header))
	for i, f := range header {
		names[i] = f.name
	}
	if err := cw.Write(names); err != nil {
		return err
	}
	for _, rec := range recs {
		vals := make([]string, len(rec))
		for i, f := range rec {
			vals[i] = csvValue(f.value)
		}
		if err := cw.Write(vals); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []string:
		return strings.Join(x, " ")
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}
