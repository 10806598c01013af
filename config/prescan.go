package config

import (
	"bytes"
	"fmt"

	"selfplay/internal/inputfile"
)

// Bounds of a config file, checked before the TOML decoder sees it: the
// decoder takes time and memory quadratic in the nesting of arrays, inline
// tables and dotted keys (5,000 nested inline tables, 20 KB, took 4 s and
// 1.1 GB; a 50,000-part dotted key, 100 KB, more than 6 GB), and recurses
// once per level (3,000,000 nested arrays overflowed its stack). A real
// config is a few KB and nests 3 levels.
const (
	// maxSize is the largest config file read, in bytes.
	maxSize = 1 << 20
	// maxNesting bounds both the nesting of arrays and inline tables and
	// the parts of one dotted key ("a.b.c" has 3).
	maxNesting = 32
	// maxEngines is the most engines a config may define (a round robin
	// of them plays maxEngines*(maxEngines-1)/2 pairings), and so the most
	// a tournament may list.
	maxEngines = 1000
	// maxErrors is how many problems are collected before the check
	// stops: past it a hostile file could make millions of messages.
	maxErrors = 100
)

// prescan checks the size and nesting of a config's text without parsing
// it: one pass over the bytes that knows TOML's comments and four kinds of
// strings, so that brackets and dots inside them do not count. It returns
// the problem, or nil.
func prescan(data []byte, path string) *Error {
	refuse := func(line int, format string, args ...any) *Error {
		return &Error{File: path, Line: line, Msg: "refused before parsing: " + fmt.Sprintf(format, args...)}
	}
	if len(data) > maxSize {
		return tooLarge(path)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 { // strings included
		return refuse(1+bytes.Count(data[:i], []byte("\n")), "a NUL byte: binary data, not TOML text")
	}
	line := 1
	depth := 0 // open brackets and braces
	parts := 1 // parts of the dotted key (or number) being read
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line++
			parts = 1
		case c == '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			// A string (a value or a quoted key part) does not end a dotted key.
			end, lines := skipString(data, i)
			i, line = end, line+lines
		case c == '[' || c == '{':
			depth++
			if depth > maxNesting {
				return refuse(line, "arrays and inline tables nested deeper than %d levels", maxNesting)
			}
			parts = 1
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			parts = 1
		case c == '.':
			parts++
			if parts > maxNesting {
				return refuse(line, "a dotted key of more than %d parts", maxNesting)
			}
		case c == ' ' || c == '\t' || c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			// Inside a key or a value: a dotted key goes on.
		default: // '=', ',', ':', '+', ...: a dotted key ends
			parts = 1
		}
	}
	return nil
}

// tooLarge is the problem of a file larger than maxSize.
func tooLarge(path string) *Error {
	return &Error{File: path, Msg: fmt.Sprintf("refused before parsing: larger than %s, the limit for a config file", inputfile.Size(maxSize))}
}

// skipString returns the index of the last byte of the string that starts
// at data[i] (a quote), and how many newlines it holds. An unterminated
// string ends at the end of its line (single-line) or of the data; the
// decoder reports it.
func skipString(data []byte, i int) (end, lines int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	if !multi {
		for j := i + 1; j < len(data); j++ {
			switch data[j] {
			case '\\':
				if q == '"' && j+1 < len(data) && data[j+1] != '\n' {
					j++
				}
			case '\n':
				return j - 1, 0 // the newline is the caller's
			case q:
				return j, 0
			}
		}
		return len(data) - 1, 0
	}
	for j := i + 3; j < len(data); j++ {
		switch data[j] {
		case '\\':
			if q == '"' && j+1 < len(data) {
				if data[j+1] == '\n' {
					lines++
				}
				j++
			}
		case '\n':
			lines++
		case q:
			if j+2 < len(data) && data[j+1] == q && data[j+2] == q {
				// Up to two more quotes before the delimiter are content.
				k := j + 3
				for n := 0; n < 2 && k < len(data) && data[k] == q; n++ {
					k++
				}
				return k - 1, lines
			}
		}
	}
	return len(data) - 1, lines
}
